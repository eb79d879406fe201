// Devices: the cached list, the choice, and their C form.
#include "capi/devices.hpp"

#include "vkc/device_set.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <new>
#include <optional>

#include "capi/errors.hpp"

namespace vkc::capi {

const std::vector<DeviceInfo>& devices() {
  static std::mutex mutex;
  static std::optional<std::vector<DeviceInfo>> cached;  // only a success is kept: a failure is retried
  std::lock_guard guard(mutex);
  if (!cached) {
    try {
      cached = enumerate_devices();
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception& e) {
      fail(VKC_ERROR_NO_DEVICE, e.what());
    }
  }
  return *cached;
}

std::uint32_t chosen_device(const std::string& wanted) {
  const std::vector<DeviceInfo>& list = devices();
  try {
    return choose_device(list, wanted);
  } catch (const Error& e) {
    fail(VKC_ERROR_NO_DEVICE, e.what());
  }
}

std::vector<std::uint32_t> chosen_devices(const std::string& wanted) {
  const std::vector<DeviceInfo>& list = devices();
  try {
    return choose_devices(list, wanted);
  } catch (const Error& e) {
    fail(VKC_ERROR_NO_DEVICE, e.what());
  }
}

namespace {

template <std::size_t N>
void copy_text(char (&to)[N], const std::string& from) {
  const std::size_t n = std::min(from.size(), N - 1);
  std::memcpy(to, from.data(), n);
  to[n] = '\0';
}

vkc_device_type c_type(DeviceType type) {
  switch (type) {
    case DeviceType::other: return VKC_DEVICE_OTHER;
    case DeviceType::integrated_gpu: return VKC_DEVICE_INTEGRATED_GPU;
    case DeviceType::discrete_gpu: return VKC_DEVICE_DISCRETE_GPU;
    case DeviceType::virtual_gpu: return VKC_DEVICE_VIRTUAL_GPU;
    case DeviceType::cpu: return VKC_DEVICE_CPU;
  }
  return VKC_DEVICE_OTHER;
}

vkc_device_pci c_pci(const DeviceInfo::Pci& pci) {
  vkc_device_pci c{};
  c.known = pci.known;
  c.domain = pci.domain;
  c.bus = pci.bus;
  c.device = pci.device;
  c.function = pci.function;
  copy_text(c.address, pci.address());
  c.numa_node = pci.numa_node;
  copy_text(c.link_speed, pci.link_speed);
  c.link_width = pci.link_width;
  copy_text(c.max_link_speed, pci.max_link_speed);
  c.max_link_width = pci.max_link_width;
  return c;
}

const DeviceInfo& device_at(std::uint32_t index) {
  const std::vector<DeviceInfo>& list = devices();
  if (index >= list.size()) {
    invalid("no device with index " + std::to_string(index) + " (there are " + std::to_string(list.size()) + ")");
  }
  return list[index];
}

}  // namespace

void write_device_info(const DeviceInfo& info, vkc_device_info* out, std::size_t out_size) {
  require_pointer(out, "info");
  require(out_size > 0, "info_size is 0 (pass sizeof(vkc_device_info))");
  vkc_device_info c{};
  c.index = info.index;
  copy_text(c.name, info.name);
  copy_text(c.driver_name, info.driver_name);
  copy_text(c.driver_info, info.driver_info);
  c.api_version = info.api_version;
  c.vendor_id = info.vendor_id;
  c.device_id = info.device_id;
  c.type = c_type(info.type);
  c.subgroup_size = info.subgroup_size;
  c.shader_int64 = info.shader_int64;
  c.shader_float64 = info.shader_float64;
  c.device_local_bytes = info.device_local_bytes();
  c.max_storage_buffer_range = info.max_storage_buffer_range;
  c.max_allocation_bytes = info.max_allocation_bytes;
  // An older caller's struct is a prefix of this one; a newer caller's tail stays as it was.
  std::memcpy(out, &c, std::min(out_size, sizeof c));
}

}  // namespace vkc::capi

using namespace vkc::capi;

extern "C" {

vkc_status vkc_device_count(uint32_t* count) {
  return guarded("vkc_device_count", [&] {
    require_pointer(count, "count");
    *count = static_cast<uint32_t>(devices().size());
  });
}

vkc_status vkc_device_get_info(uint32_t index, vkc_device_info* info, size_t info_size) {
  return guarded("vkc_device_get_info", [&] {
    require_pointer(info, "info");
    write_device_info(device_at(index), info, info_size);
  });
}

vkc_status vkc_device_get_pci(uint32_t index, vkc_device_pci* pci, size_t pci_size) {
  return guarded("vkc_device_get_pci", [&] {
    require_pointer(pci, "pci");
    require(pci_size > 0, "pci_size is 0 (pass sizeof(vkc_device_pci))");
    const vkc_device_pci c = c_pci(device_at(index).pci);
    // As vkc_device_info: an older caller's struct is a prefix of this one.
    std::memcpy(pci, &c, std::min(pci_size, sizeof c));
  });
}

vkc_status vkc_choose_device(const char* wanted, uint32_t* index) {
  return guarded("vkc_choose_device", [&] {
    require_pointer(index, "index");
    *index = chosen_device(wanted ? wanted : "");
  });
}

}  // extern "C"
