// SortAlgorithm::automatic, the default, through the convenient API: it sorts keys and pairs on
// both sides of the size at which it changes algorithm, and argsort through it is the stable
// permutation at every size, also where it sorts keys with bitonic sort, which is not stable.
#include <vector>

#include "sort/reference.hpp"
#include "support/gpu_test.hpp"

namespace vkc::test {
namespace {

// Where `automatic` changes algorithm is measured per device (2^12 on a CPU device, 2^13 or 2^14
// on GPUs: src/sort/dispatcher.cpp); these counts lie on both sides of every such size, and
// below it past one workgroup's tile.
constexpr std::size_t kBelowEveryCrossover = 1000, kJustBelowLavapipes = 4096;
constexpr std::size_t kAboveEveryCrossover = 16385;

class Automatic : public GpuTest {
 protected:
  template <class T>
  void sorts_keys(std::size_t n, Dist dist) {
    auto rng = rng_for_current_test();
    for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
      const auto input = make_keys<T>(n, dist, rng);
      auto keys = input;
      sort(ctx(), std::span<T>(keys), {SortAlgorithm::automatic, order});
      EXPECT_TRUE(keys_sorted(input, keys, order)) << "n=" << n;
    }
  }

  template <class T, class V>
  void sorts_pairs(std::size_t n) {
    auto rng = rng_for_current_test();
    const auto input = make_keys<T>(n, Dist::special, rng);
    auto keys = input;
    std::vector<V> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = value_for<V>(static_cast<std::uint32_t>(i));
    sort_pairs(ctx(), std::span<T>(keys), std::span<V>(values), {SortAlgorithm::automatic, SortOrder::descending});
    // Not necessarily stable: automatic may pick bitonic sort for pairs.
    EXPECT_TRUE(pairs_sorted(input, keys, values, SortOrder::descending, false)) << "n=" << n;
  }

  template <class T>
  void argsort_is_stable(std::size_t n) {
    auto rng = rng_for_current_test();
    for (Dist dist : {Dist::few, Dist::equal}) {  // ties everywhere: an unstable sort reorders them
      for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
        const auto input = make_keys<T>(n, dist, rng);
        const auto perm = argsort(ctx(), std::span<const T>(input), {SortAlgorithm::automatic, order});
        EXPECT_TRUE(permutation_sorts(input, perm, order, true)) << "n=" << n << " dist=" << dist_name(dist);
      }
    }
  }
};

TEST_F(Automatic, SortsKeysBelowTheCrossover) {
  sorts_keys<std::uint32_t>(kBelowEveryCrossover, Dist::uniform);
  sorts_keys<double>(kJustBelowLavapipes, Dist::special);
}

TEST_F(Automatic, SortsKeysAboveTheCrossover) {
  sorts_keys<std::uint32_t>(kAboveEveryCrossover, Dist::uniform);
  sorts_keys<double>(kAboveEveryCrossover, Dist::special);
}

TEST_F(Automatic, SortPairsKeepsEveryValueWithItsKeyOnBothSidesOfTheCrossover) {
  sorts_pairs<float, std::uint64_t>(kBelowEveryCrossover);
  sorts_pairs<std::int64_t, std::uint32_t>(kAboveEveryCrossover);
}

TEST_F(Automatic, ArgsortIsTheStablePermutationBelowTheCrossover) {
  argsort_is_stable<float>(kBelowEveryCrossover);
  argsort_is_stable<std::uint64_t>(kJustBelowLavapipes);
}

TEST_F(Automatic, ArgsortIsTheStablePermutationAboveTheCrossover) {
  argsort_is_stable<std::int32_t>(kAboveEveryCrossover);
}

}  // namespace
}  // namespace vkc::test
