// Compute work submitted without waiting for it: each submission its own command buffer, so that
// the host can record the next while the device runs this one, and transfers on another queue
// can wait for it (the timeline points of core/queue.hpp).
#pragma once

#include <vulkan/vulkan_core.h>

#include <functional>

#include "core/queue.hpp"
#include "core/recorder.hpp"
#include "core/state.hpp"

namespace vkc::detail {

class Submissions {
 public:
  explicit Submissions(ContextState& state);
  /// Waits until the device has finished everything submitted through this, and all transfers.
  ~Submissions();
  Submissions(const Submissions&) = delete;
  Submissions& operator=(const Submissions&) = delete;

  /// Records commands behind a barrier from everything submitted to the compute queue before
  /// (earlier submissions may use the same buffers), and submits them to run once `after` is
  /// reached. Returns the point that signals their end.
  TimelinePoint submit(TimelinePoint after, const std::function<void(Recorder&)>& record);

 private:
  ContextState& state_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
};

}  // namespace vkc::detail
