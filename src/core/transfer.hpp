// Host arrays to and from device buffers at the speed of the bus: pinned staging buffers that
// several threads fill and drain while the copy engine moves the previous chunk, or the host
// memory itself imported (VK_EXT_external_memory_host) and copied by the device directly.
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "core/device.hpp"
#include "core/queue.hpp"
#include "core/worker_pool.hpp"
#include "vkc/context.hpp"

namespace vkc::detail {

using vkc::HostRead;
using vkc::HostWrite;

HostRead read_memory(const void* data);
HostWrite write_memory(void* data);

struct UploadPart {
  HostRead read;
  VkBuffer dst = VK_NULL_HANDLE;
  std::uint64_t dst_offset = 0;
  std::uint64_t bytes = 0;
};

struct DownloadPart {
  VkBuffer src = VK_NULL_HANDLE;
  std::uint64_t src_offset = 0;
  std::uint64_t bytes = 0;
  HostWrite write;
};

/// The caller's memory, pinned and wrapped in a transfer buffer. Must outlive every copy that
/// uses it; the memory itself must outlive this object.
class ImportedMemory {
 public:
  ImportedMemory(VkDevice device, VkBuffer buffer, VkDeviceMemory memory, std::uint64_t offset);
  ~ImportedMemory();
  ImportedMemory(const ImportedMemory&) = delete;
  ImportedMemory& operator=(const ImportedMemory&) = delete;
  VkBuffer buffer() const { return buffer_; }
  /// Where the imported array starts in buffer() (imports begin at an aligned address).
  std::uint64_t offset() const { return offset_; }

 private:
  VkDevice device_;
  VkBuffer buffer_;
  VkDeviceMemory memory_;
  std::uint64_t offset_;
};

class TransferEngine {
 public:
  /// `lanes` threads, each with two staging buffers of `chunk_bytes`, submitting to `queue`.
  TransferEngine(const Device& device, TimelineQueue& queue, unsigned lanes, std::uint64_t chunk_bytes);
  ~TransferEngine();
  TransferEngine(const TransferEngine&) = delete;
  TransferEngine& operator=(const TransferEngine&) = delete;

  /// Copies every part up, the device's copies starting after `after`. Returns once every byte
  /// has been read into staging and its copy submitted; the point is when they have all landed.
  TimelinePoint upload(std::span<const UploadPart> parts, TimelinePoint after = {});
  /// Copies every part down once `after` is reached; returns when write() has had every byte.
  void download(std::span<const DownloadPart> parts, TimelinePoint after);

  /// Imports [data, data + bytes) for the device's copies, or returns null where the device or this memory
  /// cannot be imported (then stage it).
  std::unique_ptr<ImportedMemory> import(const void* data, std::uint64_t bytes);
  /// Counts bytes that the device copied straight from or into imported memory (stats).
  void count_imported(std::uint64_t bytes) { imported_bytes_ += bytes; }
  /// Counts bytes that went through a borrowed staging buffer (stats).
  void count_staged(std::uint64_t bytes) { staged_bytes_ += bytes; }

  /// A staging buffer of chunk_bytes(), for a round trip that the caller records into a
  /// submission of its own (a small host sort: one submission, not three): once the engine's
  /// last copy through it has completed. Valid until the engine's next transfer or release.
  struct Staging {
    VkBuffer buffer = VK_NULL_HANDLE;
    std::byte* mapped = nullptr;
  };
  Staging borrow_staging();

  /// Frees the staging buffers (they come back on the next transfer).
  void release_staging();
  unsigned lanes() const { return pool_.size(); }
  std::uint64_t staged_bytes() const { return staged_bytes_; }
  std::uint64_t imported_bytes() const { return imported_bytes_; }
  std::uint64_t staging_bytes_held() const;
  std::uint64_t chunk_bytes() const { return chunk_bytes_; }
  TimelineQueue& queue() { return queue_; }

 private:
  struct Slot {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    std::byte* mapped = nullptr;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    TimelinePoint done;  // when the GPU last finished with this slot
  };
  struct Lane {
    VkCommandPool pool = VK_NULL_HANDLE;
    std::array<Slot, 2> slots;
  };
  /// A piece of one part, at most a slot long.
  struct Chunk {
    std::size_t part;
    std::uint64_t offset, bytes;
  };

  std::vector<Chunk> split(std::span<const std::uint64_t> part_bytes, unsigned& lanes_used) const;
  void prepare(Lane& lane);
  void allocate_staging(Slot& slot);
  void free_staging(Slot& slot);
  void record_copy(Slot& slot, VkBuffer src, std::uint64_t src_offset, VkBuffer dst, std::uint64_t dst_offset,
                   std::uint64_t bytes, bool for_host);
  void upload_lane(unsigned lane, unsigned lanes_used, std::span<const UploadPart> parts,
                   const std::vector<Chunk>& chunks, TimelinePoint after);
  void download_lane(unsigned lane, unsigned lanes_used, std::span<const DownloadPart> parts,
                     const std::vector<Chunk>& chunks, TimelinePoint after);

  const Device& device_;
  TimelineQueue& queue_;
  std::uint64_t chunk_bytes_;
  std::vector<Lane> lanes_;
  std::atomic<std::uint64_t> staged_bytes_{0}, imported_bytes_{0};
  WorkerPool pool_;
};

}  // namespace vkc::detail
