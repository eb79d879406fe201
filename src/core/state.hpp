// The state behind a vkc::Context, shared by the runtime's modules (memory, pipelines, recorder).
#pragma once

#include <vulkan/vulkan_core.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/pipeline.hpp"
#include "core/pipeline_cache_file.hpp"
#include "core/recorder.hpp"
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
  VkFence fence = VK_NULL_HANDLE;
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

  /// Index of a memory type allowed by `type_bits` having all of `required` (and, if possible,
  /// all of `preferred`); throws Error when there is none.
  std::uint32_t memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags required,
                            VkMemoryPropertyFlags preferred = 0) const;
};

}  // namespace vkc::detail
