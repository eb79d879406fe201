// Device choice (vkc::choose_device): the rules ContextOptions::device states, on made-up lists
// of devices, so that every rule is exercised whatever devices this machine has.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "vkc/context.hpp"

namespace vkc::test {
namespace {

using ::testing::HasSubstr;

std::vector<DeviceInfo> devices_of(std::initializer_list<std::pair<const char*, DeviceType>> list) {
  std::vector<DeviceInfo> out;
  for (const auto& [name, type] : list) {
    DeviceInfo d;
    d.index = static_cast<std::uint32_t>(out.size());
    d.name = name;
    d.type = type;
    out.push_back(d);
  }
  return out;
}

// The machine's list: a CPU device first, then the GPUs in the loader's order.
const std::vector<DeviceInfo> kMachine = devices_of({{"llvmpipe (LLVM 15.0.6, 256 bits)", DeviceType::cpu},
                                                     {"Intel(R) UHD Graphics 770", DeviceType::integrated_gpu},
                                                     {"Virtio-GPU Venus", DeviceType::virtual_gpu},
                                                     {"NVIDIA H100 80GB HBM3", DeviceType::discrete_gpu},
                                                     {"NVIDIA H200", DeviceType::discrete_gpu}});

// VKC_DEVICE set (or unset) for one test, restored after it.
class DeviceVariable {
 public:
  explicit DeviceVariable(const char* value) {
    if (const char* old = std::getenv("VKC_DEVICE")) old_ = old;
    if (value) setenv("VKC_DEVICE", value, 1);
    else unsetenv("VKC_DEVICE");
  }
  ~DeviceVariable() {
    if (old_) setenv("VKC_DEVICE", old_->c_str(), 1);
    else unsetenv("VKC_DEVICE");
  }

 private:
  std::optional<std::string> old_;
};

std::string error_of(const std::vector<DeviceInfo>& devices, const char* wanted) {
  try {
    choose_device(devices, wanted);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(ChooseDevice, WithoutAWishPrefersTheFirstDiscreteGpu) {
  DeviceVariable unset(nullptr);
  EXPECT_EQ(choose_device(kMachine), 3u);
}

TEST(ChooseDevice, WithoutADiscreteGpuPrefersIntegratedThenVirtualThenOtherThenCpu) {
  DeviceVariable unset(nullptr);
  EXPECT_EQ(choose_device(devices_of({{"cpu", DeviceType::cpu},
                                      {"virtual", DeviceType::virtual_gpu},
                                      {"integrated", DeviceType::integrated_gpu}})),
            2u);
  EXPECT_EQ(choose_device(devices_of({{"cpu", DeviceType::cpu}, {"virtual", DeviceType::virtual_gpu}})), 1u);
  EXPECT_EQ(choose_device(devices_of({{"cpu", DeviceType::cpu}, {"other", DeviceType::other}})), 1u);
  EXPECT_EQ(choose_device(devices_of({{"cpu", DeviceType::cpu}})), 0u);
}

TEST(ChooseDevice, AnIndexPicksThatDevice) {
  EXPECT_EQ(choose_device(kMachine, "0"), 0u);
  EXPECT_EQ(choose_device(kMachine, "4"), 4u);
}

TEST(ChooseDevice, AnIndexPastTheListIsAnErrorThatCountsTheDevices) {
  EXPECT_THAT(error_of(kMachine, "5"), HasSubstr("no Vulkan device with index 5 (there are 5"));
}

TEST(ChooseDevice, TextPicksTheFirstDeviceWhoseNameContainsItIgnoringCase) {
  EXPECT_EQ(choose_device(kMachine, "nvidia"), 3u);
  EXPECT_EQ(choose_device(kMachine, "h200"), 4u);
  EXPECT_EQ(choose_device(kMachine, "LLVMPIPE"), 0u);
}

TEST(ChooseDevice, TextThatNoNameContainsIsAnError) {
  EXPECT_THAT(error_of(kMachine, "radeon"), HasSubstr("no Vulkan device whose name contains 'radeon'"));
}

TEST(ChooseDevice, AnEmptyListIsAnError) {
  DeviceVariable unset(nullptr);
  EXPECT_THAT(error_of({}, ""), HasSubstr("no Vulkan device found"));
}

TEST(ChooseDevice, WithoutAWishFollowsTheDeviceVariable) {
  DeviceVariable chosen("venus");
  EXPECT_EQ(choose_device(kMachine), 2u);
  EXPECT_EQ(choose_device(kMachine, "1"), 1u) << "a wish outranks the variable";
}

TEST(ChooseDevice, AnEmptyDeviceVariableMeansNoWish) {
  DeviceVariable empty("");
  EXPECT_EQ(choose_device(kMachine), 3u);
}

}  // namespace
}  // namespace vkc::test
