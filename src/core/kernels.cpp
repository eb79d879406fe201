#include "core/kernels.hpp"

#include <algorithm>

#include "core/device.hpp"
#include "core/pipeline.hpp"

// copy.comp's and affine.comp's specialization-constant ids (macros only).
#include "core_layout.h"

namespace vkc {

std::uint32_t streaming_workgroup_size(const DeviceInfo& info) {
  // 256 invocations keep enough loads in flight on every GPU we measured (docs/perf-notes.md)
  // and is a multiple of every subgroup size up to 128.
  return std::min<std::uint32_t>({256, info.max_workgroup_invocations, info.max_workgroup_size[0]});
}

void record_copy(Context& ctx, Recorder& r, VkBuffer src, VkBuffer dst, std::uint64_t words) {
  if (words == 0) return;
  if (words > UINT32_MAX) throw Error("shader copy of more than 2^32 words");
  const std::uint32_t wg = streaming_workgroup_size(ctx.info());
  const std::uint32_t items = 4;  // four 16-byte vectors per invocation
  std::vector<std::uint32_t> c(COPY_CONSTANTS);
  c[CORE_SC_WORKGROUP] = wg;
  c[COPY_ITEMS] = items;
  const Pipeline& p =
      pipeline(ctx, {.shader = shaders::core_copy, .specialization = std::move(c), .bindings = 2, .push_bytes = 4});
  const std::uint32_t push = static_cast<std::uint32_t>(words);
  const Binding bindings[] = {{src, Access::read}, {dst, Access::write}};
  r.dispatch(p, bindings, &push, sizeof push, std::max<std::uint64_t>(1, groups_for(words / 4, std::uint64_t{wg} * items)));
}

void record_affine(Context& ctx, Recorder& r, const Buffer& src, const Buffer& dst, const AffineParams& params,
                   const AffineTuning& tuning) {
  const std::uint32_t wg = tuning.workgroup_size ? tuning.workgroup_size : streaming_workgroup_size(ctx.info());
  std::vector<std::uint32_t> c(AFFINE_CONSTANTS);
  c[CORE_SC_WORKGROUP] = wg;
  c[AFFINE_ITEMS] = tuning.items;
  c[AFFINE_BIAS] = tuning.bias;
  const Pipeline& p = pipeline(ctx, {.shader = shaders::core_affine,
                                     .specialization = std::move(c),
                                     .bindings = 2,
                                     .push_bytes = sizeof(AffineParams)});
  r.dispatch(p, {reads(src), writes(dst)}, params, groups_for(params.count, std::uint64_t{wg} * tuning.items));
}

void Context::copy(const Buffer& src, const Buffer& dst, std::uint64_t bytes) {
  run([&](Recorder& r) { record_copy(r, src, dst, bytes); });
}

void Context::record_copy(Recorder& r, const Buffer& src, const Buffer& dst, std::uint64_t bytes) {
  if (bytes % 4 != 0) throw Error("Context::copy needs a multiple of 4 bytes, got " + std::to_string(bytes));
  detail::check_buffer_range(src, 0, bytes, "copy source");
  detail::check_buffer_range(dst, 0, bytes, "copy destination");
  vkc::record_copy(*this, r, src.handle(), dst.handle(), bytes / 4);
}


}  // namespace vkc
