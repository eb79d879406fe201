// Bitonic sort: subgroup shuffles, shared-memory tiles and multi-stride global passes.
//
// The network is the classic bitonic one over the next power of two above the count, with the
// block that holds the last element always ascending; positions past the count are virtual
// padding that never moves, so nothing is allocated for it (shaders/common/compare_exchange.glsl).
// A count that fits one workgroup's shared memory is sorted by one dispatch of
// shaders/sort/bitonic/small.comp, whose network specialization constants fix entirely. Larger
// counts take shaders/sort/bitonic/tile.comp for every pass: the local sort of each tile, the
// strides of a stage that lie outside a tile (up to tile_bits - run_bits of them per pass), and
// each stage's merge within the tile.
#include "sort/bitonic.hpp"

#include <algorithm>
#include <bit>

#include "core/kernels.hpp"
#include "core/pipeline.hpp"

// The kernels' specialization-constant ids (macros only).
#include "bitonic_layout.h"

namespace vkc::sorting {
namespace {

// From this count on, GPU sorts of one-word elements take the large-sort tunings below (two shared
// tiles per workgroup in registers: fewer passes); under it, more workgroups matter more.
constexpr std::uint64_t kLargeSortMinCount = 1u << 21;
// From this count on, 128 invocations rather than 256 (more workgroups in flight per SM).
constexpr std::uint64_t kHugeSortMinCount = 1u << 23;

std::uint32_t ceil_log2(std::uint64_t x) { return x <= 1 ? 0 : static_cast<std::uint32_t>(std::bit_width(x - 1)); }

// The largest power-of-two tile whose padded shared arrays (33 words per 32) fit the device.
std::uint32_t max_tile_bits(const DeviceInfo& device, std::uint32_t words) {
  std::uint32_t bits = 0;
  while ((std::uint64_t{2} << bits) * 33 / 32 * words * 4 <= device.shared_memory_bytes) ++bits;
  return bits;
}

struct Push {
  std::uint32_t k_first, k_last, c, lo, bottom;
};

class Bitonic final : public SimpleAlgorithm {
 public:
  SortAlgorithm id() const override { return SortAlgorithm::bitonic; }
  bool stable() const override { return false; }
  std::uint64_t temporary_bytes(const DeviceInfo&, const SortDesc&) const override { return 0; }
  std::vector<TemporaryBound> temporary_bounds(const DeviceInfo&, const SortDesc&) const override {
    return constant_temporary(0);
  }
  void record(detail::ComputeDevice& ctx, Recorder& r, const Job& job) const override {
    const SmallBitonic small = small_bitonic_shape(ctx.info(), job);
    if (small.log_n) {
      record_small_bitonic(ctx, r, job, small);
    } else {
      record_bitonic(ctx, r, job, bitonic_tuning(ctx.info(), job));
    }
  }
};

}  // namespace

std::uint32_t BitonicTuning::tile_bits() const {
  return static_cast<std::uint32_t>(std::countr_zero(workgroup_size)) + e_bits;
}

BitonicTuning bitonic_tuning(const DeviceInfo& device, const Job& job) {
  const std::uint32_t words = job.key_words() + job.value_words();
  const std::uint32_t max_invocations = std::min(device.max_workgroup_invocations, device.max_workgroup_size[0]);
  // At least 128 invocations: a multiple of every subgroup size, as full subgroups require.
  const std::uint32_t min_wg_bits = std::max<std::uint32_t>(7, ceil_log2(device.max_subgroup_size));
  BitonicTuning t;
  t.e_bits = 3;  // 8 elements per invocation: register steps for the 3 lowest bits of every stage
  std::uint32_t tile = std::min(max_tile_bits(device, words), std::max(ceil_log2(job.max_count), min_wg_bits + 3));
  std::uint32_t wg_bits = std::min<std::uint32_t>(tile - t.e_bits, std::bit_width(max_invocations) - 1);
  t.e_bits = tile - wg_bits;
  t.workgroup_size = 1u << wg_bits;
  // Large sorts of u32 keys on a GPU: 16 elements per invocation, two sub-tiles, 128 invocations
  // from kHugeSortMinCount; on lavapipe sub-tiles only cost time
  // (docs/perf-notes.md#bitonic-large-sorts).
  if (job.max_count >= kLargeSortMinCount && !device.is_software() && words == 1) {
    const BitonicTuning large{job.max_count >= kHugeSortMinCount ? 128u : 256u, 4, 1};
    const bool fits = large.workgroup_size >= (1u << min_wg_bits) && large.workgroup_size <= max_invocations &&
                      large.tile_bits() <= max_tile_bits(device, words);
    if (fits) return large;
  }
  return t;
}

std::vector<BitonicPass> bitonic_plan(const BitonicTuning& tuning, std::uint64_t max_count) {
  const std::uint32_t big = tuning.tile_bits() + tuning.sub_bits;
  const std::uint32_t stages = ceil_log2(max_count);
  std::vector<BitonicPass> plan;
  // Even a single element takes one pass: its store writes NaNs back positive, as the order
  // contract says.
  if (max_count == 0) return plan;
  const std::uint64_t tiles = groups_for(max_count, std::uint64_t{1} << big);
  // Global passes keep runs of 2^run_bits consecutive elements so that accesses coalesce.
  const std::uint32_t run_bits = std::min(tuning.run_bits, big - 1);
  plan.push_back({1, std::min(stages, big), big, big, 0, tiles});
  for (std::uint32_t k = big + 1; k <= stages; ++k) {
    // The strides 2^(k-1) .. 2^big, highest first, up to big - run_bits of them per pass.
    for (std::uint32_t hi = k - 1; hi >= big;) {
      const std::uint32_t g = std::min(hi - big + 1, big - run_bits);
      const std::uint32_t lo = hi - g + 1, c = big - g;
      const std::uint64_t blocks = groups_for(max_count, std::uint64_t{1} << (lo + g));
      plan.push_back({k, k, c, lo, c, blocks << (lo - c)});
      hi = lo - 1;
    }
    plan.push_back({k, k, big, big, 0, tiles});
  }
  return plan;
}

void record_bitonic(detail::ComputeDevice& ctx, Recorder& r, const Job& job, const BitonicTuning& tuning,
                    const std::function<void(std::size_t pass)>& after_pass) {
  std::vector<std::uint32_t> c(BITONIC_TILE_CONSTANTS);
  c[BITONIC_SC_WORKGROUP] = tuning.workgroup_size;
  c[BITONIC_TILE_KEY_WORDS] = job.key_words();
  c[BITONIC_TILE_VALUE_WORDS] = job.value_words();
  c[BITONIC_TILE_KEY_KIND] = key_kind(job.key_type);
  c[BITONIC_TILE_DESCENDING] = job.descending();
  c[BITONIC_TILE_E_BITS] = tuning.e_bits;
  c[BITONIC_TILE_SUB_BITS] = tuning.sub_bits;
  c[BITONIC_TILE_T_BITS] = tuning.tile_bits();
  const Pipeline& p = pipeline(ctx, {.shader = shaders::sort_bitonic_tile,
                                     .specialization = std::move(c),
                                     .bindings = 3,
                                     .push_bytes = sizeof(Push),
                                     .full_subgroups = true});
  const Binding values = job.has_values() ? job.values : job.count;
  const Binding bindings[] = {job.count, job.keys, values};
  const std::vector<BitonicPass> plan = bitonic_plan(tuning, job.max_count);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const Push push{plan[i].k_first, plan[i].k_last, plan[i].c, plan[i].lo, plan[i].bottom};
    r.dispatch(p, bindings, &push, sizeof push, plan[i].groups);
    if (after_pass) after_pass(i);
  }
}

SmallBitonic small_bitonic_shape(const DeviceInfo& device, const Job& job, std::uint32_t min_e_bits) {
  const std::uint32_t words = job.key_words() + job.value_words();
  std::uint32_t max_invocations = std::min(device.max_workgroup_invocations, device.max_workgroup_size[0]);
  if (device.subgroup_size_control && device.max_workgroup_subgroups) {
    // The pipeline requires the subgroup size, which caps the workgroup at this many subgroups.
    max_invocations = std::min(max_invocations, device.subgroup_size * device.max_workgroup_subgroups);
  }
  const std::uint32_t subgroup_bits = ceil_log2(device.subgroup_size);
  SmallBitonic s{std::max(ceil_log2(job.max_count), subgroup_bits + min_e_bits), min_e_bits};
  while (s.workgroup_size() > max_invocations) ++s.e_bits;
  const std::uint64_t shared_bytes = (std::uint64_t{1} << s.log_n) * 33 / 32 * words * 4;
  if (shared_bytes > device.shared_memory_bytes || s.e_bits > 5) return {0, 0};
  return s;
}

void record_small_bitonic(detail::ComputeDevice& ctx, Recorder& r, const Job& job, const SmallBitonic& shape) {
  const DeviceInfo& device = ctx.info();
  // The network is laid out for one subgroup size, so the pipeline asks for exactly that one.
  std::vector<std::uint32_t> c(BITONIC_SMALL_CONSTANTS);
  c[BITONIC_SC_WORKGROUP] = shape.workgroup_size();
  c[BITONIC_SMALL_KEY_WORDS] = job.key_words();
  c[BITONIC_SMALL_VALUE_WORDS] = job.value_words();
  c[BITONIC_SMALL_KEY_KIND] = key_kind(job.key_type);
  c[BITONIC_SMALL_DESCENDING] = job.descending();
  c[BITONIC_SMALL_E_BITS] = shape.e_bits;
  c[BITONIC_SMALL_LOG_N] = shape.log_n;
  c[BITONIC_SMALL_SUBGROUP_BITS] = ceil_log2(device.subgroup_size);
  const Pipeline& p = pipeline(ctx, {.shader = shaders::sort_bitonic_small,
                                     .specialization = std::move(c),
                                     .bindings = 3,
                                     .required_subgroup_size = device.subgroup_size_control ? device.subgroup_size : 0,
                                     .full_subgroups = true});
  const Binding values = job.has_values() ? job.values : job.count;
  const Binding bindings[] = {job.count, job.keys, values};
  r.dispatch(p, bindings, nullptr, 0, 1);
}

const Algorithm* bitonic_algorithm() {
  static const Bitonic instance;
  return &instance;
}

}  // namespace vkc::sorting
