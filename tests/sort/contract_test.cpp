// The order contract of include/vkc/sort.hpp, checked for every algorithm and key type against
// std::stable_sort: sizes around every power-of-two edge, six distributions, both orders,
// pairs, argsort, and the low-level record API with direct and GPU-side counts.
#include <vector>

#include "core/loader.hpp"
#include "core/recorder.hpp"
#include "sort/reference.hpp"
#include "support/gpu_test.hpp"

namespace vkc::test {
namespace {

struct Case {
  SortAlgorithm algorithm;
  KeyType key;
  std::size_t max_random_n;  // the largest size sorted for every distribution
};

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return std::string(to_string(info.param.algorithm)) + "_" + std::string(to_string(info.param.key));
}

bool is_stable(SortAlgorithm a) { return a == SortAlgorithm::radix || a == SortAlgorithm::odd_even; }

class SortContract : public GpuTest, public ::testing::WithParamInterface<Case> {
 protected:
  SortOptions options(SortOrder order) const { return {GetParam().algorithm, order}; }

  template <class T>
  void sorts_keys() {
    auto rng = rng_for_current_test();
    const std::size_t sizes[] = {0, 1, 2, 3, 31, 32, 33, 255, 256, 257, 1000, 4095, 4096, 4097, 65535, 65537, 1000003};
    for (std::size_t n : sizes) {
      for (Dist dist : {Dist::uniform, Dist::sorted, Dist::reverse, Dist::few, Dist::equal, Dist::special}) {
        const bool big = n > GetParam().max_random_n;
        if (big && dist != Dist::sorted && dist != Dist::uniform) continue;
        if (big && dist == Dist::uniform && GetParam().algorithm == SortAlgorithm::odd_even) continue;
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

  template <class T, class V>
  void keeps_pairs_together() {
    auto rng = rng_for_current_test();
    for (std::size_t n : {1u, 33u, 4097u, 65537u}) {
      for (Dist dist : {Dist::uniform, Dist::few, Dist::special}) {
        for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
          const auto input = make_keys<T>(n, dist, rng);
          auto keys = input;
          std::vector<V> values(n);
          const V salt = static_cast<V>(0x5A5A5A5A5A5A5A5Aull);
          for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<V>(i) ^ salt;
          sort_pairs(ctx(), std::span<T>(keys), std::span<V>(values), options(order));
          ASSERT_TRUE(keys_sorted(input, keys, order)) << "n=" << n;
          std::vector<std::uint32_t> perm(n);
          for (std::size_t i = 0; i < n; ++i) {
            perm[i] = static_cast<std::uint32_t>(values[i] ^ salt);
            ASSERT_LT(perm[i], n) << "a value was corrupted at " << i;
            ASSERT_TRUE(same_key(as_returned(input[perm[i]]), keys[i])) << "pair split at " << i << ", n=" << n;
          }
          ASSERT_TRUE(permutation_sorts(input, perm, order, is_stable(GetParam().algorithm))) << "n=" << n;
        }
      }
    }
  }

  template <class T>
  void argsorts() {
    auto rng = rng_for_current_test();
    for (std::size_t n : {0u, 1u, 257u, 4097u, 65537u}) {
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
      // The caller's side of the barrier contract: the sort's writes before the download.
      VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr,
                              VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT};
      record_pipeline_barrier(r, barrier);
    });
    std::vector<T> out(max_n);
    ctx().download(keys, std::span<T>(out));
    const std::vector<T> head(input.begin(), input.begin() + n);
    EXPECT_TRUE(keys_sorted(head, std::vector<T>(out.begin(), out.begin() + n), SortOrder::ascending));
    for (std::size_t i = n; i < max_n; ++i) ASSERT_TRUE(same_key(input[i], out[i])) << "wrote past the count at " << i;
  }

  void record_pipeline_barrier(Recorder& r, const VkMemoryBarrier& barrier);
};

void SortContract::record_pipeline_barrier(Recorder& r, const VkMemoryBarrier& barrier) {
  vk::vkCmdPipelineBarrier(r.commands(), VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                           VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

#define VKC_FOR_KEY_TYPE(type, CALL)                 \
  switch (type) {                                    \
    case KeyType::u32: { using T = std::uint32_t; CALL; break; } \
    case KeyType::i32: { using T = std::int32_t; CALL; break; }  \
    case KeyType::f32: { using T = float; CALL; break; }         \
    case KeyType::u64: { using T = std::uint64_t; CALL; break; } \
    case KeyType::i64: { using T = std::int64_t; CALL; break; }  \
    case KeyType::f64: { using T = double; CALL; break; }        \
  }

TEST_P(SortContract, SortsEverySizeAndDistributionInBothOrders) {
  VKC_FOR_KEY_TYPE(GetParam().key, sorts_keys<T>());
}

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

std::vector<Case> cases_for(SortAlgorithm algorithm, std::size_t max_random_n) {
  std::vector<Case> cases;
  for (KeyType key : {KeyType::u32, KeyType::i32, KeyType::f32, KeyType::u64, KeyType::i64, KeyType::f64}) {
    cases.push_back({algorithm, key, max_random_n});
  }
  return cases;
}

// Each algorithm joins this suite as it lands (one line each).
INSTANTIATE_TEST_SUITE_P(OddEven, SortContract, ::testing::ValuesIn(cases_for(SortAlgorithm::odd_even, 65537)), case_name);
INSTANTIATE_TEST_SUITE_P(Radix, SortContract, ::testing::ValuesIn(cases_for(SortAlgorithm::radix, 1000003)), case_name);
INSTANTIATE_TEST_SUITE_P(Bitonic, SortContract, ::testing::ValuesIn(cases_for(SortAlgorithm::bitonic, 65537)), case_name);
INSTANTIATE_TEST_SUITE_P(BitonicTranspose, SortContract,
                         ::testing::ValuesIn(cases_for(SortAlgorithm::bitonic_transpose, 65537)), case_name);

}  // namespace
}  // namespace vkc::test
