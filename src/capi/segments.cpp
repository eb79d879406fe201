// The segmented sorts: the segments checked here, where a bad one is the caller's mistake
// (VKC_ERROR_INVALID_ARGUMENT; the library would fail with a plain Error), then the C++ API
// under the context's lock.
#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "capi/sort_calls.hpp"

namespace vkc::capi {
namespace {

static_assert(VKC_SEGMENT_INDICES_LOCAL == int(SegmentIndices::local) &&
              VKC_SEGMENT_INDICES_GLOBAL == int(SegmentIndices::global));

SegmentIndices numbering_of(vkc_segment_indices numbering) {
  require_enum(static_cast<int>(numbering), VKC_SEGMENT_INDICES_LOCAL, VKC_SEGMENT_INDICES_GLOBAL, "segment indices");
  return static_cast<SegmentIndices>(static_cast<int>(numbering));
}

// The segmented sorts pick their kernels themselves and sort by the whole key, which they take
// as the default range alone: a range of every bit, however it was set, becomes that.
SortOptions segmentable(KeyType type, SortOptions options) {
  const SortAlgorithm a = options.algorithm;
  if (a != SortAlgorithm::automatic && a != SortAlgorithm::radix) {
    invalid("segmented sorts choose their own kernels: the algorithm must be auto or radix, not " +
            std::string(to_string(a)));
  }
  if (options.begin_bit != 0 || options.end_bit < key_bits(type)) {
    invalid("segmented sorts take no bit range yet: set every bit of the key (0 to its width)");
  }
  options.end_bit = UINT32_MAX;
  return options;
}

std::string segment_text(std::uint64_t i, std::uint64_t begin, std::uint64_t end) {
  return "segment " + std::to_string(i) + " [" + std::to_string(begin) + ", " + std::to_string(end) + ")";
}

// No two segments share an element: taken in the order of their begins, each non-empty one
// starts at or after the end of the one before.
void require_disjoint(std::span<const std::uint64_t> begins, std::span<const std::uint64_t> ends) {
  std::vector<std::uint64_t> order;
  for (std::uint64_t i = 0; i < begins.size(); ++i) {
    if (begins[i] != ends[i]) order.push_back(i);
  }
  const auto by_begin = [&](std::uint64_t a, std::uint64_t b) { return begins[a] < begins[b]; };
  if (!std::is_sorted(order.begin(), order.end(), by_begin)) std::stable_sort(order.begin(), order.end(), by_begin);
  for (std::size_t k = 1; k < order.size(); ++k) {
    const std::uint64_t before = order[k - 1], at = order[k];
    if (begins[at] < ends[before]) {
      invalid(segment_text(before, begins[before], ends[before]) + " and " + segment_text(at, begins[at], ends[at]) +
              " overlap");
    }
  }
}

// Every segment within the `count` keys, none ending before it begins, none sharing an element.
void require_segments(const std::uint64_t* begins, const std::uint64_t* ends, std::uint64_t segment_count,
                      std::uint64_t count) {
  require_array(begins, segment_count, "begins");
  require_array(ends, segment_count, "ends");
  for (std::uint64_t i = 0; i < segment_count; ++i) {
    if (ends[i] < begins[i]) invalid(segment_text(i, begins[i], ends[i]) + " ends before it begins");
    if (ends[i] > count) {
      invalid(segment_text(i, begins[i], ends[i]) + " ends past the " + std::to_string(count) + " keys");
    }
  }
  require_disjoint({begins, segment_count}, {ends, segment_count});
}

std::uint64_t longest_segment(const std::uint64_t* begins, const std::uint64_t* ends, std::uint64_t segment_count) {
  std::uint64_t longest = 0;
  for (std::uint64_t i = 0; i < segment_count; ++i) longest = std::max(longest, ends[i] - begins[i]);
  return longest;
}

ValueType index_type_of(vkc_value_type type) {
  require_enum(static_cast<int>(type), VKC_VALUE_U32, VKC_VALUE_U64, "index type");
  return static_cast<ValueType>(static_cast<int>(type));
}

// uint32 indices number positions below 2^32: the whole array's for global indices, the longest
// segment's for local ones.
void require_indices_fit(ValueType index_type, SegmentIndices numbering, std::uint64_t count, std::uint64_t longest) {
  if (index_type != ValueType::u32) return;
  const std::uint64_t numbered = numbering == SegmentIndices::global ? count : longest;
  if (numbered > UINT32_MAX) {
    fail(VKC_ERROR_UNSUPPORTED, std::string(numbering == SegmentIndices::global ? "global" : "local") +
                                    " indices up to " + std::to_string(numbered) +
                                    ": more than uint32 indices number (use VKC_VALUE_U64)");
  }
}

// rows * columns, where it fits 64 bits.
std::uint64_t element_count(std::uint64_t rows, std::uint64_t columns) {
  if (columns != 0 && rows > UINT64_MAX / columns) {
    invalid(std::to_string(rows) + " rows of " + std::to_string(columns) + " columns are more keys than any array");
  }
  return rows * columns;
}

// The frame of the row forms: sort_call over rows * columns keys, the body given that count too.
template <class Body>
vkc_status rows_call(const char* function, vkc_context* context, vkc_key_type type, std::uint64_t rows,
                     std::uint64_t columns, const vkc_sort_options* options, Body&& body) {
  std::uint64_t count = 0;
  if (const vkc_status status = guarded(function, [&] { count = element_count(rows, columns); })) return status;
  return sort_call(function, context, type, count, options, [&](KeyType key, const SortOptions& o, auto locked) {
    body(key, segmentable(key, o), count, locked);
  });
}

}  // namespace
}  // namespace vkc::capi

using namespace vkc::capi;
using vkc::KeyType;
using vkc::Segments;
using vkc::SortOptions;

extern "C" {

vkc_status vkc_sort_segments(vkc_context* context, vkc_key_type key_type, void* keys, uint64_t count,
                             const uint64_t* begins, const uint64_t* ends, uint64_t segment_count,
                             const vkc_sort_options* options) {
  return sort_call("vkc_sort_segments", context, key_type, count, options,
                   [&](KeyType key, const SortOptions& given, auto locked) {
                     const SortOptions o = segmentable(key, given);
                     require_array(keys, count, "keys");
                     require_segments(begins, ends, segment_count, count);
                     const Segments segments = Segments::ranges({begins, segment_count}, {ends, segment_count});
                     locked([&](vkc::Context& ctx) { vkc::sort_segments(ctx, key, keys, count, segments, o); });
                   });
}

vkc_status vkc_sort_segments_pairs(vkc_context* context, vkc_key_type key_type, void* keys, vkc_value_type value_type,
                                   void* values, uint64_t count, const uint64_t* begins, const uint64_t* ends,
                                   uint64_t segment_count, const vkc_sort_options* options) {
  return sort_call(
      "vkc_sort_segments_pairs", context, key_type, count, options, [&](KeyType key, const SortOptions& given, auto locked) {
        const SortOptions o = segmentable(key, given);
        const vkc::ValueType value = vkc::capi::value_type(value_type);
        require_array(keys, count, "keys");
        require_array(values, count, "values");
        require_segments(begins, ends, segment_count, count);
        const Segments segments = Segments::ranges({begins, segment_count}, {ends, segment_count});
        locked([&](vkc::Context& ctx) { vkc::sort_segments_pairs(ctx, key, keys, value, values, count, segments, o); });
      });
}

vkc_status vkc_argsort_segments(vkc_context* context, vkc_key_type key_type, const void* keys, uint64_t count,
                                const uint64_t* begins, const uint64_t* ends, uint64_t segment_count,
                                vkc_value_type index_type, void* indices, vkc_segment_indices numbering,
                                const vkc_sort_options* options) {
  return sort_call(
      "vkc_argsort_segments", context, key_type, count, options, [&](KeyType key, const SortOptions& given, auto locked) {
        const SortOptions o = segmentable(key, given);
        const vkc::ValueType index = index_type_of(index_type);
        const vkc::SegmentIndices numbers = numbering_of(numbering);
        require_array(keys, count, "keys");
        require_array(indices, count, "indices");
        require_segments(begins, ends, segment_count, count);
        require_indices_fit(index, numbers, count, longest_segment(begins, ends, segment_count));
        const Segments segments = Segments::ranges({begins, segment_count}, {ends, segment_count});
        locked([&](vkc::Context& ctx) {
          vkc::argsort_segments(ctx, key, keys, count, segments, index, indices, numbers, o);
        });
      });
}

vkc_status vkc_sort_rows(vkc_context* context, vkc_key_type key_type, void* keys, uint64_t rows, uint64_t columns,
                         const vkc_sort_options* options) {
  return rows_call("vkc_sort_rows", context, key_type, rows, columns, options,
                   [&](KeyType key, const SortOptions& o, std::uint64_t count, auto locked) {
                     require_array(keys, count, "keys");
                     const Segments segments = Segments::rows(rows, columns);
                     locked([&](vkc::Context& ctx) { vkc::sort_segments(ctx, key, keys, count, segments, o); });
                   });
}

vkc_status vkc_sort_rows_pairs(vkc_context* context, vkc_key_type key_type, void* keys, vkc_value_type value_type,
                               void* values, uint64_t rows, uint64_t columns, const vkc_sort_options* options) {
  return rows_call(
      "vkc_sort_rows_pairs", context, key_type, rows, columns, options,
      [&](KeyType key, const SortOptions& o, std::uint64_t count, auto locked) {
        const vkc::ValueType value = vkc::capi::value_type(value_type);
        require_array(keys, count, "keys");
        require_array(values, count, "values");
        const Segments segments = Segments::rows(rows, columns);
        locked([&](vkc::Context& ctx) { vkc::sort_segments_pairs(ctx, key, keys, value, values, count, segments, o); });
      });
}

vkc_status vkc_argsort_rows(vkc_context* context, vkc_key_type key_type, const void* keys, uint64_t rows,
                            uint64_t columns, vkc_value_type index_type, void* indices,
                            const vkc_sort_options* options) {
  return rows_call("vkc_argsort_rows", context, key_type, rows, columns, options,
                   [&](KeyType key, const SortOptions& o, std::uint64_t count, auto locked) {
                     const vkc::ValueType index = index_type_of(index_type);
                     require_array(keys, count, "keys");
                     require_array(indices, count, "indices");
                     require_indices_fit(index, vkc::SegmentIndices::local, count, columns);
                     const Segments segments = Segments::rows(rows, columns);
                     locked([&](vkc::Context& ctx) {
                       vkc::argsort_segments(ctx, key, keys, count, segments, index, indices,
                                             vkc::SegmentIndices::local, o);
                     });
                   });
}

}  // extern "C"
