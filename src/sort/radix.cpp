// LSD radix sort with 8-bit digits (Onesweep: Adinets and Merrill, 2022).
//
// One histogram pass counts every digit of every pass in a single read of the keys; its last
// workgroup turns the counts into digit offsets and marks the passes whose digit is the same for
// every key, which then move nothing. Each remaining pass ranks tiles of WG * ITEMS keys in
// shared memory (subgroup multisplit) and scatters them stably, ping-ponging between the caller's
// buffers (A) and the temporary ones (B); the GPU decides which pair each pass reads, and a last
// kernel copies B to A when an odd number of passes ran. A pass's shader (scatter_shader) is
// sort/radix/scatter, or its copy with a guard-free path for full tiles (32-bit keys alone), or
// for the last pass of 64-bit keys a copy that stores each key whole, or the match-any ranking on
// request.
//
// A tile's global digit offsets come from one of two scans:
// - look-back: single-pass chained scan with decoupled look-back; workgroups wait on earlier
//   tiles, so it needs forward progress between workgroups. Counts must stay below 2^30 (the
//   look-back word packs a 2-bit flag with a 30-bit count).
// - reduce-then-scan: an upsweep counts each tile's digits, a scan turns them into offsets, and
//   the scatter reads them; no workgroup ever waits on another.
// Pass 0 can take the second form without an upsweep: the histogram pass, which reads every key
// anyway, then reads them in the scatter's tiles and counts each tile's pass-0 digits.
// Reduce-then-scan always does; look-back does only in tuning runs (lookback_first_pass_from_table).
// RadixScan::automatic takes look-back on NVIDIA and AMD discrete GPUs (whose schedulers keep
// started workgroups running) and reduce-then-scan everywhere else, lavapipe included: its
// look-back would not hang (tiles are numbered by ticket, in the order workgroups start; by
// workgroup index only on NVIDIA, tickets_needed), but a spinning workgroup there holds one of
// very few CPU threads.
#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "core/kernels.hpp"
#include "core/loader.hpp"
#include "core/pipeline.hpp"
#include "sort/algorithm.hpp"

namespace vkc::sorting {
namespace {

// The state buffer's layout, mirrored from shaders/common/radix.glsl.
constexpr std::uint64_t kStateHeaderWords = 4352;
constexpr std::uint64_t kDispatchWord = 2080;      // each pass's scatter grid (3 words), written by the histogram
constexpr std::uint64_t kScanDispatchWord = 2104;  // each pass's scan_tiles grid
constexpr std::uint64_t kCopyDispatchWord = 2128;  // copy_back's grid
constexpr std::uint64_t kPairedDispatchWord = 2136;  // each pass's grid for its interleaved pairs' pipeline
constexpr std::uint32_t kRadix = 256;
// The scatter's SCAN_MODE (radix_scatter.glsl).
constexpr std::uint32_t kScanLookback = 0, kScanTable = 1, kScanTableClearing = 2;
// The histogram's grid: workgroups take chunks in a grid-stride loop, so that few of them pay the
// per-workgroup cost (1,024 global atomics and a device-scope release at the end): 512 workgroups
// up to 16,384 chunks (2^26 keys in chunks of 256 x 16), 2,048 above. On an H100 (2026-11-25,
// sorts whose temporary buffer is kept clear, two rounds) 512 against the 256 then used up to
// 4,096 chunks and 2,048 above took u32 keys from 0.474 to 0.4715 ms at 2^24, 0.8735 to 0.8675 at
// 2^25 and 1.653 to 1.6505 at 2^26, pairs 1.199 to 1.192 at 2^25, u64 keys 2.4675 to 2.4625 at 2^25;
// at 2^20 and 2^22 they tied with 256, at 2^27 and 2^28 they were 0.1-0.4% slower than 2,048, and
// 1,024 lost at 2^22 and 2^24 (docs/perf-notes.md). (2026-11-24, before the counts were kept
// clear: 256 against 2,048 had taken u32 keys from 0.575 to 0.567 ms at 2^24 and cost 0.5% at 2^28.)
// VKC_RADIX_HISTOGRAM_GROUPS sets the count, for tuning runs.
constexpr std::uint64_t kSmallHistogramGroups = 512;
constexpr std::uint64_t kSmallHistogramUpTo = 16384;  // chunks
constexpr std::uint64_t kHistogramGroups = 2048;
constexpr std::uint64_t kLookbackLimit = (1u << 30) - 1;  // 30-bit counts in a look-back word
constexpr std::uint64_t kAlign = 256;                     // every storage-buffer offset alignment

constexpr std::uint64_t align_up(std::uint64_t x) { return (x + kAlign - 1) / kAlign * kAlign; }

struct Tuning {
  std::uint32_t workgroup = 0;       // scatter and upsweep invocations
  std::uint32_t items = 0;           // keys per invocation
  std::uint32_t max_subgroups = 0;   // workgroup / smallest subgroup size
  std::uint32_t shared_words = 0;    // the scatter's counters / staging area
  std::uint32_t staging_rounds = 1;  // the scatter's STAGING_ROUNDS: items is a multiple of it
  bool packed_ranks = false;         // the scatter's PACKED_RANKS (see scatter_knobs)
  bool reload_keys = false;          // the scatter's RELOAD_KEYS (likewise)
  bool serial_ranking = false;       // the scatter's SERIAL_RANKING (likewise)
  bool tickets = true;               // the scatter's TICKETS (see tickets_needed)
  bool aggregates_only = false;      // the scatter's AGGREGATES_ONLY, a test setting (VKC_RADIX_AGGREGATES_ONLY=1)
  std::uint32_t tile() const { return workgroup * items; }
};

// A developer switch of the radix sort (VKC_RADIX_*): unset or empty when the caller's default
// holds, else on where the value is "1" and off otherwise.
std::optional<bool> env_flag(const char* name) {
  const char* text = std::getenv(name);
  if (!text || !*text) return std::nullopt;
  return *text == '1';
}

// A developer number of the radix sort (VKC_RADIX_*): unset, empty or not a number when the
// caller's default holds.
std::optional<std::uint64_t> env_number(const char* name) {
  const char* text = std::getenv(name);
  if (!text || !*text) return std::nullopt;
  char* end = nullptr;
  const std::uint64_t value = std::strtoull(text, &end, 10);
  return end != text ? std::optional<std::uint64_t>(value) : std::nullopt;
}

std::uint64_t histogram_groups(std::uint64_t chunks) {
  const std::uint64_t groups = chunks <= kSmallHistogramUpTo ? kSmallHistogramGroups : kHistogramGroups;
  const std::uint64_t forced = env_number("VKC_RADIX_HISTOGRAM_GROUPS").value_or(0);
  return std::min(chunks, forced > 0 ? forced : groups);
}

// Keys per invocation of the histogram's chunks, where they are not the scatter's tiles, all of
// their loads in flight at once: 16 (on an H100, 2026-11-25, the fill and histogram of u32 keys took
// 0.146 against 0.153 ms at 2^26 and 0.497 against 0.505 at 2^28 with 16 instead of 32; 64 took
// 0.164 and 0.537). VKC_RADIX_HISTOGRAM_ITEMS sets it, for tuning runs.
std::uint32_t histogram_items() {
  const std::uint64_t items = env_number("VKC_RADIX_HISTOGRAM_ITEMS").value_or(0);
  return items >= 1 && items <= 64 ? static_cast<std::uint32_t>(items) : 16;
}

// Whether the histogram's chunks are read 16 bytes at a time (VECTOR_LOADS in histogram.comp),
// where the keys' offset allows. On an H100 (2026-11-25) the histogram of u64 keys took 0.265
// against 0.285 ms at 2^26 (-0.4% of the sort) and that of u32 keys tied (0.144 / 0.145). Tried
// there and dropped: counters in 4 or 8 lane-interleaved copies (+11% / +45% at 2^28, although
// fewer bank conflicts were the idea), and with 8 copies counting a chunk pass by pass,
// workgroups of 128 or 512 and 32 keys per invocation, none back below one copy
// (docs/perf-notes.md). VKC_RADIX_HISTOGRAM_VECTORS=0 turns it off.
bool histogram_vectors() { return env_flag("VKC_RADIX_HISTOGRAM_VECTORS").value_or(true); }

// How many of the sort's passes to record, for timing runs that measure the steps one by one
// (the output is then wrong): VKC_RADIX_STEPS=0 records the histogram alone, N the histogram and
// the first N passes; unset, every step.
std::uint64_t steps_to_record() { return env_number("VKC_RADIX_STEPS").value_or(UINT64_MAX); }

// Overrides the scatter's tile for tuning runs (bench/probes/radix.cpp): "WORKGROUP,ITEMS" or
// "WORKGROUP,ITEMS,ROUNDS" (one round unless given).
// Any workgroup size works; lavapipe's own tiles are powers of two, NVIDIA's are not (a test
// runs 448 x 4 in two rounds on lavapipe; radix_scatter.glsl notes the lavapipe fault that
// non-powers of two once hit).
void tuning_override(std::uint32_t& workgroup, std::uint32_t& items, std::uint32_t& rounds) {
  const char* text = std::getenv("VKC_RADIX_TILE");
  std::uint32_t w = 0, i = 0, r = 1;
  if (text && std::sscanf(text, "%u,%u,%u", &w, &i, &r) >= 2 && w && i && r) {
    workgroup = w;
    items = i;
    rounds = r;
  }
}

// Three ways for the scatter to hold fewer registers per key, so that larger tiles keep two
// workgroups per SM on NVIDIA: two 16-bit ranks per register (PACKED_RANKS in radix_scatter.glsl;
// ranks must fit 16 bits), keys read a second time for the staging instead of kept from the
// ranking (RELOAD_KEYS), and each key's ranking made to wait for the previous one's
// (SERIAL_RANKING). Packed ranks are on wherever a tile fits 16 bits: on an H100 they let 512 x 20
// keys fit the 64 registers that keep two workgroups per SM (-8% at 2^28 keys) and cost 0-0.7% where
// the tile stayed the same (docs/perf-notes.md, fifteenth session). The other two lost every
// shape measured there and stay off, for tuning runs. VKC_RADIX_PACKED_RANKS=0 turns packing off,
// VKC_RADIX_RELOAD_KEYS=1 and VKC_RADIX_SERIAL_RANKING=1 turn the others on.
void scatter_knobs(Tuning& t) {
  t.packed_ranks = env_flag("VKC_RADIX_PACKED_RANKS").value_or(true) && t.tile() <= (1u << 16);
  t.reload_keys = env_flag("VKC_RADIX_RELOAD_KEYS").value_or(false);
  t.serial_ranking = env_flag("VKC_RADIX_SERIAL_RANKING").value_or(false);
  t.aggregates_only = env_flag("VKC_RADIX_AGGREGATES_ONLY").value_or(false);
}

// Whether the look-back numbers its tiles by ticket (TICKETS in radix_lookback.glsl) rather than
// by workgroup index, which needs the device to start a dispatch's workgroups in index order.
// NVIDIA's GPUs do: CUB's own single-pass scans (DeviceScan, DeviceSelect) number their tiles by
// block index under a decoupled look-back and rely on it. There the ticket's round trip (a global
// atomic on one word, which every tile of the pass waits on before it can load its keys) went: on
// an H100 (2026-11-25, docs/perf-notes.md) u32 keys 0.572 -> 0.541 ms at 2^24 (-5.5%) and 7.12 ->
// 6.95 at 2^28 (-2.4%), u32 pairs -4% / -2% and u64 keys -4% / -1.6% at 2^24 / 2^26. Every other
// device keeps tickets. VKC_RADIX_TICKETS=0 or 1 forces either.
bool tickets_needed(const DeviceInfo& device) {
  const bool in_order = device.vendor_id == kVendorNvidia && !device.is_software();
  return env_flag("VKC_RADIX_TICKETS").value_or(!in_order);
}

// Subgroups a workgroup of `workgroup` invocations can hold at the device's smallest subgroup size:
// the size of the shaders' per-subgroup arrays (MAX_SUBGROUPS).
std::uint32_t max_subgroups(const DeviceInfo& device, std::uint32_t workgroup) {
  return std::max<std::uint32_t>(1, workgroup / std::max(1u, device.min_subgroup_size));
}

std::uint32_t staging_words(std::uint32_t subgroups, std::uint32_t tile, std::uint32_t words) {
  return std::max(subgroups * kRadix, tile * words);
}

// 16 subgroups per workgroup (512 invocations at NVIDIA's 32, 64 at lavapipe's 4) and 16 keys per
// invocation, fewer where shared memory is short. On NVIDIA 10 keys in one staging round, for
// the cases nvidia_tile does not cover: 5,120 keys stage in 20 KiB, under the line past which the
// driver plans one workgroup per SM and raises the registers (docs/perf-notes.md).
std::uint32_t keys_per_invocation(const DeviceInfo& device) { return device.vendor_id == kVendorNvidia ? 10 : 16; }

// NVIDIA's tiles. This driver sizes a shader's registers by the occupancy its shared memory
// allows: two workgroups per SM only while the scatter declares at most about 24 KiB (measured
// on an H100: the same code took 64 registers with 22.6 KiB and 71-74 with 30 KiB, and ran 30%
// slower). A tile therefore stages its keys in STAGING_ROUNDS rounds, so that its shared memory
// stays under that line while it grows past 5,600 keys (docs/perf-notes.md, twelfth session).
// With packed ranks (scatter_knobs), tiles grew again within the registers that keep two
// workgroups per SM (fifteenth session, H100, look-back, ms at 2^26 keys; 2^28 in brackets):
// - 32-bit keys alone from 2^23: 512 x 20 in two rounds, 64 registers, 1.90 against 2.03 for
//   512 x 14 unpacked (7.16 against 7.80). 512 x 22 took 128 registers, 384 x 24 and 26 took 80
//   and were 2-4% slower;
// - the look-back with 32-bit values from 2^23: 448 x 18 in two rounds, 72 registers. u32 pairs
//   2.48 against 2.65 (448 x 14 unpacked); 448 x 20 took 95-111 registers, 512 x 16 81 (2026-11-25:
//   one workgroup per SM, 3.24 ms). u64 keys with u32 values keep 448 x 14 (448 x 18 not measured);
// - 64-bit keys alone from 2^23: 448 x 18 in two rounds, 72 registers, which the paired
//   pipeline (interleaved_passes, paired_last_pass) keeps; at 512 x 16 it took 81 registers, one
//   workgroup per SM (sixth session of 2026-11-25, planar passes, ms at 2^26, word-at-a-time last
//   pass in brackets: H100 4.58-4.60 against 4.73 for 512 x 16 (4.85-4.86), H200 4.455 against
//   4.53 (4.44); interleaved: 4.364 against 5.47 and 4.061 against 5.36). With the word-at-a-time
//   last pass, 512 x 16 had been 2% faster than 448 x 18;
// - u32 keys with u64 values, look-back: 512 x 10 in two rounds, whose two value planes still
//   stage in 20 KiB (twelfth session: 3.70 against 4.58 for one round of 40 KiB, one workgroup per
//   SM);
// - 32-bit keys alone, reduce-then-scan: 384 x 14 in one round (the look-back is faster).
// Other cases keep 512 x 10 in one round: 64-bit keys with 64-bit values (10.8 ms; every shape
// tried took one workgroup per SM, the best 2% faster) and reduce-then-scan with values (not
// measured with rounds).
// Smaller sorts take smaller tiles (thirteenth session, H100, look-back): a pass over a few hundred
// tiles or fewer lasts about as long as one tile's latency plus its look-back chain, so there the
// tile's size costs more than the per-tile work it spreads. Up to 2^18 keys 384 x 8 (2^16 keys:
// 0.064 against 0.074 ms, pairs 0.069 against 0.082, u64 0.118 against 0.147); up to 2^22 512 x 10
// in one round (2^20: 0.097 against 0.102, pairs 0.110 against 0.114, u64 2^21 0.307 against
// 0.345), except 32-bit keys alone, which take 512 x 16 in two rounds packed (fifteenth session:
// 0.089 against 0.094 ms at 2^20, 0.122 against 0.139 at 2^21, 0.205 against 0.214 at 2^22). Two
// value planes (64-bit values, not measured small) stage 384 x 8 in two rounds and keep their own
// tile in between.
struct TileShape {
  std::uint32_t workgroup = 0, items = 0, rounds = 1;
};

constexpr std::uint64_t kSmallTileUpTo = std::uint64_t{1} << 18;
constexpr std::uint64_t kMediumTileUpTo = std::uint64_t{1} << 22;

std::optional<TileShape> nvidia_tile(const DeviceInfo& device, std::uint32_t key_words, std::uint32_t value_words,
                                     bool lookback, std::uint64_t max_count) {
  if (device.vendor_id != kVendorNvidia || device.min_subgroup_size != 32) return std::nullopt;
  const bool keys_alone = key_words == 1 && value_words == 0;
  if (!lookback) return keys_alone ? std::optional<TileShape>({384, 14, 1}) : std::nullopt;
  if (max_count <= kSmallTileUpTo) return TileShape{384, 8, value_words == 2 ? 2u : 1u};
  if (max_count <= kMediumTileUpTo && keys_alone) return TileShape{512, 16, 2};
  if (max_count <= kMediumTileUpTo && value_words < 2) return TileShape{512, 10, 1};
  if (keys_alone) return TileShape{512, 20, 2};
  if (value_words == 0) return TileShape{448, 18, 2};
  if (key_words == 1 && value_words == 1) return TileShape{448, 18, 2};
  if (value_words == 1) return TileShape{448, 14, 2};
  return key_words == 1 ? std::optional<TileShape>({512, 10, 2}) : std::nullopt;
}

// 32-bit words of a key and of a value (0 without values), as the kernels count them.
std::uint32_t words_of(KeyType key) { return static_cast<std::uint32_t>(key_bytes(key) / 4); }
std::uint32_t words_of(ValueType value) { return static_cast<std::uint32_t>(value_bytes(value) / 4); }

// Doubles are sorted as the unsigned integers of their ordered form (the histogram pass turns
// them into it, order_doubles.comp back after the sort), so that every 64-bit key moves one word at a
// time through the passes (SPLIT_KEY in radix.glsl): a double's own transform needs both words.
KeyType kernel_key_type(KeyType key) { return key == KeyType::f64 ? KeyType::u64 : key; }

// Keys are staged one word at a time (64-bit keys are split), values whole.
Tuning choose_tuning(const DeviceInfo& device, std::uint32_t key_words, std::uint32_t value_words, bool lookback,
                     std::uint64_t max_count) {
  const std::uint32_t min_subgroup = std::max<std::uint32_t>(1, device.min_subgroup_size);
  const std::uint32_t limit = std::min(device.max_workgroup_invocations, device.max_workgroup_size[0]);
  const std::optional<TileShape> shape = nvidia_tile(device, key_words, value_words, lookback, max_count);
  std::uint32_t workgroup = shape ? shape->workgroup : std::min({512u, limit, 16 * min_subgroup});
  std::uint32_t items = shape ? shape->items : keys_per_invocation(device);
  Tuning t;
  t.staging_rounds = shape ? shape->rounds : 1;
  tuning_override(workgroup, items, t.staging_rounds);
  t.workgroup = workgroup;
  t.max_subgroups = max_subgroups(device, workgroup);
  const std::uint32_t words = std::max(1u, value_words);
  const std::uint32_t fixed = 2 * kRadix + t.max_subgroups + 8;
  // Items stay a multiple of the rounds, also where shared memory is short and takes some away.
  if (items % t.staging_rounds) t.staging_rounds = 1;
  const auto shared_words = [&](std::uint32_t n) { return staging_words(t.max_subgroups, workgroup * n / t.staging_rounds, words); };
  while (items > t.staging_rounds && (shared_words(items) + fixed) * 4 > device.shared_memory_bytes) {
    items -= t.staging_rounds;
  }
  t.items = items;
  t.shared_words = shared_words(items);
  scatter_knobs(t);
  t.tickets = tickets_needed(device);
  if ((t.shared_words + fixed) * 4 > device.shared_memory_bytes) {
    throw Error("radix sort: '" + device.name + "' has too little shared memory for a tile");
  }
  return t;
}

// The sort's shape and where each piece of its temporary storage lies.
struct Plan {
  std::uint32_t key_words = 1;
  std::uint32_t value_words = 0;
  std::uint32_t passes = 4;
  bool lookback = false;
  bool first_from_table = true;  // pass 0 reads its offsets from the histogram's tile table
  bool interleaved = false;       // split keys (interleaved_passes) or 32-bit pairs
                                  // (interleaved_pairs_from) stay interleaved between passes
  bool paired_last = false;       // their last pass stores whole keys (paired_last_pass)
  std::uint64_t paired_from = 0;  // interleaved 32-bit pairs: the least count kept so (else 0)
  Tuning tuning;
  std::uint32_t first_table = 0;  // the state word where pass 0's tile table starts
  std::uint64_t tiles = 0;
  std::uint64_t alt_keys = 0, alt_values = 0, state = 0;  // byte offsets in the temporary range
  std::uint64_t keys_bytes = 0, values_bytes = 0, state_bytes = 0, zero_bytes = 0, total = 0;
};

// Bytes left free between the temporary buffer's key and value planes, for tuning runs: with
// none, a pass writes key i and value i a power of two apart at power-of-two counts, which might
// map both streams to the same memory channels (docs/perf-notes.md, the bench against the probe).
// VKC_RADIX_PLANE_PAD=BYTES sets it (rounded up to the offset alignment); unmeasured, so 0.
std::uint64_t plane_padding() { return align_up(env_number("VKC_RADIX_PLANE_PAD").value_or(0)); }

// Whether the look-back path's pass 0 reads its offsets from the histogram's tile table instead
// of looking back. NVIDIA took it for 32-bit keys alone from 2^23 keys while every tile took a
// ticket (it saved 2% there, and lost 2-3% for pairs and up to 0.5% for 64-bit keys, whose values
// or second words no look-back then hides). Since tiles go by workgroup index it no longer pays:
// on an H100 (2026-11-25) u32 keys took 0.525 against 0.542 ms at 2^24 and 1.807 against 1.825
// at 2^26 without it, a tie at 2^28 (6.95 ms either way): its scan is one more dependent dispatch,
// and each tile reads its 256 offsets from a digit-major table, one sector per digit. So it is off;
// VKC_RADIX_FIRST_TABLE=1 turns it on, for tuning runs (reduce-then-scan always uses the table).
bool lookback_first_pass_from_table() { return env_flag("VKC_RADIX_FIRST_TABLE").value_or(false); }

// Look-back needs forward progress between running workgroups, which NVIDIA's and AMD's
// discrete GPUs give; everything else, lavapipe included, takes reduce-then-scan. (On an H100,
// 32-bit keys alone took reduce-then-scan from 2^25 keys until the staging rounds made the
// look-back faster at every size: 7.74 against 8.31 ms at 2^28.)
bool automatic_lookback(const DeviceInfo& device, std::uint64_t max_count) {
  const bool vendor = device.vendor_id == kVendorNvidia || device.vendor_id == kVendorAmd;
  return vendor && device.type == DeviceType::discrete_gpu && max_count <= kLookbackLimit;
}

bool wants_lookback(const DeviceInfo& device, RadixScan scan, std::uint64_t max_count) {
  switch (scan) {
    case RadixScan::lookback:
      if (max_count > kLookbackLimit) {
        throw Error("radix sort: the look-back scan handles at most 2^30 - 1 elements; use reduce_then_scan");
      }
      return true;
    case RadixScan::reduce_then_scan: return false;
    case RadixScan::automatic: return automatic_lookback(device, max_count);
  }
  return false;
}

Plan make_plan(const DeviceInfo& device, KeyType key, ValueType value, std::uint64_t max_count, bool lookback) {
  Plan p;
  p.key_words = words_of(key);
  p.value_words = words_of(value);
  p.passes = 4 * p.key_words;
  p.lookback = lookback;
  p.tuning = choose_tuning(device, p.key_words, p.value_words, lookback, max_count);
  p.tiles = std::max<std::uint64_t>(1, groups_for(max_count, p.tuning.tile()));
  p.keys_bytes = std::max<std::uint64_t>(4, max_count * p.key_words * 4);
  p.values_bytes = std::max<std::uint64_t>(4, max_count * p.value_words * 4);
  // Look-back: two tables of tiles x 256 words, running passes alternating (the histogram zeroes
  // the first and each pass the next one), then pass 0's table of 256 x tiles counts if it uses
  // one. Reduce-then-scan: one table of 256 x tiles counts, pass 0's included.
  p.first_from_table = !lookback || lookback_first_pass_from_table();
  const std::uint64_t table_words = (lookback ? (p.first_from_table ? 3 : 2) : 1) * p.tiles * kRadix;
  if (kStateHeaderWords + table_words > UINT32_MAX) throw Error("radix sort: too many elements for the state's word indices");
  p.first_table = static_cast<std::uint32_t>(kStateHeaderWords + (lookback ? 2 * p.tiles * kRadix : 0));
  p.state_bytes = (kStateHeaderWords + table_words) * 4;
  p.zero_bytes = kStateHeaderWords * 4;
  // The state first, so that its header, which a sort leaves zero where it must be (radix.glsl),
  // lies at the same place for every count a temporary buffer serves.
  p.state = 0;
  p.alt_keys = align_up(p.state_bytes);
  p.alt_values = p.alt_keys + align_up(p.keys_bytes) + plane_padding();
  p.total = p.alt_values + (p.value_words ? align_up(p.values_bytes) : 0);
  return p;
}

// Temporary bytes for every count up to max_count (record_sort plans for the count it is given):
// within each of nvidia_tile's size classes, and on either side of the look-back's limit, a
// larger count needs more; but smaller tiles, or the look-back's second table, may need more
// than the first sizes past them.
std::uint64_t temporary_bytes_up_to(const DeviceInfo& device, const SortDesc& desc) {
  std::uint64_t bytes = 0;
  for (const std::uint64_t limit : {kSmallTileUpTo, kMediumTileUpTo, kLookbackLimit, desc.max_count}) {
    const std::uint64_t n = std::min(limit, desc.max_count);
    const bool lookback = wants_lookback(device, desc.options.radix_scan, n);
    bytes = std::max(bytes, make_plan(device, desc.key_type, desc.value_type, n, lookback).total);
  }
  return bytes;
}

// Whether the device lets shaders use device-scope atomics of the Vulkan memory model, which the
// look-back needs (the context enables the feature wherever it exists).
bool has_device_scope_memory_model(const Context& ctx) {
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
  vk::vkGetPhysicalDeviceFeatures2(ctx.physical_device(), &features);
  return v12.vulkanMemoryModel && v12.vulkanMemoryModelDeviceScope;
}

bool has_subgroup_operation(const DeviceInfo& device, const std::string& name) {
  return std::find(device.subgroup_operations.begin(), device.subgroup_operations.end(), name) !=
         device.subgroup_operations.end();
}

// NVIDIA's match-any (subgroupPartitionNV) finds equal digits in one instruction where the
// portable path takes eight ballots, but measured slower on an H200 (12.6 against 15.6 G keys/s with ballots,
// docs/perf-notes.md): the ballots are the default, VKC_RADIX_PARTITIONED=1 picks it.
bool use_partitioned(const DeviceInfo& device) {
  return device.subgroup_partitioned && env_flag("VKC_RADIX_PARTITIONED").value_or(false);
}

// Whether the last pass of planar 64-bit keys (interleaved_passes off; keys whose buffers are not
// 8-byte aligned are stored a word at a time in every pass) writes each key with one 8-byte store
// (sort/radix/scatter_paired) instead of a word at a time: by default for keys alone.
// On an H100 (2026-11-25) that pass took 0.793 ms against 0.54-0.55 for each other pass of a u64
// sort at 2^26 keys: it is the one that writes the caller's interleaved layout, and the plain
// shader stores each key's two words in two phases, so every warp's store covers 256 bytes for 128
// of data, twice as many L2 writes as a planar pass. With the paired stores and the 448 x 18 tile
// (nvidia_tile) u64 keys sort 5.4% faster on the H100 at 2^26 and 2^27, 1.5% at 2^24, and 0.3-0.8%
// slower on an H200 (docs/perf-notes.md, sixth session of 2026-11-25). Not measured with values.
// VKC_RADIX_PAIRED_LAST_PASS=0 turns it off, =1 on with values too.
bool paired_last_pass(const Plan& p) {
  return env_flag("VKC_RADIX_PAIRED_LAST_PASS").value_or(p.value_words == 0);
}

// Whether 64-bit keys stay interleaved between passes, every pass storing each key with one
// 8-byte store (sort/radix/scatter_paired), instead of planar between the first pass and the
// last: by default, with or without values (choose_whole_key_stores checks alignment). A planar
// pass reads and writes each word with its own 4-byte accesses; an interleaved one reads the two
// words with 4-byte loads too, but stores the key with one instruction. On an H100 and an H200
// (2026-11-25, 448 x 18 tiles) u64 keys alone sorted 5-13% faster so (2^26: 4.364 against 4.60 ms
// and 4.061 against 4.456); with values, on an H100 (2026-11-26, same registers: 72 with 32-bit
// values, 76 with 64-bit ones), u64 keys with u32 values 14-17% faster from 2^22 to 2^26 (6.550
// against 7.80 ms at 2^26) and with u64 values 6-7% (9.52 against 10.17), and on an H200 5.5-8.5%
// and 5-6% (5.46 against 5.97 ms and 9.11 against 9.66 at 2^26; docs/perf-notes.md).
// VKC_RADIX_INTERLEAVED=0 turns it off.
bool interleaved_passes() { return env_flag("VKC_RADIX_INTERLEAVED").value_or(true); }

// The least count of 32-bit keys with 32-bit values that stays interleaved between the first pass
// and the last (none: 0): each pass writes or reads every pair with one 8-byte access, in a layout
// that splits the pairs evenly between the keys and the values array of each buffer pair, so that
// no second temporary buffer is needed (sort/radix/scatter_interleaved_pairs; an odd count's last
// pair takes the word each array has left). The GPU decides per sort: counts from this one up
// whose four passes all run (radix_prepare.glsl); elsewhere the planar passes run. Only on
// the look-back path whose passes all look back (the upsweep of reduce-then-scan and copy_back read
// planar arrays). On an H100 (2026-11-26, probe, two rounds) they sorted 5.9% faster at 2^27 (4.535
// against 4.82 ms, the planar passes' 6% step there gone) and 3.5% at 2^28 (8.83 against 9.15), but
// 1.1% slower at 2^26, 3.2% at 2^25 and 8% at 2^24, part of it the four extra dispatches and
// barriers (about 20 us a sort), so NVIDIA takes them from 2^27; with odd counts too, 5.8% faster
// at 2^27 + 1 and 2.4% at 2^28 + 1 (the same registers, 72). Elsewhere they are unmeasured and
// off. VKC_RADIX_INTERLEAVED_PAIRS=0 turns them off, =1 on for every count.
std::uint64_t interleaved_pairs_from(const DeviceInfo& device) {
  const std::optional<bool> forced = env_flag("VKC_RADIX_INTERLEAVED_PAIRS");
  if (forced) return *forced ? 1 : 0;
  return device.vendor_id == kVendorNvidia ? std::uint64_t{1} << 27 : 0;
}

// The scatter's shader: subgroupPartitionNV (use_partitioned), the whole-key stores of 64-bit
// keys (every pass where they stay interleaved, else the last pass where asked for:
// choose_whole_stores), or ballots in one of two forms. Interleaved 32-bit pairs take this planar
// shader too, and record_pass adds sort/radix/scatter_interleaved_pairs beside it.
// sort/radix/scatter_full_tiles has a second copy of the key loads and the scatter for full
// tiles, without the per-key clamps, stand-ins and count checks. On an H100 (2026-11-25) it sorted
// 32-bit keys alone 2-2.5% faster from 2^24 to 2^28 keys, at the same 64 registers; with values or
// 64-bit keys the copies took the scatter from 72 to 94 registers (pairs, +33%) or from 64 to 81
// (u64 keys), so those keep the plain form. VKC_RADIX_FULL_TILES=0/1 forces either form.
const char* scatter_shader(const DeviceInfo& device, const Plan& p, std::uint32_t pass) {
  if (use_partitioned(device)) return "sort/radix/scatter_partitioned";
  // Pass 7, when it runs, is the last that runs and writes the caller's interleaved keys.
  if ((p.interleaved && p.key_words == 2) || (p.paired_last && pass + 1 == p.passes)) return "sort/radix/scatter_paired";
  const bool full_tiles = env_flag("VKC_RADIX_FULL_TILES").value_or(p.key_words == 1 && p.value_words == 0);
  return full_tiles ? "sort/radix/scatter_full_tiles" : "sort/radix/scatter";
}

// Words of a subgroup ballot the ranking works with: one where no subgroup is wider than 32
// lanes (NVIDIA, lavapipe, most mobile GPUs), else four. VKC_RADIX_BALLOT_WORDS=4 forces the
// general form, which the tests use to cover it on narrow subgroups.
std::uint32_t ballot_words(const DeviceInfo& device) {
  const char* forced = std::getenv("VKC_RADIX_BALLOT_WORDS");
  if (forced && std::string(forced) == "4") return 4;
  return device.max_subgroup_size <= 32 ? 1 : 4;
}

// Whether the look-back waits by spinning (GPUs) or in workgroup barrier rounds (CPU devices,
// where a spin loop can outlast lavapipe's loop limit; see radix_scatter.glsl).
// VKC_RADIX_LOOKBACK_SPIN=1 forces spinning, for a test that runs lavapipe single-threaded.
bool lookback_spins(const DeviceInfo& device) {
  return env_flag("VKC_RADIX_LOOKBACK_SPIN").value_or(!device.is_software());
}

// Earlier tiles whose look-back words one invocation reads at once: on NVIDIA 2 for 32-bit keys
// with 32-bit values and 3 otherwise, 4 elsewhere. On an H100 (2026-11-25, since the subgroup
// starts) 3 sorted u32 keys 0.3-0.6% faster than 4 at 2^26 and 2^28 in four rounds over two calls,
// pairs 0.4% at 2^26, u64 keys a tie, and 6 was slower; before that kernel 3 and 4 had tied. For
// u32 pairs 2 was faster still on the H100: -1.0% at 2^26 (2026-11-25), then -0.7 to -1.1% at
// 2^26, 2^27 and 2^28 in two probe rounds and -0.7% at 2^26 beside CUB (2026-11-26), a tie at 2^24
// and on an H200 from 2^24 to 2^26 (docs/perf-notes.md). VKC_RADIX_WINDOW sets it for tuning runs.
std::uint32_t lookback_window(const DeviceInfo& device, const Plan& p) {
  const std::uint64_t window = env_number("VKC_RADIX_WINDOW").value_or(0);
  if (window >= 1 && window <= 32) return static_cast<std::uint32_t>(window);
  if (device.vendor_id != kVendorNvidia) return 4;
  return p.key_words == 1 && p.value_words == 1 ? 2 : 3;
}

// The buffers of one sort, as the kernels bind them.
struct Bindings {
  Binding count, keys_a, keys_b, values_a, values_b, state;
};

Bindings make_bindings(const Job& job, const Plan& p) {
  const VkBuffer temp = job.temporary.buffer;
  const VkDeviceSize base = job.temporary.offset;
  Bindings b;
  b.count = job.count;
  b.keys_a = {job.keys.buffer, Access::read_write, job.keys.offset, p.keys_bytes};
  b.keys_b = {temp, Access::read_write, base + p.alt_keys, p.keys_bytes};
  if (p.value_words) {
    b.values_a = {job.values.buffer, Access::read_write, job.values.offset, p.values_bytes};
    b.values_b = {temp, Access::read_write, base + p.alt_values, p.values_bytes};
  } else {  // unused by the kernels (VALUE_WORDS = 0): any valid range will do
    b.values_a = b.keys_a;
    b.values_b = b.keys_b;
  }
  b.state = {temp, Access::read_write, base + p.state, p.state_bytes};
  return b;
}

// Sets where plan p stores 64-bit keys, or 32-bit keys with 32-bit values, whole: the shaders that
// do (scatter_paired, scatter_interleaved_pairs) view the buffers as 8-byte words, so each must sit
// at a multiple of 8 bytes; elsewhere every word is stored alone.
void choose_whole_stores(const DeviceInfo& device, Plan& p, const Bindings& b, std::uint64_t max_count) {
  const bool keys_aligned = b.keys_a.offset % 8 == 0 && b.keys_b.offset % 8 == 0;
  if (p.key_words == 2) {
    p.interleaved = keys_aligned && interleaved_passes();
    p.paired_last = keys_aligned && !p.interleaved && paired_last_pass(p);
    return;
  }
  const bool pairs = p.value_words == 1 && p.lookback && !p.first_from_table && !use_partitioned(device);
  const bool aligned = keys_aligned && b.values_a.offset % 8 == 0 && b.values_b.offset % 8 == 0;
  const std::uint64_t from = interleaved_pairs_from(device);
  p.interleaved = pairs && aligned && from != 0 && max_count >= from;
  p.paired_from = p.interleaved ? from : 0;
}

struct PassPush {
  std::uint32_t pass, tiles, max_count;
  std::uint32_t table;  // the tile table's first state word (tile-table scans)
};

struct HistogramPush {
  std::uint32_t max_count, table_words, grid_x, grid_y, copy_x, copy_y;
  std::uint32_t copying_pass;  // 1: no copy_back recorded (records_copy_back)
  std::uint32_t tiles, first_table;
};

class RadixSort final : public Algorithm {
 public:
  SortAlgorithm id() const override { return SortAlgorithm::radix; }
  bool stable() const override { return true; }
  bool clamps_count() const override { return true; }  // n = min(count_value, pc.max_count) everywhere

  std::uint64_t temporary_bytes(const DeviceInfo& device, const SortDesc& desc) const override {
    return temporary_bytes_up_to(device, desc);
  }

  void record(Context& ctx, Recorder& r, const Job& job) const override {
    const DeviceInfo& device = ctx.info();
    for (const char* op : {"vote", "ballot", "arithmetic"}) {
      if (!has_subgroup_operation(device, op)) {
        throw Error(std::string("radix sort needs subgroup ") + op + " operations, which '" + device.name + "' lacks");
      }
    }
    bool lookback = wants_lookback(device, job.radix_scan, job.max_count);
    if (lookback && !has_device_scope_memory_model(ctx)) {
      if (job.radix_scan == RadixScan::lookback) {
        throw Error("radix sort: the look-back scan needs vulkanMemoryModelDeviceScope, which '" + device.name +
                    "' lacks");
      }
      lookback = false;
    }
    Plan p = make_plan(device, job.key_type, job.value_type, job.max_count, lookback);
    if (job.temporary_bytes < p.total) throw Error("radix sort: the temporary buffer is too small");
    const Bindings b = make_bindings(job, p);
    choose_whole_stores(device, p, b, job.max_count);
    const bool doubles = job.key_type == KeyType::f64;
    Job inner = job;  // what the kernels sort: doubles as their ordered form, ascending
    inner.key_type = kernel_key_type(job.key_type);
    if (doubles) inner.order = SortOrder::ascending;  // the histogram turns them into that form
    if (!job.temporary_is_clear) r.fill_buffer(b.state.buffer, b.state.offset, p.zero_bytes, 0);
    record_histogram(ctx, r, inner, p, b, !doubles ? 0u : job.descending() ? 2u : 1u);
    const std::uint64_t steps = steps_to_record();
    for (std::uint32_t pass = 0; pass < p.passes && pass < steps; ++pass) record_pass(ctx, r, inner, p, b, pass);
    if (steps < p.passes) return;
    if (records_copy_back(p)) record_copy_back(ctx, r, inner, p, b);
    if (doubles) record_unorder_doubles(ctx, r, job);
  }

 private:
  static std::uint32_t count32(const Job& job) { return static_cast<std::uint32_t>(job.max_count); }

  // The histogram's last workgroup also prepares the passes: it writes each pass's grid for the
  // indirect dispatches below (the tiles' grid_for(), or no workgroups for a pass whose digit
  // every key shares) and copy_back's. For pass 0's tile table it reads the keys in the
  // scatter's tiles; else in chunks of histogram_items() keys per invocation.
  // `doubles` (1 ascending, 2 descending; 0 for other keys): the keys are doubles, which the
  // histogram turns into their ordered form in place as it reads them (on an H100 that saved
  // 3-4% of a double sort against a pass of its own).
  static void record_histogram(Context& ctx, Recorder& r, const Job& job, const Plan& p, const Bindings& b,
                               std::uint32_t doubles) {
    const DeviceInfo& device = ctx.info();
    const std::uint32_t wg = p.first_from_table ? p.tuning.workgroup : streaming_workgroup_size(device);
    const std::uint32_t items = p.first_from_table ? p.tuning.items : histogram_items();
    // 16-byte loads need the keys at a 16-byte offset, whole vectors per invocation, and chunks
    // of keys that are not the tiles nor doubles (which the histogram writes back).
    const bool vectors = histogram_vectors() && !p.first_from_table && !doubles && b.keys_a.offset % 16 == 0 &&
                         items % (4 / p.key_words) == 0;
    const Pipeline& pipe = pipeline(ctx, {.shader = "sort/radix/histogram",
                                          .specialization = {wg, items, p.key_words, key_kind(job.key_type),
                                                             job.descending() ? 1u : 0u, p.passes, max_subgroups(device, wg),
                                                             p.first_from_table ? 1u : 0u, doubles, vectors ? 1u : 0u,
                                                             p.interleaved ? 1u : 0u, static_cast<std::uint32_t>(p.paired_from)},
                                          .bindings = 3,
                                          .push_bytes = sizeof(HistogramPush)});
    const Binding keys{b.keys_a.buffer, doubles ? Access::read_write : Access::read, b.keys_a.offset, b.keys_a.range};
    const Binding bindings[] = {b.count, keys, b.state};
    const Grid grid = grid_for(device, p.tiles);
    const bool copy_back = records_copy_back(p);
    const Grid copy = copy_back ? grid_for(device, copy_back_groups(device, job)) : Grid{};
    const auto lookback_words = static_cast<std::uint32_t>(p.lookback ? p.tiles * kRadix : 0);
    const HistogramPush push{count32(job), lookback_words, grid.x, grid.y, copy.x, copy.y, copy_back ? 0u : 1u,
                             static_cast<std::uint32_t>(p.tiles), p.first_table};
    const std::uint64_t chunks = groups_for(job.max_count, std::uint64_t{wg} * items);
    r.dispatch(pipe, bindings, &push, sizeof push, histogram_groups(chunks));
  }

  // Dispatches over the grid that the histogram's last workgroup wrote at word `grid` of the state.
  static void dispatch_pass(Recorder& r, const Pipeline& pipe, std::span<const Binding> bindings, const PassPush& push,
                            const Bindings& b, std::uint64_t grid) {
    r.dispatch_indirect(pipe, bindings, &push, sizeof push, b.state.buffer, b.state.offset + grid * 4);
  }

  static void record_pass(Context& ctx, Recorder& r, const Job& job, const Plan& p, const Bindings& b,
                          std::uint32_t pass) {
    const Tuning& t = p.tuning;
    const bool from_table = !p.lookback || (pass == 0 && p.first_from_table);
    const PassPush push{pass, static_cast<std::uint32_t>(p.tiles), count32(job),
                        pass == 0 ? p.first_table : static_cast<std::uint32_t>(kStateHeaderWords)};
    if (!p.lookback && pass != 0) record_upsweep(ctx, r, job, p, b, push);  // the histogram counted pass 0's tiles
    if (from_table) record_scan_tiles(ctx, r, p, b, push);
    const std::uint32_t scan_mode = !p.lookback ? kScanTable : from_table ? kScanTableClearing : kScanLookback;
    std::vector<std::uint32_t> constants{t.workgroup, t.items, p.key_words, p.value_words, key_kind(job.key_type),
                                         job.descending() ? 1u : 0u, t.max_subgroups, scan_mode, t.shared_words,
                                         ballot_words(ctx.info()), lookback_window(ctx.info(), p),
                                         lookback_spins(ctx.info()) ? 1u : 0u, t.staging_rounds,
                                         records_copy_back(p) ? 0u : 1u,  // COPYING: see records_copy_back
                                         t.packed_ranks ? 1u : 0u, t.reload_keys ? 1u : 0u, t.serial_ranking ? 1u : 0u,
                                         t.tickets ? 1u : 0u, t.aggregates_only ? 1u : 0u};
    const Binding bindings[] = {b.count, b.keys_a, b.keys_b, b.values_a, b.values_b, b.state};
    const Pipeline& pipe = scatter_pipeline(ctx, scatter_shader(ctx.info(), p, pass), constants);
    dispatch_pass(r, pipe, bindings, push, b, kDispatchWord + 3 * push.pass);
    if (!p.interleaved || p.key_words != 1) return;
    // The same pass over interleaved pairs (prepare gives it the workgroups instead where every pass
    // runs; see interleaved_pairs_from): its layouts are fixed by its index, as PAIR_ROLE, and it never copies.
    constants[13] = 0u;  // COPYING
    constants.push_back(pass == 0 ? 0u : pass + 1 == p.passes ? 2u : 1u);
    const Pipeline& paired = scatter_pipeline(ctx, "sort/radix/scatter_interleaved_pairs", constants);
    dispatch_pass(r, paired, bindings, push, b, kPairedDispatchWord + 3 * push.pass);
  }

  static const Pipeline& scatter_pipeline(Context& ctx, const char* shader, const std::vector<std::uint32_t>& constants) {
    return pipeline(ctx, {.shader = shader,
                          .specialization = constants,
                          .bindings = 6,
                          .push_bytes = sizeof(PassPush),
                          .full_subgroups = ctx.info().subgroup_size_control});
  }

  static void record_upsweep(Context& ctx, Recorder& r, const Job& job, const Plan& p, const Bindings& b,
                             const PassPush& push) {
    const Tuning& t = p.tuning;
    const Pipeline& pipe = pipeline(ctx, {.shader = "sort/radix/upsweep",
                                          .specialization = {t.workgroup, t.items, p.key_words, key_kind(job.key_type),
                                                             job.descending() ? 1u : 0u},
                                          .bindings = 4,
                                          .push_bytes = sizeof(PassPush)});
    const Binding bindings[] = {b.count, {b.keys_a.buffer, Access::read, b.keys_a.offset, b.keys_a.range},
                                {b.keys_b.buffer, Access::read, b.keys_b.offset, b.keys_b.range}, b.state};
    dispatch_pass(r, pipe, bindings, push, b, kDispatchWord + 3 * push.pass);
  }

  static void record_scan_tiles(Context& ctx, Recorder& r, const Plan& p, const Bindings& b, const PassPush& push) {
    // The scatter's workgroup size: on an H100, 512 invocations took 1.3% off reduce-then-scan at
    // 2^28 keys against 256 (one workgroup per digit, so more invocations are more loads in flight).
    const std::uint32_t wg = p.tuning.workgroup;
    const Pipeline& pipe = pipeline(ctx, {.shader = "sort/radix/scan_tiles",
                                          .specialization = {wg, 8, max_subgroups(ctx.info(), wg), p.tuning.tile()},
                                          .bindings = 2,
                                          .push_bytes = sizeof(PassPush)});
    const Binding bindings[] = {b.count, b.state};
    dispatch_pass(r, pipe, bindings, push, b, kScanDispatchWord + 3 * push.pass);
  }

  // Whether the sort records copy_back, for when an odd number of passes runs and leaves the data
  // in the B buffers. Most sorts do not: there the histogram's prepare makes one skipped pass a
  // plain copy instead (radix_prepare.glsl), since copy_back's barrier and dispatch cost every sort
  // 3-4 us (H100, 32-bit keys: 0.061 against 0.064 ms at 2^16 without them, 0.068 against 0.071
  // at 2^18) and are needed only in the rare sorts that skip an odd number of passes. The one
  // pipeline that cannot copy is pass 0's when it reads the histogram's tile table on the
  // look-back path (copy_tile in radix_scatter.glsl says why), so those sorts keep copy_back, and
  // none of their passes' pipelines carries the copy branch (COPYING), which would never be taken.
  // With it in the look-back pipeline, these sorts ran 0.6-1.3% slower at 2^24-2^28 keys on an H100
  // than before the copying pass existed, with the same registers; the branch is the likeliest
  // cause, not yet measured (docs/perf-notes.md, fifteenth session).
  static bool records_copy_back(const Plan& p) { return p.lookback && p.first_from_table; }

  // copy_back's workgroups when it has to run: one invocation per element.
  static std::uint64_t copy_back_groups(const DeviceInfo& device, const Job& job) {
    return groups_for(job.max_count, streaming_workgroup_size(device));
  }

  // Turns the keys of a double sort back from their ordered form in place (order_doubles.comp),
  // which the histogram made.
  static void record_unorder_doubles(Context& ctx, Recorder& r, const Job& job) {
    const std::uint32_t wg = streaming_workgroup_size(ctx.info());
    const Pipeline& pipe = pipeline(ctx, {.shader = "sort/radix/order_doubles",
                                          .specialization = {wg, job.descending() ? 1u : 0u},
                                          .bindings = 2,
                                          .push_bytes = 4});
    const Binding bindings[] = {job.count, {job.keys.buffer, Access::read_write, job.keys.offset, job.max_count * 8}};
    const std::uint32_t push = count32(job);
    r.dispatch(pipe, bindings, &push, sizeof push, groups_for(job.max_count, wg));
  }

  // Over the grid that the histogram's last workgroup wrote: copy_back_groups(), or none when the data ends in A.
  static void record_copy_back(Context& ctx, Recorder& r, const Job& job, const Plan& p, const Bindings& b) {
    const std::uint32_t wg = streaming_workgroup_size(ctx.info());
    const Pipeline& pipe = pipeline(ctx, {.shader = "sort/radix/copy_back",
                                          .specialization = {wg, p.key_words, p.value_words},
                                          .bindings = 5,
                                          .push_bytes = 4});
    const Binding bindings[] = {b.count, b.keys_a, {b.keys_b.buffer, Access::read, b.keys_b.offset, b.keys_b.range},
                                b.values_a,
                                {b.values_b.buffer, Access::read, b.values_b.offset, b.values_b.range}};
    const std::uint32_t push = count32(job);
    r.dispatch_indirect(pipe, bindings, &push, sizeof push, b.state.buffer, b.state.offset + kCopyDispatchWord * 4);
  }
};

}  // namespace

const Algorithm* radix_algorithm() {
  static const RadixSort instance;
  return &instance;
}

}  // namespace vkc::sorting
