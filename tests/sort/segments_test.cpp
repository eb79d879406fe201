// Segmented sorts (sort_segments, sort_segments_pairs, argsort_segments) against std::stable_sort
// of each segment: every key type in both orders, keys, pairs and argsort (local and global
// indices), segments of every size class of the tile kernel, longer ones (one workgroup each)
// and ones past kGiantSegment (whole-array sorts), gaps, empty segments, rows, and bad offsets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "sort/reference.hpp"
#include "sort/segmented.hpp"
#include "support/gpu_test.hpp"
#include "vkc/sort.hpp"

namespace vkc::test {
namespace {

struct Range {
  std::uint64_t begin, end;
};

// The expected permutation: each segment's positions (local) in stable sorted order.
template <class T>
std::vector<std::uint64_t> expected_local_order(const std::vector<T>& keys, const Range& r, SortOrder order) {
  std::vector<std::uint64_t> local(r.end - r.begin);
  std::iota(local.begin(), local.end(), 0);
  std::stable_sort(local.begin(), local.end(), [&](std::uint64_t a, std::uint64_t b) {
    return contract_less(keys[r.begin + a], keys[r.begin + b], order);
  });
  return local;
}

template <class T>
void expect_keys(const std::vector<T>& input, const std::vector<T>& got, const std::vector<Range>& segments,
                 SortOrder order, const char* what) {
  std::vector<T> expected = input;
  for (const Range& r : segments) {
    const auto local = expected_local_order(input, r, order);
    for (std::size_t i = 0; i < local.size(); ++i) expected[r.begin + i] = as_returned(input[r.begin + local[i]]);
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool inside = std::any_of(segments.begin(), segments.end(), [&](const Range& r) { return i >= r.begin && i < r.end; });
    const bool same = inside ? same_key(got[i], expected[i]) : std::memcmp(&got[i], &input[i], sizeof(T)) == 0;
    ASSERT_TRUE(same) << what << ": position " << i << (inside ? " (in a segment)" : " (outside every segment)");
  }
}

template <class I, class T>
void expect_indices(const std::vector<T>& input, const std::vector<I>& got, const std::vector<Range>& segments,
                    SortOrder order, bool global, I untouched) {
  std::vector<I> expected(got.size(), untouched);
  for (const Range& r : segments) {
    const auto local = expected_local_order(input, r, order);
    for (std::size_t i = 0; i < local.size(); ++i) expected[r.begin + i] = static_cast<I>(local[i] + (global ? r.begin : 0));
  }
  const auto differs = std::mismatch(got.begin(), got.end(), expected.begin());
  ASSERT_EQ(differs.first, got.end()) << (global ? "global" : "local") << " indices differ at "
                                      << differs.first - got.begin() << ": got " << *differs.first << ", expected "
                                      << *differs.second;
}

std::uint64_t tile_of(Context& ctx, KeyType type) {
  return sorting::segmented_tile_elements(ctx.info(), type, sorting::SegmentedOutput::pairs);
}

template <class T>
void sorts_keys(Context& ctx, const std::vector<T>& keys, const std::vector<Range>& ranges, const Segments& segments) {
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    SCOPED_TRACE(order == SortOrder::ascending ? "ascending" : "descending");
    std::vector<T> sorted = keys;
    sort_segments(ctx, key_type_of<T>(), sorted.data(), sorted.size(), segments, {.order = order});
    expect_keys(keys, sorted, ranges, order, "keys");
  }
}

// Pairs with 64-bit values: the keys, and each value with its key (the values are positions
// plus 2^40, so that the permutation can be read back from them).
template <class T>
void sorts_pairs(Context& ctx, const std::vector<T>& keys, const std::vector<Range>& ranges, const Segments& segments,
                 SortOrder order) {
  std::vector<T> paired = keys;
  constexpr std::uint64_t offset = std::uint64_t{1} << 40;
  std::vector<std::uint64_t> values(keys.size());
  std::iota(values.begin(), values.end(), offset);
  sort_segments_pairs(ctx, key_type_of<T>(), paired.data(), ValueType::u64, values.data(), paired.size(), segments,
                      {.order = order});
  expect_keys(keys, paired, ranges, order, "pairs' keys");
  std::vector<std::uint64_t> positions(values.size(), ~std::uint64_t{0});
  for (const Range& r : ranges) {
    for (std::uint64_t i = r.begin; i < r.end; ++i) positions[i] = values[i] - offset;
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (positions[i] == ~std::uint64_t{0}) ASSERT_EQ(values[i], offset + i) << "a value outside every segment moved";
  }
  expect_indices(keys, positions, ranges, order, true, ~std::uint64_t{0});
}

template <class T>
void sorts_indices(Context& ctx, const std::vector<T>& keys, const std::vector<Range>& ranges, const Segments& segments,
                   SortOrder order) {
  std::vector<std::uint32_t> local(keys.size(), 0xDEADBEEF);
  argsort_segments(ctx, key_type_of<T>(), keys.data(), keys.size(), segments, ValueType::u32, local.data(),
                   SegmentIndices::local, {.order = order});
  expect_indices(keys, local, ranges, order, false, 0xDEADBEEFu);
  std::vector<std::uint64_t> global(keys.size(), 7);
  argsort_segments(ctx, key_type_of<T>(), keys.data(), keys.size(), segments, ValueType::u64, global.data(),
                   SegmentIndices::global, {.order = order});
  expect_indices(keys, global, ranges, order, true, std::uint64_t{7});
}

// Segments of every tile class, one just past the tile, gaps, empty ones, listed out of order.
std::vector<Range> mixed_ranges(std::uint64_t tile, std::mt19937_64& rng) {
  std::vector<std::uint64_t> lengths{0, 1, 2, 3, 5, 8, 9, 16, 17, 31, 32, 33, 100, tile / 2 + 1, tile - 1, tile, tile + 1,
                                     3 * tile + 7, 0, 1, 64};
  std::vector<Range> ranges;
  std::uint64_t at = 3;
  for (std::uint64_t length : lengths) {
    ranges.push_back({at, at + length});
    at += length + rng() % 3;  // gaps of 0 to 2
  }
  std::shuffle(ranges.begin(), ranges.end(), rng);
  return ranges;
}

// mixed_ranges for keys of T, with their offsets and the count of keys that holds them all.
struct MixedCase {
  std::vector<Range> ranges;
  std::vector<std::uint64_t> begins, ends;
  std::uint64_t count = 0;
  Segments segments() const { return Segments::ranges(begins, ends); }
};

MixedCase mixed_case(Context& ctx, KeyType type, std::mt19937_64& rng) {
  MixedCase c;
  c.ranges = mixed_ranges(tile_of(ctx, type), rng);
  for (const Range& r : c.ranges) {
    c.begins.push_back(r.begin);
    c.ends.push_back(r.end);
    c.count = std::max(c.count, r.end + 5);
  }
  return c;
}

template <class T>
class SegmentedSort : public GpuTest {};

using KeyTypes = ::testing::Types<std::uint32_t, std::int32_t, float, std::uint64_t, std::int64_t, double,
                                  std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, Float16, BFloat16>;
TYPED_TEST_SUITE(SegmentedSort, KeyTypes);

TYPED_TEST(SegmentedSort, KeysOfMixedSegmentsWithGaps) {
  auto rng = rng_for_current_test();
  const MixedCase c = mixed_case(this->ctx(), key_type_of<TypeParam>(), rng);
  for (Dist dist : {Dist::special, Dist::few}) {
    SCOPED_TRACE(dist_name(dist));
    sorts_keys(this->ctx(), make_keys<TypeParam>(c.count, dist, rng), c.ranges, c.segments());
  }
}

// Pairs and argsort take the kernels' other outputs: for the two key widths and a float, and an
// 8- and a 16-bit type (their images take the 32-bit kernels).
template <class T>
class SegmentedForms : public GpuTest {};
using FormKeyTypes = ::testing::Types<std::uint32_t, float, std::int64_t, double, std::int8_t, Float16>;
TYPED_TEST_SUITE(SegmentedForms, FormKeyTypes);

TYPED_TEST(SegmentedForms, PairsAndIndicesOfMixedSegments) {
  auto rng = rng_for_current_test();
  const MixedCase c = mixed_case(this->ctx(), key_type_of<TypeParam>(), rng);
  const std::vector<TypeParam> keys = make_keys<TypeParam>(c.count, Dist::few, rng);
  sorts_pairs(this->ctx(), keys, c.ranges, c.segments(), SortOrder::descending);
  sorts_indices(this->ctx(), keys, c.ranges, c.segments(), SortOrder::ascending);
}

class SegmentedRows : public GpuTest {};

std::vector<Range> row_ranges(std::uint64_t rows, std::uint64_t columns) {
  std::vector<Range> ranges;
  for (std::uint64_t r = 0; r < rows; ++r) ranges.push_back({r * columns, (r + 1) * columns});
  return ranges;
}

TEST_F(SegmentedRows, EveryRowLengthAroundTheTile) {
  auto rng = rng_for_current_test();
  const std::uint64_t tile = tile_of(ctx(), KeyType::f32);
  for (std::uint64_t columns : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{31}, std::uint64_t{32},
                                std::uint64_t{33}, tile - 1, tile, tile + 1, 5 * tile + 3}) {
    SCOPED_TRACE("columns " + std::to_string(columns));
    const std::uint64_t rows = std::max<std::uint64_t>(3, 3000 / columns);
    const std::vector<float> keys = make_keys<float>(rows * columns, Dist::special, rng);
    sorts_keys(ctx(), keys, row_ranges(rows, columns), Segments::rows(rows, columns));
    sorts_indices(ctx(), keys, row_ranges(rows, columns), Segments::rows(rows, columns), SortOrder::descending);
  }
}

// Rows longer than kGiantSegment on a CPU device (2^16): each sorted as a whole array.
TEST_F(SegmentedRows, RowsOfAHundredThousand) {
  auto rng = rng_for_current_test();
  const std::vector<std::int32_t> keys = make_keys<std::int32_t>(300000, Dist::uniform, rng);
  sorts_pairs(ctx(), keys, row_ranges(3, 100000), Segments::rows(3, 100000), SortOrder::ascending);
  sorts_indices(ctx(), keys, row_ranges(3, 100000), Segments::rows(3, 100000), SortOrder::descending);
}

class SegmentedShapes : public GpuTest {};

// Power-law lengths (a few long segments among many short ones, some past the tile and one past
// kGiantSegment), given as consecutive offsets.
TEST_F(SegmentedShapes, PowerLawLengths) {
  auto rng = rng_for_current_test();
  std::vector<std::uint64_t> offsets{0};
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int i = 0; i < 400; ++i) offsets.push_back(offsets.back() + static_cast<std::uint64_t>(std::pow(unit(rng), -1.6)));
  offsets.push_back(offsets.back() + 70000);
  std::vector<Range> ranges;
  for (std::size_t i = 0; i + 1 < offsets.size(); ++i) ranges.push_back({offsets[i], offsets[i + 1]});
  const std::vector<std::uint32_t> keys = make_keys<std::uint32_t>(offsets.back(), Dist::uniform, rng);
  sorts_keys(ctx(), keys, ranges, Segments::offsets(offsets));
  sorts_indices(ctx(), keys, ranges, Segments::offsets(offsets), SortOrder::ascending);
}

TEST_F(SegmentedShapes, OneSegmentOfTheWholeArrayAndNone) {
  auto rng = rng_for_current_test();
  const std::vector<double> keys = make_keys<double>(5000, Dist::special, rng);
  sorts_keys(ctx(), keys, {{0, 5000}}, Segments::rows(1, 5000));
  sorts_keys(ctx(), keys, {}, Segments::offsets({}));
  sorts_keys(ctx(), keys, {}, Segments::rows(0, 7));
}

// More elements than one batch takes (lavapipe's 128 MiB storage range holds 4 Mi elements of the
// radix kernel's temporary for 64-bit keys with 64-bit values): several batches.
TEST_F(SegmentedShapes, SegmentsPastTheStorageRange) {
  auto rng = rng_for_current_test();
  const std::uint64_t count = std::uint64_t{9} << 20;
  std::vector<std::uint64_t> offsets{0};
  while (offsets.back() < count) offsets.push_back(std::min(count, offsets.back() + 1 + rng() % 20000));
  std::vector<Range> ranges;
  for (std::size_t i = 0; i + 1 < offsets.size(); ++i) ranges.push_back({offsets[i], offsets[i + 1]});
  const std::vector<std::uint64_t> keys = make_keys<std::uint64_t>(count, Dist::uniform, rng);
  sorts_pairs(ctx(), keys, ranges, Segments::offsets(offsets), SortOrder::ascending);
}

class SegmentedRecordApi : public GpuTest {};

// The engine's path: offsets in its own buffers, a sort recorded into its command buffer.
TEST_F(SegmentedRecordApi, PairsOverOffsetsAndIndicesOverRows) {
  auto rng = rng_for_current_test();
  const std::vector<Range> ranges = mixed_ranges(tile_of(ctx(), KeyType::f32), rng);
  std::vector<std::uint32_t> begins, ends;
  std::uint32_t count = 0;
  for (const Range& r : ranges) {
    begins.push_back(static_cast<std::uint32_t>(r.begin));
    ends.push_back(static_cast<std::uint32_t>(r.end));
    count = std::max(count, static_cast<std::uint32_t>(r.end + 2));
  }
  const std::vector<float> keys = make_keys<float>(count, Dist::special, rng);
  std::vector<std::uint32_t> values(count);
  std::iota(values.begin(), values.end(), 0u);
  Buffer key_buffer = ctx().create_buffer(count * 4), value_buffer = ctx().create_buffer(count * 4);
  Buffer offsets = ctx().create_buffer(2 * 256 + ranges.size() * 4);
  ctx().upload(key_buffer, keys.data(), count * 4);
  ctx().upload(value_buffer, values.data(), count * 4);
  ctx().upload(offsets, begins.data(), begins.size() * 4);
  ctx().upload(offsets, ends.data(), ends.size() * 4, 256);
  const SegmentedSortDesc desc{.key_type = KeyType::f32,
                               .value_type = ValueType::u32,
                               .order = SortOrder::descending,
                               .count = count,
                               .segments = static_cast<std::uint32_t>(ranges.size())};
  const SortStorageRequirements needs = sorter(ctx()).temporary_requirements(desc);
  Buffer temporary = ctx().create_buffer(needs.size);
  ctx().run([&](Recorder& r) {
    sorter(ctx()).record_segmented_sort(
        r.commands(), desc,
        {{key_buffer.handle()}, {value_buffer.handle()}, {offsets.handle()}, {offsets.handle(), 256}, {temporary.handle()}});
    record_barrier_before_download(r.commands());
  });
  std::vector<float> sorted(count);
  std::vector<std::uint32_t> moved(count);
  ctx().download(key_buffer, sorted.data(), count * 4);
  ctx().download(value_buffer, moved.data(), count * 4);
  expect_keys(keys, sorted, ranges, SortOrder::descending, "recorded pairs' keys");
  for (std::size_t i = 0; i < count; ++i) {
    const bool inside = std::any_of(ranges.begin(), ranges.end(), [&](const Range& r) { return i >= r.begin && i < r.end; });
    if (inside) continue;
    ASSERT_EQ(moved[i], i) << "a value outside every segment moved";
    moved[i] = 0xFFFFFFFFu;
  }
  expect_indices(keys, moved, ranges, SortOrder::descending, true, 0xFFFFFFFFu);

  const std::uint32_t rows = 5, columns = 77;
  const SegmentedSortDesc by_rows{.key_type = KeyType::f32,
                                  .value_type = ValueType::u64,
                                  .argsort = true,
                                  .numbering = SegmentIndices::global,
                                  .count = rows * columns,
                                  .segments = rows,
                                  .columns = columns};
  Buffer indices = ctx().create_buffer(rows * columns * 8);
  Buffer row_temporary = ctx().create_buffer(sorter(ctx()).temporary_requirements(by_rows).size);
  ctx().upload(key_buffer, keys.data(), rows * columns * 4);
  ctx().run([&](Recorder& r) {
    sorter(ctx()).record_segmented_sort(r.commands(), by_rows,
                                        {{key_buffer.handle()}, {indices.handle()}, {}, {}, {row_temporary.handle()}});
    record_barrier_before_download(r.commands());
  });
  std::vector<std::uint64_t> got(rows * columns);
  ctx().download(indices, got.data(), got.size() * 8);
  const std::vector<float> row_keys(keys.begin(), keys.begin() + rows * columns);
  expect_indices(row_keys, got, row_ranges(rows, columns), SortOrder::ascending, true, std::uint64_t{0});
}

// The segment count on the GPU: only the first `sorted` of the listed segments are sorted.
TEST_F(SegmentedRecordApi, SegmentCountReadOnTheGpu) {
  auto rng = rng_for_current_test();
  const MixedCase c = mixed_case(ctx(), KeyType::u32, rng);
  const std::uint32_t sorted = static_cast<std::uint32_t>(c.ranges.size() / 2);
  std::vector<std::uint32_t> offsets(512 / 4 + c.ranges.size(), 0);
  for (std::size_t i = 0; i < c.ranges.size(); ++i) {
    offsets[i] = static_cast<std::uint32_t>(c.begins[i]);
    offsets[512 / 4 + i] = static_cast<std::uint32_t>(c.ends[i]);
  }
  offsets[256 / 4] = sorted;  // the count word, between the begins and the ends
  const std::vector<std::uint32_t> keys = make_keys<std::uint32_t>(c.count, Dist::uniform, rng);
  Buffer key_buffer = ctx().create_buffer(c.count * 4), offset_buffer = ctx().create_buffer(offsets.size() * 4);
  ctx().upload(key_buffer, keys.data(), c.count * 4);
  ctx().upload(offset_buffer, offsets.data(), offsets.size() * 4);
  const SegmentedSortDesc desc{.count = static_cast<std::uint32_t>(c.count), .segments = static_cast<std::uint32_t>(c.ranges.size())};
  Buffer temporary = ctx().create_buffer(sorter(ctx()).temporary_requirements(desc).size);
  ctx().run([&](Recorder& r) {
    sorter(ctx()).record_segmented_sort(r.commands(), desc,
                                        {.keys = {key_buffer.handle()},
                                         .begins = {offset_buffer.handle()},
                                         .ends = {offset_buffer.handle(), 512},
                                         .temporary = {temporary.handle()},
                                         .segment_count = {offset_buffer.handle(), 256}});
    record_barrier_before_download(r.commands());
  });
  std::vector<std::uint32_t> got(c.count);
  ctx().download(key_buffer, got.data(), c.count * 4);
  expect_keys(keys, got, std::vector<Range>(c.ranges.begin(), c.ranges.begin() + sorted), SortOrder::ascending,
              "the counted segments' keys");
}

class SegmentedErrors : public GpuTest {};

TEST_F(SegmentedErrors, BadSegmentsAreRefusedBeforeAnythingMoves) {
  std::vector<std::uint32_t> keys{5, 4, 3, 2, 1, 0};
  const std::vector<std::uint32_t> input = keys;
  const auto refuses = [&](std::vector<std::uint64_t> begins, std::vector<std::uint64_t> ends, const char* message) {
    try {
      sort_segments(ctx(), KeyType::u32, keys.data(), keys.size(), Segments::ranges(begins, ends));
      ADD_FAILURE() << "accepted: " << message;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
    EXPECT_EQ(keys, input);
  };
  refuses({0, 4}, {2, 7}, "passes the 6 elements");
  refuses({3}, {2}, "ends before it begins");
  refuses({0, 2}, {3, 5}, "overlaps");
  refuses({2, 0}, {5, 3}, "overlaps");
  refuses({0}, {1, 2}, "1 begins but 2 ends");
  EXPECT_THROW(sort_segments(ctx(), KeyType::u32, keys.data(), keys.size(), Segments::rows(2, 3),
                             {.algorithm = SortAlgorithm::bitonic}),
               Error);
  EXPECT_THROW(sort_segments(ctx(), KeyType::u32, keys.data(), keys.size(), Segments::rows(2, 4)), Error);
}

}  // namespace
}  // namespace vkc::test
