// Recording a segmented sort (segmented.hpp). Rows of up to one tile take one dispatch of the
// tile kernel at their class; longer rows one of the radix kernel. Offsets are binned on the GPU
// (bin.comp counts each size class, args.comp places the classes and writes their dispatches,
// bin.comp lists the segments) and every class takes one indirect dispatch.
#include "sort/segmented.hpp"

#include <algorithm>
#include <bit>
#include <vector>

#include "core/kernels.hpp"
#include "core/pipeline.hpp"
#include "sort/algorithm.hpp"
#include "sort/key_types.hpp"
#include "sort/planner.hpp"
#include "sort/radix_policy.hpp"

// The kernels' specialization-constant ids and plan layout (macros only).
#include "segments_layout.h"

namespace vkc::sorting {
namespace {

constexpr std::uint32_t kLargestTileBits = 12;
// On CPU devices: each size class is a fully unrolled network, and the large ones cost seconds
// each to compile there, for no gain in speed.
constexpr std::uint32_t kLargestSoftwareTileBits = 8;
constexpr std::uint32_t kBinWorkgroup = 64;
// The radix kernel's workgroup and keys per invocation: chunks of 4,096 keys on GPUs (docs/perf-notes.md#segmented-sorts).
constexpr std::uint32_t kRadixWorkgroup = 512;
constexpr std::uint32_t kRadixItems = 8;

struct Push {
  std::uint32_t segments = 0, columns = 0, size_class = 0, base_low = 0, base_high = 0, elements = 0;
};

std::uint32_t ceil_log2(std::uint64_t x) { return x <= 1 ? 0 : static_cast<std::uint32_t>(std::bit_width(x - 1)); }

bool carries_index(SegmentedOutput output) { return output != SegmentedOutput::keys; }

// The tile kernel's shape: a tile of 2^tile_bits positions, 2^e_bits per invocation.
struct TileShape {
  std::uint32_t tile_bits = 0, e_bits = 0, subgroup_bits = 0;
  std::uint32_t workgroup() const { return 1u << (tile_bits - e_bits); }
};

std::uint32_t max_invocations(const DeviceInfo& device) {
  std::uint32_t most = std::min(device.max_workgroup_invocations, device.max_workgroup_size[0]);
  if (device.subgroup_size_control && device.max_workgroup_subgroups) {
    // The pipeline requires the subgroup size, which caps the workgroup at this many subgroups.
    most = std::min(most, device.subgroup_size * device.max_workgroup_subgroups);
  }
  return most;
}

// The largest tile whose padded shared arrays fit, of at most 2^kLargestTileBits positions, with
// at least 8 positions per invocation and at least a subgroup of invocations.
TileShape tile_shape(const DeviceInfo& device, KeyType key_type, SegmentedOutput output) {
  const std::uint32_t words = key_words(key_type) + (carries_index(output) ? 1 : 0);
  TileShape s{device.is_software() ? kLargestSoftwareTileBits : kLargestTileBits, 3, ceil_log2(device.subgroup_size)};
  while ((std::uint64_t{1} << s.tile_bits) * 33 / 32 * words * 4 > device.shared_memory_bytes) --s.tile_bits;
  s.tile_bits = std::max(s.tile_bits, s.e_bits + s.subgroup_bits);
  while (s.workgroup() > max_invocations(device)) ++s.e_bits;
  return s;
}

// The radix kernel's shared words (radix.comp): the counters or the staged chunk (every word of its
// elements), every pass's counts and two digit arrays.
std::uint64_t radix_shared_bytes(const DeviceInfo& device, std::uint32_t wg, const SegmentedJob& job) {
  const std::uint64_t tile = std::uint64_t{wg} * kRadixItems, words = key_words(job.key_type);
  const std::uint64_t staged = words + (carries_index(job.output) ? 1 : 0);
  const std::uint64_t work = std::max<std::uint64_t>(std::uint64_t{radix_max_subgroups(device, wg)} * 256, tile * staged);
  return (work + 4 * words * 256 + 3 * 256) * 4;
}

// The widest workgroup whose shared words fit. (Fewer keys per invocation, for a second workgroup
// per SM, were slower: docs/perf-notes.md#segmented-sorts.)
std::uint32_t radix_workgroup(const DeviceInfo& device, const SegmentedJob& job) {
  std::uint32_t wg = std::min(kRadixWorkgroup, max_invocations(device));
  while (wg > device.max_subgroup_size && radix_shared_bytes(device, wg, job) > device.shared_memory_bytes) wg /= 2;
  return wg;
}

std::vector<std::uint32_t> data_constants(const SegmentedJob& job) {
  std::vector<std::uint32_t> c(SEG_CONSTANTS);
  c[SEG_KEY_WORDS] = key_words(job.key_type);
  c[SEG_VALUE_WORDS] = value_words(job.value_type);
  c[SEG_KEY_KIND] = key_kind(job.key_type);
  c[SEG_DESCENDING] = job.order == SortOrder::descending;
  c[SEG_OUTPUT] = static_cast<std::uint32_t>(job.output);
  c[SEG_ROWS] = job.rows;
  return c;
}

const Pipeline& tile_pipeline(detail::ComputeDevice& device, const SegmentedJob& job, const TileShape& s,
                              std::uint32_t log_n) {
  std::vector<std::uint32_t> c = data_constants(job);
  c[SEG_SC_WORKGROUP] = s.workgroup();
  c[SEG_E_BITS] = s.e_bits;
  c[SEG_TILE_BITS] = s.tile_bits;
  c[SEG_LOG_N] = log_n;
  c[SEG_SUBGROUP_BITS] = s.subgroup_bits;
  // The network is laid out for one subgroup size, so the pipeline asks for exactly that one.
  const DeviceInfo& info = device.info();
  return pipeline(device, {.shader = shaders::sort_segments_tile,
                           .specialization = std::move(c),
                           .bindings = 5,
                           .push_bytes = sizeof(Push),
                           .required_subgroup_size = info.subgroup_size_control ? info.subgroup_size : 0,
                           .full_subgroups = true});
}

const Pipeline& radix_pipeline(detail::ComputeDevice& device, const SegmentedJob& job) {
  const DeviceInfo& info = device.info();
  std::vector<std::uint32_t> c = data_constants(job);
  c[SEG_SC_WORKGROUP] = radix_workgroup(info, job);
  c[SEG_ITEMS] = kRadixItems;
  c[SEG_MAX_SUBGROUPS] = radix_max_subgroups(info, c[SEG_SC_WORKGROUP]);
  c[SEG_BALLOT_WORDS] = info.max_subgroup_size <= 32 ? 1 : 4;
  return pipeline(device, {.shader = shaders::sort_segments_radix,
                           .specialization = std::move(c),
                           .bindings = 6,
                           .push_bytes = sizeof(Push),
                           .full_subgroups = true});
}

std::uint64_t plan_bytes(const SegmentedJob& job) {
  return job.rows ? 0 : (std::uint64_t{SEG_PLAN_LIST} + job.segments) * 4;
}

// The radix kernel's arrays: two sides of key words and positions, and a copy of the values.
std::uint64_t radix_bytes(const SegmentedJob& job) {
  const std::uint64_t side = key_words(job.key_type) + (carries_index(job.output) ? 1 : 0);
  const std::uint64_t copy = job.output == SegmentedOutput::pairs ? value_words(job.value_type) : 0;
  return (2 * side + copy) * job.count * 4;
}

std::uint64_t aligned(std::uint64_t bytes) { return (bytes + 255) / 256 * 256; }

// Long rows sorted by the whole-array radix sort, each over its sub-range of the buffers (whose
// offsets must be multiples of the device's storage offset alignment).
bool rows_by_whole_sorts(const DeviceInfo& device, const SegmentedJob& job) {
  const std::uint64_t align = std::max<std::uint64_t>(1, device.storage_offset_alignment);
  const std::uint64_t row_keys = std::uint64_t{job.columns} * key_bytes(job.key_type);
  const std::uint64_t row_values = std::uint64_t{job.columns} * value_bytes(job.value_type);
  return job.rows && job.columns > segmented_long_row(device) && row_keys % align == 0 && row_values % align == 0;
}

// The whole-array sort of one row: argsort's indices are values numbered on the device first.
SortDesc row_desc(const SegmentedJob& job) {
  return {job.key_type, job.value_type, job.columns,
          {.algorithm = SortAlgorithm::radix, .order = job.order}};
}

bool may_have_large(const DeviceInfo& device, const SegmentedJob& job) {
  const std::uint32_t tile = segmented_tile_elements(device, job.key_type, job.output);
  return job.rows ? job.columns > tile : job.count > tile;
}

Push push_for(const SegmentedJob& job, std::uint32_t size_class) {
  return {job.segments, job.columns, size_class, static_cast<std::uint32_t>(job.index_base),
          static_cast<std::uint32_t>(job.index_base >> 32), job.count};
}

void record_rows(detail::ComputeDevice& device, Recorder& r, const SegmentedJob& job, std::span<const Binding> b,
                 const Binding& radix_temp) {
  const TileShape s = tile_shape(device.info(), job.key_type, job.output);
  const Push push = push_for(job, 0);
  if (job.columns <= (1u << s.tile_bits)) {
    const std::uint32_t log_n = std::max(s.e_bits, ceil_log2(job.columns));
    const std::uint64_t slots = std::uint64_t{1} << (s.tile_bits - log_n);
    r.dispatch(tile_pipeline(device, job, s, log_n), b, &push, sizeof push, (job.segments + slots - 1) / slots);
    return;
  }
  const Binding bindings[] = {b[0], b[1], b[2], b[3], b[4], radix_temp};
  r.dispatch(radix_pipeline(device, job), bindings, &push, sizeof push, job.segments);
}

const Pipeline& bin_pipeline(detail::ComputeDevice& device, const TileShape& s, bool scatter) {
  std::vector<std::uint32_t> c(SEG_CONSTANTS + 1);
  c[SEG_SC_WORKGROUP] = kBinWorkgroup;
  c[SEG_E_BITS] = s.e_bits;
  c[SEG_TILE_BITS] = s.tile_bits;
  c[SEG_CONSTANTS] = scatter;
  return pipeline(device, {.shader = shaders::sort_segments_bin,
                           .specialization = std::move(c),
                           .bindings = 4,
                           .push_bytes = 4,
                           .full_subgroups = true});
}

void record_ranges(detail::ComputeDevice& device, Recorder& r, const SegmentedJob& job, std::span<const Binding> b,
                   const Binding& radix_temp) {
  const DeviceInfo& info = device.info();
  const TileShape s = tile_shape(info, job.key_type, job.output);
  const Binding& plan = b[4];
  r.fill_buffer(plan.buffer, plan.offset, SEG_PLAN_CURSORS * 4, 0);
  Binding count = job.segment_count;
  if (!count.buffer) {
    count = {plan.buffer, Access::read, plan.offset + SEG_PLAN_SEGMENTS * 4, 4};
    r.fill_buffer(plan.buffer, count.offset, 4, job.segments);
  }
  count.access = Access::read;
  count.range = 4;
  const Binding bin_bindings[] = {b[2], b[3], plan, count};
  const std::uint32_t segments = job.segments;
  const std::uint64_t bin_groups = (segments + kBinWorkgroup - 1) / kBinWorkgroup;
  r.dispatch(bin_pipeline(device, s, false), bin_bindings, &segments, 4, bin_groups);
  std::vector<std::uint32_t> ac(SEG_CONSTANTS);
  ac[SEG_E_BITS] = s.e_bits;
  ac[SEG_TILE_BITS] = s.tile_bits;
  const Pipeline& args = pipeline(device, {.shader = shaders::sort_segments_args,
                                           .specialization = std::move(ac),
                                           .bindings = 1,
                                           .push_bytes = 4});
  const std::uint32_t x_limit = info.max_workgroup_count[0];
  r.dispatch(args, std::span<const Binding>(&plan, 1), &x_limit, 4, 1);
  r.dispatch(bin_pipeline(device, s, true), bin_bindings, &segments, 4, bin_groups);
  for (std::uint32_t c = 0; s.e_bits + c <= s.tile_bits; ++c) {
    const Push push = push_for(job, c);
    r.dispatch_indirect(tile_pipeline(device, job, s, s.e_bits + c), b, &push, sizeof push, plan.buffer,
                        plan.offset + (SEG_PLAN_ARGS + 3 * c) * 4);
  }
  if (!may_have_large(info, job)) return;
  const Push push = push_for(job, SEG_LARGE);
  const Binding bindings[] = {b[0], b[1], b[2], b[3], b[4], radix_temp};
  r.dispatch_indirect(radix_pipeline(device, job), bindings, &push, sizeof push, plan.buffer,
                      plan.offset + (SEG_PLAN_ARGS + 3 * SEG_LARGE) * 4);
}

// Long rows recorded together, this many at a time (each with temporary storage of its own), so
// that each step's dispatches of the group run side by side: rows of about 2^26 keys in all, whose
// temporary storage is what one sort of them would take, and which run at nearly the rate of the
// largest sorts. On a CPU device 2^18, so that the tests' rows of 10^5 keys come in groups of two.
std::uint32_t rows_together(const DeviceInfo& device, const SegmentedJob& job) {
  const std::uint64_t keys_together = std::uint64_t{1} << (device.is_software() ? 18 : 26);
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(keys_together / job.columns, 1, job.segments));
}

// The rows' whole-array sort, planned once: radix with the tile that all the keys of a group would
// take as one sort, since the group's sorts fill the device together as that one sort would.
// Narrow keys on a device without 8- and 16-bit storage keep the images' plan.
PlannedSort plan_rows(const DeviceInfo& device, const SegmentedJob& job) {
  const SortDesc desc = row_desc(job);
  PlannedSort planned = plan_sort(device, desc);
  if (planned.algorithm != radix_algorithm()) return planned;
  SortDesc together = desc;
  together.max_count = std::uint64_t{rows_together(device, job)} * job.columns;
  const RadixTile tile = radix_policy(device, together, together.max_count).tile;
  return plan_radix_sort(device, desc, [tile](RadixPolicy& p) { p.tile = tile; });
}

// One row's temporary storage, aligned for the next row's.
std::uint64_t row_temporary_bytes(const PlannedSort& planned) { return aligned(planned.temporary_bytes()); }

// The rows through the whole-array radix sort, rows_together at a time, each step of a group's
// sorts recorded for every row before the next (record_planned_together).
void record_rows_by_whole_sorts(const SortDevice& target, Recorder& r, const SegmentedJob& job) {
  const PlannedSort planned = plan_rows(target.info(), job);
  const std::uint64_t key_row = std::uint64_t{job.columns} * key_bytes(job.key_type);
  const std::uint64_t value_row = std::uint64_t{job.columns} * value_bytes(job.value_type);
  const std::uint64_t temporary_row = row_temporary_bytes(planned);
  const std::uint32_t group = rows_together(target.info(), job);
  for (std::uint32_t first = 0; first < job.segments; first += group) {
    std::vector<SortBuffers> rows;
    for (std::uint32_t row = first; row < std::min(job.segments, first + group); ++row) {
      const BufferRange keys{job.keys.buffer, job.keys.offset + row * key_row};
      BufferRange values{};
      if (job.value_type != ValueType::none) values = {job.values.buffer, job.values.offset + row * value_row};
      if (job.output == SegmentedOutput::local_indices || job.output == SegmentedOutput::global_indices) {
        const std::uint64_t base = job.output == SegmentedOutput::local_indices ? 0 : job.index_base + std::uint64_t{row} * job.columns;
        record_iota(target.device, r, values.buffer, job.value_type, job.columns, base, values.offset);
      }
      rows.push_back({keys, values, {job.temporary.buffer, job.temporary.offset + (row - first) * temporary_row}});
    }
    record_planned_together(target, r, planned, rows);
  }
}

}  // namespace

std::uint32_t segmented_tile_elements(const DeviceInfo& device, KeyType key_type, SegmentedOutput output) {
  return 1u << tile_shape(device, key_type, output).tile_bits;
}

// On a CPU device lower, so that the tests reach both paths at small sizes.
std::uint64_t segmented_long_row(const DeviceInfo& device) { return std::uint64_t{1} << (device.is_software() ? 16 : 17); }

bool segmented_rows_by_whole_sorts(const DeviceInfo& device, const SegmentedJob& job) {
  return rows_by_whole_sorts(device, job);
}

std::uint64_t segmented_temporary_bytes(const DeviceInfo& device, const SegmentedJob& job) {
  if (rows_by_whole_sorts(device, job)) return rows_together(device, job) * row_temporary_bytes(plan_rows(device, job));
  const std::uint64_t large = may_have_large(device, job) ? radix_bytes(job) : 0;
  return std::max<std::uint64_t>(16, aligned(plan_bytes(job)) + large);
}

void record_segmented(const SortDevice& target, Recorder& r, const SegmentedJob& job) {
  if (job.segments == 0 || job.count == 0) return;
  detail::ComputeDevice& device = target.device;
  if (rows_by_whole_sorts(device.info(), job)) return record_rows_by_whole_sorts(target, r, job);
  const Binding keys{job.keys.buffer, job.output == SegmentedOutput::keys || job.output == SegmentedOutput::pairs
                                          ? Access::read_write
                                          : Access::read,
                     job.keys.offset, job.keys.range};
  const Binding values{job.values.buffer ? job.values.buffer : job.keys.buffer,
                       job.values.buffer ? Access::read_write : Access::read,
                       job.values.buffer ? job.values.offset : job.keys.offset,
                       job.values.buffer ? job.values.range : job.keys.range};
  const Binding begins = job.rows ? keys : Binding{job.begins.buffer, Access::read, job.begins.offset, job.begins.range};
  const Binding ends = job.rows ? keys : Binding{job.ends.buffer, Access::read, job.ends.offset, job.ends.range};
  const std::uint64_t plan = plan_bytes(job);
  const Binding plan_binding = job.rows ? keys
                                        : Binding{job.temporary.buffer, Access::read_write, job.temporary.offset, plan};
  const Binding radix_temp{job.temporary.buffer, Access::read_write, job.temporary.offset + aligned(plan),
                           std::max<std::uint64_t>(4, radix_bytes(job))};
  const Binding bindings[] = {keys, values, begins, ends, plan_binding};
  if (job.rows) return record_rows(device, r, job, bindings, radix_temp);
  record_ranges(device, r, job, bindings, radix_temp);
}

}  // namespace vkc::sorting
