// Specification of the sort-output checks of bench/verify.hpp against std::stable_sort under
// the order contract: outputs the reference accepts pass, and each kind of damage a sort could do
// (an adjacent swap, a key replaced, a value moved, a zero's sign, a NaN's place, a lost element)
// is found, at every position of arrays split over several threads, for all six key types.
#include "verify.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <limits>
#include <numeric>
#include <vector>

#include "sort/reference.hpp"
#include "support/gpu_test.hpp"

namespace vkc::test {
namespace {

using sorting::check_argsorted;
using sorting::check_permutation;
using sorting::check_sorted;
using sorting::fingerprint;
using sorting::Fingerprint;
using sorting::VerifyParallelism;

// Seven threads of at least one element: chunk boundaries fall at sizes that are not multiples of 7.
constexpr VerifyParallelism kSevenChunks{7, 1};
constexpr std::size_t kSizes[] = {0, 1, 2, 3, 7, 8, 1000, 1003};
constexpr SortOrder kOrders[] = {SortOrder::ascending, SortOrder::descending};

template <class T>
using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

// The whole contract as a comparator: reference.hpp's, plus NaNs ordered among themselves by
// their bits without the sign (ascending in both orders).
template <class T>
bool full_contract_less(T a, T b, SortOrder order) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) && std::isnan(b)) {
      return std::bit_cast<Bits<T>>(as_returned(a)) < std::bit_cast<Bits<T>>(as_returned(b));
    }
  }
  return contract_less(a, b, order);
}

// Keys with every special value (both zeros, infinities, NaNs of both signs and several payloads).
template <class T>
std::vector<T> keys_with_specials(std::size_t n, std::mt19937_64& rng) {
  auto keys = make_keys<T>(n, Dist::special, rng);
  if constexpr (std::is_floating_point_v<T>) {
    for (std::size_t i = 0; i < n; i += 5)
      keys[i] = std::bit_cast<T>(std::bit_cast<Bits<T>>(keys[i]) |
                                 std::bit_cast<Bits<T>>(std::numeric_limits<T>::quiet_NaN()) | Bits<T>(rng() % 16));
  }
  return keys;
}

// The stable permutation under the whole contract.
template <class T>
std::vector<std::uint64_t> stable_permutation(const std::vector<T>& keys, SortOrder order) {
  std::vector<std::uint64_t> perm(keys.size());
  std::iota(perm.begin(), perm.end(), 0u);
  std::stable_sort(perm.begin(), perm.end(),
                   [&](auto a, auto b) { return full_contract_less(keys[a], keys[b], order); });
  return perm;
}

// What a correct sort returns: the keys in the contract's order, NaNs without their sign bit.
template <class T>
std::vector<T> sorted_output(const std::vector<T>& keys, SortOrder order) {
  std::vector<T> out;
  for (auto i : stable_permutation(keys, order)) out.push_back(as_returned(keys[i]));
  return out;
}

template <class T>
Fingerprint keys_fingerprint(const std::vector<T>& keys, const VerifyParallelism& parallelism = {}) {
  return fingerprint(key_type_of<T>(), keys.data(), ValueType::none, nullptr, keys.size(), parallelism);
}

template <class T, class V>
Fingerprint pairs_fingerprint(const std::vector<T>& keys, const std::vector<V>& values) {
  return fingerprint(key_type_of<T>(), keys.data(), value_type_of<V>(), values.data(), keys.size(), kSevenChunks);
}

template <class T>
std::optional<std::uint64_t> first_unsorted(const std::vector<T>& keys, SortOrder order,
                                            const VerifyParallelism& parallelism = kSevenChunks) {
  return check_sorted(key_type_of<T>(), order, keys.data(), keys.size(), parallelism);
}

// The positions at which the damage tests break an array of n: 1, n - 1, and those within three
// of each seventh of it, where the split into seven chunks puts its boundaries. (Every position
// would do as well, but each check starts seven threads.)
std::vector<std::size_t> positions_to_break(std::size_t n) {
  std::vector<std::size_t> positions = {1, n - 1};
  for (std::size_t k = 1; k < 7; ++k) {
    const std::size_t seventh = k * n / 7;
    for (std::size_t i = std::max<std::size_t>(seventh, 3) - 3; i <= seventh + 3; ++i) positions.push_back(i);
  }
  std::erase_if(positions, [n](std::size_t i) { return i < 1 || i >= n; });
  return positions;
}

template <class T>
bool equal_keys(T a, T b) {
  return !full_contract_less(a, b, SortOrder::ascending) && !full_contract_less(b, a, SortOrder::ascending);
}

// Two positions holding different keys, the first before the second in the output.
template <class T>
std::pair<std::size_t, std::size_t> two_different_keys(const std::vector<T>& sorted) {
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    if (!equal_keys(sorted[0], sorted[i])) return {0, i};
  }
  return {0, 0};
}

template <class T>
class Verify : public ::testing::Test {};
using KeyTypes = ::testing::Types<std::uint32_t, std::int32_t, float, std::uint64_t, std::int64_t, double>;
TYPED_TEST_SUITE(Verify, KeyTypes);

TYPED_TEST(Verify, AcceptsTheReferenceOrderAndItsInputsFingerprint) {
  using T = TypeParam;
  auto rng = rng_for_current_test();
  for (std::size_t n : kSizes) {
    for (Dist dist : {Dist::uniform, Dist::few, Dist::equal, Dist::sorted, Dist::reverse, Dist::special}) {
      for (SortOrder order : kOrders) {
        const auto input = dist == Dist::special ? keys_with_specials<T>(n, rng) : make_keys<T>(n, dist, rng);
        const auto output = sorted_output(input, order);
        SCOPED_TRACE("n=" + std::to_string(n) + " " + dist_name(dist) +
                     (order == SortOrder::ascending ? " asc" : " desc"));
        EXPECT_EQ(first_unsorted(output, order), std::nullopt);
        EXPECT_EQ(first_unsorted(output, order, {}), std::nullopt);
        EXPECT_EQ(keys_fingerprint(output, kSevenChunks), keys_fingerprint(input));
      }
    }
  }
}

TYPED_TEST(Verify, FindsOneSwappedAdjacentPairAtChunkBoundaries) {
  using T = TypeParam;
  auto rng = rng_for_current_test();
  for (SortOrder order : kOrders) {
    const auto sorted = sorted_output(make_keys<T>(1003, Dist::uniform, rng), order);
    for (std::size_t i : positions_to_break(sorted.size())) {
      if (equal_keys(sorted[i - 1], sorted[i])) continue;  // a swap of equal keys changes nothing
      auto broken = sorted;
      std::swap(broken[i - 1], broken[i]);
      ASSERT_EQ(first_unsorted(broken, order), i) << "swapped at " << i;
      ASSERT_EQ(keys_fingerprint(broken), keys_fingerprint(sorted)) << "a swap keeps the multiset";
    }
  }
}

TYPED_TEST(Verify, FindsAReverseOrderedArray) {
  using T = TypeParam;
  auto rng = rng_for_current_test();
  const auto ascending = sorted_output(make_keys<T>(1000, Dist::uniform, rng), SortOrder::ascending);
  EXPECT_EQ(first_unsorted(ascending, SortOrder::descending), 1u);
}

TYPED_TEST(Verify, FingerprintFindsAKeyReplacedByAnotherPresentElsewhereAtChunkBoundaries) {
  using T = TypeParam;
  auto rng = rng_for_current_test();
  const auto input = make_keys<T>(1003, Dist::uniform, rng);
  const auto sorted = sorted_output(input, SortOrder::ascending);
  const auto expected = keys_fingerprint(input);
  for (std::size_t i : positions_to_break(sorted.size())) {
    if (equal_keys(sorted[i - 1], sorted[i])) continue;
    auto broken = sorted;
    broken[i] = broken[i - 1];  // still sorted, one key twice and another gone
    ASSERT_EQ(first_unsorted(broken, SortOrder::ascending), std::nullopt);
    ASSERT_NE(keys_fingerprint(broken, kSevenChunks), expected) << "replaced at " << i;
  }
}

TYPED_TEST(Verify, FingerprintFindsATruncatedArray) {
  using T = TypeParam;
  auto rng = rng_for_current_test();
  const auto input = make_keys<T>(1003, Dist::uniform, rng);
  auto sorted = sorted_output(input, SortOrder::ascending);
  sorted.pop_back();
  EXPECT_EQ(first_unsorted(sorted, SortOrder::ascending), std::nullopt);
  EXPECT_NE(keys_fingerprint(sorted, kSevenChunks), keys_fingerprint(input));
}

TYPED_TEST(Verify, FingerprintDoesNotDependOnTheChunks) {
  using T = TypeParam;
  auto rng = rng_for_current_test();
  const auto keys = make_keys<T>(1003, Dist::uniform, rng);
  const auto one = keys_fingerprint(keys, {1, 1});
  for (unsigned threads : {2u, 3u, 7u, 64u}) EXPECT_EQ(keys_fingerprint(keys, {threads, 1}), one) << threads;
  EXPECT_EQ(one.count, 1003u);
}

// Pairs: output values carry value_for(element), as reference.hpp's pairs tests do.
template <class T, class V>
void check_pairs_fingerprints(std::mt19937_64& rng) {
  for (SortOrder order : kOrders) {
    const auto input = keys_with_specials<T>(1003, rng);
    std::vector<V> input_values(input.size());
    for (std::size_t i = 0; i < input.size(); ++i) input_values[i] = value_for<V>(static_cast<std::uint32_t>(i));
    std::vector<T> keys;
    std::vector<V> values;
    for (auto i : stable_permutation(input, order)) {
      keys.push_back(as_returned(input[i]));
      values.push_back(input_values[i]);
    }
    const auto expected = pairs_fingerprint(input, input_values);
    ASSERT_EQ(first_unsorted(keys, order), std::nullopt);
    ASSERT_EQ(pairs_fingerprint(keys, values), expected);
    // One value moved to another key (two values traded places): keys and values alone are the
    // same multisets, the pairs are not.
    const auto [a, b] = two_different_keys(keys);
    ASSERT_NE(a, b);
    std::swap(values[a], values[b]);
    EXPECT_EQ(keys_fingerprint(keys), keys_fingerprint(input));
    EXPECT_NE(pairs_fingerprint(keys, values), expected);
  }
}

TYPED_TEST(Verify, PairsFingerprintFindsAValueMovedToAnotherKey) {
  auto rng = rng_for_current_test();
  check_pairs_fingerprints<TypeParam, std::uint32_t>(rng);
  check_pairs_fingerprints<TypeParam, std::uint64_t>(rng);
}

// Argsort: the stable permutation passes as 32- and 64-bit indices; damage to it is found.
template <class T, class I>
void check_argsort_of(const std::vector<T>& keys, SortOrder order) {
  const auto wide = stable_permutation(keys, order);
  std::vector<I> perm(wide.begin(), wide.end());
  const auto n = perm.size();
  ASSERT_EQ(check_permutation(perm.data(), sizeof(I), n, kSevenChunks), std::nullopt);
  ASSERT_EQ(check_argsorted(key_type_of<T>(), order, keys.data(), perm.data(), sizeof(I), n, true, kSevenChunks),
            std::nullopt);
  if (n < 2) return;
  for (std::size_t i : positions_to_break(n)) {
    auto broken = perm;
    std::swap(broken[i - 1], broken[i]);
    const bool equal = equal_keys(keys[perm[i - 1]], keys[perm[i]]);
    const auto unstable =
        check_argsorted(key_type_of<T>(), order, keys.data(), broken.data(), sizeof(I), n, true, kSevenChunks);
    const auto unsorted =
        check_argsorted(key_type_of<T>(), order, keys.data(), broken.data(), sizeof(I), n, false, kSevenChunks);
    ASSERT_EQ(unstable, i) << "swapped at " << i;
    ASSERT_EQ(unsorted, equal ? std::nullopt : std::optional<std::uint64_t>(i)) << "swapped at " << i;
  }
  auto repeated = perm;
  repeated[n - 1] = repeated[0];
  const auto where = check_permutation(repeated.data(), sizeof(I), n, kSevenChunks);
  EXPECT_TRUE(where == 0u || where == n - 1) << "a repeated index";
  auto out_of_range = perm;
  out_of_range[n / 2] = static_cast<I>(n);
  EXPECT_EQ(check_permutation(out_of_range.data(), sizeof(I), n, kSevenChunks), n / 2);
}

TYPED_TEST(Verify, ChecksArgsortPermutationsSortednessAndStability) {
  using T = TypeParam;
  auto rng = rng_for_current_test();
  for (std::size_t n : {0, 1, 2, 3, 7, 8, 1003}) {
    for (SortOrder order : kOrders) {
      SCOPED_TRACE("n=" + std::to_string(n));
      const auto keys = keys_with_specials<T>(n, rng);
      check_argsort_of<T, std::uint32_t>(keys, order);
      check_argsort_of<T, std::uint64_t>(make_keys<T>(n, Dist::few, rng), order);
    }
  }
}

TEST(VerifyPermutation, FindsARepeatedIndexAcrossChunks) {
  std::vector<std::uint64_t> perm(1003);
  std::iota(perm.begin(), perm.end(), 0u);
  perm[900] = 5;  // the same index in the first and the last chunk, 899 missing
  const auto where = check_permutation(perm.data(), 8, perm.size(), kSevenChunks);
  EXPECT_TRUE(where == 5u || where == 900u);
  EXPECT_EQ(check_permutation(perm.data(), 8, 0, kSevenChunks), std::nullopt);
}

// ---- Floats: zeros and NaNs ----------------------------------------------------------------

template <class T>
class VerifyFloat : public ::testing::Test {};
using FloatTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(VerifyFloat, FloatTypes);

template <class T>
T nan_with(Bits<T> payload, bool negative) {
  const Bits<T> sign = negative ? Bits<T>{1} << (sizeof(T) * 8 - 1) : 0;
  return std::bit_cast<T>(std::bit_cast<Bits<T>>(std::numeric_limits<T>::quiet_NaN()) | payload | sign);
}

TYPED_TEST(VerifyFloat, FindsPlusZeroBeforeMinusZeroAscendingAndTheReverseDescending) {
  using T = TypeParam;
  const std::vector<T> ascending = {T(-1), -T(0), -T(0), T(0), T(0), T(1)};
  const std::vector<T> descending(ascending.rbegin(), ascending.rend());
  EXPECT_EQ(first_unsorted(ascending, SortOrder::ascending), std::nullopt);
  EXPECT_EQ(first_unsorted(descending, SortOrder::descending), std::nullopt);
  auto swapped = ascending;
  std::swap(swapped[2], swapped[3]);
  EXPECT_EQ(first_unsorted(swapped, SortOrder::ascending), 3u);
  swapped = descending;
  std::swap(swapped[2], swapped[3]);
  EXPECT_EQ(first_unsorted(swapped, SortOrder::descending), 3u);
}

TYPED_TEST(VerifyFloat, FingerprintTellsTheZerosApart) {
  using T = TypeParam;
  EXPECT_NE(keys_fingerprint(std::vector<T>{T(0), T(1)}), keys_fingerprint(std::vector<T>{-T(0), T(1)}));
}

TYPED_TEST(VerifyFloat, WantsNaNsLastInBothOrders) {
  using T = TypeParam;
  const T nan = nan_with<T>(0, false);
  const T inf = std::numeric_limits<T>::infinity();
  EXPECT_EQ(first_unsorted(std::vector<T>{-inf, T(0), inf, nan, nan}, SortOrder::ascending), std::nullopt);
  EXPECT_EQ(first_unsorted(std::vector<T>{inf, T(0), -inf, nan, nan}, SortOrder::descending), std::nullopt);
  EXPECT_EQ(first_unsorted(std::vector<T>{-inf, nan, inf}, SortOrder::ascending), 2u);
  EXPECT_EQ(first_unsorted(std::vector<T>{inf, nan, -inf}, SortOrder::descending), 2u);
  EXPECT_EQ(first_unsorted(std::vector<T>{nan, -inf}, SortOrder::ascending), 1u);
  EXPECT_EQ(first_unsorted(std::vector<T>{nan, inf}, SortOrder::descending), 1u);
}

TYPED_TEST(VerifyFloat, WantsNaNsAscendingByTheirBitsInBothOrders) {
  using T = TypeParam;
  const std::vector<T> nans = {T(1), nan_with<T>(0, false), nan_with<T>(1, false), nan_with<T>(2, false)};
  for (SortOrder order : kOrders) {
    EXPECT_EQ(first_unsorted(nans, order), std::nullopt);
    auto swapped = nans;
    std::swap(swapped[2], swapped[3]);
    EXPECT_EQ(first_unsorted(swapped, order), 3u);
  }
}

TYPED_TEST(VerifyFloat, RefusesANaNWithItsSignBitSet) {
  using T = TypeParam;
  EXPECT_EQ(first_unsorted(std::vector<T>{T(1), nan_with<T>(0, true)}, SortOrder::ascending), 1u);
  EXPECT_EQ(first_unsorted(std::vector<T>{nan_with<T>(3, true)}, SortOrder::descending), 0u);
}

TYPED_TEST(VerifyFloat, FingerprintCountsANaNWithoutItsSignAndWithItsPayload) {
  using T = TypeParam;
  const auto returned = keys_fingerprint(std::vector<T>{T(1), nan_with<T>(5, false)});
  EXPECT_EQ(keys_fingerprint(std::vector<T>{nan_with<T>(5, true), T(1)}), returned);
  EXPECT_NE(keys_fingerprint(std::vector<T>{nan_with<T>(6, false), T(1)}), returned);
}

TYPED_TEST(VerifyFloat, ArgsortOrdersNaNsByTheirBitsWithoutTheSign) {
  using T = TypeParam;
  const std::vector<T> keys = {nan_with<T>(2, false), nan_with<T>(1, true), T(0), nan_with<T>(2, true)};
  const std::vector<std::uint32_t> perm = {2, 1, 0, 3};  // equal NaNs (0 and 3) in input order
  for (SortOrder order : kOrders) {
    EXPECT_EQ(check_argsorted(key_type_of<T>(), order, keys.data(), perm.data(), 4, 4, true), std::nullopt);
    const std::vector<std::uint32_t> unstable = {2, 1, 3, 0};
    EXPECT_EQ(check_argsorted(key_type_of<T>(), order, keys.data(), unstable.data(), 4, 4, true), 3u);
  }
}

}  // namespace
}  // namespace vkc::test

// ---- Bit ranges and narrow keys ------------------------------------------------------------

namespace vkc::test {
namespace {

// u32 keys in the stable order of their bits [4, 12), which check_sorted with that range accepts
// and the whole-key check refuses; one swap of keys unequal under the range is found where it is.
TEST(VerifyBitRange, AcceptsTheRangesOrderAndFindsASwap) {
  auto rng = rng_for_current_test();
  std::vector<std::uint32_t> keys(1003);
  for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
  const auto cut = [](std::uint32_t k) { return (k >> 4) & 0xFF; };
  std::stable_sort(keys.begin(), keys.end(), [&](auto a, auto b) { return cut(a) < cut(b); });
  SortOptions range;
  range.begin_bit = 4;
  range.end_bit = 12;
  EXPECT_EQ(check_sorted(KeyType::u32, range, keys.data(), keys.size(), kSevenChunks), std::nullopt);
  EXPECT_NE(check_sorted(KeyType::u32, SortOrder::ascending, keys.data(), keys.size(), kSevenChunks), std::nullopt);
  std::size_t at = 500;
  while (cut(keys[at]) == cut(keys[at + 1])) ++at;
  std::swap(keys[at], keys[at + 1]);
  EXPECT_EQ(check_sorted(KeyType::u32, range, keys.data(), keys.size(), kSevenChunks), at + 1);
}

// The stable permutation by bits [4, 12) passes as stable; two indices of keys equal under the
// range swapped are sorted still but no longer stable.
TEST(VerifyBitRange, ArgsortStabilityIsJudgedUnderTheRange) {
  auto rng = rng_for_current_test();
  std::vector<std::uint32_t> keys(1003);
  for (auto& k : keys) k = static_cast<std::uint32_t>(rng() % 4096);
  const auto cut = [](std::uint32_t k) { return (k >> 4) & 0xFF; };
  std::vector<std::uint32_t> perm(keys.size());
  std::iota(perm.begin(), perm.end(), 0u);
  std::stable_sort(perm.begin(), perm.end(), [&](auto a, auto b) { return cut(keys[a]) < cut(keys[b]); });
  SortOptions range;
  range.begin_bit = 4;
  range.end_bit = 12;
  EXPECT_EQ(check_argsorted(KeyType::u32, range, keys.data(), perm.data(), 4, keys.size(), true, kSevenChunks),
            std::nullopt);
  std::size_t at = 0;
  while (cut(keys[perm[at]]) != cut(keys[perm[at + 1]])) ++at;
  std::swap(perm[at], perm[at + 1]);
  EXPECT_EQ(check_argsorted(KeyType::u32, range, keys.data(), perm.data(), 4, keys.size(), false, kSevenChunks),
            std::nullopt);
  EXPECT_EQ(check_argsorted(KeyType::u32, range, keys.data(), perm.data(), 4, keys.size(), true, kSevenChunks), at + 1);
}

// 16-bit floats in the contract's order pass; an adjacent swap of unequal keys is found.
TEST(VerifyNarrow, Float16InTheContractsOrderPassesAndASwapIsFound) {
  auto rng = rng_for_current_test();
  std::vector<Float16> keys = make_keys<Float16>(1003, Dist::special, rng);
  for (Float16& k : keys) k = as_returned(k);
  std::stable_sort(keys.begin(), keys.end(), [](Float16 a, Float16 b) { return contract_less(a, b, SortOrder::ascending); });
  EXPECT_EQ(check_sorted(KeyType::f16, SortOrder::ascending, keys.data(), keys.size(), kSevenChunks), std::nullopt);
  std::size_t at = 400;
  while (!contract_less(keys[at], keys[at + 1], SortOrder::ascending)) ++at;
  std::swap(keys[at], keys[at + 1]);
  EXPECT_EQ(check_sorted(KeyType::f16, SortOrder::ascending, keys.data(), keys.size(), kSevenChunks), at + 1);
}

}  // namespace
}  // namespace vkc::test
