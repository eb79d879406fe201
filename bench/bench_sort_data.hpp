// Inputs, CPU baselines, verification and plotting for `vkc bench sort`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bench_internals.hpp"
#include "harness.hpp"
#include "vkc/device_set.hpp"
#include "vkc/sort.hpp"

namespace vkc::cli {

/// The most elements verified against a CPU sort of the same size; larger outputs are verified
/// by the order contract element by element and the fingerprints of the input (verify.hpp).
constexpr std::uint64_t kReferenceMaxCount = std::uint64_t{1} << 26;

struct SortData {
  std::vector<std::byte> keys;       ///< the input keys
  std::vector<std::byte> values;     ///< value i = i (u32 or u64), empty for keys only
  std::vector<std::byte> reference;  ///< the keys sorted on the CPU under the order contract, up to kReferenceMaxCount
  sorting::Fingerprint keys_fingerprint;   ///< of the input keys, past kReferenceMaxCount
  sorting::Fingerprint pairs_fingerprint;  ///< of the input (key, value) pairs, past kReferenceMaxCount with values
};

/// The seed of the distributions drawn as the CUB peer draws them (bench/key_distributions.hpp):
/// the peer's default --seed, so that both sort the same keys.
constexpr std::uint64_t kSharedDistSeed = 1;

KeyType parse_key_type(const std::string& name);
ValueType parse_value_type(const std::string& name);

/// Keys of `desc.key_type` drawn by `dist` (uniform, sorted, reverse, few, equal, or one of
/// bench/key_distributions.hpp's, drawn as the CUB peer draws them) from a fixed seed, values as
/// indices, and the CPU reference order (or, past kReferenceMaxCount, the input's fingerprints).
/// Uniform keys: integers of random bits, f32 and f64 uniform in [-1e6, 1e6], f16 and bf16 every
/// finite bit pattern equally likely. Throws Error where `dist` does not take the key type. The reference order is the contract's, or,
/// with a bit range in desc.options, a stable sort by the range-cut ranks (key_bits.hpp).
SortData make_sort_data(const SortDesc& desc, const std::string& dist, std::uint64_t n);

/// Throws Error unless `keys` equals the reference and every value is the index of its key; past
/// kReferenceMaxCount, unless the keys are in the contract's order (by the bit range, if any) and
/// the fingerprint of the keys (or of the pairs) is the input's. For a stable sort (radix, and so
/// every sort by a bit range) the values among equal keys must also rise.
void verify_sorted(const SortDesc& desc, const SortData& data, const std::vector<std::byte>& keys,
                   const std::vector<std::byte>& values);

/// Median milliseconds of std::sort (one thread) or std::sort(std::execution::par) on a copy;
/// with a bit range, std::stable_sort by the range-cut ranks.
double time_cpu_sort(const SortDesc& desc, const SortData& data, int runs, bool parallel);

/// Bytes a radix sort must move through device memory per key (BENCHMARKS.md, "Method"): each
/// digit pass reads and writes keys and values, the histogram reads the keys once, and there is
/// one pass per 8-bit digit that the bit range covers: passes x 2(k + v) + k for k key and v value
/// bytes (36 for u32 keys, 3 for u8 keys, 20 for u32 keys sorted by bits 0:16).
std::uint64_t radix_bytes_per_key(const SortDesc& desc);

/// Median wall-clock milliseconds of the convenient API on a host array (upload, sort,
/// download) on a warm context, a fresh copy of the input before each call (not timed); the
/// last result verified.
/// On a DeviceSet, the sort split across its devices (sort.hpp, "Several devices").
template <class Devices>
double time_host_to_host(Devices& ctx, const SortDesc& desc, const SortData& data, int runs);

/// The copy bound of `bytes`: pinned host memory to the device plus back, vkCmdCopyBuffer, each
/// the median of `runs` GPU-timed copies.
double copy_bound_ms(Context& ctx, std::uint64_t bytes, int runs);

/// A PNG of keys/s against n on log axes, one line per algorithm, through gnuplot.
void plot_keys_per_second(const bench::Table& tall, const std::string& png, const bench::RunInfo& info);

}  // namespace vkc::cli
