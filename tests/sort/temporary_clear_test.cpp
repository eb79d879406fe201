// SortBuffers::temporary_is_clear through record_sort_indirect: the radix sort trusts a zero-filled
// temporary buffer and leaves its counters at zero for the next sort over it, for 64-bit keys
// and values too; set wrongly, it sorts nothing; the other algorithms ignore the flag.
#include <vector>

#include "sort/recorded_sort.hpp"
#include "sort/reference.hpp"

namespace vkc::test {
namespace {

constexpr std::size_t kMaxCount = 2500;  // a few radix tiles and odd_even tiles on lavapipe
// What a temporary buffer that something else used may hold: 1 in every word. (Small, so that an
// algorithm that wrongly trusted it dispatches a few workgroups too many, not billions.)
constexpr std::uint32_t kStaleWord = 1;

bool is_stable(SortAlgorithm a) { return a == SortAlgorithm::radix || a == SortAlgorithm::odd_even; }

// Sorts fresh keys (and values) through `s` with a GPU-side count and checks the sorted head.
template <class K, class V>
::testing::AssertionResult sorts_through(RecordedSort<K, V>& s, const SortDesc& desc, std::size_t count,
                                         std::mt19937_64& rng) {
  const auto input = make_keys<K>(kMaxCount, Dist::special, rng);
  std::vector<V> values(kMaxCount);
  for (std::size_t i = 0; i < kMaxCount; ++i) values[i] = value_for<V>(static_cast<std::uint32_t>(i));
  s.load(input, values);
  s.sort_indirect(static_cast<std::uint32_t>(count));
  const auto head = [count](const auto& all) { return std::vector(all.begin(), all.begin() + count); };
  const bool stable = is_stable(desc.options.algorithm);
  if (desc.value_type == ValueType::none) return keys_sorted(head(input), head(s.keys()), desc.options.order);
  return pairs_sorted(head(input), head(s.keys()), head(s.values()), desc.options.order, stable);
}

// Two sorts over one temporary buffer, both with the flag set, starting from `first_word` in
// every word of it: the first with a count short of max_count, the second with all of it.
template <class K, class V>
void sorts_twice_with_the_flag(SortAlgorithm algorithm, ValueType value_type, SortOrder order,
                               std::uint32_t first_word) {
  auto rng = rng_for_current_test();
  const SortDesc desc{key_type_of<K>(), value_type, kMaxCount, {algorithm, order}};
  RecordedSort<K, V> s(context(), desc);
  s.temporary().fill(first_word);
  s.temporary_is_clear = true;
  EXPECT_TRUE(sorts_through(s, desc, kMaxCount - 301, rng)) << "the first sort";
  EXPECT_TRUE(sorts_through(s, desc, kMaxCount, rng)) << "the second sort, over what the first left";
  EXPECT_TRUE(s.guards_intact());
}

using TemporaryIsClear = GpuTest;

TEST_F(TemporaryIsClear, RadixTrustsAZeroFilledBufferAndLeavesItClearForTheNextSort) {
  sorts_twice_with_the_flag<std::uint64_t, std::uint32_t>(SortAlgorithm::radix, ValueType::none, SortOrder::ascending,
                                                          0);
  sorts_twice_with_the_flag<double, std::uint64_t>(SortAlgorithm::radix, ValueType::u64, SortOrder::descending, 0);
  sorts_twice_with_the_flag<std::int32_t, std::uint64_t>(SortAlgorithm::radix, ValueType::u64, SortOrder::ascending, 0);
}

// The flag does reach the radix sort through record_sort_indirect: on a buffer that is not clear
// it finds counts that do not add up and runs no pass (sort.hpp), where it would sort had it
// cleared the buffer itself.
TEST_F(TemporaryIsClear, RadixSetWronglyLeavesTheKeysAsTheyWere) {
  auto rng = rng_for_current_test();
  const auto input = make_keys<std::int64_t>(kMaxCount, Dist::uniform, rng);
  std::vector<std::uint64_t> values(kMaxCount);
  for (std::size_t i = 0; i < kMaxCount; ++i) values[i] = value_for<std::uint64_t>(static_cast<std::uint32_t>(i));
  RecordedSort<std::int64_t, std::uint64_t> s(ctx(), {KeyType::i64, ValueType::u64, kMaxCount, {SortAlgorithm::radix}});
  s.temporary().fill(kStaleWord);
  s.temporary_is_clear = true;
  s.load(input, values);
  s.sort_indirect(kMaxCount);
  EXPECT_EQ(s.keys(), input);
  EXPECT_EQ(s.values(), values);
}

class OtherAlgorithms : public GpuTest, public ::testing::WithParamInterface<SortAlgorithm> {};

// Over a buffer that is not clear, and again over what that sort left.
TEST_P(OtherAlgorithms, IgnoreTheFlag) {
  sorts_twice_with_the_flag<std::uint64_t, std::uint64_t>(GetParam(), ValueType::u64, SortOrder::descending,
                                                          kStaleWord);
  sorts_twice_with_the_flag<float, std::uint32_t>(GetParam(), ValueType::none, SortOrder::ascending, kStaleWord);
}

std::string algorithm_name(const ::testing::TestParamInfo<SortAlgorithm>& info) {
  return std::string(to_string(info.param));
}

// `automatic` picks bitonic sort at this count on every device.
INSTANTIATE_TEST_SUITE_P(NotRadix, OtherAlgorithms,
                         ::testing::Values(SortAlgorithm::automatic, SortAlgorithm::bitonic,
                                           SortAlgorithm::bitonic_transpose, SortAlgorithm::odd_even),
                         algorithm_name);

}  // namespace
}  // namespace vkc::test
