// The state behind a vkc::Context: the device it computes on (core/device.hpp) with its pipelines,
// its queues and host transfers, and what other modules keep per Context (Attachment). The top
// of src/core: it includes the runtime's other headers, and none of them includes it.
#pragma once

#include <vulkan/vulkan_core.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <typeindex>
#include <vector>

#include "core/access.hpp"
#include "core/device.hpp"
#include "core/pipeline.hpp"
#include "core/pinned.hpp"
#include "core/pipeline_cache_file.hpp"
#include "core/queue.hpp"
#include "core/recorder.hpp"
#include "core/transfer.hpp"
#include "vkc/context.hpp"

namespace vkc {
namespace detail {

/// Something a module above the runtime keeps for each Context (the sort workspace: its reusable
/// buffers and record-only sorter). The Context owns it and knows nothing else of it.
class Attachment {
 public:
  virtual ~Attachment() = default;
  /// Frees the device memory it keeps between calls (Context::release_cached_memory).
  virtual void release_cached_memory() {}
  /// Device memory it keeps between calls, in bytes (HostTransferStats::reusable_bytes).
  virtual std::uint64_t held_bytes() const { return 0; }
};

}  // namespace detail

struct Context::State {
  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State();

  detail::ComputeDevice core;  // the device and its pipelines
  const detail::Device& device() const { return core.device; }
  const DeviceInfo& info() const { return core.device.info; }

  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  std::uint32_t queue_family = 0;
  /// The instance and device are an engine's (Context(AdoptedDevice)): never destroyed here.
  bool adopted = false;
  /// The persistent cache of a Context that created its device (ContextOptions::pipeline_cache_dir).
  detail::PipelineCacheFile cache_file;
  VkCommandPool command_pool = VK_NULL_HANDLE;
  VkCommandBuffer command_buffer = VK_NULL_HANDLE;
  std::unique_ptr<detail::TimelineQueue> compute;  // every submission of command_buffer
  /// Where the next compute submission must wait (host data that Context::upload sent).
  detail::TimelinePoint uploaded;
  /// The queue host transfers use: a queue of its own where the device has a spare one, else
  /// the compute queue (then this is null and transfer_queue() returns *compute).
  std::unique_ptr<detail::TimelineQueue> transfer_only;
  HostTransferOptions host_transfer;
  /// ContextOptions::device_memory_limit resolved (an adopted device's: the option alone); 0: none.
  std::uint64_t memory_limit = 0;
  std::unique_ptr<detail::TransferEngine> transfers_;  // made on first use: see transfers()
  std::shared_ptr<PinnedBlocks> pinned;  // made on first use; shared with each PinnedMemory
  std::unique_ptr<Recorder> recorder;  // live between begin_commands() and submit_and_wait()
  std::map<std::type_index, std::unique_ptr<detail::Attachment>> attachments;

  std::mutex messages_mutex;  // the validation layer may call back from any thread
  std::vector<std::string> validation_messages;

  detail::TimelineQueue& transfer_queue() { return transfer_only ? *transfer_only : *compute; }
  /// The transfer engine, made with the options' threads and chunk size on first use.
  detail::TransferEngine& transfers();
  PinnedBlocks& pinned_blocks();
  /// The most bytes the convenient sort functions may hold on the device together: memory_limit,
  /// else nine tenths of the largest device-local heap.
  std::uint64_t device_memory_limit() const;
  /// Frees the staging and every attachment's cached memory; the next call makes them again.
  void release_cached_memory();
};

namespace detail {

using ContextState = ContextAccess::State;

inline ContextState& state_of(const Context& ctx) { return ContextAccess::state(ctx); }
inline ComputeDevice& compute_device(const Context& ctx) { return state_of(ctx).core; }

/// The attachment of type T of `ctx`, made as T(ctx) on first use.
template <class T>
T& attachment(Context& ctx) {
  auto& slot = state_of(ctx).attachments[std::type_index(typeid(T))];
  if (!slot) slot = std::make_unique<T>(ctx);
  return static_cast<T&>(*slot);
}

/// `option` when set, else the VKC_DEVICE_MEMORY_LIMIT environment variable parsed, else 0.
/// Throws Error when the variable is not a size.
std::uint64_t resolve_memory_limit(std::uint64_t option);

}  // namespace detail
}  // namespace vkc
