// LSD radix sort with 8-bit digits (Onesweep: Adinets and Merrill, 2022); docs/radix.md.
//
// One histogram pass counts every digit of every pass in a single read of the keys; its last
// workgroup turns the counts into digit offsets and gives no workgroups to passes whose digit
// every key shares. Each remaining pass ranks tiles of keys in shared memory (subgroup
// multisplit) and scatters them stably, ping-ponging between the caller's buffers (A) and the
// temporary ones (B). A tile's global digit offsets come from a decoupled look-back (workgroups
// wait on earlier tiles: it needs forward progress) or from reduce-then-scan (an upsweep counts
// each tile's digits and scan_tiles turns them into offsets; pass 0's tile counts come from the
// histogram). 8-bit keys sorted alone take no pass: the histogram's digit offsets are the output,
// which one dispatch writes (fill_narrow.comp). What is chosen per device class lives in
// radix_tuning.cpp; this file plans the temporary storage and records.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/kernels.hpp"
#include "core/loader.hpp"
#include "core/pipeline.hpp"
#include "sort/algorithm.hpp"
#include "sort/key_bits.hpp"
#include "sort/radix_policy.hpp"

namespace vkc::sorting {
namespace layout {
#include "radix_layout.h"

struct PassPush {
  RADIX_PASS_PUSH_FIELDS
};
struct HistogramPush {
  RADIX_HISTOGRAM_PUSH_FIELDS
};
static_assert(sizeof(PassPush) == 24 && sizeof(HistogramPush) == 32, "push constants are tightly packed uint32s");
static_assert(STATE_SCAN_DISPATCH >= STATE_DISPATCH + 3 * RADIX_MAX_PASSES, "each pass's scatter grid");
static_assert(STATE_HISTOGRAM_DONE >= STATE_SCAN_DISPATCH + 3 * RADIX_MAX_PASSES, "each pass's scan grid");
static_assert(STATE_PAIRED_DISPATCH + 3 * RADIX_MAX_PASSES <= STATE_SHARED_WORD, "each pass's paired grid");
static_assert(STATE_SHARED_WORD < STATE_COUNTS, "the shared word");
static_assert(STATE_PASS_INFO >= STATE_OFFSETS + RADIX_MAX_PASSES * RADIX, "each pass's digit offsets");
static_assert(STATE_TICKETS >= STATE_FINAL + 1 && STATE_DISPATCH >= STATE_TICKETS + RADIX_MAX_PASSES, "tickets");
static_assert(STATE_TILES >= STATE_COUNTS + RADIX_MAX_PASSES * RADIX, "each pass's histogram");
static_assert(STATE_TILES % 64 == 0, "the tables start at a 256-byte offset");
}  // namespace layout

namespace {

using layout::RADIX;
constexpr std::uint64_t kAlign = 256;  // every storage-buffer offset alignment
constexpr std::uint64_t align_up(std::uint64_t x) { return (x + kAlign - 1) / kAlign * kAlign; }

// 32-bit words of a value (0 without values), as the kernels count them.
std::uint32_t words_of(ValueType value) { return static_cast<std::uint32_t>(value_bytes(value) / 4); }

// 8-bit keys alone over the whole key: a key's one digit holds every bit of it, and equal keys are
// indistinguishable, so the histogram's digit offsets are the output (fill_narrow.comp).
bool fills_by_counts(const SortDesc& desc) {
  return key_bits(desc.key_type) == 8 && desc.value_type == ValueType::none &&
         !range_words(desc.key_type, desc.options).cuts();
}

// Doubles are sorted as the unsigned integers of their ordered form (the histogram makes it,
// order_doubles undoes it), so that every 64-bit key moves one word at a time (SPLIT_KEY).
KeyType kernel_key_type(KeyType key) { return key == KeyType::f64 ? KeyType::u64 : key; }

// Where each piece of one sort's temporary storage lies, in bytes. The state comes first, so that
// its header, which a sort leaves zero where it must be (radix.glsl), lies at the same place for
// every count a temporary buffer serves.
struct StorageLayout {
  std::uint64_t tiles = 0;
  std::uint64_t keys_bytes = 0, values_bytes = 0, state_bytes = 0;
  std::uint64_t alt_keys = 0, alt_values = 0, total = 0;
};

// Look-back: two tables of tiles x 256 words, running passes alternating (the histogram zeroes the
// first and each pass the next one). Reduce-then-scan: one tile table, pass 0's included.
StorageLayout storage_layout(const RadixPolicy& policy, KeyType key, std::uint32_t value_words, std::uint64_t count) {
  StorageLayout s;
  s.tiles = std::max<std::uint64_t>(1, groups_for(count, policy.tile.keys()));
  s.keys_bytes = std::max<std::uint64_t>(4, groups_for(count * key_bytes(key), 4) * 4);
  s.values_bytes = std::max<std::uint64_t>(4, count * value_words * 4);
  const std::uint64_t table_words = (policy.lookback ? 2 : 1) * s.tiles * RADIX;
  if (layout::STATE_TILES + table_words > UINT32_MAX) {
    throw Error("radix sort: too many elements for the state's word indices");
  }
  s.state_bytes = (layout::STATE_TILES + table_words) * 4;
  s.alt_keys = align_up(s.state_bytes);
  s.alt_values = s.alt_keys + align_up(s.keys_bytes);
  s.total = s.alt_values + (value_words ? align_up(s.values_bytes) : 0);
  return s;
}

// The buffers of one sort, as the kernels bind them.
struct Bindings {
  Binding count, keys_a, keys_b, values_a, values_b, state;
};

// The counts up to which one policy holds (the tables' size classes and the look-back's limit),
// in increasing order, the last one where the sort's counts end.
std::vector<std::uint64_t> class_tops(const SortDesc& desc) {
  std::vector<std::uint64_t> tops(radix_tile_boundaries().begin(), radix_tile_boundaries().end());
  tops.push_back(radix_lookback_limit());
  if (desc.options.radix_scan != RadixScan::lookback) tops.push_back(UINT32_MAX);
  return tops;
}

std::uint64_t layout_bytes(const DeviceInfo& device, const SortDesc& desc, std::uint64_t count,
                           const RadixPolicyEdit& edit) {
  const RadixPolicy p = radix_policy(device, desc, count, edit);
  return storage_layout(p, desc.key_type, words_of(desc.value_type), count).total;
}

// Temporary bytes for every count up to desc.max_count: record_sort plans for the count it is
// given. Within each size class a larger count needs more; but smaller tiles, or the look-back's
// second table, may need more than the first counts past them, so each smaller class's top counts.
std::uint64_t temporary_bytes_up_to(const DeviceInfo& device, const SortDesc& desc, std::uint64_t largest_layout,
                                    const RadixPolicyEdit& edit) {
  std::uint64_t bytes = largest_layout;
  for (const std::uint64_t top : class_tops(desc)) {
    if (top < desc.max_count) bytes = std::max(bytes, layout_bytes(device, desc, top, edit));
  }
  return bytes;
}

// storage_layout's total bounded by a line over one class (tile, tables): tiles <= n / tile + 1,
// and each of the (up to) three aligned pieces at most 255 bytes past its size, keys and values
// at least 4 bytes.
TemporaryBound class_bound(const RadixPolicy& p, KeyType key, std::uint32_t value_words, std::uint64_t top) {
  const std::uint64_t table_bytes = (p.lookback ? 2 : 1) * RADIX * 4;
  const std::uint64_t tile = p.tile.keys();
  const std::uint64_t piece_slack = (kAlign - 1) + 4 + 3;  // narrow keys round up to whole words
  return {top, table_bytes + (key_bytes(key) + std::uint64_t{value_words} * 4) * tile, tile,
          layout::STATE_TILES * 4 + (kAlign - 1) + table_bytes + piece_slack * (value_words ? 2 : 1)};
}

// One sort, planned once: the policy, the storage and (at recording) the layout between passes.
class RadixPlan final : public SortPlan {
 public:
  RadixPlan(const DeviceInfo& device, const SortDesc& desc, const RadixPolicyEdit& edit)
      : device_(device),
        policy_(radix_policy(device, desc, desc.max_count, edit)),
        key_words_(radix_key_words(desc.key_type)),
        value_words_(words_of(desc.value_type)),
        narrow_(is_narrow(desc.key_type)),
        passes_(narrow_ ? 2 : 4 * key_words_),  // see RADIX_NARROW_KEYS in radix.glsl
        range_(range_words(desc.key_type, desc.options)),  // push constants range_low, range_high (radix.glsl)
        fills_(fills_by_counts(desc)),
        max_subgroups_(radix_max_subgroups(device, policy_.tile.workgroup)),
        storage_(storage_layout(policy_, desc.key_type, value_words_, desc.max_count)),
        temporary_bytes_(temporary_bytes_up_to(device, desc, storage_.total, edit)) {}

  std::uint64_t temporary_bytes() const override { return temporary_bytes_; }
  bool clamps_count() const override { return true; }  // n = min(count_value, pc.max_count) everywhere

  void record(detail::ComputeDevice& ctx, Recorder& r, const Job& job) const override {
    record_together(ctx, r, std::span<const Job>(&job, 1));
  }

  // Step by step: every job's histogram, then every job's pass 0, and so on. Jobs with buffers of
  // their own need no barrier between them, so the recorder places one per step.
  void record_together(detail::ComputeDevice& ctx, Recorder& r, std::span<const Job> jobs) const override {
    const bool doubles = !jobs.empty() && jobs[0].key_type == KeyType::f64;
    std::vector<Recorded> sorts;
    for (const Job& job : jobs) {
      Recorded& s = sorts.emplace_back(Recorded{job, bindings(job), {}});
      s.whole = whole_stores(s.b, job.max_count);
      s.inner.key_type = kernel_key_type(job.key_type);  // doubles as their ordered form, ascending
      if (doubles) s.inner.order = SortOrder::ascending;  // the histogram turns them into that form
      if (!job.temporary_is_clear) r.fill_buffer(s.b.state.buffer, s.b.state.offset, layout::STATE_TILES * 4, 0);
    }
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      record_histogram(ctx, r, sorts[i].inner, sorts[i].b, sorts[i].whole, !doubles ? 0u : jobs[i].descending() ? 2u : 1u);
    }
    if (fills_) {
      if (policy_.passes_recorded == 0) return;
      for (const Recorded& s : sorts) record_fill(ctx, r, s.inner, s.b);
      return;
    }
    for (std::uint32_t pass = 0; pass < passes_ && pass < policy_.passes_recorded; ++pass) {
      for (const Recorded& s : sorts) record_pass(ctx, r, s.inner, s.b, s.whole, pass);
    }
    if (policy_.passes_recorded < passes_ || !doubles) return;
    for (const Job& job : jobs) record_unorder_doubles(ctx, r, job);
  }

 private:
  // Where keys (64-bit keys, or 32-bit keys with 32-bit values) are stored whole between passes:
  // those shaders view the buffers as 8-byte words, so each must sit at a multiple of 8 bytes.
  struct WholeStores {
    bool interleaved = false;       // split keys or 32-bit pairs stay interleaved between passes
    std::uint64_t paired_from = 0;  // interleaved 32-bit pairs: the least count kept so (else 0)
  };

  // One job's sort as its kernels see it.
  struct Recorded {
    Job inner;  // what the kernels sort
    Bindings b;
    WholeStores whole;
  };

  Bindings bindings(const Job& job) const {
    const VkBuffer temp = job.temporary.buffer;
    const VkDeviceSize base = job.temporary.offset;
    const StorageLayout& s = storage_;
    Bindings b;
    b.count = job.count;
    b.keys_a = {job.keys.buffer, Access::read_write, job.keys.offset, s.keys_bytes};
    b.keys_b = {temp, Access::read_write, base + s.alt_keys, s.keys_bytes};
    if (value_words_) {
      b.values_a = {job.values.buffer, Access::read_write, job.values.offset, s.values_bytes};
      b.values_b = {temp, Access::read_write, base + s.alt_values, s.values_bytes};
    } else {  // unused by the kernels (VALUE_WORDS = 0): any valid range will do
      b.values_a = b.keys_a;
      b.values_b = b.keys_b;
    }
    b.state = {temp, Access::read_write, base, s.state_bytes};
    return b;
  }

  WholeStores whole_stores(const Bindings& b, std::uint64_t max_count) const {
    if (narrow_) return {};
    const bool keys_aligned = b.keys_a.offset % 8 == 0 && b.keys_b.offset % 8 == 0;
    if (key_words_ == 2) return {keys_aligned && policy_.wide_keys == WideKeyLayout::interleaved, 0};
    const bool values_aligned = b.values_a.offset % 8 == 0 && b.values_b.offset % 8 == 0;
    const std::uint64_t from = policy_.interleaved_pairs_from;
    const bool pairs = value_words_ == 1 && policy_.lookback && keys_aligned && values_aligned;
    if (!pairs || from == 0 || max_count < from) return {};
    return {true, from};
  }

  std::uint32_t first_table() const { return layout::STATE_TILES; }  // reduce-then-scan's tile table

  // The histogram's last workgroup also prepares the passes: it writes each pass's grid for the
  // indirect dispatches below (no workgroups for a pass whose digit every key shares). For
  // reduce-then-scan it reads the keys in the scatter's tiles and counts pass 0's per tile.
  // `doubles` (1 ascending, 2 descending; 0 for other keys): the histogram turns the keys into
  // their ordered form in place as it reads them. A sort that fills (fills_by_counts) has no tile
  // tables: it needs the digit offsets alone.
  void record_histogram(detail::ComputeDevice& ctx, Recorder& r, const Job& job, const Bindings& b, const WholeStores& whole,
                        std::uint32_t doubles) const {
    const RadixHistogramPolicy& h = policy_.histogram;
    const bool tile_table = !policy_.lookback && !fills_;
    const std::uint32_t wg = tile_table ? policy_.tile.workgroup : streaming_workgroup_size(device_);
    const std::uint32_t items = tile_table ? policy_.tile.items : h.items;
    // 16-byte loads need the keys at a 16-byte offset, whole vectors per invocation, and chunks
    // of keys that are not the tiles nor doubles (which the histogram writes back).
    const bool vectors = h.vector_loads && !narrow_ && !tile_table && !doubles && b.keys_a.offset % 16 == 0 &&
                         items % (4 / key_words_) == 0;
    std::vector<std::uint32_t> c(RADIX_HISTOGRAM_CONSTANTS);
    c[RADIX_SC_WORKGROUP] = wg;
    c[RADIX_HISTOGRAM_ITEMS] = items;
    c[RADIX_HISTOGRAM_KEY_WORDS] = key_words_;
    c[RADIX_HISTOGRAM_KEY_KIND] = key_kind(job.key_type);
    c[RADIX_HISTOGRAM_DESCENDING] = job.descending();
    c[RADIX_HISTOGRAM_PASSES] = passes_;
    c[RADIX_HISTOGRAM_MAX_SUBGROUPS] = radix_max_subgroups(device_, wg);
    c[RADIX_HISTOGRAM_TILE_TABLE] = tile_table;
    c[RADIX_HISTOGRAM_DOUBLES] = doubles;
    c[RADIX_HISTOGRAM_VECTOR_LOADS] = vectors;
    c[RADIX_HISTOGRAM_INTERLEAVED_PASSES] = whole.interleaved;
    c[RADIX_HISTOGRAM_PAIRED_FROM] = static_cast<std::uint32_t>(whole.paired_from);
    c[RADIX_HISTOGRAM_BIT_RANGE] = range_.cuts();
    c[RADIX_HISTOGRAM_MARK_SHARED_WORDS] = policy_.shared_words && key_words_ == 2;
    set_narrow_constants(job, c, RADIX_HISTOGRAM_KEY_BITS, RADIX_HISTOGRAM_EXPONENT);
    const Pipeline& pipe = pipeline(ctx, {.shader = narrow_ ? shaders::sort_radix_histogram_narrow : shaders::sort_radix_histogram,
                                          .specialization = std::move(c),
                                          .bindings = 3,
                                          .push_bytes = sizeof(layout::HistogramPush)});
    const Binding keys{b.keys_a.buffer, doubles ? Access::read_write : Access::read, b.keys_a.offset, b.keys_a.range};
    const Binding bindings[] = {b.count, keys, b.state};
    const Grid grid = grid_for(device_, storage_.tiles);
    layout::HistogramPush push{};
    push.max_count = count32(job);
    push.table_words = static_cast<std::uint32_t>(policy_.lookback && !fills_ ? storage_.tiles * RADIX : 0);
    push.grid_x = grid.x;
    push.grid_y = grid.y;
    push.tiles = static_cast<std::uint32_t>(storage_.tiles);
    push.first_table = first_table();
    push.range_low = range_.low;
    push.range_high = range_.high;
    const std::uint64_t chunks = groups_for(job.max_count, std::uint64_t{wg} * items);
    const std::uint64_t groups = chunks <= h.small_up_to ? h.groups : h.large_groups;
    r.dispatch(pipe, bindings, &push, sizeof push, std::min(chunks, groups));
  }

  // Dispatches over the grid that the histogram's last workgroup wrote at word `grid` of the state.
  static void dispatch_pass(Recorder& r, const Pipeline& pipe, std::span<const Binding> bindings,
                            const layout::PassPush& push, const Bindings& b, std::uint64_t grid) {
    r.dispatch_indirect(pipe, bindings, &push, sizeof push, b.state.buffer, b.state.offset + grid * 4);
  }

  void record_pass(detail::ComputeDevice& ctx, Recorder& r, const Job& job, const Bindings& b, const WholeStores& whole,
                   std::uint32_t pass) const {
    layout::PassPush push{};
    push.pass = pass;
    push.tiles = static_cast<std::uint32_t>(storage_.tiles);
    push.max_count = count32(job);
    push.table = first_table();
    push.range_low = range_.low;
    push.range_high = range_.high;
    if (!policy_.lookback) {
      if (pass != 0) record_upsweep(ctx, r, job, b, push);  // the histogram counted pass 0's tiles
      record_scan_tiles(ctx, r, b, push);
    }
    const Binding bindings[] = {b.count, b.keys_a, b.keys_b, b.values_a, b.values_b, b.state};
    const bool wide_whole = whole.interleaved && key_words_ == 2;
    const shaders::Shader& shader = wide_whole ? shaders::sort_radix_scatter_paired
                                    : narrow_  ? (policy_.full_tile_scatter ? shaders::sort_radix_scatter_full_tiles_narrow
                                                                            : shaders::sort_radix_scatter_narrow)
                                    : policy_.full_tile_scatter ? shaders::sort_radix_scatter_full_tiles
                                                                : shaders::sort_radix_scatter;
    std::vector<std::uint32_t> constants = scatter_constants(job, /*copying=*/true);
    dispatch_pass(r, scatter_pipeline(ctx, shader, constants), bindings, push, b,
                  layout::STATE_DISPATCH + 3 * pass);
    if (!whole.interleaved || key_words_ != 1) return;
    // The same pass over interleaved pairs (prepare gives it the workgroups instead where every
    // pass runs): its layouts are fixed by its index, and it never copies.
    constants = scatter_constants(job, /*copying=*/false);
    constants[RADIX_SCATTER_PAIR_ROLE] = pass == 0              ? layout::PAIR_ROLE_TO_PAIRS
                                         : pass + 1 == passes_ ? layout::PAIR_ROLE_FROM_PAIRS
                                                               : layout::PAIR_ROLE_PAIRS;
    const Pipeline& paired = scatter_pipeline(ctx, shaders::sort_radix_scatter_interleaved_pairs, constants);
    dispatch_pass(r, paired, bindings, push, b, layout::STATE_PAIRED_DISPATCH + 3 * pass);
  }

  // The scatter's constants by id (radix_layout.h), PAIR_ROLE left at 0.
  std::vector<std::uint32_t> scatter_constants(const Job& job, bool copying) const {
    const RadixPolicy& p = policy_;
    std::vector<std::uint32_t> c(RADIX_SCATTER_CONSTANTS);
    c[RADIX_SC_WORKGROUP] = p.tile.workgroup;
    c[RADIX_SCATTER_ITEMS] = p.tile.items;
    c[RADIX_SCATTER_KEY_WORDS] = key_words_;
    c[RADIX_SCATTER_VALUE_WORDS] = value_words_;
    c[RADIX_SCATTER_KEY_KIND] = key_kind(job.key_type);
    c[RADIX_SCATTER_DESCENDING] = job.descending();
    c[RADIX_SCATTER_MAX_SUBGROUPS] = max_subgroups_;
    c[RADIX_SCATTER_SCAN_MODE] = p.lookback ? layout::SCAN_LOOKBACK : layout::SCAN_TABLE;
    c[RADIX_SCATTER_SHARED_WORDS] = radix_shared_words(max_subgroups_, p.tile.keys() / p.tile.rounds, value_words_);
    c[RADIX_SCATTER_BALLOT_WORDS] = p.ballot_words;
    c[RADIX_SCATTER_LOOKBACK_WINDOW] = p.lookback_window;
    c[RADIX_SCATTER_LOOKBACK_SPIN] = p.lookback_spins;
    c[RADIX_SCATTER_STAGING_ROUNDS] = p.tile.rounds;
    c[RADIX_SCATTER_COPYING] = copying;
    c[RADIX_SCATTER_PACKED_RANKS] = p.packed_ranks;
    c[RADIX_SCATTER_TICKETS] = p.tickets;
    c[RADIX_SCATTER_AGGREGATES_ONLY] = p.aggregates_only;
    c[RADIX_SCATTER_BIT_RANGE] = range_.cuts();
    c[RADIX_SCATTER_ONE_WORD_PATH] = policy_.shared_words && key_words_ == 2;
    set_narrow_constants(job, c, RADIX_SCATTER_KEY_BITS, RADIX_SCATTER_EXPONENT);
    return c;
  }

  // A narrow key's width and float exponent field, for the RADIX_NARROW_KEYS shaders (which alone
  // declare those ids).
  void set_narrow_constants(const Job& job, std::vector<std::uint32_t>& c, std::uint32_t bits_id,
                            std::uint32_t exponent_id) const {
    if (!narrow_) return;
    with_key_type(job.key_type, [&](auto row) {
      c[bits_id] = row.width;
      c[exponent_id] = static_cast<std::uint32_t>(row.exponent);
    });
  }

  const Pipeline& scatter_pipeline(detail::ComputeDevice& ctx, const shaders::Shader& shader,
                                   std::vector<std::uint32_t> constants) const {
    return pipeline(ctx, {.shader = shader,
                          .specialization = std::move(constants),
                          .bindings = 6,
                          .push_bytes = sizeof(layout::PassPush),
                          .full_subgroups = device_.subgroup_size_control});
  }

  void record_upsweep(detail::ComputeDevice& ctx, Recorder& r, const Job& job, const Bindings& b, const layout::PassPush& push) const {
    std::vector<std::uint32_t> c(RADIX_UPSWEEP_CONSTANTS);
    c[RADIX_SC_WORKGROUP] = policy_.tile.workgroup;
    c[RADIX_UPSWEEP_ITEMS] = policy_.tile.items;
    c[RADIX_UPSWEEP_KEY_WORDS] = key_words_;
    c[RADIX_UPSWEEP_KEY_KIND] = key_kind(job.key_type);
    c[RADIX_UPSWEEP_DESCENDING] = job.descending();
    c[RADIX_UPSWEEP_BIT_RANGE] = range_.cuts();
    set_narrow_constants(job, c, RADIX_UPSWEEP_KEY_BITS, RADIX_UPSWEEP_EXPONENT);
    const Pipeline& pipe = pipeline(ctx, {.shader = narrow_ ? shaders::sort_radix_upsweep_narrow : shaders::sort_radix_upsweep,
                                          .specialization = std::move(c),
                                          .bindings = 4,
                                          .push_bytes = sizeof(layout::PassPush)});
    const Binding bindings[] = {b.count, {b.keys_a.buffer, Access::read, b.keys_a.offset, b.keys_a.range},
                                {b.keys_b.buffer, Access::read, b.keys_b.offset, b.keys_b.range}, b.state};
    dispatch_pass(r, pipe, bindings, push, b, layout::STATE_DISPATCH + 3 * push.pass);
  }

  // One workgroup per digit at the scatter's workgroup size: more invocations are more loads in
  // flight (docs/perf-notes.md#radix-tiles).
  void record_scan_tiles(detail::ComputeDevice& ctx, Recorder& r, const Bindings& b, const layout::PassPush& push) const {
    std::vector<std::uint32_t> c(RADIX_SCAN_TILES_CONSTANTS);
    c[RADIX_SC_WORKGROUP] = policy_.tile.workgroup;
    c[RADIX_SCAN_TILES_ITEMS] = 8;
    c[RADIX_SCAN_TILES_MAX_SUBGROUPS] = max_subgroups_;
    c[RADIX_SCAN_TILES_TILE] = policy_.tile.keys();
    const Pipeline& pipe = pipeline(ctx, {.shader = shaders::sort_radix_scan_tiles,
                                          .specialization = std::move(c),
                                          .bindings = 2,
                                          .push_bytes = sizeof(layout::PassPush)});
    const Binding bindings[] = {b.count, b.state};
    dispatch_pass(r, pipe, bindings, push, b, layout::STATE_SCAN_DISPATCH + 3 * push.pass);
  }

  // Writes a sort's output from pass 0's digit offsets (fill_narrow.comp), a workgroup per tile of
  // the scatter, over pass 0's grid: prepare gives it none where every key has the same digit (the
  // keys are sorted already) or the counts do not add up (the keys stay as they were, as when no
  // pass runs).
  void record_fill(detail::ComputeDevice& ctx, Recorder& r, const Job& job, const Bindings& b) const {
    std::vector<std::uint32_t> c(RADIX_FILL_CONSTANTS);
    c[RADIX_SC_WORKGROUP] = policy_.tile.workgroup;
    c[RADIX_FILL_TILE_WORDS] = static_cast<std::uint32_t>(groups_for(policy_.tile.keys(), 4));
    c[RADIX_FILL_KEY_KIND] = key_kind(job.key_type);
    c[RADIX_FILL_DESCENDING] = job.descending();
    with_key_type(job.key_type, [&](auto row) { c[RADIX_FILL_EXPONENT] = static_cast<std::uint32_t>(row.exponent); });
    const Pipeline& pipe = pipeline(ctx, {.shader = shaders::sort_radix_fill_narrow,
                                          .specialization = std::move(c),
                                          .bindings = 3,
                                          .push_bytes = 4});
    const Binding bindings[] = {b.count, {b.keys_a.buffer, Access::write, b.keys_a.offset, b.keys_a.range},
                                {b.state.buffer, Access::read, b.state.offset, b.state.range}};
    const std::uint32_t push = count32(job);
    r.dispatch_indirect(pipe, bindings, &push, sizeof push, b.state.buffer, b.state.offset + layout::STATE_DISPATCH * 4);
  }

  // Turns the keys of a double sort back from their ordered form in place (order_doubles.comp).
  void record_unorder_doubles(detail::ComputeDevice& ctx, Recorder& r, const Job& job) const {
    const std::uint32_t wg = streaming_workgroup_size(device_);
    std::vector<std::uint32_t> c(RADIX_ORDER_DOUBLES_CONSTANTS);
    c[RADIX_SC_WORKGROUP] = wg;
    c[RADIX_ORDER_DOUBLES_DESCENDING] = job.descending();
    const Pipeline& pipe = pipeline(ctx, {.shader = shaders::sort_radix_order_doubles,
                                          .specialization = std::move(c),
                                          .bindings = 2,
                                          .push_bytes = 4});
    const Binding bindings[] = {job.count, {job.keys.buffer, Access::read_write, job.keys.offset, job.max_count * 8}};
    const std::uint32_t push = count32(job);
    r.dispatch(pipe, bindings, &push, sizeof push, groups_for(job.max_count, wg));
  }

  static std::uint32_t count32(const Job& job) { return static_cast<std::uint32_t>(job.max_count); }

  const DeviceInfo& device_;  // the context's, which outlives every plan
  RadixPolicy policy_;
  std::uint32_t key_words_, value_words_;
  bool narrow_;  // 8- or 16-bit keys, kept as such (the RADIX_NARROW_KEYS shaders)
  std::uint32_t passes_;
  RangeWords range_;
  bool fills_;  // the histogram, then the fill, and no pass (fills_by_counts)
  std::uint32_t max_subgroups_;
  StorageLayout storage_;
  std::uint64_t temporary_bytes_;
};

class RadixSort final : public Algorithm {
 public:
  SortAlgorithm id() const override { return SortAlgorithm::radix; }
  bool stable() const override { return true; }
  std::uint64_t temporary_bytes(const DeviceInfo& device, const SortDesc& desc) const override {
    return temporary_bytes_up_to(device, desc, layout_bytes(device, desc, desc.max_count, {}), {});
  }
  std::vector<TemporaryBound> temporary_bounds(const DeviceInfo& device, const SortDesc& desc) const override {
    std::vector<TemporaryBound> bounds;
    for (const std::uint64_t top : class_tops(desc)) {
      const RadixPolicy p = radix_policy(device, desc, top, {});
      bounds.push_back(class_bound(p, desc.key_type, words_of(desc.value_type), top));
    }
    return bounds;
  }
  std::unique_ptr<SortPlan> plan(const DeviceInfo& device, const SortDesc& desc) const override {
    return std::make_unique<RadixPlan>(device, desc, RadixPolicyEdit{});
  }
};

}  // namespace

std::unique_ptr<SortPlan> plan_radix(const DeviceInfo& device, const SortDesc& desc, const RadixPolicyEdit& edit) {
  return std::make_unique<RadixPlan>(device, desc, edit);
}

const Algorithm* radix_algorithm() {
  static const RadixSort instance;
  return &instance;
}

}  // namespace vkc::sorting
