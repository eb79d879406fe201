#include "core/submissions.hpp"

#include "core/check.hpp"
#include "core/loader.hpp"
#include "core/state.hpp"

namespace vkc::detail {
using namespace vk;

Submissions::Submissions(ContextState& state) : state_(state) {
  VkCommandPoolCreateInfo info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  info.queueFamilyIndex = state.queue_family;
  check(vkCreateCommandPool(state.device().device, &info, nullptr, &pool_), "vkCreateCommandPool", state.info().name);
}

Submissions::~Submissions() {
  state_.compute->wait(state_.compute->last());
  state_.transfer_queue().wait(state_.transfer_queue().last());
  vkDestroyCommandPool(state_.device().device, pool_, nullptr);
}

TimelinePoint Submissions::submit(TimelinePoint after, const std::function<void(Recorder&)>& record) {
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  check(vkAllocateCommandBuffers(state_.device().device, &alloc, &commands), "vkAllocateCommandBuffers", state_.info().name);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer", state_.info().name);
  {
    Recorder r(state_.device(), commands);
    r.barrier_all();
    record(r);
    r.finish_for_host();
  }
  check(vkEndCommandBuffer(commands), "vkEndCommandBuffer", state_.info().name);
  return state_.compute->submit(commands, after);
}

}  // namespace vkc::detail
