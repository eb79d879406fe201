// odd_even beyond the contract suite: its early exits (the tile sort's workgroup vote, the
// merge-split round that changes nothing) stop as soon as the data is sorted and never sooner.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "core/recorder.hpp"
#include "sort/odd_even.hpp"
#include "sort/reference.hpp"
#include "support/gpu_test.hpp"

namespace vkc::test {
namespace {

using sorting::odd_even_round_bound;
using sorting::odd_even_tile;

class OddEvenTest : public GpuTest {
 protected:
  template <class T>
  std::size_t tile() {
    return odd_even_tile(ctx().info(), key_type_of<T>());
  }
  template <class T>
  std::uint64_t bound(std::size_t n) {
    return odd_even_round_bound(ctx().info(), key_type_of<T>(), n);
  }

  // Sorts keys[0, count) of `keys` with record_sort_indirect (count on the GPU), carrying each
  // key's input position as its value; checks the stable order and that nothing past the count
  // moved. Returns the number of merge-split rounds that ran.
  template <class T>
  std::uint32_t sort_and_check(const std::vector<T>& input, SortOrder order, std::size_t count) {
    const std::size_t max_n = input.size();
    const SortDesc desc{key_type_of<T>(), ValueType::u32, max_n, {SortAlgorithm::odd_even, order}};
    std::vector<std::uint32_t> positions(max_n);
    std::iota(positions.begin(), positions.end(), 0u);
    Buffer keys = ctx().create_buffer(max_n * sizeof(T));
    Buffer values = ctx().create_buffer(max_n * 4);
    Buffer count_buffer = ctx().create_buffer(4);
    Buffer temporary = ctx().create_buffer(sort_temporary_bytes(ctx(), desc));
    ctx().upload(keys, std::span<const T>(input));
    ctx().upload(values, std::span<const std::uint32_t>(positions));
    const std::uint32_t count32 = static_cast<std::uint32_t>(count);
    ctx().upload(count_buffer, &count32, 4);
    const SortBuffers buffers{{keys.handle()}, {values.handle()}, {temporary.handle()}};
    ctx().run([&](Recorder& r) {
      record_sort_indirect(ctx(), r.commands(), desc, {count_buffer.handle()}, buffers);
      r.barrier_all();  // the caller's barrier after the sort, before the downloads
    });
    std::vector<T> out(max_n);
    std::vector<std::uint32_t> perm(max_n);
    std::uint32_t rounds = 0;
    ctx().download(keys, std::span<T>(out));
    ctx().download(values, std::span<std::uint32_t>(perm));
    ctx().download(temporary, &rounds, 4, sorting::odd_even_rounds_offset(ctx(), desc));

    const std::vector<T> head(input.begin(), input.begin() + count);
    EXPECT_TRUE(keys_sorted(head, std::vector<T>(out.begin(), out.begin() + count), order)) << "count " << count;
    EXPECT_TRUE(permutation_sorts(head, std::vector<std::uint32_t>(perm.begin(), perm.begin() + count), order, true))
        << "count " << count;
    for (std::size_t i = count; i < max_n; ++i) {
      EXPECT_TRUE(same_key(input[i], out[i]) && perm[i] == i) << "moved an element past the count at " << i;
      if (!same_key(input[i], out[i]) || perm[i] != i) break;
    }
    return rounds;
  }

  template <class T>
  std::uint32_t sort_and_check(const std::vector<T>& input, SortOrder order = SortOrder::ascending) {
    return sort_and_check(input, order, input.size());
  }

  template <class T>
  std::vector<T> sorted_keys(std::size_t n) {
    auto rng = rng_for_current_test();
    return make_keys<T>(n, Dist::sorted, rng);
  }
};

TEST_F(OddEvenTest, SortedInputStopsAfterOneMergeSplitRound) {
  const std::size_t n = 5 * tile<std::uint32_t>() + 7;
  EXPECT_EQ(sort_and_check(sorted_keys<std::uint32_t>(n)), 1u);
  EXPECT_EQ(sort_and_check(sorted_keys<double>(5 * tile<double>() + 7)), 1u);
}

TEST_F(OddEvenTest, OneTileNeedsNoMergeSplitRound) {
  auto keys = sorted_keys<float>(tile<float>());
  std::reverse(keys.begin(), keys.end());
  EXPECT_EQ(sort_and_check(keys), 0u);
}

TEST_F(OddEvenTest, NearlySortedInputIsSortedDespiteEarlyExits) {
  auto rng = rng_for_current_test();
  for (std::size_t n : {std::size_t{1000}, 3 * tile<std::uint32_t>() + 1, 6 * tile<std::uint32_t>() - 5}) {
    for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
      const auto keys = make_keys<std::uint32_t>(n, Dist::nearly_sorted, rng);
      EXPECT_LE(sort_and_check(keys, order), bound<std::uint32_t>(n)) << "n=" << n;
    }
  }
  const std::size_t n = 4 * tile<std::int64_t>() + 3;
  EXPECT_LE(sort_and_check(make_keys<std::int64_t>(n, Dist::nearly_sorted, rng)), bound<std::int64_t>(n));
}

TEST_F(OddEvenTest, NeighboursSwappedAcrossEveryBlockBoundaryAreSortedInTwoRounds) {
  const std::size_t half = tile<std::uint32_t>() / 2;
  const std::size_t n = 9 * half + 100;
  auto keys = sorted_keys<std::uint32_t>(n);
  for (std::size_t b = half; b < n; b += half) std::swap(keys[b - 1], keys[b]);
  // Round 1 merges the odd pairs of blocks; round 2 finds the even pairs in order and stops.
  EXPECT_EQ(sort_and_check(keys), 2u);
}

TEST_F(OddEvenTest, AKeyFarFromItsPlaceTravelsEveryBlock) {
  const std::size_t n = 7 * tile<std::uint32_t>() / 2 + 11;
  auto keys = sorted_keys<std::uint32_t>(n);
  std::rotate(keys.begin(), keys.end() - 1, keys.end());  // the largest key comes first
  EXPECT_LE(sort_and_check(keys), bound<std::uint32_t>(n));
  std::rotate(keys.begin(), keys.begin() + 2, keys.end());  // two small keys come last
  EXPECT_LE(sort_and_check(keys, SortOrder::descending), bound<std::uint32_t>(n));
}

TEST_F(OddEvenTest, ReversedInputRunsTheFullBoundOfRounds) {
  const std::size_t n = 4 * tile<std::uint32_t>() + 3;
  auto keys = sorted_keys<std::uint32_t>(n);
  std::reverse(keys.begin(), keys.end());
  EXPECT_EQ(sort_and_check(keys), bound<std::uint32_t>(n));
}

TEST_F(OddEvenTest, EqualKeysKeepTheirOrderAcrossBlocks) {
  auto rng = rng_for_current_test();
  const std::size_t n = 3 * tile<float>() + 17;
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    auto keys = make_keys<float>(n, Dist::few, rng);
    std::sort(keys.rbegin(), keys.rend());  // reversed runs of equal keys: every merge sees ties
    sort_and_check(keys, order);
  }
}

TEST_F(OddEvenTest, SortedFloatInputStillComesOutWithPositiveNaNs) {
  // Already in order, so no element moves; the contract still wants every NaN's sign cleared.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (std::size_t n : {std::size_t{3}, 3 * tile<float>() + 1}) {
    std::vector<float> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = i + 1 < n ? static_cast<float>(i) : -nan;
    sort(ctx(), std::span<float>(keys), {SortAlgorithm::odd_even});
    EXPECT_TRUE(std::isnan(keys.back()) && !std::signbit(keys.back())) << "n=" << n;
  }
}

TEST_F(OddEvenTest, GpuSideCountBelowTheBoundSortsOnlyThatMany) {
  auto rng = rng_for_current_test();
  const std::size_t max_n = 6 * tile<std::uint64_t>(), count = 7 * tile<std::uint64_t>() / 2 + 1;
  const auto keys = make_keys<std::uint64_t>(max_n, Dist::uniform, rng);
  EXPECT_LE(sort_and_check(keys, SortOrder::ascending, count), bound<std::uint64_t>(count));
}

}  // namespace
}  // namespace vkc::test
