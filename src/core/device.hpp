// What a device has, for every module of the runtime: its handles, its facts, its memory types
// and the queue families its buffers are shared by. The bottom of src/core: it includes nothing
// of the runtime but the public header.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <vector>

#include "vkc/context.hpp"

namespace vkc::detail {

struct Device {
  DeviceInfo info;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory{};
  /// Queue families that share device buffers (CONCURRENT sharing when there are two).
  std::vector<std::uint32_t> buffer_families;
  bool can_import_host_memory = false;  // VK_EXT_external_memory_host enabled by vkc itself

  /// Index of a memory type allowed by `type_bits` having all of `required` (and, if possible,
  /// all of `preferred`); throws Error when there is none.
  std::uint32_t memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags required,
                            VkMemoryPropertyFlags preferred = 0) const;
};

/// The device's facts read from `physical`, which must be one of `instance`'s devices.
Device describe_device(VkInstance instance, VkPhysicalDevice physical);

/// The largest storage buffer the device creates: its maxStorageBufferRange, or its
/// maxMemoryAllocationSize where that is smaller.
std::uint64_t largest_buffer_bytes(const DeviceInfo& info);

/// Throws Error naming `what` when [offset, offset + bytes) does not lie inside `b`.
void check_buffer_range(const Buffer& b, std::uint64_t offset, std::uint64_t bytes, const char* what);

/// A device-local storage buffer (what Context::create_buffer returns).
Buffer create_device_buffer(const Device& device, std::uint64_t bytes);

/// A storage buffer of `bytes` in memory with all of `required`, written once through a mapping
/// and never mapped again: for small constants that no submission should have to upload.
Buffer create_host_written_buffer(const Device& device, const void* data, std::uint64_t bytes,
                                  VkMemoryPropertyFlags required);

/// A buffer of `bytes` bound to fresh memory of the given properties; `shared` buffers are
/// CONCURRENT over buffer_families. Fills the raw handles; throws Error on failure.
void allocate_buffer(const Device& d, std::uint64_t bytes, VkBufferUsageFlags usage, VkMemoryPropertyFlags required,
                     VkMemoryPropertyFlags preferred, bool shared, VkBuffer& buffer, VkDeviceMemory& memory);

}  // namespace vkc::detail
