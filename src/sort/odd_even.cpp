// Block odd-even transposition sort: each workgroup sorts a tile in shared memory by odd-even
// transposition, then rounds of merge-split between neighbouring half-tile blocks (odd pairs,
// even pairs, ...) until a round changes nothing. Each round is an indirect dispatch whose grid
// the round's last workgroup empties once a round changed nothing: no host read-back.
// Stable: elements move only past strictly greater keys, and merges take the left block first.
#include "sort/odd_even.hpp"

#include <algorithm>

#include "core/kernels.hpp"
#include "core/pipeline.hpp"
#include "sort/algorithm.hpp"

// The kernels' specialization-constant ids (macros only).
#include "odd_even_layout.h"

namespace vkc::sorting {
namespace {

// The control block at the start of the algorithm's scratch (shaders/sort/odd_even/control.glsl):
// dispatch arguments (3 words), changed, done, 2 unused, rounds.
constexpr std::uint32_t kControlBytes = 32;
constexpr std::uint32_t kRoundsOffset = 28;
constexpr std::uint32_t kVoteBytes = 8;  // the tile sort's two vote words in shared memory
constexpr std::uint32_t kSoftwareTile = 512;

struct Kernels {
  const Pipeline* begin;
  const Pipeline* tile_sort;
  const Pipeline* merge_split;
  std::uint32_t tile;
};

std::uint32_t workgroup_size(const DeviceInfo& device, std::uint32_t tile) {
  // A CPU implementation runs a workgroup's subgroups one after another and switches between
  // them at every barrier: 64 invocations sorted 65537 keys 1.6x faster than 256 on lavapipe
  // (docs/perf-notes.md#odd-even-tile). Note lavapipe also ends any loop nest after 65535 iterations,
  // which a tile of 4094 with fewer than ~140 invocations would pass.
  const std::uint32_t wanted = device.is_software() ? 64u : 1024u;
  // Otherwise one invocation per pair of the tile, up to the device's limit; each loops over the rest.
  return std::min({tile / 2, wanted, device.max_workgroup_invocations, device.max_workgroup_size[0]});
}

Kernels kernels(detail::ComputeDevice& ctx, const Job& job) {
  const DeviceInfo& device = ctx.info();
  const std::uint32_t tile = odd_even_tile(device, job.key_type);
  const std::uint32_t wg = workgroup_size(device, tile);
  std::vector<std::uint32_t> spec(ODD_EVEN_CONSTANTS);
  spec[ODD_EVEN_SC_WORKGROUP] = wg;
  spec[ODD_EVEN_TILE] = tile;
  spec[ODD_EVEN_KEY_WORDS] = job.key_words();
  spec[ODD_EVEN_VALUE_WORDS] = job.value_words();
  spec[ODD_EVEN_KEY_KIND] = key_kind(job.key_type);
  spec[ODD_EVEN_DESCENDING] = job.descending();
  std::vector<std::uint32_t> begin(ODD_EVEN_BEGIN_CONSTANTS);
  begin[ODD_EVEN_BEGIN_HALF] = tile / 2;
  return {&pipeline(ctx, {.shader = shaders::sort_odd_even_begin,
                          .specialization = std::move(begin),
                          .bindings = 2,
                          .push_bytes = 4}),
          &pipeline(ctx, {.shader = shaders::sort_odd_even_tile_sort, .specialization = spec, .bindings = 3}),
          &pipeline(ctx, {.shader = shaders::sort_odd_even_merge_split, .specialization = spec, .bindings = 4, .push_bytes = 4}),
          tile};
}

class OddEven final : public SimpleAlgorithm {
 public:
  SortAlgorithm id() const override { return SortAlgorithm::odd_even; }
  bool stable() const override { return true; }
  std::uint64_t temporary_bytes(const DeviceInfo&, const SortDesc&) const override { return kControlBytes; }
  std::vector<TemporaryBound> temporary_bounds(const DeviceInfo&, const SortDesc&) const override {
    return constant_temporary(kControlBytes);
  }

  void record(detail::ComputeDevice& ctx, Recorder& r, const Job& job) const override {
    const Kernels k = kernels(ctx, job);
    const Binding control{job.temporary.buffer, Access::read_write, job.temporary.offset, kControlBytes};
    // Without values the keys buffer fills the values binding, which the shaders then never touch.
    const Binding values = job.has_values() ? job.values : job.keys;
    const std::uint32_t max_x = ctx.info().max_workgroup_count[0];
    const Binding begin_bindings[] = {job.count, control};
    r.dispatch(*k.begin, begin_bindings, &max_x, sizeof max_x, 1);
    const Binding tile_bindings[] = {job.count, job.keys, values};
    r.dispatch(*k.tile_sort, tile_bindings, nullptr, 0, groups_for(job.max_count, k.tile));

    const Binding merge_bindings[] = {job.count, job.keys, values, control};
    const std::uint64_t rounds = odd_even_round_bound(ctx.info(), job.key_type, job.max_count);
    for (std::uint64_t round = 1; round <= rounds; ++round) {
      const std::uint32_t first_block = round % 2;  // the tile sort was round 0, the even pairs
      r.dispatch_indirect(*k.merge_split, merge_bindings, &first_block, sizeof first_block, control.buffer,
                          control.offset);
    }
  }
};

}  // namespace

std::uint32_t odd_even_tile(const DeviceInfo& device, KeyType key_type) {
  // As many elements as shared memory holds, each an ordered key plus its source slot; even,
  // so that a tile is two merge-split blocks.
  const std::uint32_t element_bytes = static_cast<std::uint32_t>(key_bytes(key_type)) + 4;
  const std::uint32_t tile = (device.shared_memory_bytes - kVoteBytes) / element_bytes;
  // On a CPU implementation a tile's O(B^2) transposition phases dominate: 65537 random keys
  // took 5.5 s with the 4094 that 32 KiB hold and 1.4 s with 512 on lavapipe, where the test
  // suite runs (docs/perf-notes.md#odd-even-tile). GPUs fill their shared memory.
  if (device.is_software()) return std::min(tile, kSoftwareTile) & ~1u;
  return tile & ~1u;
}

std::uint64_t odd_even_round_bound(const DeviceInfo& device, KeyType key_type, std::uint64_t max_count) {
  const std::uint64_t half = odd_even_tile(device, key_type) / 2;
  const std::uint64_t blocks = groups_for(max_count, half);
  // Odd-even transposition of p blocks needs p rounds; the tile sort was the first.
  return blocks > 2 ? blocks - 1 : 0;
}

std::uint64_t odd_even_rounds_offset(Context& ctx, const SortDesc& desc) {
  // The algorithm's scratch is the last kControlBytes of the temporary buffer.
  return sort_temporary_bytes(ctx, desc) - kControlBytes + kRoundsOffset;
}

const Algorithm* odd_even_algorithm() {
  static const OddEven instance;
  return &instance;
}

}  // namespace vkc::sorting
