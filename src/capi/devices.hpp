// The process's device list, read once, and the device choice, both failing with
// VKC_ERROR_NO_DEVICE where there is no loader, no device or none that matches.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "vkc/context.hpp"
#include "vkc/vkc.h"

namespace vkc::capi {

/// Every device the loader reports, enumerated on the first call (thread-safe) and kept.
const std::vector<DeviceInfo>& devices();

/// The index of the device that `wanted` picks (choose_device's rules).
std::uint32_t chosen_device(const std::string& wanted);

/// The indices of the devices that the list `wanted` picks (choose_devices' rules).
std::vector<std::uint32_t> chosen_devices(const std::string& wanted);

/// Writes `info` as a vkc_device_info into `out`, of `out_size` bytes (the caller's sizeof).
void write_device_info(const DeviceInfo& info, vkc_device_info* out, std::size_t out_size);

}  // namespace vkc::capi
