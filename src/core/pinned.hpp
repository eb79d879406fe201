// Pinned host memory that a Context hands out (Context::allocate_pinned) and keeps a list of, so
// that the host path can tell when an array lies in it and copy it with the device alone.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

#include "core/device.hpp"

namespace vkc {

namespace detail {
/// Where a host range lies for the device's copies.
struct PinnedRange {
  VkBuffer buffer = VK_NULL_HANDLE;
  std::uint64_t offset = 0;
};
}  // namespace detail

class PinnedBlocks {
 public:
  explicit PinnedBlocks(const detail::Device& device) : device_(&device) {}
  PinnedBlocks(const PinnedBlocks&) = delete;
  PinnedBlocks& operator=(const PinnedBlocks&) = delete;

  /// Mapped, host-coherent memory of `bytes` (at least 1) that the device's copies read and write;
  /// throws Error when the device has none that large.
  void* allocate(std::uint64_t bytes);
  /// Frees what allocate returned; a pointer freed already (or by free_all) is ignored.
  void free(void* data) noexcept;
  /// The block that holds all of [data, data + bytes), if one does.
  std::optional<detail::PinnedRange> find(const void* data, std::uint64_t bytes) const;
  /// Frees every block: the device is about to go.
  void free_all() noexcept;
  std::uint64_t held_bytes() const;

 private:
  struct Block {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    std::uint64_t bytes = 0;
  };
  void release(const Block& block) noexcept;

  const detail::Device* device_;
  mutable std::mutex mutex_;
  std::map<std::uintptr_t, Block> blocks_;  // by first byte
};

}  // namespace vkc
