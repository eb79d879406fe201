#include "core/queue.hpp"

#include <chrono>
#include <thread>
#include <utility>

#include "core/check.hpp"
#include "core/loader.hpp"

namespace vkc::detail {
using namespace vk;

TimelineQueue::TimelineQueue(VkDevice device, VkQueue queue, std::uint32_t family, std::string device_name,
                             bool poll_first)
    : device_(device), queue_(queue), family_(family), device_name_(std::move(device_name)), poll_first_(poll_first) {
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type};
  check(vkCreateSemaphore(device_, &info, nullptr, &semaphore_), "vkCreateSemaphore", device_name_);
}

TimelineQueue::~TimelineQueue() { vkDestroySemaphore(device_, semaphore_, nullptr); }

TimelinePoint TimelineQueue::submit(VkCommandBuffer commands, TimelinePoint after, VkPipelineStageFlags wait_stages) {
  std::lock_guard lock(mutex_);
  const std::uint64_t value = last_value_ + 1;
  VkTimelineSemaphoreSubmitInfo values{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  values.waitSemaphoreValueCount = after ? 1 : 0;
  values.pWaitSemaphoreValues = &after.value;
  values.signalSemaphoreValueCount = 1;
  values.pSignalSemaphoreValues = &value;
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, &values};
  submit.waitSemaphoreCount = after ? 1 : 0;
  submit.pWaitSemaphores = &after.semaphore;
  submit.pWaitDstStageMask = &wait_stages;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &semaphore_;
  check(vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit", device_name_);
  last_value_ = value;
  return {semaphore_, value};
}

TimelinePoint TimelineQueue::last() {
  std::lock_guard lock(mutex_);
  return last_value_ ? TimelinePoint{semaphore_, last_value_} : TimelinePoint{};
}

bool TimelineQueue::reached(TimelinePoint point) const {
  std::uint64_t value = 0;
  check(vkGetSemaphoreCounterValue(device_, point.semaphore, &value), "vkGetSemaphoreCounterValue", device_name_);
  return value >= point.value;
}

void TimelineQueue::wait(TimelinePoint point) const {
  if (!point) return;
  if (poll_first_) {
    // Several threads blocked in vkWaitSemaphores at once can wake up to 10 ms late on NVIDIA's
    // driver (docs/perf-notes.md#host-path): poll for a while before blocking.
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
    while (std::chrono::steady_clock::now() < until) {
      if (reached(point)) return;
      std::this_thread::yield();
    }
  }
  VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  info.semaphoreCount = 1;
  info.pSemaphores = &point.semaphore;
  info.pValues = &point.value;
  check(vkWaitSemaphores(device_, &info, UINT64_MAX), "vkWaitSemaphores", device_name_);
}

}  // namespace vkc::detail
