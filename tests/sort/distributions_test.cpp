// The key distributions of the benchmarks that CUB's peer draws too (bench/key_distributions.hpp:
// CUB's entropy ladder, floats of [0, 1) and of N(0, 1), splatting keys, keys of only their low
// bits), sorted by radix and by the automatic choice: keys, pairs and argsort in both orders,
// against std::stable_sort under the contract. Their digits are what the radix sort's skipped
// passes and low-entropy ranking meet: many passes skipped, runs of equal digits, few distinct
// keys.
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "key_distributions.hpp"
#include "sort/key_types.hpp"
#include "sort/reference.hpp"
#include "support/gpu_test.hpp"

namespace vkc::test {
namespace {

constexpr std::size_t kCount = 30011;  // several tiles at every subgroup size, an odd tail

template <class K>
bench::KeyFormat format_of() {
  return {unsigned(sizeof(K)),
          sorting::with_key_type(key_type_of<K>(), [](auto row) { return std::uint64_t(row.exponent); })};
}

template <class K>
std::vector<K> draw(const std::string& name, std::uint64_t seed) {
  const auto dist = bench::parse_key_dist(name);
  EXPECT_TRUE(dist.has_value()) << name;
  std::vector<K> keys(kCount);
  std::uint64_t state = seed;
  for (K& k : keys) {
    const std::uint64_t bits = bench::draw_key_bits(*dist, format_of<K>(), state);
    std::memcpy(&k, &bits, sizeof k);  // the low bytes (little-endian hosts)
  }
  return keys;
}

class KeyDistributions : public GpuTest, public ::testing::WithParamInterface<SortAlgorithm> {
 protected:
  SortOptions options(SortOrder order) const {
    SortOptions o;
    o.algorithm = GetParam();
    o.order = order;
    return o;
  }

  // Keys, pairs with their indices, and argsort of the distribution `name` for K, both orders.
  template <class K>
  void expect_every_form(const std::string& name) {
    SCOPED_TRACE(name + " " + std::string(to_string(key_type_of<K>())));
    const auto refusal = bench::key_dist_refusal(*bench::parse_key_dist(name), format_of<K>());
    ASSERT_EQ(refusal, "");
    const std::vector<K> input = draw<K>(name, 0xD157 + sizeof(K));
    for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
      auto keys = input;
      sort(ctx(), std::span<K>(keys), options(order));
      ASSERT_TRUE(keys_sorted(input, keys, order));
      keys = input;
      std::vector<std::uint32_t> values(input.size());
      std::iota(values.begin(), values.end(), 0u);
      sort_pairs(ctx(), std::span<K>(keys), std::span<std::uint32_t>(values), options(order));
      ASSERT_TRUE(keys_sorted(input, keys, order));
      ASSERT_TRUE(permutation_sorts(input, values, order, /*stable=*/true));
      const auto perm = argsort(ctx(), std::span<const K>(input), options(order));
      ASSERT_TRUE(permutation_sorts(input, perm, order, /*stable=*/true));
    }
  }
};

TEST_P(KeyDistributions, SortsTheEntropyLadder) {
  for (const char* name : {"and2", "and3", "and4", "and5"}) {
    expect_every_form<std::uint32_t>(name);
    expect_every_form<std::int32_t>(name);
    expect_every_form<float>(name);
    expect_every_form<std::uint64_t>(name);
    expect_every_form<double>(name);
  }
  expect_every_form<std::uint8_t>("and3");
  expect_every_form<std::int16_t>("and2");
}

TEST_P(KeyDistributions, SortsUniformAndNormalFloats) {
  for (const char* name : {"float01", "normal"}) {
    expect_every_form<float>(name);
    expect_every_form<double>(name);
  }
}

TEST_P(KeyDistributions, SortsSplattingKeys) { expect_every_form<std::uint64_t>("splat"); }

// Keys of only their low bits: the high passes are skipped, an odd count of them running (8, 24
// bits) through the copying pass.
TEST_P(KeyDistributions, SortsKeysOfOnlyTheirLowBits) {
  for (const char* name : {"low:8", "low:16", "low:24"}) expect_every_form<std::uint32_t>(name);
  for (const char* name : {"low:13", "low:32", "low:40"}) expect_every_form<std::uint64_t>(name);
  expect_every_form<std::int64_t>("low:20");
  expect_every_form<std::uint16_t>("low:8");
}

INSTANTIATE_TEST_SUITE_P(Algorithms, KeyDistributions, ::testing::Values(SortAlgorithm::radix, SortAlgorithm::automatic),
                         [](const auto& info) { return std::string(to_string(info.param)); });

// The generator's own promises, which the CUB peer's and vkc bench's inputs rest on.
TEST(KeyDistributionNames, ParseAndRefuseAsDocumented) {
  EXPECT_FALSE(bench::parse_key_dist("and1").has_value());
  EXPECT_FALSE(bench::parse_key_dist("and6").has_value());
  EXPECT_FALSE(bench::parse_key_dist("low:0").has_value());
  EXPECT_FALSE(bench::parse_key_dist("low:64").has_value());
  EXPECT_FALSE(bench::parse_key_dist("low:x").has_value());
  EXPECT_FALSE(bench::parse_key_dist("uniform").has_value());
  EXPECT_EQ(bench::parse_key_dist("low:40")->parameter, 40);
  EXPECT_NE(bench::key_dist_refusal(*bench::parse_key_dist("splat"), {4, 0}), "");
  EXPECT_NE(bench::key_dist_refusal(*bench::parse_key_dist("float01"), {4, 0}), "");
  EXPECT_NE(bench::key_dist_refusal(*bench::parse_key_dist("low:32"), {4, 0}), "");
  EXPECT_NE(bench::key_dist_refusal(*bench::parse_key_dist("and2"), {2, 0x7C00}), "");
}

// Each rung of the ladder sets a bit with probability 2^-draws; the splatting key's tile sits in
// bits 32-44 above a depth in [0.2, 100); low:B keys stay below 2^B.
TEST(KeyDistributionNames, DrawWhatTheyName) {
  for (int draws = bench::kMinEntropyDraws; draws <= bench::kMaxEntropyDraws; ++draws) {
    std::uint64_t state = 7, ones = 0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
      ones += __builtin_popcountll(bench::draw_key_bits({bench::KeyDistKind::entropy, draws}, {8, 0}, state));
    }
    const double expected = 64.0 * n / double(1 << draws);
    EXPECT_NEAR(double(ones), expected, expected * 0.03) << draws;
  }
  std::uint64_t state = 11;
  for (int i = 0; i < 10000; ++i) {
    const std::uint64_t key = bench::draw_key_bits({bench::KeyDistKind::splat, 0}, {8, 0}, state);
    ASSERT_LT(key >> 32, bench::kSplatTiles);
    float depth;
    const auto low = std::uint32_t(key);
    std::memcpy(&depth, &low, 4);
    ASSERT_GE(depth, bench::kSplatNear);
    ASSERT_LT(depth, bench::kSplatFar);
    ASSERT_LT(bench::draw_key_bits({bench::KeyDistKind::low_bits, 13}, {4, 0}, state), 1u << 13);
  }
}

}  // namespace
}  // namespace vkc::test
