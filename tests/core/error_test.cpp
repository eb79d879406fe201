// Errors: say what failed and why, with the limit or the device named.
#include <gmock/gmock.h>

#include "support/gpu_test.hpp"

namespace vkc::test {
namespace {

using ::testing::HasSubstr;

class ErrorTest : public GpuTest {};

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST_F(ErrorTest, BadDeviceIndexNamesTheIndex) {
  EXPECT_THAT(message_of([] { Context c(ContextOptions{.device = "99", .quiet = true}); }),
              HasSubstr("no Vulkan device with index 99"));
}

TEST_F(ErrorTest, UnknownDeviceNameIsRefused) {
  EXPECT_THAT(message_of([] { Context c(ContextOptions{.device = "no-such-gpu-xyz", .quiet = true}); }),
              HasSubstr("no-such-gpu-xyz"));
}

TEST_F(ErrorTest, BufferOverTheBindingLimitNamesTheLimit) {
  const std::uint64_t too_big = ctx().info().max_storage_buffer_range + 1;
  const std::string message = message_of([&] { ctx().create_buffer(too_big); });
  EXPECT_THAT(message, HasSubstr("maxStorageBufferRange"));
  EXPECT_THAT(message, HasSubstr(ctx().info().name));
}

TEST_F(ErrorTest, DeviceByNameSubstringFindsIt) {
  const std::string name = ctx().info().name;
  Context c(ContextOptions{.device = name.substr(0, 4), .quiet = true});
  EXPECT_EQ(c.info().name.substr(0, 4), name.substr(0, 4));
}

}  // namespace
}  // namespace vkc::test
