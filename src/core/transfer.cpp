#include "core/transfer.hpp"

#include <algorithm>
#include <cstring>

#include "core/check.hpp"
#include "core/loader.hpp"

namespace vkc::detail {
using namespace vk;

namespace {

// Chunks are never cut smaller than this (each costs a submission), nor than a lane's share.
constexpr std::uint64_t kMinChunk = 1 << 20;
constexpr std::uint64_t kChunkGranule = 64 << 10;

std::uint64_t round_up(std::uint64_t x, std::uint64_t to) { return (x + to - 1) / to * to; }

}  // namespace

HostRead read_memory(const void* data) {
  const auto* base = static_cast<const std::byte*>(data);
  return [base](std::uint64_t offset, void* dst, std::uint64_t bytes) { std::memcpy(dst, base + offset, bytes); };
}

HostWrite write_memory(void* data) {
  auto* base = static_cast<std::byte*>(data);
  return [base](std::uint64_t offset, const void* src, std::uint64_t bytes) { std::memcpy(base + offset, src, bytes); };
}

ImportedMemory::ImportedMemory(VkDevice device, VkBuffer buffer, VkDeviceMemory memory, std::uint64_t offset)
    : device_(device), buffer_(buffer), memory_(memory), offset_(offset) {}

ImportedMemory::~ImportedMemory() {
  vkDestroyBuffer(device_, buffer_, nullptr);
  vkFreeMemory(device_, memory_, nullptr);
}

TransferEngine::TransferEngine(const Device& device, TimelineQueue& queue, unsigned lanes,
                               std::uint64_t chunk_bytes)
    : device_(device), queue_(queue), chunk_bytes_(chunk_bytes), lanes_(lanes), pool_(lanes) {
}

TransferEngine::~TransferEngine() {
  for (Lane& lane : lanes_) {
    for (Slot& slot : lane.slots) {
      queue_.wait(slot.done);
      free_staging(slot);
    }
  }
  for (Lane& lane : lanes_) {
    if (lane.pool) vkDestroyCommandPool(device_.device, lane.pool, nullptr);
  }
}

// The lane's command pool and buffers, made on its first use (by its own thread).
void TransferEngine::prepare(Lane& lane) {
  if (lane.pool) return;
  VkCommandPoolCreateInfo info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  info.queueFamilyIndex = queue_.family();
  check(vkCreateCommandPool(device_.device, &info, nullptr, &lane.pool), "vkCreateCommandPool", device_.info.name);
  for (Slot& slot : lane.slots) {
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = lane.pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(device_.device, &alloc, &slot.commands), "vkAllocateCommandBuffers",
          device_.info.name);
  }
}

void TransferEngine::allocate_staging(Slot& slot) {
  if (slot.buffer) return;
  // Cached memory: the host reads downloads from it at memory speed, and the device's copies
  // snoop it either way (coherent). Shared by the queue families: borrow_staging lends it to
  // the compute queue.
  allocate_buffer(device_, chunk_bytes_, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                  VK_MEMORY_PROPERTY_HOST_CACHED_BIT, true, slot.buffer, slot.memory);
  void* mapped = nullptr;
  check(vkMapMemory(device_.device, slot.memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory", device_.info.name);
  slot.mapped = static_cast<std::byte*>(mapped);
}

void TransferEngine::free_staging(Slot& slot) {
  if (!slot.buffer) return;
  vkDestroyBuffer(device_.device, slot.buffer, nullptr);
  vkFreeMemory(device_.device, slot.memory, nullptr);  // unmaps too
  slot.buffer = VK_NULL_HANDLE;
  slot.memory = VK_NULL_HANDLE;
  slot.mapped = nullptr;
}

std::uint64_t TransferEngine::staging_bytes_held() const {
  std::uint64_t held = 0;
  for (const Lane& lane : lanes_) {
    for (const Slot& slot : lane.slots) held += slot.buffer ? chunk_bytes_ : 0;
  }
  return held;
}

TransferEngine::Staging TransferEngine::borrow_staging() {
  Slot& slot = lanes_.front().slots.front();
  queue_.wait(slot.done);
  allocate_staging(slot);
  return {slot.buffer, slot.mapped};
}

void TransferEngine::release_staging() {
  for (Lane& lane : lanes_) {
    for (Slot& slot : lane.slots) {
      queue_.wait(slot.done);
      free_staging(slot);
    }
  }
}

// Records one copy into the slot's command buffer, whose previous submission has completed.
void TransferEngine::record_copy(Slot& slot, VkBuffer src, std::uint64_t src_offset, VkBuffer dst,
                                 std::uint64_t dst_offset, std::uint64_t bytes, bool for_host) {
  check(vkResetCommandBuffer(slot.commands, 0), "vkResetCommandBuffer", device_.info.name);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(slot.commands, &begin), "vkBeginCommandBuffer", device_.info.name);
  const VkBufferCopy region{src_offset, dst_offset, bytes};
  vkCmdCopyBuffer(slot.commands, src, dst, 1, &region);
  if (for_host) {
    // The copy's writes, made available to the host that reads them after waiting for the slot.
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(slot.commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
                         nullptr, 0, nullptr);
  }
  check(vkEndCommandBuffer(slot.commands), "vkEndCommandBuffer", device_.info.name);
}

// Cuts the parts into chunks that spread over the lanes: each lane gets a share when the data
// allows, no chunk exceeds a staging buffer.
std::vector<TransferEngine::Chunk> TransferEngine::split(std::span<const std::uint64_t> part_bytes,
                                                         unsigned& lanes_used) const {
  std::uint64_t total = 0;
  for (std::uint64_t b : part_bytes) total += b;
  const std::uint64_t share = round_up((total + lanes() - 1) / lanes(), kChunkGranule);
  const std::uint64_t chunk = std::min(chunk_bytes_, std::max(share, kMinChunk));
  std::vector<Chunk> chunks;
  for (std::size_t p = 0; p < part_bytes.size(); ++p) {
    for (std::uint64_t offset = 0; offset < part_bytes[p]; offset += chunk) {
      chunks.push_back({p, offset, std::min(chunk, part_bytes[p] - offset)});
    }
  }
  lanes_used = static_cast<unsigned>(std::min<std::size_t>(lanes(), chunks.size()));
  return chunks;
}

void TransferEngine::upload_lane(unsigned lane_index, unsigned lanes_used, std::span<const UploadPart> parts,
                                 const std::vector<Chunk>& chunks, TimelinePoint after) {
  Lane& lane = lanes_[lane_index];
  prepare(lane);
  std::size_t turn = 0;
  for (std::size_t c = lane_index; c < chunks.size(); c += lanes_used, ++turn) {
    const Chunk& chunk = chunks[c];
    const UploadPart& part = parts[chunk.part];
    Slot& slot = lane.slots[turn % 2];
    queue_.wait(slot.done);  // its previous copy has read it
    allocate_staging(slot);
    part.read(chunk.offset, slot.mapped, chunk.bytes);
    staged_bytes_ += chunk.bytes;
    record_copy(slot, slot.buffer, 0, part.dst, part.dst_offset + chunk.offset, chunk.bytes, false);
    slot.done = queue_.submit(slot.commands, after, VK_PIPELINE_STAGE_TRANSFER_BIT);
  }
}

TimelinePoint TransferEngine::upload(std::span<const UploadPart> parts, TimelinePoint after) {
  std::vector<std::uint64_t> sizes;
  for (const UploadPart& p : parts) sizes.push_back(p.bytes);
  unsigned lanes_used = 0;
  const std::vector<Chunk> chunks = split(sizes, lanes_used);
  if (chunks.empty()) return after;
  pool_.run(lanes_used, [&](unsigned lane) { upload_lane(lane, lanes_used, parts, chunks, after); });
  // The latest submission's point covers every earlier one on the queue.
  TimelinePoint last;
  for (unsigned l = 0; l < lanes_used; ++l) {
    for (const Slot& slot : lanes_[l].slots) {
      if (slot.done.value > last.value) last = slot.done;
    }
  }
  return last;
}

void TransferEngine::download_lane(unsigned lane_index, unsigned lanes_used, std::span<const DownloadPart> parts,
                                   const std::vector<Chunk>& chunks, TimelinePoint after) {
  Lane& lane = lanes_[lane_index];
  prepare(lane);
  std::vector<const Chunk*> mine;
  for (std::size_t c = lane_index; c < chunks.size(); c += lanes_used) mine.push_back(&chunks[c]);
  const auto submit = [&](std::size_t turn) {
    const Chunk& chunk = *mine[turn];
    const DownloadPart& part = parts[chunk.part];
    Slot& slot = lane.slots[turn % 2];
    queue_.wait(slot.done);
    allocate_staging(slot);
    record_copy(slot, part.src, part.src_offset + chunk.offset, slot.buffer, 0, chunk.bytes, true);
    slot.done = queue_.submit(slot.commands, after, VK_PIPELINE_STAGE_TRANSFER_BIT);
  };
  // The copy of the next chunk runs while this one is handed to write().
  submit(0);
  for (std::size_t turn = 0; turn < mine.size(); ++turn) {
    if (turn + 1 < mine.size()) submit(turn + 1);
    Slot& slot = lane.slots[turn % 2];
    queue_.wait(slot.done);
    parts[mine[turn]->part].write(mine[turn]->offset, slot.mapped, mine[turn]->bytes);
    staged_bytes_ += mine[turn]->bytes;
  }
}

void TransferEngine::download(std::span<const DownloadPart> parts, TimelinePoint after) {
  std::vector<std::uint64_t> sizes;
  for (const DownloadPart& p : parts) sizes.push_back(p.bytes);
  unsigned lanes_used = 0;
  const std::vector<Chunk> chunks = split(sizes, lanes_used);
  pool_.run(lanes_used, [&](unsigned lane) { download_lane(lane, lanes_used, parts, chunks, after); });
}

std::unique_ptr<ImportedMemory> TransferEngine::import(const void* data, std::uint64_t bytes) {
  const std::uint64_t alignment = device_.info.host_import_alignment;
  if (alignment == 0 || bytes == 0) return nullptr;
  const auto address = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t begin = address / alignment * alignment;
  const std::uint64_t size = round_up(address + bytes - begin, alignment);
  if (device_.info.max_allocation_bytes && size > device_.info.max_allocation_bytes) return nullptr;
  void* host = reinterpret_cast<void*>(begin);
  VkMemoryHostPointerPropertiesEXT properties{VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
  if (vkGetMemoryHostPointerPropertiesEXT(device_.device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, host,
                                          &properties) != VK_SUCCESS) {
    return nullptr;
  }
  VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &external};
  info.size = size;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  if (vkCreateBuffer(device_.device, &info, nullptr, &buffer) != VK_SUCCESS) return nullptr;
  VkMemoryRequirements req{};
  vkGetBufferMemoryRequirements(device_.device, buffer, &req);
  const std::uint32_t types = req.memoryTypeBits & properties.memoryTypeBits;
  VkImportMemoryHostPointerInfoEXT import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
  import.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  import.pHostPointer = host;
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &import};
  alloc.allocationSize = size;
  alloc.memoryTypeIndex = types ? static_cast<std::uint32_t>(__builtin_ctz(types)) : 0;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  if (types == 0 || req.size > size || vkAllocateMemory(device_.device, &alloc, nullptr, &memory) != VK_SUCCESS ||
      vkBindBufferMemory(device_.device, buffer, memory, 0) != VK_SUCCESS) {
    if (memory) vkFreeMemory(device_.device, memory, nullptr);
    vkDestroyBuffer(device_.device, buffer, nullptr);
    return nullptr;
  }
  return std::make_unique<ImportedMemory>(device_.device, buffer, memory, address - begin);
}

}  // namespace vkc::detail
