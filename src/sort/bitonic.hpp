// The bitonic sort's tuning and pass plan, visible to its probe (bench/probes/bitonic.cpp) so
// that several tunings can be timed in one run on a device.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "sort/algorithm.hpp"

namespace vkc::sorting {

struct BitonicTuning {
  std::uint32_t workgroup_size = 0;  ///< invocations per workgroup
  std::uint32_t e_bits = 3;          ///< log2 of elements per invocation per shared tile
  std::uint32_t sub_bits = 0;        ///< log2 of shared tiles a workgroup holds in registers
  std::uint32_t run_bits = 5;        ///< log2 of the consecutive elements a global pass keeps together
  std::uint32_t tile_bits() const;   ///< log2 of the shared tile
};

/// One dispatch of shaders/sort/bitonic/tile.comp (its push constants, and its grid).
struct BitonicPass {
  std::uint32_t k_first, k_last, c, lo, bottom;
  std::uint64_t groups;
};

/// The tuning the dispatcher picks for a job on a device (see the bitonic section of docs/perf-notes.md).
BitonicTuning bitonic_tuning(const DeviceInfo& device, const Job& job);

/// The passes that sort max_count elements with a tuning.
std::vector<BitonicPass> bitonic_plan(const BitonicTuning& tuning, std::uint64_t max_count);

/// Records the sort with an explicit tuning; `after_pass` (for the probe's per-pass timestamps) is
/// called after each pass's dispatch is recorded, with the pass's index in bitonic_plan.
void record_bitonic(Context& ctx, Recorder& r, const Job& job, const BitonicTuning& tuning,
                    const std::function<void(std::size_t pass)>& after_pass = {});

}  // namespace vkc::sorting
