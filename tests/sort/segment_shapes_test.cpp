// Specification of bench/segment_shapes.hpp, the segment offsets that the CUB peer and vkc bench
// both draw for the segmented-sort benchmarks: every shape's offsets run from 0 to n without
// decreasing and have the count and the sizes the shape names; a seed gives the same offsets every
// time (pinned here, so that results recorded with one version stay comparable); the fixed-point
// helpers are within their stated error of <cmath>'s functions.
#include "segment_shapes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace vkc::test {
namespace {

using bench::parse_segment_shape;
using bench::segment_offsets;
using bench::SegmentKind;
using bench::SegmentShape;

constexpr std::uint64_t kN = std::uint64_t{1} << 22;

std::vector<std::uint64_t> sizes_of(const std::vector<std::uint64_t>& offsets) {
  std::vector<std::uint64_t> sizes;
  for (std::size_t i = 0; i + 1 < offsets.size(); ++i) sizes.push_back(offsets[i + 1] - offsets[i]);
  return sizes;
}

// Offsets from 0 to n, none smaller than the one before.
void expect_cover(const std::vector<std::uint64_t>& offsets, std::uint64_t n) {
  ASSERT_GE(offsets.size(), 1u);
  EXPECT_EQ(offsets.front(), 0u);
  EXPECT_EQ(offsets.back(), n);
  EXPECT_TRUE(std::is_sorted(offsets.begin(), offsets.end()));
}

double mean(const std::vector<double>& xs) {
  double sum = 0;
  for (const double x : xs) sum += x;
  return sum / double(xs.size());
}

double standard_deviation(const std::vector<double>& xs) {
  const double m = mean(xs);
  double sum = 0;
  for (const double x : xs) sum += (x - m) * (x - m);
  return std::sqrt(sum / double(xs.size()));
}

// FNV-1a over the offsets' bytes, little end first: a fingerprint of a whole shape.
std::uint64_t fnv1a(const std::vector<std::uint64_t>& offsets) {
  std::uint64_t hash = 0xCBF29CE484222325ull;
  for (const std::uint64_t offset : offsets) {
    for (int byte = 0; byte < 8; ++byte) hash = (hash ^ ((offset >> (8 * byte)) & 0xFF)) * 0x100000001B3ull;
  }
  return hash;
}

TEST(SegmentShapes, ParsesEachKindAndPrintsItBack) {
  for (const char* text : {"uniform:256", "power:65536", "rows:1"}) {
    EXPECT_EQ(bench::to_string(parse_segment_shape(text)), text);
  }
  const SegmentShape power = parse_segment_shape("power:4096");
  EXPECT_EQ(power.kind, SegmentKind::power);
  EXPECT_EQ(power.parameter, 4096u);
}

TEST(SegmentShapes, RefusesMalformedShapes) {
  for (const char* text : {"", "uniform", "uniform:", "uniform:1", "power:0", "rows:0", "rows:x", "rows:-3",
                           "power:1e3", "cube:5", "power:1234567890123456789"}) {
    EXPECT_THROW(parse_segment_shape(text), std::invalid_argument) << text;
  }
}

TEST(SegmentShapes, UniformSizesLieBetweenHalfTheLargestAndTheLargestButTheLastCut) {
  for (const std::uint64_t largest : {2u, 3u, 4u, 256u, 1024u, 262144u}) {
    const std::vector<std::uint64_t> offsets = segment_offsets({SegmentKind::uniform, largest}, kN, 1);
    expect_cover(offsets, kN);
    const std::vector<std::uint64_t> sizes = sizes_of(offsets);
    for (std::size_t i = 0; i + 1 < sizes.size(); ++i) {
      ASSERT_GE(sizes[i], largest / 2) << "largest " << largest << ", segment " << i;
      ASSERT_LE(sizes[i], largest) << "largest " << largest << ", segment " << i;
    }
    EXPECT_GE(sizes.back(), 1u);
    EXPECT_LE(sizes.back(), largest);
  }
}

TEST(SegmentShapes, UniformSizesAreSpreadEvenlyOverTheirRange) {
  // Sizes 128..256, 129 values: each about 1/129 of the segments, their mean 192.
  const std::vector<std::uint64_t> sizes = sizes_of(segment_offsets({SegmentKind::uniform, 256}, kN, 1));
  std::vector<std::uint64_t> seen(257, 0);
  for (std::size_t i = 0; i + 1 < sizes.size(); ++i) ++seen[sizes[i]];
  const double expected = double(sizes.size()) / 129;  // about 169
  for (std::uint64_t size = 128; size <= 256; ++size) {
    EXPECT_GT(double(seen[size]), 0.6 * expected) << size;
    EXPECT_LT(double(seen[size]), 1.4 * expected) << size;
  }
  EXPECT_NEAR(double(sizes.size()), double(kN) / 192, 0.01 * double(kN) / 192);
}

TEST(SegmentShapes, PowerHasTheRequestedCountAndCoversN) {
  for (const std::uint64_t count : {1u, 2u, 4096u, 65536u, 1048576u}) {
    const std::vector<std::uint64_t> offsets = segment_offsets({SegmentKind::power, count}, kN, 1);
    EXPECT_EQ(offsets.size(), count + 1);
    expect_cover(offsets, kN);
  }
  // More segments than keys: most are empty, and the keys are still all placed.
  const std::vector<std::uint64_t> sparse = segment_offsets({SegmentKind::power, 1000}, 10, 1);
  EXPECT_EQ(sparse.size(), 1001u);
  expect_cover(sparse, 10);
}

TEST(SegmentShapes, PowerSizesAreLognormalWithSigmaOnePointTwo) {
  // Long segments (2^16 of 2^32 - 1 keys, 65536 on average), so that the sizes' floors hardly
  // matter: ln(size / mean size) is normal with standard deviation 1.2 and mean -1.2^2 / 2.
  const std::uint64_t n = (std::uint64_t{1} << 32) - 1;
  const std::uint64_t count = 65536;
  const std::vector<std::uint64_t> sizes = sizes_of(segment_offsets({SegmentKind::power, count}, n, 1));
  std::vector<double> logs;
  for (const std::uint64_t size : sizes) logs.push_back(std::log(double(size) * double(count) / double(n)));
  EXPECT_NEAR(standard_deviation(logs), 1.2, 0.02);
  EXPECT_NEAR(mean(logs), -0.72, 0.02);
}

TEST(SegmentShapes, PowerHasEmptySegmentsAndFewLargeOnesWhenSegmentsAreShort) {
  // CUB's 2^22 keys in 2^20 segments, 4 on average: a floor of 4 w / mean(w) is 0 where
  // 1.2 z < ln(e^0.72 / 4), for 29% of the segments, and the shortfall adds one key to about the
  // first half, so about 15% stay empty. The largest is hundreds of times the mean.
  const std::vector<std::uint64_t> sizes = sizes_of(segment_offsets({SegmentKind::power, 1u << 20}, kN, 1));
  const auto empty = std::count(sizes.begin(), sizes.end(), std::uint64_t{0});
  EXPECT_GT(double(empty), 0.10 * double(sizes.size()));
  EXPECT_LT(double(empty), 0.20 * double(sizes.size()));
  EXPECT_GT(*std::max_element(sizes.begin(), sizes.end()), 100 * kN / sizes.size());
}

TEST(SegmentShapes, PowerRefusesSizesFromTwoToTheThirtyTwo) {
  EXPECT_THROW(segment_offsets({SegmentKind::power, 16}, std::uint64_t{1} << 32, 1), std::invalid_argument);
}

TEST(SegmentShapes, RowsAreEqual) {
  const std::vector<std::uint64_t> offsets = segment_offsets({SegmentKind::rows, 256}, kN, 1);
  EXPECT_EQ(offsets.size(), kN / 256 + 1);
  expect_cover(offsets, kN);
  for (const std::uint64_t size : sizes_of(offsets)) ASSERT_EQ(size, 256u);
  EXPECT_EQ(segment_offsets({SegmentKind::rows, 1}, 5, 1), (std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5}));
}

TEST(SegmentShapes, RowsRefuseASizeThatIsNotAMultipleOfTheColumns) {
  EXPECT_THROW(segment_offsets({SegmentKind::rows, 3}, 10, 1), std::invalid_argument);
}

TEST(SegmentShapes, ASeedGivesTheSameOffsetsAndAnotherSeedOthers) {
  for (const SegmentShape shape : {SegmentShape{SegmentKind::uniform, 64}, SegmentShape{SegmentKind::power, 4096}}) {
    EXPECT_EQ(segment_offsets(shape, kN, 7), segment_offsets(shape, kN, 7));
    EXPECT_NE(segment_offsets(shape, kN, 7), segment_offsets(shape, kN, 8));
  }
}

// The offsets are a format: results recorded by the peer and by vkc bench name a shape and a seed,
// not the offsets. A change here changes what every recorded shape means.
TEST(SegmentShapes, OffsetsOfSeedOneAreThoseRecorded) {
  const std::vector<std::uint64_t> power = segment_offsets({SegmentKind::power, 65536}, kN, 1);
  EXPECT_EQ((std::vector<std::uint64_t>(power.begin(), power.begin() + 4)),
            (std::vector<std::uint64_t>{0, 35, 228, 274}));
  EXPECT_EQ(fnv1a(power), 5884919973673793606u);
  const std::vector<std::uint64_t> uniform = segment_offsets({SegmentKind::uniform, 256}, kN, 1);
  EXPECT_EQ((std::vector<std::uint64_t>(uniform.begin(), uniform.begin() + 4)),
            (std::vector<std::uint64_t>{0, 139, 327, 494}));
  EXPECT_EQ(fnv1a(uniform), 8350229702318874037u);
}

TEST(SegmentShapes, IntegerSquareRootIsTheFloor) {
  for (std::uint64_t root : {0ull, 1ull, 2ull, 3ull, 1000ull, 65535ull, 4294967295ull}) {
    EXPECT_EQ(bench::isqrt(root * root), root);
    if (root > 0) {
      EXPECT_EQ(bench::isqrt(root * root - 1), root - 1);
    }
  }
  EXPECT_EQ(bench::isqrt(~std::uint64_t{0}), 4294967295u);
}

TEST(SegmentShapes, Exp2IsWithinTwoToTheMinus27) {
  for (std::uint32_t fraction = 0; fraction < (1u << 30); fraction += 4099) {
    const double exact = std::exp2(std::ldexp(double(fraction), -30));
    ASSERT_NEAR(std::ldexp(double(bench::exp2_q30(fraction)), -30), exact, std::ldexp(1.0, -27)) << fraction;
  }
}

TEST(SegmentShapes, NegativeLog2IsWithinTwoToTheMinus27) {
  for (std::uint64_t v = 1; v < (std::uint64_t{1} << 62); v = v * 3 + 1) {
    for (const std::uint64_t near : {v, v + 12345}) {
      const double exact = -std::log2(std::ldexp(double(near), -62));
      ASSERT_NEAR(std::ldexp(double(bench::neg_log2_q32(near)), -32), exact, std::ldexp(1.0, -27)) << near;
    }
  }
}

TEST(SegmentShapes, LognormalWeightsAreWithinTheirRangeAndSigma) {
  std::uint64_t state = 3;
  std::vector<double> logs;
  for (int i = 0; i < (1 << 20); ++i) {
    const std::uint64_t w = bench::lognormal_weight(state);
    ASSERT_GE(w, std::uint64_t{1} << 11);
    ASSERT_LT(w, std::uint64_t{1} << 32);
    logs.push_back(std::log(double(w)));
  }
  // ln w = 11 ln 2 + 7.2 + 1.2 z.
  EXPECT_NEAR(standard_deviation(logs), 1.2, 0.005);
  EXPECT_NEAR(mean(logs), 11 * std::log(2.0) + 7.2, 0.01);
}

}  // namespace
}  // namespace vkc::test
