// ContextAccess: how the library's own modules reach a Context's internals and make Buffers. The
// public headers declare it and name nothing else of the library's insides.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>

#include "vkc/context.hpp"

namespace vkc {

struct ContextAccess {
  using State = Context::State;  // defined in core/state.hpp
  static State& state(const Context& ctx) { return *ctx.state_; }
  static Buffer make_buffer(VkDevice device, VkBuffer buffer, VkDeviceMemory memory, std::uint64_t bytes) {
    return Buffer(device, buffer, memory, bytes);
  }
};

}  // namespace vkc
