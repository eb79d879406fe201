// The fixture of tests that run on a DeviceSet: the test's device opened several times, each a
// Context of its own with validation where the environment asks, checked for validation messages
// after every test as GpuTest checks the shared context.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "support/gpu_test.hpp"
#include "vkc/device_set.hpp"

namespace vkc::test {

/// "I,I,...,I": the test's device `copies` times, as choose_devices reads it.
std::string repeated_device(std::size_t copies);

/// Options that keep a DeviceSet's contexts quiet on stderr; a device memory cap when not 0.
ContextOptions quiet_options(std::uint64_t memory_limit = 0);

class DeviceSetTest : public GpuTest {
 protected:
  /// The test's device opened `copies` times (1 to 4), once per program.
  static DeviceSet& devices(std::size_t copies);
  /// Checks `set`'s validation messages after the test too (for a set the test opened itself,
  /// which must outlive the test's end or be checked with forget() before it goes).
  static void watch(DeviceSet& set);
  /// Checks `set` now and stops watching it.
  static void forget(DeviceSet& set);
  void TearDown() override;

 private:
  static std::vector<DeviceSet*>& watched();
};

}  // namespace vkc::test
