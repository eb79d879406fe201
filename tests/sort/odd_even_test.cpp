// odd_even beyond the contract suite: its early exits (the tile sort's workgroup vote, the
// merge-split round that changes nothing) stop as soon as the data is sorted and never sooner, and
// it records enough merge-split rounds for the worst case, checked against a CPU model of the
// algorithm rather than against the library's own count of rounds.
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

using sorting::odd_even_tile;

// Block odd-even merge-split on the CPU, modelled from its description (sort.hpp, odd_even.cpp's
// header) for an independent count of rounds: blocks of `half` keys; round 0 sorts every tile
// (blocks 2k and 2k + 1) stably; round r >= 1 merges every pair of neighbours (b, b + 1) with b of
// r's parity, stably, the lower half staying left. A pair changes when its right block's first
// key sorts strictly before its left block's last.
template <class T>
class BlockOddEvenModel {
 public:
  BlockOddEvenModel(std::vector<T> keys, std::size_t half, SortOrder order)
      : keys_(std::move(keys)), half_(half), order_(order) {
    for (std::size_t tile = 0; tile < keys_.size(); tile += 2 * half_) {
      std::stable_sort(at(tile), at(tile + 2 * half_), less());
    }
  }

  /// Runs merge-split round `r` (>= 1); returns whether any pair changed.
  bool merge_round(std::size_t r) {
    bool changed = false;
    for (std::size_t left = (r % 2) * half_; left + half_ < keys_.size(); left += 2 * half_) {
      if (!less()(*at(left + half_), *at(left + half_ - 1))) continue;
      std::inplace_merge(at(left), at(left + half_), at(left + 2 * half_), less());
      changed = true;
    }
    return changed;
  }

  bool sorted() const { return std::is_sorted(keys_.begin(), keys_.end(), less()); }

 private:
  auto less() const {
    return [order = order_](T a, T b) { return contract_less(a, b, order); };
  }
  typename std::vector<T>::iterator at(std::size_t i) { return keys_.begin() + std::min(i, keys_.size()); }

  std::vector<T> keys_;
  std::size_t half_;
  SortOrder order_;
};

/// The fewest merge-split rounds after the tile sort that sort `keys`.
template <class T>
std::size_t rounds_needed(const std::vector<T>& keys, std::size_t half, SortOrder order) {
  BlockOddEvenModel<T> model(keys, half, order);
  std::size_t rounds = 0;
  while (!model.sorted()) model.merge_round(++rounds);
  return rounds;
}

/// The merge-split rounds that run when `recorded` are recorded and the first round that
/// changes nothing is the last (it counts).
template <class T>
std::size_t rounds_run(const std::vector<T>& keys, std::size_t half, SortOrder order, std::size_t recorded) {
  BlockOddEvenModel<T> model(keys, half, order);
  for (std::size_t r = 1; r <= recorded; ++r) {
    if (!model.merge_round(r)) return r;
  }
  return recorded;
}

/// The most merge-split rounds sort.hpp allows (2n/B - 1, B the tile), none when one tile holds
/// every key.
std::size_t documented_max_rounds(std::size_t n, std::size_t tile) {
  const std::size_t blocks = (2 * n + tile - 1) / tile;
  return blocks > 2 ? blocks - 1 : 0;
}

class OddEvenTest : public GpuTest {
 protected:
  template <class T>
  std::size_t tile() {
    return odd_even_tile(ctx().info(), key_type_of<T>());
  }

  // The rounds the model runs for keys[0, count) of `input`, with as many recorded as sort.hpp
  // allows for `max_count` (record_sort_indirect records for max_count).
  template <class T>
  std::size_t model_rounds(const std::vector<T>& input, SortOrder order, std::size_t count, std::size_t max_count) {
    const std::vector<T> head(input.begin(), input.begin() + count);
    return rounds_run(head, tile<T>() / 2, order, documented_max_rounds(max_count, tile<T>()));
  }
  template <class T>
  std::size_t model_rounds(const std::vector<T>& input, SortOrder order = SortOrder::ascending) {
    return model_rounds(input, order, input.size(), input.size());
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

TEST_F(OddEvenTest, NearlySortedInputStopsOneRoundAfterItIsSorted) {
  auto rng = rng_for_current_test();
  for (std::size_t n : {std::size_t{1000}, 3 * tile<std::uint32_t>() + 1, 6 * tile<std::uint32_t>() - 5}) {
    for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
      const auto keys = make_keys<std::uint32_t>(n, Dist::nearly_sorted, rng);
      EXPECT_EQ(sort_and_check(keys, order), model_rounds(keys, order)) << "n=" << n;
    }
  }
  const std::size_t n = 4 * tile<std::int64_t>() + 3;
  const auto keys = make_keys<std::int64_t>(n, Dist::nearly_sorted, rng);
  EXPECT_EQ(sort_and_check(keys), model_rounds(keys));
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
  EXPECT_EQ(sort_and_check(keys), model_rounds(keys));
  std::rotate(keys.begin(), keys.begin() + 2, keys.end());  // two small keys come last
  EXPECT_EQ(sort_and_check(keys, SortOrder::descending), model_rounds(keys, SortOrder::descending));
}

// Reversed input is a worst case: in the model it needs every round sort.hpp allows (one fewer
// leaves it unsorted), so a sort that records fewer fails the sort_and_check, and one that runs
// more than the documented maximum returns a larger count. Block counts odd and even, the last
// block partial.
TEST_F(OddEvenTest, ReversedInputNeedsAndGetsEveryDocumentedRound) {
  for (std::size_t n : {4 * tile<std::uint32_t>() + 3, 3 * tile<std::uint32_t>() - 1}) {
    auto keys = sorted_keys<std::uint32_t>(n);
    std::reverse(keys.begin(), keys.end());
    const std::size_t most = documented_max_rounds(n, tile<std::uint32_t>());
    ASSERT_EQ(rounds_needed(keys, tile<std::uint32_t>() / 2, SortOrder::ascending), most)
        << "n=" << n << ": reversed input is not a worst case of the model";
    EXPECT_EQ(sort_and_check(keys), most) << "n=" << n;
  }
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
  EXPECT_EQ(sort_and_check(keys, SortOrder::ascending, count), model_rounds(keys, SortOrder::ascending, count, max_n));
}

}  // namespace
}  // namespace vkc::test
