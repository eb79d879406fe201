// The radix sort's tuning as data: one policy per sort, filled from the device class's table
// (radix_tuning.cpp), with each choice's evidence in the decision log (docs/perf-notes.md).
// Tests and benchmark probes construct policies through this header: they edit the default
// policy of a sort (RadixPolicyEdit), and radix_policy() returns what a sort would record.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include <memory>

#include "vkc/context.hpp"
#include "vkc/sort.hpp"

namespace vkc::sorting {

/// The scatter's tile: `workgroup` invocations of `items` keys each, staged through shared
/// memory in `rounds` rounds (items is a multiple of rounds).
struct RadixTile {
  std::uint32_t workgroup = 0, items = 0, rounds = 1;
  std::uint32_t keys() const { return workgroup * items; }
  bool operator==(const RadixTile&) const = default;
};

/// The histogram pass (docs/perf-notes.md#radix-histogram): chunks of `items` keys per
/// invocation, read 16 bytes at a time where the keys' offset allows (`vector_loads`), over a
/// grid of `groups` workgroups, or `large_groups` past `small_up_to` chunks.
struct RadixHistogramPolicy {
  std::uint32_t items = 16;
  bool vector_loads = true;
  std::uint64_t groups = 512, large_groups = 2048, small_up_to = 16384;
};

/// How 64-bit keys travel between passes (docs/perf-notes.md#radix-64-bit-key-layout):
/// interleaved, every pass storing each key with one 8-byte store, or planar (one word at a
/// time), which is also what keys at an offset that is not a multiple of 8 bytes get.
enum class WideKeyLayout { interleaved, planar };

struct RadixPolicy {
  /// Decoupled look-back, else reduce-then-scan (RadixScan; docs/perf-notes.md#radix-scan).
  bool lookback = false;
  /// Workgroup, keys per invocation and staging rounds (docs/perf-notes.md#radix-tiles).
  RadixTile tile;
  /// Two 16-bit ranks per register; tiles up to 2^16 keys (docs/perf-notes.md#radix-packed-ranks).
  bool packed_ranks = true;
  /// Look-back tiles in ticket order, else workgroup order (docs/perf-notes.md#radix-tickets).
  bool tickets = true;
  /// Earlier tiles read at once (docs/perf-notes.md#radix-look-back-window).
  std::uint32_t lookback_window = 4;
  /// Spin on unpublished tiles, else wait in barrier rounds (docs/perf-notes.md#radix-on-cpu-devices).
  bool lookback_spins = true;
  /// 1 where no subgroup exceeds 32 lanes, else 4 (docs/perf-notes.md#radix-ranking).
  std::uint32_t ballot_words = 1;
  /// A guard-free copy of the scatter for full tiles (docs/perf-notes.md#radix-full-tile-scatter).
  bool full_tile_scatter = false;
  /// docs/perf-notes.md#radix-64-bit-key-layout
  WideKeyLayout wide_keys = WideKeyLayout::interleaved;
  /// 32-bit pairs kept interleaved from this count; 0: never (docs/perf-notes.md#radix-interleaved-pairs).
  std::uint64_t interleaved_pairs_from = 0;
  /// 64-bit keys one of whose words every key has move the other word alone
  /// (docs/perf-notes.md#radix-shared-words).
  bool shared_words = true;
  RadixHistogramPolicy histogram;
  /// Test setting: no tile but the first publishes an inclusive prefix, so every look-back
  /// walks back to tile 0.
  bool aggregates_only = false;
  /// Probe setting: record the histogram and the first `passes_recorded` passes only (the
  /// output is then wrong), to time the steps one by one.
  std::uint32_t passes_recorded = UINT32_MAX;

  bool operator==(const RadixPolicy&) const = default;
};

/// A change to the default policy of a sort, applied before the tile is fitted to the device's
/// shared memory. Empty: the device class's policy.
using RadixPolicyEdit = std::function<void(RadixPolicy&)>;

/// The policy a radix sort of `count` elements described by `desc` records on `device` (the
/// device class's table, `edit`, then the tile fitted to shared memory). Throws Error where the
/// device cannot run it.
RadixPolicy radix_policy(const DeviceInfo& device, const SortDesc& desc, std::uint64_t count,
                         const RadixPolicyEdit& edit = {});

class SortPlan;
/// A radix sort of desc.max_count elements planned under `edit` (tests and probes; the planner's
/// own plans take the device class's policy).
std::unique_ptr<SortPlan> plan_radix(const DeviceInfo& device, const SortDesc& desc, const RadixPolicyEdit& edit);

/// 32-bit words a radix pass ranks per key (1 or 2): a narrow (8- or 16-bit) key is ranked as one
/// word and kept in its own bytes (the RADIX_NARROW_KEYS shaders).
std::uint32_t radix_key_words(KeyType key);

/// Subgroups a workgroup of `workgroup` invocations holds at the device's smallest subgroup
/// size: the size of the kernels' per-subgroup arrays (MAX_SUBGROUPS).
std::uint32_t radix_max_subgroups(const DeviceInfo& device, std::uint32_t workgroup);
/// The scatter's counters / staging area in words (SHARED_WORDS), and its other shared words.
std::uint32_t radix_shared_words(std::uint32_t subgroups, std::uint32_t round_keys, std::uint32_t value_words);
std::uint32_t radix_fixed_shared_words(std::uint32_t subgroups);
/// The counts at which a device class's default tile may change.
std::span<const std::uint64_t> radix_tile_boundaries();
/// The most elements a look-back sort takes: its words pack a 2-bit flag with a 30-bit count.
std::uint64_t radix_lookback_limit();

}  // namespace vkc::sorting
