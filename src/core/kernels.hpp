// The runtime's own kernels: the shader copy and the affine demo kernel.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>

#include "core/recorder.hpp"

namespace vkc {

/// Workgroups needed to cover `items` when each workgroup takes `per_group` of them.
constexpr std::uint64_t groups_for(std::uint64_t items, std::uint64_t per_group) {
  return (items + per_group - 1) / per_group;
}

/// Records a copy of `words` 32-bit words from src to dst (non-overlapping) by a compute shader.
void record_copy(Context& ctx, Recorder& r, VkBuffer src, VkBuffer dst, std::uint64_t words);

struct AffineParams {
  std::uint32_t count = 0;
  std::uint32_t mul = 1;
  std::uint32_t add = 0;
};
struct AffineTuning {
  std::uint32_t workgroup_size = 0;  ///< 0: chosen from the device
  std::uint32_t items = 1;           ///< elements per invocation
  std::uint32_t bias = 0;            ///< a specialization constant added to every element
};

/// Records dst[i] = src[i] * mul + add + bias for i < count.
void record_affine(Context& ctx, Recorder& r, const Buffer& src, const Buffer& dst, const AffineParams& params,
                   const AffineTuning& tuning = {});

/// A workgroup size for simple streaming kernels: 256, clamped to the device's limits.
std::uint32_t streaming_workgroup_size(const DeviceInfo& info);

}  // namespace vkc
