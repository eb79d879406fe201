// The shared Vulkan context of a GPU test program, and the check that keeps tests honest: any
// validation message during a test fails it.
#pragma once

#include <gtest/gtest.h>

#include <random>

#include "vkc/context.hpp"

namespace vkc::test {

/// The process-wide context, created on first use with validation as the environment asks
/// (CTest sets VKC_VALIDATION=1); refuses to start without validation unless
/// VKC_TEST_UNCHECKED=1 says so. Sets VKC_PIPELINE_CACHE=off unless it is set.
Context& context();

/// Sets the variables CTest passes in VKC_TEST_ENV (the subgroup size, validation) in this process:
/// what context() does first, for tests that create their own Vulkan objects without it.
void apply_test_environment();

/// Adds a test failure for every message the validation layer emitted since the last check.
void expect_no_validation_messages();

/// Base fixture for GPU tests: fails the test when the validation layer said anything, and
/// checks that lavapipe gave the subgroup size CTest asked for.
class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  Context& ctx() { return context(); }
};

/// A generator seeded from the test's name, so every test draws its own reproducible data.
std::mt19937_64 rng_for_current_test();

/// The caller's side of record_sort's barrier contract (include/vkc/sort.hpp) after a recorded
/// sort: its shader and transfer writes before a transfer reads the results (the download).
void record_barrier_before_download(VkCommandBuffer commands);

}  // namespace vkc::test
