// SortOptions::begin_bit and end_bit: radix sorts by those bits of the ordered image alone, and
// stably, so the result is exactly std::stable_sort by the image cut to the range. The image is
// written here from its documentation in vkc/sort.hpp, apart from the library's maps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "sort/reference.hpp"
#include "support/gpu_test.hpp"
#include "vkc/sort.hpp"

namespace vkc::test {
namespace {

template <class T>
using BitsOf = std::conditional_t<sizeof(T) == 1, std::uint8_t,
                                  std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                                     std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

template <class T>
BitsOf<T> bits_of(T key) {
  BitsOf<T> bits;
  std::memcpy(&bits, &key, sizeof bits);
  return bits;
}

// The ordered image as SortOptions documents it: unsigned keys as they are; signed keys with the
// sign bit flipped; floats with the sign bit flipped for positives and every bit for negatives, a
// NaN as its positive pattern with the sign bit set; descending inverts every bit but a NaN's.
template <class T>
std::uint64_t ordered_image(T key, SortOrder order) {
  using Bits = BitsOf<T>;
  const Bits sign = Bits(Bits{1} << (sizeof(T) * 8 - 1));
  const Bits bits = bits_of(key);
  Bits image = bits;
  bool nan = false;
  if constexpr (kFloatKey<T>) {
    nan = std::isnan(static_cast<double>(compared(key)));
    image = nan ? Bits(bits | sign) : (bits & sign) ? Bits(~bits) : Bits(bits | sign);
  } else if constexpr (std::is_signed_v<T>) {
    image = Bits(bits ^ sign);
  }
  if (order == SortOrder::descending && !nan) image = Bits(~image);
  return image;
}

std::uint64_t range_mask(std::uint32_t begin, std::uint32_t end) {
  std::uint64_t mask = 0;
  for (std::uint32_t b = begin; b < end && b < 64; ++b) mask |= std::uint64_t{1} << b;
  return mask;
}

class BitRange : public GpuTest {
 protected:
  // Sorts keys and argsorts them with the range [begin, end) in both orders, and checks both
  // against std::stable_sort by the image cut to the range.
  template <class T>
  void expect_sorts_by_range(std::size_t n, std::uint32_t begin, std::uint32_t end) {
    auto rng = rng_for_current_test();
    const std::vector<T> input = make_keys<T>(n, Dist::special, rng);
    const std::uint64_t mask = range_mask(begin, end);
    for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
      const auto cut = [&](T key) { return ordered_image(key, order) & mask; };
      std::vector<T> expected = input;
      std::stable_sort(expected.begin(), expected.end(), [&](T a, T b) { return cut(a) < cut(b); });
      for (T& key : expected) key = as_returned(key);
      const SortOptions options{.order = order, .begin_bit = begin, .end_bit = end};
      std::vector<T> keys = input;
      sort(ctx(), std::span(keys), options);
      const std::string what = std::string(to_string(key_type_of<T>())) + " bits [" + std::to_string(begin) + ", " +
                               std::to_string(end) + ") " + (order == SortOrder::ascending ? "ascending" : "descending");
      EXPECT_TRUE(std::equal(keys.begin(), keys.end(), expected.begin(), [](T a, T b) { return bits_of(a) == bits_of(b); }))
          << what;
      std::vector<std::uint32_t> expected_order(n);
      std::iota(expected_order.begin(), expected_order.end(), 0u);
      std::stable_sort(expected_order.begin(), expected_order.end(),
                       [&](std::uint32_t a, std::uint32_t b) { return cut(input[a]) < cut(input[b]); });
      EXPECT_EQ(argsort(ctx(), std::span<const T>(input), options), expected_order) << what << " argsort";
    }
  }

  // Ranges that cut inside a digit at both ends, the empty range, the whole key, its top bits,
  // and an end past the key's width (which means its width).
  template <class T>
  void expect_every_range_shape(std::size_t n) {
    const std::uint32_t width = sizeof(T) * 8;
    expect_sorts_by_range<T>(n, 3, width - 3);
    expect_sorts_by_range<T>(n, 5, 5);
    expect_sorts_by_range<T>(n, 0, width);
    expect_sorts_by_range<T>(n, width - 4, width);
    expect_sorts_by_range<T>(n, 1, width + 20);
    expect_sorts_by_range<T>(n, 0, 7);
  }
};

// Each key kind compiles its own pipelines: every shape on unsigned keys, two on the others.
TEST_F(BitRange, ThirtyTwoBitKeysSortByTheirRange) {
  expect_every_range_shape<std::uint32_t>(5001);
  expect_sorts_by_range<std::int32_t>(5001, 3, 29);
  expect_sorts_by_range<std::int32_t>(5001, 28, 32);
  expect_sorts_by_range<float>(5001, 3, 29);
  expect_sorts_by_range<float>(5001, 22, 32);
}

TEST_F(BitRange, SixtyFourBitKeysSortByTheirRange) {
  expect_every_range_shape<std::uint64_t>(3001);
  expect_sorts_by_range<std::uint64_t>(3001, 28, 37);  // across the two words
  expect_sorts_by_range<std::int64_t>(3001, 3, 61);
  expect_sorts_by_range<std::int64_t>(3001, 60, 64);
  expect_sorts_by_range<double>(3001, 3, 61);
  expect_sorts_by_range<double>(3001, 50, 64);
}

TEST_F(BitRange, NarrowKeysSortByTheirRange) {
  expect_every_range_shape<std::uint8_t>(5001);
  expect_every_range_shape<std::int8_t>(5001);
  expect_every_range_shape<std::int16_t>(5001);
  expect_every_range_shape<Float16>(5001);
  expect_every_range_shape<BFloat16>(5001);
}

TEST_F(BitRange, SmallCountsSortWithRadixUnderAutomatic) {
  expect_sorts_by_range<std::uint32_t>(100, 4, 9);  // automatic would pick bitonic without a range
}

TEST_F(BitRange, AnInvertedRangeOrAnotherAlgorithmIsAnError) {
  std::vector<std::uint32_t> keys = {3, 1, 2};
  const std::vector<std::uint32_t> before = keys;
  EXPECT_THROW(sort(ctx(), std::span(keys), {.begin_bit = 9, .end_bit = 8}), Error);
  EXPECT_THROW(sort(ctx(), std::span(keys), {.begin_bit = 40}), Error);  // past the key's width
  for (SortAlgorithm a : {SortAlgorithm::bitonic, SortAlgorithm::bitonic_transpose, SortAlgorithm::odd_even}) {
    EXPECT_THROW(sort(ctx(), std::span(keys), {.algorithm = a, .end_bit = 16}), Error) << to_string(a);
  }
  EXPECT_EQ(keys, before);
  std::vector<std::uint32_t> whole = keys;  // the whole width is no range: every algorithm takes it
  sort(ctx(), std::span(whole), {.algorithm = SortAlgorithm::bitonic, .begin_bit = 0, .end_bit = 32});
  EXPECT_EQ(whole, (std::vector<std::uint32_t>{1, 2, 3}));
}

}  // namespace
}  // namespace vkc::test
