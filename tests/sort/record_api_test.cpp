// The low-level API of include/vkc/sort.hpp for every algorithm, `automatic` included: record_sort
// with values in both orders, record_sort_indirect with GPU-side counts of 0 and of max_count, and
// buffers whose ranges start at offsets (the radix sort picks its loads by the keys' offset: whole
// 16-byte vectors, 8-byte words, or single words). Every buffer has guard words around its range.
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/loader.hpp"
#include "sort/recorded_sort.hpp"
#include "sort/reference.hpp"

namespace vkc::test {
namespace {

// Past a tile of every algorithm on lavapipe (odd_even's 512, bitonic's one-workgroup sort of
// 64-bit pairs, a few radix tiles), small enough for validation at three subgroup sizes.
constexpr std::size_t kMaxCount = 2500;

class RecordApi : public GpuTest, public ::testing::WithParamInterface<SortAlgorithm> {
 protected:
  VkDeviceSize offset_alignment() {
    VkPhysicalDeviceProperties properties{};
    vk::vkGetPhysicalDeviceProperties(ctx().physical_device(), &properties);
    return properties.limits.minStorageBufferOffsetAlignment;
  }

  // Odd multiples of `unit` (which the device's offset alignment divides), a different one for
  // each buffer: none of them a multiple of 2 * unit.
  static Offsets odd_multiples_of(VkDeviceSize unit) {
    return {.keys = unit, .values = 3 * unit, .temporary = 5 * unit, .count = 7 * unit};
  }

  // A keys-only sort, 32-bit pairs and 64-bit pairs with a GPU-side count, at `at`.
  void sorts_every_shape_at(const Offsets& at) {
    sorts<std::uint32_t, void>(SortOrder::ascending, kMaxCount - 5, false, at);
    sorts<std::uint32_t, std::uint32_t>(SortOrder::descending, kMaxCount, false, at);
    sorts<double, std::uint64_t>(SortOrder::ascending, kMaxCount - 5, true, at);
  }

  bool stable() const { return GetParam() == SortAlgorithm::radix || GetParam() == SortAlgorithm::odd_even; }

  // Sorts the first `count` of kMaxCount keys (and values when V is not void) through the record
  // API with buffers at `at`; checks the sorted head, the untouched tail and every guard.
  template <class K, class V>
  void sorts(SortOrder order, std::size_t count, bool indirect, const Offsets& at = {}) {
    auto rng = rng_for_current_test();
    const auto input = make_keys<K>(kMaxCount, Dist::special, rng);
    constexpr bool with_values = !std::is_void_v<V>;
    using Value = std::conditional_t<with_values, V, std::uint32_t>;
    std::vector<Value> values;
    if (with_values) {
      for (std::size_t i = 0; i < kMaxCount; ++i) values.push_back(value_for<Value>(static_cast<std::uint32_t>(i)));
    }
    const ValueType value_type = with_values ? value_type_of<Value>() : ValueType::none;
    RecordedSort<K, Value> s(ctx(), {key_type_of<K>(), value_type, kMaxCount, {GetParam(), order}}, at);
    s.load(input, values);
    indirect ? s.sort_indirect(static_cast<std::uint32_t>(count)) : s.sort(count);

    const auto keys = s.keys();
    const auto head = [count](const auto& all) { return std::vector(all.begin(), all.begin() + count); };
    if constexpr (with_values) {
      const auto out = s.values();
      EXPECT_TRUE(pairs_sorted(head(input), head(keys), head(out), order, stable())) << "count " << count;
      EXPECT_TRUE(std::equal(out.begin() + count, out.end(), values.begin() + count)) << "a value past the count moved";
    } else {
      EXPECT_TRUE(keys_sorted(head(input), head(keys), order)) << "count " << count;
    }
    // Bit for bit, so that a key past the count that was only loaded and stored shows too (a
    // negative NaN would lose its sign).
    EXPECT_EQ(std::memcmp(keys.data() + count, input.data() + count, (kMaxCount - count) * sizeof(K)), 0)
        << "a key past the count changed";
    EXPECT_TRUE(s.guards_intact());
  }
};

TEST_P(RecordApi, RecordSortKeepsValuesWithTheirKeysInBothOrders) {
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    sorts<double, std::uint64_t>(order, kMaxCount - 77, false);
    sorts<std::int32_t, std::uint32_t>(order, kMaxCount - 77, false);
  }
}

TEST_P(RecordApi, GpuSideCountOfZeroLeavesEveryKeyAndValueAsItWas) {
  sorts<float, std::uint32_t>(SortOrder::ascending, 0, true);
  sorts<std::uint64_t, std::uint64_t>(SortOrder::descending, 0, true);
}

TEST_P(RecordApi, GpuSideCountOfMaxCountSortsEveryElement) {
  sorts<std::int64_t, std::uint32_t>(SortOrder::ascending, kMaxCount, true);
  sorts<float, void>(SortOrder::descending, kMaxCount, true);
}

// Offsets that are not multiples of 16 (nor of 8 where the device allows 4): the radix sort
// then loads single words instead of 16-byte vectors or whole 64-bit keys. Only devices whose
// minStorageBufferOffsetAlignment is under 16 allow them (AMD's is 4; lavapipe's and NVIDIA's 16).
TEST_P(RecordApi, SortsBuffersAtOffsetsThatAreNotMultiplesOfSixteen) {
  const VkDeviceSize alignment = offset_alignment();
  if (alignment >= 16) GTEST_SKIP() << "this device's minStorageBufferOffsetAlignment is " << alignment;
  sorts_every_shape_at(odd_multiples_of(alignment));
}

// Odd multiples of 16 (or of the device's alignment where it is larger): ranges that start
// inside the 32-, 64- and 256-byte blocks that buffers and the sorts' own planes align to.
TEST_P(RecordApi, SortsBuffersAtOffsetsThatAreMultiplesOfSixteen) {
  sorts_every_shape_at(odd_multiples_of(std::max<VkDeviceSize>(16, offset_alignment())));
}

std::string algorithm_name(const ::testing::TestParamInfo<SortAlgorithm>& info) {
  return std::string(to_string(info.param));
}

INSTANTIATE_TEST_SUITE_P(EveryAlgorithm, RecordApi,
                         ::testing::Values(SortAlgorithm::automatic, SortAlgorithm::bitonic,
                                           SortAlgorithm::bitonic_transpose, SortAlgorithm::odd_even,
                                           SortAlgorithm::radix),
                         algorithm_name);

}  // namespace
}  // namespace vkc::test
