#include "vkc/device_set.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/device_info.hpp"

namespace vkc {
namespace {

std::vector<std::uint32_t> every_device_of_the_preferred_kind(const std::vector<DeviceInfo>& devices) {
  if (devices.empty()) throw Error("no Vulkan device found");
  int best = detail::device_type_preference(devices.front().type);
  for (const DeviceInfo& d : devices) best = std::min(best, detail::device_type_preference(d.type));
  std::vector<std::uint32_t> chosen;
  for (std::uint32_t i = 0; i < devices.size(); ++i) {
    if (detail::device_type_preference(devices[i].type) == best) chosen.push_back(i);
  }
  return chosen;
}

}  // namespace

std::vector<std::uint32_t> choose_devices(const std::vector<DeviceInfo>& devices, std::string_view wanted) {
  std::string list(wanted);
  if (list.empty()) {
    if (const char* env = std::getenv("VKC_DEVICES")) list = env;
  }
  if (list.empty()) return {choose_device(devices, {})};
  if (list == "all") return every_device_of_the_preferred_kind(devices);
  std::vector<std::uint32_t> chosen;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string item = list.substr(start, comma - start);
    if (item.empty()) throw Error("device list '" + list + "' has an empty item");
    chosen.push_back(choose_device(devices, item));
    start = comma + 1;
  }
  return chosen;
}

DeviceSet::DeviceSet(std::string_view devices, const ContextOptions& options) {
  for (std::uint32_t index : choose_devices(enumerate_devices(), devices)) {
    ContextOptions own = options;
    own.device = std::to_string(index);
    contexts_.push_back(std::make_unique<Context>(own));
  }
}

DeviceSet::DeviceSet(DeviceSet&&) noexcept = default;
DeviceSet& DeviceSet::operator=(DeviceSet&&) noexcept = default;
DeviceSet::~DeviceSet() = default;

}  // namespace vkc
