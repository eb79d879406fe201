// The NaN promise of include/vkc/sort.hpp, bit for bit, for every algorithm: NaNs come last in
// both orders, and each NaN key keeps its payload bits but comes out with its sign bit cleared,
// for several payloads (quiet and signalling, in either word of a double) of both signs, through
// sort and sort_pairs (where each NaN's value stays with it).
#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "sort/reference.hpp"
#include "support/gpu_test.hpp"

namespace vkc::test {
namespace {

template <class T>
using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

template <class T>
constexpr Bits<T> kSignBit = Bits<T>{1} << (sizeof(T) * 8 - 1);

// Positive NaNs with distinct payloads: the canonical quiet NaN, the smallest and largest payloads,
// signalling NaNs (quiet bit clear), and for doubles payloads held only in the low or the high word.
template <class T>
std::vector<Bits<T>> nan_payloads() {
  if constexpr (sizeof(T) == 4) {
    return {0x7FC00000u, 0x7FC00001u, 0x7FFFFFFFu, 0x7F800001u, 0x7FA5A5A5u, 0x7FD00000u};
  } else {
    return {0x7FF8000000000000ull, 0x7FF8000000000001ull, 0x7FFFFFFFFFFFFFFFull, 0x7FF0000000000001ull,
            0x7FF00000FFFFFFFFull, 0x7FF4000100000000ull, 0x7FFA5A5A5A5A5A5Aull};
  }
}

// A third NaNs of every payload and both signs, the rest numbers (infinities and zeros among them).
template <class T>
std::vector<T> keys_with_nans(std::size_t n, std::mt19937_64& rng) {
  const auto payloads = nan_payloads<T>();
  auto keys = make_keys<T>(n, Dist::special, rng);
  for (std::size_t i = 0; i < n; i += 3) {
    const Bits<T> sign = (rng() & 1) ? kSignBit<T> : 0;
    keys[i] = std::bit_cast<T>(payloads[rng() % payloads.size()] | sign);
  }
  return keys;
}

// What the contract says a key comes out as: a NaN without its sign bit, anything else as it was.
template <class T>
Bits<T> returned_bits(T key) {
  const Bits<T> bits = std::bit_cast<Bits<T>>(key);
  return std::isnan(key) ? bits & ~kSignBit<T> : bits;
}

// The numbers first in the contract's order; then the NaNs, whose returned bits are exactly the
// input NaNs' returned bits (in an order the contract leaves open).
template <class T>
::testing::AssertionResult nans_last_with_their_payloads(const std::vector<T>& input, const std::vector<T>& out,
                                                         SortOrder order) {
  if (auto sorted = keys_sorted(input, out, order); !sorted) return sorted;
  const auto numbers = std::count_if(input.begin(), input.end(), [](T k) { return !std::isnan(k); });
  std::vector<Bits<T>> expected, actual;
  for (T k : input) {
    if (std::isnan(k)) expected.push_back(returned_bits(k));
  }
  for (auto k = out.begin() + numbers; k != out.end(); ++k) actual.push_back(std::bit_cast<Bits<T>>(*k));
  std::sort(expected.begin(), expected.end());
  std::sort(actual.begin(), actual.end());
  if (expected != actual) return ::testing::AssertionFailure() << "the NaNs' bits changed (payload or sign)";
  return ::testing::AssertionSuccess();
}

class NanPayloads : public GpuTest, public ::testing::WithParamInterface<SortAlgorithm> {
 protected:
  // Past two of odd_even's tiles on lavapipe.
  static constexpr std::size_t kCount = 1100;

  template <class T>
  void survive_sort() {
    auto rng = rng_for_current_test();
    for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
      const auto input = keys_with_nans<T>(kCount, rng);
      auto keys = input;
      sort(ctx(), std::span<T>(keys), {GetParam(), order});
      EXPECT_TRUE(nans_last_with_their_payloads(input, keys, order));
    }
  }

  template <class T>
  void survive_sort_pairs() {
    auto rng = rng_for_current_test();
    for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
      const auto input = keys_with_nans<T>(kCount, rng);
      auto keys = input;
      std::vector<std::uint32_t> values(kCount);
      for (std::size_t i = 0; i < kCount; ++i) values[i] = value_for<std::uint32_t>(static_cast<std::uint32_t>(i));
      sort_pairs(ctx(), std::span<T>(keys), std::span<std::uint32_t>(values), {GetParam(), order});
      EXPECT_TRUE(nans_last_with_their_payloads(input, keys, order));
      // Every key, NaN or not, bit for bit beside the value of the element it came from. (The
      // order among NaNs is not promised, so stability is not checked here.)
      EXPECT_TRUE(pairs_sorted(input, keys, values, order, false));
      for (std::size_t i = 0; i < kCount; ++i) {
        const std::uint32_t from = element_of(values[i]);
        ASSERT_LT(from, kCount);
        ASSERT_EQ(std::bit_cast<Bits<T>>(keys[i]), returned_bits(input[from])) << "at " << i;
      }
    }
  }
};

TEST_P(NanPayloads, SurviveSortingFloats) { survive_sort<float>(); }
TEST_P(NanPayloads, SurviveSortingDoubles) { survive_sort<double>(); }
TEST_P(NanPayloads, StayWithTheirValuesAsFloats) { survive_sort_pairs<float>(); }
TEST_P(NanPayloads, StayWithTheirValuesAsDoubles) { survive_sort_pairs<double>(); }

std::string algorithm_name(const ::testing::TestParamInfo<SortAlgorithm>& info) {
  return std::string(to_string(info.param));
}

INSTANTIATE_TEST_SUITE_P(EveryAlgorithm, NanPayloads,
                         ::testing::Values(SortAlgorithm::bitonic, SortAlgorithm::bitonic_transpose,
                                           SortAlgorithm::odd_even, SortAlgorithm::radix),
                         algorithm_name);

}  // namespace
}  // namespace vkc::test
