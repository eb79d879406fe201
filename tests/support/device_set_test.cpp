#include "support/device_set_test.hpp"

#include <algorithm>
#include <memory>

namespace vkc::test {
namespace {

void expect_no_messages_from(DeviceSet& set) {
  for (std::size_t d = 0; d < set.size(); ++d) {
    for (const std::string& m : set[d].take_validation_messages()) ADD_FAILURE() << "validation layer: " << m;
  }
}

}  // namespace

std::string repeated_device(std::size_t copies) {
  const std::string index = std::to_string(context().info().index);
  std::string list = index;
  for (std::size_t i = 1; i < copies; ++i) list += "," + index;
  return list;
}

ContextOptions quiet_options(std::uint64_t memory_limit) {
  ContextOptions options;
  options.quiet = true;
  options.device_memory_limit = memory_limit;
  return options;
}

DeviceSet& DeviceSetTest::devices(std::size_t copies) {
  static std::vector<std::unique_ptr<DeviceSet>> sets(5);
  if (!sets.at(copies)) sets[copies] = std::make_unique<DeviceSet>(repeated_device(copies), quiet_options());
  watch(*sets[copies]);
  return *sets[copies];
}

void DeviceSetTest::watch(DeviceSet& set) { watched().push_back(&set); }

void DeviceSetTest::forget(DeviceSet& set) {
  expect_no_messages_from(set);
  std::erase(watched(), &set);
}

std::vector<DeviceSet*>& DeviceSetTest::watched() {
  static std::vector<DeviceSet*> list;
  return list;
}

void DeviceSetTest::TearDown() {
  for (DeviceSet* set : watched()) expect_no_messages_from(*set);
  watched().clear();
  GpuTest::TearDown();
}

}  // namespace vkc::test
