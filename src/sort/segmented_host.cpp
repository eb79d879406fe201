// The segmented sorts' host API (vkc/sort.hpp): checks the segments, sorts segments longer than
// kGiantSegment one at a time as whole-array sorts (with their device-wide passes and, past the
// device, their out-of-core path), and the others in batches of consecutive segments that fit the
// device, each batch one upload, one recorded segmented sort (segmented.hpp) and one download.
// 8- and 16-bit keys are sorted as the 32-bit ordered images of their type, made on the host.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "core/state.hpp"
#include "core/transfer.hpp"
#include "sort/key_bits.hpp"
#include "sort/key_types.hpp"
#include "sort/segmented.hpp"
#include "sort/workspace.hpp"
#include "vkc/sort.hpp"

namespace vkc {

Segments Segments::rows(std::uint64_t rows, std::uint64_t columns) {
  Segments s;
  s.rows_ = rows;
  s.columns_ = columns;
  return s;
}

Segments Segments::ranges(std::span<const std::uint64_t> begins, std::span<const std::uint64_t> ends) {
  if (begins.size() != ends.size()) {
    throw Error("segments: " + std::to_string(begins.size()) + " begins but " + std::to_string(ends.size()) + " ends");
  }
  Segments s;
  s.begins_ = begins;
  s.ends_ = ends;
  return s;
}

Segments Segments::offsets(std::span<const std::uint64_t> offsets) {
  if (offsets.empty()) return {};
  return ranges(offsets.first(offsets.size() - 1), offsets.subspan(1));
}

namespace sorting {
namespace {

// Segments longer than this are sorted one at a time by the whole-array sort: on a GPU its
// device-wide passes beat one workgroup; on a CPU device the lower bound keeps both paths tested
// at small sizes.
std::uint64_t giant_segment(const DeviceInfo& device) { return device.is_software() ? 1u << 16 : 1u << 20; }

struct Piece {
  std::uint64_t begin = 0, end = 0;
  std::uint64_t size() const { return end - begin; }
};

std::string range_text(std::uint64_t i, const Piece& p) {
  return "segment " + std::to_string(i) + " [" + std::to_string(p.begin) + ", " + std::to_string(p.end) + ")";
}

// The non-empty segments in order of their begins; throws on one out of range or overlapping.
std::vector<Piece> checked_pieces(const Segments& segments, std::uint64_t count) {
  std::vector<std::uint64_t> order;
  for (std::uint64_t i = 0; i < segments.size(); ++i) {
    const Piece p{segments.begin(i), segments.end(i)};
    if (p.end < p.begin) throw Error(range_text(i, p) + " ends before it begins");
    if (p.end > count) throw Error(range_text(i, p) + " passes the " + std::to_string(count) + " elements");
    if (p.end > p.begin) order.push_back(i);
  }
  const auto begin_of = [&](std::uint64_t i) { return segments.begin(i); };
  if (!std::is_sorted(order.begin(), order.end(), [&](auto a, auto b) { return begin_of(a) < begin_of(b); })) {
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return begin_of(a) < begin_of(b); });
  }
  std::vector<Piece> pieces;
  pieces.reserve(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    const Piece p{segments.begin(order[k]), segments.end(order[k])};
    if (!pieces.empty() && p.begin < pieces.back().end) {
      throw Error(range_text(order[k], p) + " overlaps " + range_text(order[k - 1], pieces.back()));
    }
    pieces.push_back(p);
  }
  return pieces;
}

void check_options(const SortOptions& options) {
  if (options.algorithm != SortAlgorithm::automatic && options.algorithm != SortAlgorithm::radix) {
    throw Error("segmented sorts choose their own kernels: the algorithm must be auto or radix, not " +
                std::string(to_string(options.algorithm)));
  }
  if (options.begin_bit != 0 || options.end_bit != UINT32_MAX) throw Error("segmented sorts take no bit range yet");
}

// One segmented host sort: where its arrays are and what it writes.
struct HostJob {
  KeyType key_type = KeyType::u32;
  ValueType value_type = ValueType::none;  // values (pairs) or indices (argsort)
  SegmentedOutput output = SegmentedOutput::keys;
  SortOptions options;
  std::uint64_t count = 0;
  void* keys = nullptr;
  void* values = nullptr;
  std::uint64_t columns = 0;  // rows: every piece this long, back to back
  bool rows = false;

  std::uint64_t key_size() const { return key_bytes(key_type); }
  std::uint64_t value_size() const { return value_bytes(value_type); }
  bool writes_keys() const { return output == SegmentedOutput::keys || output == SegmentedOutput::pairs; }
  bool indices() const { return !writes_keys(); }
  std::uint8_t* key_at(std::uint64_t i) const { return static_cast<std::uint8_t*>(keys) + i * key_size(); }
  std::uint8_t* value_at(std::uint64_t i) const { return static_cast<std::uint8_t*>(values) + i * value_size(); }
};

// A segment too long for a workgroup, sorted as a whole array.
void sort_giant(Context& ctx, const HostJob& job, const Piece& p) {
  SortOptions options = job.options;
  options.algorithm = SortAlgorithm::radix;
  options.progress = nullptr;
  if (job.output == SegmentedOutput::keys) return sort(ctx, job.key_type, job.key_at(p.begin), p.size(), options);
  if (job.output == SegmentedOutput::pairs) {
    return sort_pairs(ctx, job.key_type, job.key_at(p.begin), job.value_type, job.value_at(p.begin), p.size(), options);
  }
  const std::uint64_t base = job.output == SegmentedOutput::global_indices ? p.begin : 0;
  if (job.value_type == ValueType::u32) {
    auto* indices = reinterpret_cast<std::uint32_t*>(job.value_at(p.begin));
    argsort_to(ctx, job.key_type, job.key_at(p.begin), indices, p.size(), options);
    for (std::uint64_t i = 0; i < p.size(); ++i) indices[i] += static_cast<std::uint32_t>(base);
  } else {
    auto* indices = reinterpret_cast<std::uint64_t*>(job.value_at(p.begin));
    argsort64_to(ctx, job.key_type, job.key_at(p.begin), indices, p.size(), options);
    for (std::uint64_t i = 0; i < p.size(); ++i) indices[i] += base;
  }
}

// The most elements one batch may span: every device buffer within the storage range and all of
// them within the memory limit.
std::uint64_t batch_capacity(Context& ctx, const HostJob& job) {
  const DeviceInfo& info = ctx.info();
  const SegmentedJob probe{.key_type = job.key_type, .value_type = job.value_type, .output = job.output, .count = 1024};
  const std::uint64_t temp_per_element = segmented_temporary_bytes(info, probe) / 1024 + 1;
  const std::uint64_t per_element = job.key_size() + job.value_size() + temp_per_element + 8;
  const std::uint64_t range = detail::largest_buffer_bytes(info) / std::max(temp_per_element, job.key_size());
  const std::uint64_t memory = detail::state_of(ctx).device_memory_limit() / per_element;
  return std::min<std::uint64_t>({range, memory, UINT32_MAX});
}

// One batch: the pieces [first, last) of `pieces`, spanning elements [lo, hi).
class Batch {
 public:
  Batch(Context& ctx, const HostJob& job, std::span<const Piece> pieces)
      : ctx_(ctx), job_(job), pieces_(pieces), lo_(pieces.front().begin), hi_(pieces.back().end) {}

  void run() {
    detail::ContextState& state = detail::state_of(ctx_);
    const std::uint64_t n = hi_ - lo_;
    const bool gaps = !job_.rows && covered() < n;
    std::vector<std::uint32_t> offsets = rebased_offsets();
    SegmentedJob sj = device_job(n);
    const std::uint64_t sizes[] = {n * job_.key_size(), job_.values ? n * job_.value_size() : 0,
                                   segmented_temporary_bytes(ctx_.info(), sj), offsets.size() * 2, offsets.size() * 2};
    const std::vector<Buffer>& b = workspace(ctx_).reusable_buffers(sizes);
    bind(sj, b, offsets.size() / 2);
    std::vector<detail::UploadPart> up{{detail::read_memory(job_.key_at(lo_)), b[0].handle(), 0, sizes[0]}};
    if (job_.output == SegmentedOutput::pairs || (job_.indices() && gaps)) {
      up.push_back({detail::read_memory(job_.value_at(lo_)), b[1].handle(), 0, sizes[1]});
    }
    if (!job_.rows) {
      up.push_back({detail::read_memory(offsets.data()), b[3].handle(), 0, sizes[3]});
      up.push_back({detail::read_memory(offsets.data() + offsets.size() / 2), b[4].handle(), 0, sizes[4]});
    }
    std::vector<detail::DownloadPart> down;
    if (job_.writes_keys()) down.push_back({b[0].handle(), 0, sizes[0], detail::write_memory(job_.key_at(lo_))});
    if (job_.values) down.push_back({b[1].handle(), 0, sizes[1], detail::write_memory(job_.value_at(lo_))});
    state.uploaded = state.transfers().upload(up);
    ctx_.run([&](Recorder& r) { record_segmented(sort_device(ctx_), r, sj); });
    state.transfers().download(down, state.compute->last());
  }

 private:
  std::uint64_t covered() const {
    return std::accumulate(pieces_.begin(), pieces_.end(), std::uint64_t{0},
                           [](std::uint64_t sum, const Piece& p) { return sum + p.size(); });
  }

  // The begins, then the ends, relative to the batch (rows: none).
  std::vector<std::uint32_t> rebased_offsets() const {
    if (job_.rows) return {};
    std::vector<std::uint32_t> offsets(2 * pieces_.size());
    for (std::size_t i = 0; i < pieces_.size(); ++i) {
      offsets[i] = static_cast<std::uint32_t>(pieces_[i].begin - lo_);
      offsets[pieces_.size() + i] = static_cast<std::uint32_t>(pieces_[i].end - lo_);
    }
    return offsets;
  }

  SegmentedJob device_job(std::uint64_t n) const {
    return {.key_type = job_.key_type,
            .value_type = job_.value_type,
            .order = job_.options.order,
            .output = job_.output,
            .count = static_cast<std::uint32_t>(n),
            .segments = static_cast<std::uint32_t>(pieces_.size()),
            .rows = job_.rows,
            .columns = static_cast<std::uint32_t>(job_.columns),
            .index_base = lo_};
  }

  void bind(SegmentedJob& sj, const std::vector<Buffer>& b, std::size_t segments) const {
    sj.keys = {b[0].handle(), Access::read_write};
    if (job_.values) sj.values = {b[1].handle(), Access::read_write};
    sj.temporary = {b[2].handle(), Access::read_write};
    if (segments) {
      sj.begins = {b[3].handle(), Access::read};
      sj.ends = {b[4].handle(), Access::read};
    }
  }

  Context& ctx_;
  const HostJob& job_;
  std::span<const Piece> pieces_;
  std::uint64_t lo_, hi_;
};

void sort_batches(Context& ctx, const HostJob& job, const std::vector<Piece>& pieces) {
  std::uint64_t giant = giant_segment(ctx.info());
  const std::uint64_t capacity = batch_capacity(ctx, job);
  std::size_t first = 0;
  const auto flush = [&](std::size_t end) {
    if (end > first) Batch(ctx, job, std::span(pieces).subspan(first, end - first)).run();
    first = end;
  };
  const SegmentedJob rows{.key_type = job.key_type,
                          .value_type = job.value_type,
                          .output = job.output,
                          .rows = job.rows,
                          .columns = static_cast<std::uint32_t>(std::min<std::uint64_t>(job.columns, UINT32_MAX))};
  // Long rows that the device sorts by whole-array sorts stay in batches: one submission for many.
  if (job.rows && job.columns <= UINT32_MAX && segmented_rows_by_whole_sorts(ctx.info(), rows)) {
    giant = capacity;
  }
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (pieces[i].size() > giant || pieces[i].size() > capacity) {
      flush(i);
      sort_giant(ctx, job, pieces[i]);
      first = i + 1;
    } else if (pieces[i].end - pieces[first].begin > capacity) {
      flush(i);
    }
  }
  flush(pieces.size());
}

}  // namespace
}  // namespace sorting
}  // namespace vkc

namespace vkc::sorting {
namespace {

void sort_pieces(Context& ctx, const HostJob& job, const std::vector<Piece>& pieces);

// 8- and 16-bit keys: their ordered images sorted as 32-bit keys, ascending, and mapped back
// inside the segments only.
template <class Row>
void sort_narrow_pieces(Context& ctx, const HostJob& job, const std::vector<Piece>& pieces) {
  using Bits = typename Row::bits;
  const bool descending = job.options.order == SortOrder::descending;
  const KeyBits<Bits> order{Row::kind, Row::exponent};  // whole keys: segmented sorts take no bit range
  const auto* keys = static_cast<const Bits*>(job.keys);
  std::vector<std::uint32_t> images(job.count);
  for (const Piece& p : pieces) {
    for (std::uint64_t i = p.begin; i < p.end; ++i) images[i] = order.rank(order.canonical(keys[i]), descending);
  }
  HostJob wide = job;
  wide.key_type = KeyType::u32;
  wide.options.order = SortOrder::ascending;
  wide.keys = images.data();
  sort_pieces(ctx, wide, pieces);
  if (!job.writes_keys()) return;
  auto* out = static_cast<Bits*>(job.keys);
  for (const Piece& p : pieces) {
    for (std::uint64_t i = p.begin; i < p.end; ++i) out[i] = order.unrank(static_cast<Bits>(images[i]), descending);
  }
}

void sort_pieces(Context& ctx, const HostJob& job, const std::vector<Piece>& pieces) {
  if (!is_narrow(job.key_type)) return sort_batches(ctx, job, pieces);
  with_key_type(job.key_type, [&](auto row) {
    if constexpr (decltype(row)::narrow) sort_narrow_pieces<decltype(row)>(ctx, job, pieces);
  });
}

void sort_segmented(Context& ctx, HostJob job, const Segments& segments) {
  check_options(job.options);
  const std::vector<Piece> pieces = checked_pieces(segments, job.count);
  if (job.output == SegmentedOutput::global_indices && job.value_type == ValueType::u32 && job.count > UINT32_MAX) {
    throw Error("global 32-bit indices of " + std::to_string(job.count) + " elements: use 64-bit indices");
  }
  job.rows = segments.are_rows() && segments.size() > 0;
  job.columns = segments.columns();
  const std::uint64_t total = job.count;
  if (job.options.progress) job.options.progress({0, total});
  sort_pieces(ctx, job, pieces);
  if (job.options.progress) job.options.progress({total, total});
}

}  // namespace
}  // namespace vkc::sorting

namespace vkc {

void sort_segments(Context& ctx, KeyType type, void* keys, std::uint64_t count, const Segments& segments,
                   const SortOptions& options) {
  sorting::sort_segmented(ctx, {.key_type = type, .options = options, .count = count, .keys = keys}, segments);
}

void sort_segments_pairs(Context& ctx, KeyType key_type, void* keys, ValueType value_type, void* values,
                         std::uint64_t count, const Segments& segments, const SortOptions& options) {
  if (value_type == ValueType::none) throw Error("sort_segments_pairs needs a value type");
  sorting::sort_segmented(ctx,
                          {.key_type = key_type,
                           .value_type = value_type,
                           .output = sorting::SegmentedOutput::pairs,
                           .options = options,
                           .count = count,
                           .keys = keys,
                           .values = values},
                          segments);
}

void argsort_segments(Context& ctx, KeyType type, const void* keys, std::uint64_t count, const Segments& segments,
                      ValueType index_type, void* indices, SegmentIndices numbering, const SortOptions& options) {
  if (index_type == ValueType::none) throw Error("argsort_segments needs an index type (u32 or u64)");
  const auto output = numbering == SegmentIndices::local ? sorting::SegmentedOutput::local_indices
                                                         : sorting::SegmentedOutput::global_indices;
  sorting::sort_segmented(ctx,
                          {.key_type = type,
                           .value_type = index_type,
                           .output = output,
                           .options = options,
                           .count = count,
                           .keys = const_cast<void*>(keys),
                           .values = indices},
                          segments);
}

}  // namespace vkc
