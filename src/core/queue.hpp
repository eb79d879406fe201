// A queue whose every submission signals the next value of one timeline semaphore, so that work
// on one queue can wait for work on another and the host can wait for any of it.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <mutex>
#include <string>

namespace vkc::detail {

/// A moment on a queue's timeline: the submission that signalled `value` has completed once the
/// semaphore reaches it, and with it everything submitted to that queue before.
struct TimelinePoint {
  VkSemaphore semaphore = VK_NULL_HANDLE;
  std::uint64_t value = 0;
  explicit operator bool() const { return semaphore != VK_NULL_HANDLE; }
};

class TimelineQueue {
 public:
  /// `poll_first`: waits poll the semaphore before they block (for GPUs; a CPU device needs
  /// the cores the polling would take).
  TimelineQueue(VkDevice device, VkQueue queue, std::uint32_t family, std::string device_name, bool poll_first);
  ~TimelineQueue();
  TimelineQueue(const TimelineQueue&) = delete;
  TimelineQueue& operator=(const TimelineQueue&) = delete;

  VkQueue queue() const { return queue_; }
  std::uint32_t family() const { return family_; }

  /// Submits `commands` (thread-safe), its stages `wait_stages` waiting for `after` when given;
  /// returns the point it signals.
  TimelinePoint submit(VkCommandBuffer commands, TimelinePoint after = {},
                       VkPipelineStageFlags wait_stages = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);

  /// The point of the latest submission (none before the first).
  TimelinePoint last();

  /// Whether `point` (of any queue) has been reached.
  bool reached(TimelinePoint point) const;

  /// Blocks the calling thread until `point` is reached (any queue's point).
  void wait(TimelinePoint point) const;

 private:
  VkDevice device_;
  VkQueue queue_;
  std::uint32_t family_;
  std::string device_name_;
  bool poll_first_;
  VkSemaphore semaphore_ = VK_NULL_HANDLE;
  std::mutex mutex_;
  std::uint64_t last_value_ = 0;
};

}  // namespace vkc::detail
