// The state behind a vkc::Context, shared by the runtime's modules (memory, pipelines, recorder).
#pragma once

#include <vulkan/vulkan_core.h>

#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "core/pipeline.hpp"
#include "core/pipeline_cache_file.hpp"
#include "core/queue.hpp"
#include "core/recorder.hpp"
#include "core/transfer.hpp"
#include "vkc/context.hpp"

namespace vkc::detail {

struct ContextState {
  DeviceInfo info;
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  std::uint32_t queue_family = 0;
  /// The instance and device are an engine's (Context(AdoptedDevice)): never destroyed here.
  bool adopted = false;
  VkPipelineCache pipeline_cache = VK_NULL_HANDLE;  // the engine's, or cache_file's
  /// The persistent cache of a Context that created its device (ContextOptions::pipeline_cache_dir).
  PipelineCacheFile cache_file;
  bool pipeline_statistics = false;    // VKC_PIPELINE_STATS=1: print each pipeline's compiler statistics
  VkPhysicalDeviceMemoryProperties memory{};
  VkCommandPool command_pool = VK_NULL_HANDLE;
  VkCommandBuffer command_buffer = VK_NULL_HANDLE;
  std::unique_ptr<TimelineQueue> compute;  // every submission of command_buffer
  /// Where the next compute submission must wait (host data that Context::upload sent).
  TimelinePoint uploaded;
  /// The queue host transfers use: a queue of its own where the device has a spare one, else
  /// the compute queue (then this is null and transfer_queue() returns *compute).
  std::unique_ptr<TimelineQueue> transfer_only;
  /// Queue families that share device buffers (CONCURRENT sharing when there are two).
  std::vector<std::uint32_t> buffer_families;
  HostTransferOptions host_transfer;
  /// ContextOptions::device_memory_limit resolved (the option, else the environment); 0: none.
  std::uint64_t memory_limit = 0;
  bool can_import_host_memory = false;  // VK_EXT_external_memory_host enabled by vkc itself
  std::unique_ptr<TransferEngine> transfers_;  // made on first use: see transfers()
  /// Device buffers that the convenient sort functions keep between calls, by slot.
  std::vector<Buffer> reusable;
  std::unique_ptr<Recorder> recorder;  // live between begin_commands() and submit_and_wait()
  PipelineCache pipelines;
  /// One uint32 holding 2^32 - 1, written once: the count binding of a sort whose count the host
  /// knows and whose kernels clamp the count word to the max_count they are given (the radix
  /// sort's), so that no fill has to write the count before them.
  Buffer count_ceiling;

  std::mutex messages_mutex;           // the validation layer may call back from any thread
  std::vector<std::string> validation_messages;

  ContextState() = default;
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;
  ~ContextState();

  TimelineQueue& transfer_queue() { return transfer_only ? *transfer_only : *compute; }
  /// The transfer engine, made with the options' threads and chunk size on first use.
  TransferEngine& transfers();
  /// The reusable device buffers, buffer i at least bytes[i] long (0: not needed, left as it
  /// is): each kept while large enough, else replaced by one a quarter larger than asked (so
  /// that growing sizes reallocate rarely). When an allocation fails, frees them all and the
  /// staging, and allocates each at its size once more. Handles stay valid until the next call.
  const std::vector<Buffer>& reusable_buffers(std::span<const std::uint64_t> bytes);
  /// The most bytes the reusable buffers may hold together: memory_limit, else nine tenths of
  /// the largest device-local heap.
  std::uint64_t device_memory_limit() const;
  /// Frees reusable buffers and staging; the next transfer or sort makes them again.
  void release_cached_memory();

  /// Index of a memory type allowed by `type_bits` having all of `required` (and, if possible,
  /// all of `preferred`); throws Error when there is none.
  std::uint32_t memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags required,
                            VkMemoryPropertyFlags preferred = 0) const;
};

/// The largest storage buffer the device creates: its maxStorageBufferRange, or its
/// maxMemoryAllocationSize where that is smaller.
std::uint64_t largest_buffer_bytes(const DeviceInfo& info);

/// `option` when set, else the VKC_DEVICE_MEMORY_LIMIT environment variable parsed, else 0.
/// Throws Error when the variable is not a size.
std::uint64_t resolve_memory_limit(std::uint64_t option);

/// A device-local storage buffer (what Context::create_buffer returns).
Buffer create_device_buffer(const ContextState& state, std::uint64_t bytes);

/// A buffer of `bytes` bound to fresh memory of the given properties; `shared` buffers are
/// CONCURRENT over buffer_families. Fills the raw handles; throws Error on failure.
void allocate_buffer(const ContextState& s, std::uint64_t bytes, VkBufferUsageFlags usage,
                     VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred, bool shared, VkBuffer& buffer,
                     VkDeviceMemory& memory);

}  // namespace vkc::detail
