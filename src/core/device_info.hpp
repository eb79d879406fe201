// Reading a physical device's properties into a DeviceInfo, and choosing a device.
#pragma once

#include <vulkan/vulkan_core.h>

#include <string>
#include <vector>

#include "core/device.hpp"
#include "vkc/context.hpp"

namespace vkc::detail {

DeviceInfo query_device_info(VkPhysicalDevice physical, std::uint32_t index);

/// How choose_device ranks a device type when nothing is named: lower is preferred (discrete
/// GPU, integrated GPU, virtual GPU, other, CPU).
int device_type_preference(DeviceType type);

/// The index of the device `wanted` names (an index or a name substring), or with `wanted`
/// empty the best one: discrete GPU, then integrated or virtual GPU, then anything.
/// Throws Error when nothing matches.
std::uint32_t choose_device(const std::vector<DeviceInfo>& devices, const std::string& wanted);

/// Fills the link and NUMA facts of `pci` (whose address is known) from the sysfs folder of a
/// PCI device: `root`/<address>/numa_node, current_link_speed, ... (root: /sys/bus/pci/devices).
/// Leaves a fact it cannot read as unknown.
void read_pci_link(DeviceInfo::Pci& pci, const std::string& root = "/sys/bus/pci/devices");

/// Whether `physical` offers the device extension `name`.
bool has_extension(VkPhysicalDevice physical, const char* name);

}  // namespace vkc::detail
