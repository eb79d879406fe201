#include "core/pinned.hpp"

#include <algorithm>

#include "core/check.hpp"
#include "core/loader.hpp"

namespace vkc {
using namespace vk;

void* PinnedBlocks::allocate(std::uint64_t bytes) {
  Block block{VK_NULL_HANDLE, VK_NULL_HANDLE, std::max<std::uint64_t>(bytes, 1)};
  // Cached where the device offers it: the host reads sorted arrays from it at memory speed,
  // and the device's copies snoop it either way (coherent), as with the staging buffers.
  detail::allocate_buffer(*device_, block.bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                          VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                          VK_MEMORY_PROPERTY_HOST_CACHED_BIT, true, block.buffer, block.memory);
  void* mapped = nullptr;
  if (const VkResult result = vkMapMemory(device_->device, block.memory, 0, VK_WHOLE_SIZE, 0, &mapped);
      result != VK_SUCCESS) {
    release(block);
    check(result, "vkMapMemory", device_->info.name);
  }
  const std::lock_guard lock(mutex_);
  blocks_.emplace(reinterpret_cast<std::uintptr_t>(mapped), block);
  return mapped;
}

void PinnedBlocks::free(void* data) noexcept {
  Block block;
  {
    const std::lock_guard lock(mutex_);
    const auto it = blocks_.find(reinterpret_cast<std::uintptr_t>(data));
    if (it == blocks_.end()) return;
    block = it->second;
    blocks_.erase(it);
  }
  release(block);
}

std::optional<detail::PinnedRange> PinnedBlocks::find(const void* data, std::uint64_t bytes) const {
  const auto first = reinterpret_cast<std::uintptr_t>(data);
  const std::lock_guard lock(mutex_);
  auto it = blocks_.upper_bound(first);
  if (it == blocks_.begin()) return std::nullopt;
  --it;
  const std::uint64_t offset = first - it->first;
  if (offset > it->second.bytes || bytes > it->second.bytes - offset) return std::nullopt;
  return detail::PinnedRange{it->second.buffer, offset};
}

void PinnedBlocks::free_all() noexcept {
  const std::lock_guard lock(mutex_);
  for (const auto& [first, block] : blocks_) release(block);
  blocks_.clear();
}

std::uint64_t PinnedBlocks::held_bytes() const {
  const std::lock_guard lock(mutex_);
  std::uint64_t held = 0;
  for (const auto& [first, block] : blocks_) held += block.bytes;
  return held;
}

void PinnedBlocks::release(const Block& block) noexcept {
  if (block.buffer) vkDestroyBuffer(device_->device, block.buffer, nullptr);
  if (block.memory) vkFreeMemory(device_->device, block.memory, nullptr);  // unmaps too
}

}  // namespace vkc
