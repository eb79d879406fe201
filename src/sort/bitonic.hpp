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

/// The shape of the one-workgroup sort (shaders/sort/bitonic/small.comp): a network of 2^log_n
/// positions, 2^e_bits elements per invocation. log_n is 0 when the count needs more passes.
struct SmallBitonic {
  std::uint32_t log_n = 0;
  std::uint32_t e_bits = 3;
  std::uint32_t workgroup_size() const { return 1u << (log_n - e_bits); }
};

/// The one-workgroup sort's shape for a job, with at least 2^min_e_bits elements per invocation
/// (more where the device's workgroups are too small); log_n 0 if the tile exceeds shared memory.
/// The default, 4 elements, was fastest on an H100 up to 4,096 keys (docs/perf-notes.md).
SmallBitonic small_bitonic_shape(const DeviceInfo& device, const Job& job, std::uint32_t min_e_bits = 2);

/// Records the one-workgroup sort (one dispatch).
void record_small_bitonic(detail::ComputeDevice& ctx, Recorder& r, const Job& job, const SmallBitonic& shape);

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
void record_bitonic(detail::ComputeDevice& ctx, Recorder& r, const Job& job, const BitonicTuning& tuning,
                    const std::function<void(std::size_t pass)>& after_pass = {});

}  // namespace vkc::sorting
