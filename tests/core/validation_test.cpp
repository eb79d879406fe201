// The check that every GPU test leans on: a real validation message fails the test that caused it.
#include <gtest/gtest-spi.h>

#include <vector>

#include "core/kernels.hpp"
#include "core/loader.hpp"
#include "support/gpu_test.hpp"

namespace vkc::test {
namespace {

// The affine kernel writes dst, then a fill writes it again: through the recorder, which places
// the barrier between them, or straight into the command buffer, where nothing orders the two.
class ValidationTest : public GpuTest {
 protected:
  std::vector<std::uint32_t> write_twice(bool through_recorder) {
    const std::vector<std::uint32_t> input(1024, 7);
    Buffer src = ctx().create_buffer(input.size() * 4);
    Buffer dst = ctx().create_buffer(input.size() * 4);
    ctx().upload(src, std::span<const std::uint32_t>(input));
    ctx().run([&](Recorder& r) {
      record_affine(ctx(), r, src, dst, {static_cast<std::uint32_t>(input.size()), 3, 1});
      if (through_recorder) {
        r.fill_buffer(dst.handle(), 0, VK_WHOLE_SIZE, 0);
      } else {
        vk::vkCmdFillBuffer(r.commands(), dst.handle(), 0, VK_WHOLE_SIZE, 0);
      }
    });
    std::vector<std::uint32_t> out(input.size(), 1);
    ctx().download(dst, std::span<std::uint32_t>(out));
    return out;
  }
};

// Synchronization validation must report the write-after-write hazard, and the fixture's check
// must turn the report into a test failure.
TEST_F(ValidationTest, AMissingBarrierFailsTheTest) {
  write_twice(false);
  EXPECT_NONFATAL_FAILURE(expect_no_validation_messages(), "SYNC-HAZARD-WRITE-AFTER-WRITE");
}

TEST_F(ValidationTest, TheSameWorkWithItsBarrierIsClean) {
  EXPECT_EQ(write_twice(true), std::vector<std::uint32_t>(1024, 0));
  expect_no_validation_messages();
}

// Listing the devices makes an instance without the validation layer; the validating Context
// made before it must still work and destroy its messenger (the function pointers are shared).
TEST_F(ValidationTest, ListingDevicesLeavesAValidatingContextWhole) {
  ContextOptions options;
  options.validation = true;
  options.pipeline_cache_dir = "off";
  options.quiet = true;
  {
    Context validating(options);
    ASSERT_FALSE(enumerate_devices().empty());
    Buffer buffer = validating.create_buffer(64);
    const std::vector<std::uint32_t> data(16, 5);
    validating.upload(buffer, std::span<const std::uint32_t>(data));
    std::vector<std::uint32_t> back(16, 0);
    validating.download(buffer, std::span<std::uint32_t>(back));
    EXPECT_EQ(back, data);
    EXPECT_TRUE(validating.take_validation_messages().empty());
  }  // destroys the messenger through vkDestroyDebugUtilsMessengerEXT
  expect_no_validation_messages();
}

}  // namespace
}  // namespace vkc::test
