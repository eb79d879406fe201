// The order contract of include/vkc/sort.hpp, checked for every algorithm and key type against
// std::stable_sort: sizes around every power-of-two edge, six distributions, both orders,
// pairs, argsort, and the low-level record API with direct and GPU-side counts.
#include <vector>

#include "core/loader.hpp"
#include "core/recorder.hpp"
#include "sort/key_types.hpp"
#include "sort/reference.hpp"
#include "support/gpu_test.hpp"

namespace vkc::test {
namespace {

struct Case {
  SortAlgorithm algorithm;
  KeyType key;
};

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return std::string(to_string(info.param.algorithm)) + "_" + std::string(to_string(info.param.key));
}

bool is_stable(SortAlgorithm a) { return a == SortAlgorithm::radix || a == SortAlgorithm::odd_even; }

class SortContract : public GpuTest, public ::testing::WithParamInterface<Case> {
 protected:
  SortOptions options(SortOrder order) const { return {GetParam().algorithm, order}; }

  // Sorts every distribution in both orders at each size, checking against std::stable_sort.
  template <class T>
  void sorts_keys(std::initializer_list<std::size_t> sizes, std::initializer_list<Dist> dists) {
    auto rng = rng_for_current_test();
    for (std::size_t n : sizes) {
      for (Dist dist : dists) {
        for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
          const auto input = make_keys<T>(n, dist, rng);
          auto keys = input;
          sort(ctx(), std::span<T>(keys), options(order));
          ASSERT_TRUE(keys_sorted(input, keys, order))
              << "n=" << n << " dist=" << dist_name(dist) << (order == SortOrder::ascending ? " asc" : " desc");
        }
      }
    }
  }

  // Sizes past the largest tile, where sorts span workgroups and passes.
  template <class T>
  void sorts_large_keys() {
    if (GetParam().algorithm == SortAlgorithm::odd_even) {
      // O(n^2/B): random data at this size is beyond a CPU device's test budget; the
      // transposition rounds are still exercised across ~250 tiles by nearly sorted data.
      sorts_keys<T>({65535}, {Dist::nearly_sorted, Dist::few});
      return;
    }
    sorts_keys<T>({65535, 65537}, {Dist::uniform, Dist::few, Dist::reverse});
    // One 32-bit and one 64-bit type carry the million-element case, which takes seconds on
    // lavapipe; the other types share their code paths and key transforms.
    if (GetParam().key == KeyType::u32 || GetParam().key == KeyType::f64) sorts_keys<T>({1000003}, {Dist::uniform});
  }

  std::vector<std::size_t> pair_sizes() const {
    // Past-a-tile sizes where the cost allows it on lavapipe; the transpose and odd-even
    // methods move values with the same code that the keys-only tests cover at larger sizes.
    const SortAlgorithm a = GetParam().algorithm;
    if (a == SortAlgorithm::odd_even || a == SortAlgorithm::bitonic_transpose) return {1, 33, 4097};
    return {1, 33, 4097, 65537};
  }

  template <class T, class V>
  void keeps_pairs_together() {
    auto rng = rng_for_current_test();
    for (std::size_t n : pair_sizes()) {
      for (Dist dist : {Dist::uniform, Dist::few, Dist::special}) {
        for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
          const auto input = make_keys<T>(n, dist, rng);
          auto keys = input;
          std::vector<V> values(n);
          for (std::size_t i = 0; i < n; ++i) values[i] = value_for<V>(static_cast<std::uint32_t>(i));
          sort_pairs(ctx(), std::span<T>(keys), std::span<V>(values), options(order));
          ASSERT_TRUE(pairs_sorted(input, keys, values, order, is_stable(GetParam().algorithm)))
              << "n=" << n << " dist=" << dist_name(dist) << (order == SortOrder::ascending ? " asc" : " desc");
        }
      }
    }
  }

  template <class T>
  void argsorts() {
    auto rng = rng_for_current_test();
    for (std::size_t n : pair_sizes()) {
      for (Dist dist : {Dist::uniform, Dist::few, Dist::equal, Dist::special}) {
        for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
          const auto input = make_keys<T>(n, dist, rng);
          const auto perm = argsort(ctx(), std::span<const T>(input), options(order));
          ASSERT_TRUE(permutation_sorts(input, perm, order, is_stable(GetParam().algorithm)))
              << "n=" << n << " dist=" << dist_name(dist);
        }
      }
    }
  }

  template <class T>
  void records_into_a_command_buffer(bool indirect) {
    auto rng = rng_for_current_test();
    const std::size_t max_n = 5000, n = indirect ? 3001 : max_n;
    const auto input = make_keys<T>(max_n, Dist::uniform, rng);
    const SortDesc desc{key_type_of<T>(), ValueType::none, max_n, options(SortOrder::ascending)};
    Buffer keys = ctx().create_buffer(max_n * sizeof(T));
    Buffer count = ctx().create_buffer(4);
    Buffer temporary = ctx().create_buffer(sort_temporary_bytes(ctx(), desc));
    ctx().upload(keys, std::span<const T>(input));
    const std::uint32_t n32 = static_cast<std::uint32_t>(n);
    ctx().upload(count, &n32, 4);
    const SortBuffers buffers{{keys.handle()}, {}, {temporary.handle()}};
    ctx().run([&](Recorder& r) {
      if (indirect) {
        record_sort_indirect(ctx(), r.commands(), desc, {count.handle()}, buffers);
      } else {
        record_sort(ctx(), r.commands(), desc, n, buffers);
      }
      record_barrier_before_download(r.commands());
    });
    std::vector<T> out(max_n);
    ctx().download(keys, std::span<T>(out));
    const std::vector<T> head(input.begin(), input.begin() + n);
    EXPECT_TRUE(keys_sorted(head, std::vector<T>(out.begin(), out.begin() + n), SortOrder::ascending));
    for (std::size_t i = n; i < max_n; ++i) ASSERT_TRUE(same_key(input[i], out[i])) << "wrote past the count at " << i;
  }
};

// Runs CALL with T the C++ type of `key` (the library's table of key types).
#define VKC_FOR_KEY_TYPE(key, CALL) \
  sorting::with_key_type(key, [&](auto row) { using T = typename decltype(row)::type; CALL; })

TEST_P(SortContract, SortsEverySmallSizeInBothOrders) {
  VKC_FOR_KEY_TYPE(GetParam().key,
                   sorts_keys<T>({0, 1, 2, 3, 31, 32, 33, 255, 256, 257, 1000, 4095, 4096, 4097}, {Dist::uniform}));
}

TEST_P(SortContract, SortsEveryDistributionInBothOrders) {
  // One size inside a subgroup, one inside a workgroup, one just past a power of two.
  VKC_FOR_KEY_TYPE(GetParam().key, sorts_keys<T>({33, 257, 4097}, {Dist::sorted, Dist::reverse, Dist::few,
                                                                   Dist::equal, Dist::special}));
}

TEST_P(SortContract, SortsLargeSizesAcrossWorkgroups) { VKC_FOR_KEY_TYPE(GetParam().key, sorts_large_keys<T>()); }

TEST_P(SortContract, SortPairsKeepsThirtyTwoBitValuesWithTheirKeys) {
  VKC_FOR_KEY_TYPE(GetParam().key, (keeps_pairs_together<T, std::uint32_t>()));
}

TEST_P(SortContract, SortPairsKeepsSixtyFourBitValuesWithTheirKeys) {
  VKC_FOR_KEY_TYPE(GetParam().key, (keeps_pairs_together<T, std::uint64_t>()));
}

TEST_P(SortContract, ArgsortGivesASortingPermutationStableWhereAdvertised) {
  VKC_FOR_KEY_TYPE(GetParam().key, argsorts<T>());
}

TEST_P(SortContract, RecordsIntoTheCallersCommandBuffer) {
  VKC_FOR_KEY_TYPE(GetParam().key, records_into_a_command_buffer<T>(false));
}

TEST_P(SortContract, ReadsTheCountFromAGpuBuffer) {
  VKC_FOR_KEY_TYPE(GetParam().key, records_into_a_command_buffer<T>(true));
}

std::vector<Case> cases_for(SortAlgorithm algorithm) {
  std::vector<Case> cases;
  for (KeyType key : sorting::kKeyTypes) {
    cases.push_back({algorithm, key});
  }
  return cases;
}

// Each algorithm joins this suite as it lands (one line each).
INSTANTIATE_TEST_SUITE_P(OddEven, SortContract, ::testing::ValuesIn(cases_for(SortAlgorithm::odd_even)), case_name);
INSTANTIATE_TEST_SUITE_P(Radix, SortContract, ::testing::ValuesIn(cases_for(SortAlgorithm::radix)), case_name);
INSTANTIATE_TEST_SUITE_P(Bitonic, SortContract, ::testing::ValuesIn(cases_for(SortAlgorithm::bitonic)), case_name);
INSTANTIATE_TEST_SUITE_P(BitonicTranspose, SortContract,
                         ::testing::ValuesIn(cases_for(SortAlgorithm::bitonic_transpose)), case_name);

}  // namespace
}  // namespace vkc::test
