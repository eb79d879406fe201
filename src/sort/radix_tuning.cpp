// The radix sort's policy per device class: tables whose entries carry one line of evidence; the
// measurements behind them are in docs/perf-notes.md under the anchor each table names.
#include <algorithm>
#include <optional>
#include <string>

#include "sort/algorithm.hpp"
#include "sort/radix_policy.hpp"

namespace vkc::sorting {
namespace {

constexpr std::uint64_t kAnyCount = ~std::uint64_t{0};
constexpr std::uint64_t kLookbackLimit = (1u << 30) - 1;  // 30-bit counts in a look-back word

// NVIDIA's tiles (docs/perf-notes.md#radix-tiles). Two workgroups per SM only while the scatter
// declares at most about 24 KiB of shared memory, so large tiles stage in two rounds; small sorts
// take small tiles, as a pass over a few hundred tiles lasts about one tile's latency.
struct RadixTileEntry {
  std::uint32_t key_words, value_words;
  bool lookback;
  std::uint64_t up_to;
  RadixTile tile;
};
constexpr RadixTileEntry kNvidiaTiles[] = {
    // keys, values, look-back, up to n, {workgroup, items, rounds}; above each, its evidence (H100 unless
    // noted; ms against the next best shape) and its decision-log entry
    // 2^16: 0.064 vs 0.074 (512x10); docs/perf-notes.md#radix-tiles
    {1, 0, true, 1u << 18, {384, 8, 1}},
    // 2^20: 0.089 vs 0.094, 2^22: 0.205 vs 0.214 (512x10); docs/perf-notes.md#radix-tiles
    {1, 0, true, 1u << 22, {512, 16, 2}},
    // 2^26: 1.90 vs 2.03 (512x14 unpacked); 2^28: 7.16 vs 7.80; docs/perf-notes.md#radix-tiles
    {1, 0, true, kAnyCount, {512, 20, 2}},
    // 2^16 pairs: 0.069 vs 0.082 (512x10); docs/perf-notes.md#radix-tiles
    {1, 1, true, 1u << 18, {384, 8, 1}},
    // 2^20 pairs: 0.110 vs 0.114 (384x8); docs/perf-notes.md#radix-tiles
    {1, 1, true, 1u << 22, {512, 10, 1}},
    // 2^26 pairs: 2.48 vs 2.65 (448x14 unpacked); 448x20 spills; docs/perf-notes.md#radix-tiles
    {1, 1, true, kAnyCount, {448, 18, 2}},
    // two value planes stage 384x8 in two rounds (not measured small); docs/perf-notes.md#radix-tiles
    {1, 2, true, 1u << 18, {384, 8, 2}},
    // u32 keys + u64 values: 3.70 vs 4.58 (one round of 40 KiB); docs/perf-notes.md#radix-tiles
    {1, 2, true, kAnyCount, {512, 10, 2}},
    // 2^16 u64: 0.118 vs 0.147 (512x10); docs/perf-notes.md#radix-tiles
    {2, 0, true, 1u << 18, {384, 8, 1}},
    // 2^21 u64: 0.307 vs 0.345 (384x8); docs/perf-notes.md#radix-tiles
    {2, 0, true, 1u << 22, {512, 10, 1}},
    // 2^26 u64 interleaved: 4.364 vs 5.47 (512x16, one workgroup per SM); docs/perf-notes.md#radix-tiles
    {2, 0, true, kAnyCount, {448, 18, 2}},
    // as u64 keys alone; docs/perf-notes.md#radix-tiles
    {2, 1, true, 1u << 18, {384, 8, 1}},
    // as u64 keys alone; docs/perf-notes.md#radix-tiles
    {2, 1, true, 1u << 22, {512, 10, 1}},
    // 448x18 not measured; docs/perf-notes.md#radix-tiles
    {2, 1, true, kAnyCount, {448, 14, 2}},
    // two value planes, as u32 keys + u64 values; docs/perf-notes.md#radix-tiles
    {2, 2, true, 1u << 18, {384, 8, 2}},
    // 10.8 ms at 2^26; every shape tried ran one workgroup per SM; docs/perf-notes.md#radix-tiles
    {2, 2, true, kAnyCount, {512, 10, 1}},
    // reduce-then-scan keys (the look-back is faster); docs/perf-notes.md#radix-scan
    {1, 0, false, kAnyCount, {384, 14, 1}},
    // reduce-then-scan with values: not measured with rounds; docs/perf-notes.md#radix-tiles
    {1, 1, false, kAnyCount, {512, 10, 1}},
    // likewise; docs/perf-notes.md#radix-tiles
    {1, 2, false, kAnyCount, {512, 10, 1}},
    // likewise; docs/perf-notes.md#radix-tiles
    {2, 0, false, kAnyCount, {512, 10, 1}},
    // likewise; docs/perf-notes.md#radix-tiles
    {2, 1, false, kAnyCount, {512, 10, 1}},
    // likewise; docs/perf-notes.md#radix-tiles
    {2, 2, false, kAnyCount, {512, 10, 1}},
};

// Every count up to which some table entry holds: the size classes whose temporary bytes
// temporary_bytes_up_to compares.
constexpr std::uint64_t kTileBoundaries[] = {1u << 18, 1u << 22};

bool nvidia_hardware(const DeviceInfo& device) {
  return device.vendor_id == kVendorNvidia && !device.is_software();
}

// NVIDIA's table covers the subgroup size it was measured at.
std::optional<RadixTile> table_tile(const DeviceInfo& device, std::uint32_t key_words, std::uint32_t value_words,
                                    bool lookback, std::uint64_t count) {
  if (device.vendor_id != kVendorNvidia || device.min_subgroup_size != 32) return std::nullopt;
  for (const RadixTileEntry& e : kNvidiaTiles) {
    if (e.key_words == key_words && e.value_words == value_words && e.lookback == lookback && count <= e.up_to) {
      return e.tile;
    }
  }
  return std::nullopt;
}

// Elsewhere 16 subgroups per workgroup (512 invocations at 32 lanes, 64 at lavapipe's 4) and 16
// keys per invocation; NVIDIA devices outside the table 10, which stage in 20 KiB at 512.
RadixTile default_tile(const DeviceInfo& device) {
  const std::uint32_t limit = std::min(device.max_workgroup_invocations, device.max_workgroup_size[0]);
  const std::uint32_t min_subgroup = std::max<std::uint32_t>(1, device.min_subgroup_size);
  return {std::min({512u, limit, 16 * min_subgroup}), device.vendor_id == kVendorNvidia ? 10u : 16u, 1};
}

// Look-back needs forward progress between running workgroups, which NVIDIA's and AMD's
// discrete GPUs give; elsewhere reduce-then-scan, whose workgroups never wait on each other.
bool automatic_lookback(const DeviceInfo& device, std::uint64_t count) {
  const bool vendor = device.vendor_id == kVendorNvidia || device.vendor_id == kVendorAmd;
  return vendor && device.type == DeviceType::discrete_gpu && count <= kLookbackLimit;
}

bool wants_lookback(const DeviceInfo& device, RadixScan scan, std::uint64_t count) {
  switch (scan) {
    case RadixScan::lookback:
      if (count > kLookbackLimit) {
        throw Error("radix sort: the look-back scan handles at most 2^30 - 1 elements; use reduce_then_scan");
      }
      if (!device.vulkan_memory_model_device_scope) {
        throw Error("radix sort: the look-back scan needs vulkanMemoryModelDeviceScope, which '" + device.name +
                    "' lacks");
      }
      return true;
    case RadixScan::reduce_then_scan: return false;
    case RadixScan::automatic: return automatic_lookback(device, count) && device.vulkan_memory_model_device_scope;
  }
  return false;
}

RadixPolicy default_policy(const DeviceInfo& device, std::uint32_t key_words, std::uint32_t value_words,
                           bool lookback, std::uint64_t count) {
  const bool nvidia = nvidia_hardware(device);
  RadixPolicy p;
  p.lookback = lookback;
  p.tile = table_tile(device, key_words, value_words, lookback, count).value_or(default_tile(device));
  // NVIDIA starts a dispatch's workgroups in index order, as CUB's single-pass scans rely on:
  // there tiles go by workgroup index, saving the ticket's round trip
  // (docs/perf-notes.md#radix-tickets).
  p.tickets = !nvidia;
  // NVIDIA: 2 for 32-bit keys with 32-bit values, 3 otherwise; elsewhere 4, unmeasured
  // (docs/perf-notes.md#radix-look-back-window).
  p.lookback_window = !nvidia ? 4 : key_words == 1 && value_words == 1 ? 2 : 3;
  // On a CPU a spinning workgroup holds one of few threads and can outlast lavapipe's loop limit
  // (docs/perf-notes.md#radix-on-cpu-devices).
  p.lookback_spins = !device.is_software();
  p.ballot_words = device.max_subgroup_size <= 32 ? 1 : 4;  // docs/perf-notes.md#radix-ranking
  // Only u32 keys alone gain from the second copy; values or 64-bit keys take more registers
  // with it (docs/perf-notes.md#radix-full-tile-scatter).
  p.full_tile_scatter = key_words == 1 && value_words == 0;
  // NVIDIA from 2^27 pairs, slower below (docs/perf-notes.md#radix-interleaved-pairs).
  p.interleaved_pairs_from = nvidia ? std::uint64_t{1} << 27 : 0;
  // Its second copy of the scatter's steps doubles what a CPU device compiles for 64-bit keys,
  // where no sort is fast (docs/perf-notes.md#radix-shared-words).
  p.shared_words = !device.is_software();
  return p;
}

// Fits the tile to the device's shared memory: fewer items where it is short, in rounds that
// still divide them; ranks packed only where every rank fits 16 bits.
void fit_to_device(const DeviceInfo& device, std::uint32_t value_words, RadixPolicy& p) {
  RadixTile& t = p.tile;
  if (t.workgroup == 0 || t.items == 0 || t.rounds == 0) throw Error("radix sort: a policy's tile is empty");
  if (t.items % t.rounds) t.rounds = 1;
  const std::uint32_t subgroups = radix_max_subgroups(device, t.workgroup);
  const auto bytes = [&](std::uint32_t items) {
    return (radix_shared_words(subgroups, t.workgroup * items / t.rounds, value_words) + radix_fixed_shared_words(subgroups)) * 4;
  };
  while (t.items > t.rounds && bytes(t.items) > device.shared_memory_bytes) t.items -= t.rounds;
  if (bytes(t.items) > device.shared_memory_bytes) {
    throw Error("radix sort: '" + device.name + "' has too little shared memory for a tile");
  }
  p.packed_ranks = p.packed_ranks && t.keys() <= (1u << 16);
}

bool has_subgroup_operation(const DeviceInfo& device, const std::string& name) {
  return std::find(device.subgroup_operations.begin(), device.subgroup_operations.end(), name) !=
         device.subgroup_operations.end();
}

}  // namespace

std::uint32_t radix_key_words(KeyType key) {
  return std::max<std::uint32_t>(1, static_cast<std::uint32_t>(key_bytes(key) / 4));
}

std::uint32_t radix_max_subgroups(const DeviceInfo& device, std::uint32_t workgroup) {
  return std::max<std::uint32_t>(1, workgroup / std::max(1u, device.min_subgroup_size));
}

std::uint32_t radix_shared_words(std::uint32_t subgroups, std::uint32_t round_keys, std::uint32_t value_words) {
  return std::max(subgroups * 256, round_keys * std::max(1u, value_words));
}

std::uint32_t radix_fixed_shared_words(std::uint32_t subgroups) { return 2 * 256 + subgroups + 8; }

std::span<const std::uint64_t> radix_tile_boundaries() { return kTileBoundaries; }

std::uint64_t radix_lookback_limit() { return kLookbackLimit; }

RadixPolicy radix_policy(const DeviceInfo& device, const SortDesc& desc, std::uint64_t count,
                         const RadixPolicyEdit& edit) {
  for (const char* op : {"vote", "ballot", "arithmetic"}) {
    if (!has_subgroup_operation(device, op)) {
      throw Error(std::string("radix sort needs subgroup ") + op + " operations, which '" + device.name + "' lacks");
    }
  }
  const std::uint32_t key_words = radix_key_words(desc.key_type);  // narrow keys take 32-bit keys' tiles
  const auto value_words = static_cast<std::uint32_t>(value_bytes(desc.value_type) / 4);
  const bool lookback = wants_lookback(device, desc.options.radix_scan, count);
  RadixPolicy p = default_policy(device, key_words, value_words, lookback, count);
  if (edit) edit(p);
  if (p.lookback && count > kLookbackLimit) throw Error("radix sort: a look-back policy for more than 2^30 - 1 elements");
  fit_to_device(device, value_words, p);
  return p;
}

}  // namespace vkc::sorting
