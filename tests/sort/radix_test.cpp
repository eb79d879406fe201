// Radix-specific behaviour beyond the contract suite: both scan paths forced, passes skipped
// when every key shares a digit, stability of 64-bit keys, sizes at tile edges, GPU-side counts.
// Each test runs under a policy that it constructs: the device class's own in sort_tests, and in
// radix_variant_tests (built with VKC_RADIX_VARIANTS) the variants of radix_variants.inc.
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "core/loader.hpp"
#include "core/recorder.hpp"
#include "sort/planner.hpp"
#include "sort/radix_policy.hpp"
#include "sort/record.hpp"
#include "sort/workspace.hpp"
#include "sort/reference.hpp"
#include "support/gpu_test.hpp"

namespace vkc::test {
namespace layout {
#include "radix_layout.h"
}  // namespace layout
namespace {

// A policy the tests construct: an edit of the device class's policy, and what the sort's
// policy must show for the variant to have taken effect.
struct RadixVariant {
  const char* name;
  sorting::RadixPolicyEdit edit;
  std::function<bool(const sorting::RadixPolicy&)> took_effect;
};

struct RadixCase {
  RadixScan scan;
  const RadixVariant* variant;
};

// What CTest and failure messages show of a case (not its bytes, which hold a pointer).
void PrintTo(const RadixCase& c, std::ostream* os) {
  *os << c.variant->name << (c.scan == RadixScan::lookback ? "/lookback" : "/reduce_then_scan");
}

std::string radix_case_name(const ::testing::TestParamInfo<RadixCase>& info) {
  return std::string(info.param.variant->name) + (info.param.scan == RadixScan::lookback ? "_Lookback" : "_ReduceThenScan");
}

class RadixSortTest : public GpuTest, public ::testing::WithParamInterface<RadixCase> {
 protected:
  SortOptions options(SortOrder order = SortOrder::ascending) const {
    SortOptions o;
    o.algorithm = SortAlgorithm::radix;
    o.order = order;
    o.radix_scan = GetParam().scan;
    return o;
  }

  // Fails unless the policy that the sort of `desc` records shows the variant.
  void expect_variant(const SortDesc& desc, std::uint64_t count) {
    const RadixVariant& v = *GetParam().variant;
    const sorting::RadixPolicy policy = sorting::radix_policy(ctx().info(), desc, count, v.edit);
    ASSERT_TRUE(v.took_effect(policy)) << "variant " << v.name << " did not take effect";
  }

  // sort_temporary_bytes, record_sort and record_sort_indirect under the variant's policy.
  sorting::PlannedSort plan(const SortDesc& desc) {
    return sorting::plan_radix_sort(ctx().info(), desc, GetParam().variant->edit);
  }
  std::uint64_t temporary_bytes(const SortDesc& desc) {
    return desc.max_count ? plan(desc).temporary_bytes() : sorting::kScratchOffset;
  }
  void record(Recorder& r, const SortDesc& desc, std::uint64_t count, const SortBuffers& buffers) {
    expect_variant(desc, count);
    SortDesc exact = desc;
    exact.max_count = count;
    if (count) sorting::record_planned(sorting::sort_device(ctx()), r, plan(exact), buffers);
  }
  void record_indirect(Recorder& r, const SortDesc& desc, BufferRange count, const SortBuffers& buffers) {
    expect_variant(desc, desc.max_count);
    sorting::record_planned_indirect(sorting::sort_device(ctx()), r, plan(desc), count, buffers);
  }

  // vkc::sort and sort_pairs under the variant's policy: upload, record, download.
  void sort_arrays(const SortDesc& desc, void* keys, void* values) {
    const std::uint64_t n = desc.max_count;
    Buffer key_buffer = ctx().create_buffer(n * key_bytes(desc.key_type));
    Buffer value_buffer = ctx().create_buffer(std::max<std::uint64_t>(4, n * value_bytes(desc.value_type)));
    Buffer temporary = ctx().create_buffer(temporary_bytes(desc));
    ctx().upload(key_buffer, keys, key_buffer.bytes());
    if (values) ctx().upload(value_buffer, values, n * value_bytes(desc.value_type));
    SortBuffers buffers{{key_buffer.handle()}, {}, {temporary.handle()}};
    if (values) buffers.values = {value_buffer.handle()};
    ctx().run([&](Recorder& r) {
      record(r, desc, n, buffers);
      record_barrier_before_download(r.commands());
    });
    ctx().download(key_buffer, keys, key_buffer.bytes());
    if (values) ctx().download(value_buffer, values, n * value_bytes(desc.value_type));
  }
  template <class K>
  void sort_keys(std::span<K> keys, const SortOptions& o) {
    sort_arrays({key_type_of<K>(), ValueType::none, keys.size(), o}, keys.data(), nullptr);
  }
  template <class K, class V>
  void sort_key_values(std::span<K> keys, std::span<V> values, const SortOptions& o) {
    sort_arrays({key_type_of<K>(), sizeof(V) == 4 ? ValueType::u32 : ValueType::u64, keys.size(), o}, keys.data(),
                values.data());
  }

  // Sorts (key, index) pairs and checks keys and the exact stable permutation.
  template <class K>
  void expect_stable_pairs(const std::vector<K>& input, SortOrder order) {
    auto keys = input;
    std::vector<std::uint32_t> values(input.size());
    std::iota(values.begin(), values.end(), 0u);
    sort_key_values(std::span<K>(keys), std::span<std::uint32_t>(values), options(order));
    ASSERT_TRUE(keys_sorted(input, keys, order)) << "n=" << input.size();
    ASSERT_TRUE(permutation_sorts(input, values, order, true)) << "n=" << input.size();
  }

  // Sorts (key, index << 32 | a pattern) pairs, so that both words of each value are checked.
  template <class K>
  void expect_pairs_with_wide_values(const std::vector<K>& input, SortOrder order) {
    auto keys = input;
    std::vector<std::uint64_t> values(input.size());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = (std::uint64_t{i} << 32) | 0x5EEDu;
    sort_key_values(std::span<K>(keys), std::span<std::uint64_t>(values), options(order));
    ASSERT_TRUE(keys_sorted(input, keys, order)) << "n=" << input.size();
    std::vector<std::uint32_t> permutation(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      ASSERT_EQ(values[i] & 0xFFFFFFFFu, 0x5EEDu) << "value corrupted at " << i;
      permutation[i] = static_cast<std::uint32_t>(values[i] >> 32);
    }
    ASSERT_TRUE(permutation_sorts(input, permutation, order, true)) << "n=" << input.size();
  }

  template <class K>
  void expect_sorted(const std::vector<K>& input, SortOrder order = SortOrder::ascending) {
    auto keys = input;
    sort_keys(std::span<K>(keys), options(order));
    ASSERT_TRUE(keys_sorted(input, keys, order)) << "n=" << input.size();
  }

  // Records a sort of the first `count` keys of `input` (with their indices as values where
  // `with_values`) over `temporary` marked clear, as an engine that keeps one temporary buffer
  // for its radix sorts records them; returns the keys and values afterwards (all of them).
  template <class K>
  std::pair<std::vector<K>, std::vector<std::uint32_t>> sort_over_clear(const Buffer& temporary,
                                                                        const std::vector<K>& input, std::size_t count,
                                                                        SortOrder order, bool with_values) {
    const SortDesc desc{key_type_of<K>(), with_values ? ValueType::u32 : ValueType::none, input.size(), options(order)};
    EXPECT_LE(temporary_bytes(desc), temporary.bytes());
    Buffer keys = ctx().create_buffer(input.size() * sizeof(K));
    Buffer values = ctx().create_buffer(input.size() * 4);
    std::vector<std::uint32_t> index(input.size());
    std::iota(index.begin(), index.end(), 0u);
    ctx().upload(keys, std::span<const K>(input));
    ctx().upload(values, std::span<const std::uint32_t>(index));
    SortBuffers buffers{{keys.handle()}, {values.handle()}, {temporary.handle()}};
    buffers.temporary_is_clear = true;
    ctx().run([&](Recorder& r) {
      record(r, desc, count, buffers);
      record_barrier_before_download(r.commands());
    });
    std::vector<K> out_keys(input.size());
    ctx().download(keys, std::span<K>(out_keys));
    ctx().download(values, std::span<std::uint32_t>(index));
    return {out_keys, index};
  }

  // sort_over_clear, checked: the first `count` keys sorted (stably, by their values, where
  // `with_values`), the rest untouched.
  template <class K>
  void expect_sorted_over_clear(const Buffer& temporary, const std::vector<K>& input, std::size_t count,
                                SortOrder order, bool with_values) {
    const auto [keys, values] = sort_over_clear(temporary, input, count, order, with_values);
    const std::vector<K> head(input.begin(), input.begin() + count);
    ASSERT_TRUE(keys_sorted(head, std::vector<K>(keys.begin(), keys.begin() + count), order)) << "n=" << count;
    if (with_values) {
      ASSERT_TRUE(permutation_sorts(head, std::vector<std::uint32_t>(values.begin(), values.begin() + count), order, true));
    }
    ASSERT_TRUE(std::equal(keys.begin() + count, keys.end(), input.begin() + count)) << "written past the count";
  }
};

TEST_P(RadixSortTest, SortsThirtyTwoBitPairsStablyAcrossManyTiles) {
  auto rng = rng_for_current_test();
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    expect_stable_pairs(make_keys<std::uint32_t>(300007, Dist::uniform, rng), order);
    expect_stable_pairs(make_keys<float>(100003, Dist::special, rng), order);
  }
}

// 32-bit pairs of even and odd counts: where they stay interleaved between passes (NVIDIA's
// look-back from 2^27 pairs, or VKC_RADIX_INTERLEAVED_PAIRS=1 in tests/sort/CMakeLists.txt), each
// of the caller's arrays holds half of the pairs between the first pass and the last, split inside
// a tile, and an odd count's last pair takes the word each array has left. Four running passes
// write that layout once; where a pass is skipped (three running, with or without a copying pass,
// or two) the pairs stay planar.
TEST_P(RadixSortTest, SortsThirtyTwoBitPairsOfEveryCountParity) {
  auto rng = rng_for_current_test();
  for (std::size_t n : {std::size_t{2}, std::size_t{3}, std::size_t{4096}, std::size_t{4097}, std::size_t{3 * 8064},
                        std::size_t{3 * 8064 + 1}, std::size_t{300000}}) {
    expect_stable_pairs(make_keys<std::uint32_t>(n, Dist::uniform, rng), SortOrder::ascending);
    expect_stable_pairs(make_keys<std::int32_t>(n, Dist::few, rng), SortOrder::descending);
  }
  expect_stable_pairs(make_keys<float>(100002, Dist::special, rng), SortOrder::descending);
  for (std::uint32_t mask : {0xFF00FFFFu, 0x00FFFFFFu, 0xFFFF0000u}) {
    std::vector<std::uint32_t> keys(60001);
    for (auto& k : keys) k = (static_cast<std::uint32_t>(rng()) & mask) | 0x01000010u;
    expect_stable_pairs(keys, SortOrder::ascending);
  }
}

TEST_P(RadixSortTest, KeepsEqualSixtyFourBitKeysInInputOrder) {
  auto rng = rng_for_current_test();
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    expect_stable_pairs(make_keys<std::uint64_t>(70001, Dist::few, rng), order);
    expect_stable_pairs(make_keys<double>(70001, Dist::special, rng), order);
    expect_stable_pairs(make_keys<std::int64_t>(70001, Dist::few, rng), order);
  }
}

TEST_P(RadixSortTest, SortsSixtyFourBitValuesWithSixtyFourBitKeys) {
  auto rng = rng_for_current_test();
  const auto input = make_keys<std::int64_t>(50001, Dist::uniform, rng);
  auto keys = input;
  std::vector<std::uint64_t> values(input.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = (std::uint64_t{i} << 32) | 0xABCDu;
  sort_key_values(std::span<std::int64_t>(keys), std::span<std::uint64_t>(values), options(SortOrder::descending));
  ASSERT_TRUE(keys_sorted(input, keys, SortOrder::descending));
  for (std::size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(values[i] & 0xFFFFFFFFu, 0xABCDu) << "value corrupted at " << i;
    ASSERT_EQ(input[values[i] >> 32], keys[i]) << "pair split at " << i;
  }
}

// Keys that differ in one byte only: one pass moves data; in two bytes: two passes. An odd count
// of running passes would leave the data in the temporary buffers, so one skipped pass runs as a
// plain copy. The copying pass takes the tile shape of its size, so the odd cases run on both
// sides of 2^18, where NVIDIA's tiles change; 64-bit values run through it too.
TEST_P(RadixSortTest, SkipsPassesWhoseDigitIsTheSameForEveryKey) {
  auto rng = rng_for_current_test();
  const auto running_passes = [](std::uint64_t mask) {
    int bytes = 0;
    for (; mask != 0; mask >>= 8) bytes += (mask & 0xFF) != 0;
    return bytes;
  };
  for (std::size_t n : {std::size_t{40000}, std::size_t{(1u << 18) + 5}}) {
    const bool small = n < (1u << 18);
    for (std::uint32_t mask : {0x000000FFu, 0x00FF0000u, 0xFF00FF00u, 0x0000FFFFu}) {
      if (!small && running_passes(mask) % 2 == 0) continue;
      std::vector<std::uint32_t> keys(n);
      for (auto& k : keys) k = (static_cast<std::uint32_t>(rng()) & mask) | 0x01000010u;
      expect_stable_pairs(keys, SortOrder::ascending);
      expect_stable_pairs(keys, SortOrder::descending);
    }
    // 64-bit keys with one, two and three running passes: split keys are planar only between the
    // first and the last pass that run.
    for (std::uint64_t mask : {0x0000FF0000000000ull, 0x00FF0000000000FFull, 0x00FF00000000FF00ull | 0xFF000000ull}) {
      if (!small && running_passes(mask) % 2 == 0) continue;
      std::vector<std::uint64_t> wide(n);
      for (auto& k : wide) k = (rng() & mask) | 0x1234000000000000ull;
      expect_stable_pairs(wide, SortOrder::ascending);
      expect_stable_pairs(wide, SortOrder::descending);
    }
    std::vector<std::uint32_t> keys(n);
    for (auto& k : keys) k = (static_cast<std::uint32_t>(rng()) & 0x00FF0000u) | 0x01000010u;
    expect_pairs_with_wide_values(keys, SortOrder::descending);
  }
}

// 64-bit keys one of whose words every key has: indices below 2^32, negative i64 above -2^31
// (a high word of ones), keys whose low word is a constant, doubles of one sign, exponent and top
// mantissa bits. The passes move the other word alone and the last writes the shared one back;
// one to four running passes (an odd count copies once), keys alone, with 32- and 64-bit values,
// both orders.
TEST_P(RadixSortTest, SortsSixtyFourBitKeysOneOfWhoseWordsEveryKeyShares) {
  auto rng = rng_for_current_test();
  constexpr std::size_t n = 20011;
  for (std::uint64_t varying : {0xFFull, 0xFF00FFull, 0xFFFFFFull, 0xFFFFFFFFull}) {
    std::vector<std::uint64_t> low(n), high(n);
    for (std::size_t i = 0; i < n; ++i) {
      low[i] = (rng() & varying) | 0x0123000000000000ull * (varying == 0xFFull);
      high[i] = ((rng() & varying) << 32) | 0x89ABCDEFu;
    }
    SCOPED_TRACE(varying);
    expect_sorted(low, SortOrder::ascending);
    expect_stable_pairs(low, SortOrder::descending);
    expect_stable_pairs(high, SortOrder::ascending);
    expect_pairs_with_wide_values(high, SortOrder::descending);
  }
  std::vector<std::int64_t> negative(n);
  for (auto& k : negative) k = -1 - static_cast<std::int64_t>(rng() & 0x7FFFFFFF);
  expect_stable_pairs(negative, SortOrder::descending);
  std::vector<double> doubles(n);
  for (auto& d : doubles) d = -1.0 - std::ldexp(static_cast<double>(rng() & 0xFFFFFF), -52);
  expect_stable_pairs(doubles, SortOrder::ascending);
}

// Where 64-bit keys share a word, the histogram's last workgroup marks every pass so and leaves
// the word as stored in the state (STATE_SHARED_WORD): the passes then move the other word alone.
// Under a policy without shared words (CPU devices' own) no pass is marked. Recorded with the
// count on the GPU, below the most the sort was recorded for: the keys past it stay as they were.
TEST_P(RadixSortTest, MarksThePassesOfKeysThatShareAWord) {
  auto rng = rng_for_current_test();
  constexpr std::size_t n = 5003, max_n = n + 64;
  struct Case {
    std::uint64_t varying, fixed;
    std::uint32_t flag, word;
  };
  for (const Case c : {Case{0xFFFF, 0xFEDC000000000000ull, layout::PASS_SHARED_HIGH, 0xFEDC0000u},
                       Case{0xFF00000000ull, 0x1234ull, layout::PASS_SHARED_LOW, 0x1234u},
                       Case{0xFF000000FFull, 0, 0, 0}}) {
    std::vector<std::uint64_t> input(max_n);
    for (auto& k : input) k = (rng() & c.varying) | c.fixed;
    const SortDesc desc{KeyType::u64, ValueType::none, max_n, options(SortOrder::descending)};
    const bool marks = sorting::radix_policy(ctx().info(), desc, max_n, GetParam().variant->edit).shared_words;
    Buffer keys = ctx().create_buffer(max_n * 8);
    Buffer count = ctx().create_buffer(4);
    Buffer temporary = ctx().create_buffer(temporary_bytes(desc));
    ctx().upload(keys, std::span<const std::uint64_t>(input));
    const std::uint32_t n32 = n;
    ctx().upload(count, &n32, 4);
    ctx().run([&](Recorder& r) {
      record_indirect(r, desc, {count.handle()}, {{keys.handle()}, {}, {temporary.handle()}});
      record_barrier_before_download(r.commands());
    });
    std::vector<std::uint64_t> output(max_n);
    ctx().download(keys, std::span<std::uint64_t>(output));
    const std::vector<std::uint64_t> head(input.begin(), input.begin() + n);
    ASSERT_TRUE(keys_sorted(head, std::vector<std::uint64_t>(output.begin(), output.begin() + n), SortOrder::descending))
        << std::hex << c.varying;
    for (std::size_t i = n; i < max_n; ++i) ASSERT_EQ(output[i], input[i]) << "key written past the count at " << i;
    std::vector<std::uint32_t> state(layout::STATE_TILES);
    ctx().download(temporary, state.data(), state.size() * 4, sorting::kScratchOffset);
    for (std::uint32_t pass = 0; pass < 8; ++pass) {
      const std::uint32_t info = state[layout::STATE_PASS_INFO + pass];
      EXPECT_EQ(info & (layout::PASS_SHARED_LOW | layout::PASS_SHARED_HIGH), marks ? c.flag : 0) << std::hex << c.varying;
    }
    if (marks && c.flag) EXPECT_EQ(state[layout::STATE_SHARED_WORD], c.word) << std::hex << c.varying;
  }
}

// What the GPU dispatches for each pass: the grid that the histogram's last workgroup writes into
// the state, which starts the radix sort's part of the temporary buffer (radix_layout.h). A pass whose digit every key shares
// must get no workgroups; only an odd count of running passes gives one of them work, as the copy
// that leaves the data in the caller's buffer. Recorded with the count on the host and on the GPU.
TEST_P(RadixSortTest, DispatchesNoScatterForAPassWhoseDigitEveryKeyShares) {
  auto rng = rng_for_current_test();
  constexpr std::size_t n = 20000;
  for (bool indirect : {false, true}) {
    for (std::uint32_t mask : {0x00000000u, 0x000000FFu, 0x00FF0000u, 0xFF00FF00u, 0x00FFFFFFu, 0xFFFFFFFFu}) {
      std::vector<std::uint32_t> input(n);
      for (auto& k : input) k = (static_cast<std::uint32_t>(rng()) & mask) | (0x5A5A5A5Au & ~mask);
      const SortDesc desc{KeyType::u32, ValueType::none, n, options()};
      Buffer keys = ctx().create_buffer(n * 4);
      Buffer count = ctx().create_buffer(4);
      Buffer temporary = ctx().create_buffer(temporary_bytes(desc));
      ctx().upload(keys, std::span<const std::uint32_t>(input));
      ctx().upload(count, std::span<const std::uint32_t>(std::vector<std::uint32_t>{n}));
      ctx().run([&](Recorder& r) {
        const SortBuffers buffers{{keys.handle()}, {}, {temporary.handle()}};
        if (indirect) record_indirect(r, desc, {count.handle()}, buffers);
        else record(r, desc, n, buffers);
        record_barrier_before_download(r.commands());
      });
      std::vector<std::uint32_t> output(n);
      ctx().download(keys, std::span<std::uint32_t>(output));
      ASSERT_TRUE(keys_sorted(input, output, SortOrder::ascending)) << std::hex << "mask=" << mask;

      std::vector<std::uint32_t> state(layout::STATE_TILES);
      ctx().download(temporary, state.data(), state.size() * 4, sorting::kScratchOffset);
      int running = 0, skipped_with_work = 0;
      for (std::uint32_t pass = 0; pass < 4; ++pass) {
        const bool varies = ((mask >> (8 * pass)) & 0xFFu) != 0;
        const std::uint32_t groups = state[layout::STATE_DISPATCH + 3 * pass];
        running += varies;
        if (varies) EXPECT_GT(groups, 0u) << std::hex << "mask=" << mask << " pass " << pass;
        else skipped_with_work += groups != 0;
      }
      EXPECT_EQ(skipped_with_work, running % 2) << std::hex << "mask=" << mask << (indirect ? " indirect" : "");
    }
  }
}

// 32-bit keys alone, through record_sort over a temporary buffer full of stale words. Where pass 0
// reads its offsets from the tile table that the histogram pass counts (a tuning setting of the
// look-back path, VKC_RADIX_FIRST_TABLE=1, tested in tests/sort/CMakeLists.txt), on the look-back path it
// clears the look-back table of the next pass that runs. The masks run pass 0 alone, pass 0 then
// 2, pass 2 alone (the histogram clears its table), and passes 0, 1 and 3. (lavapipe tends to
// finish tiles in order, so that a look-back rarely reaches an uncleared word there; the H100
// probe runs, which sort many times over one temporary buffer, would show a missing clear.)
TEST_P(RadixSortTest, SortsKeysAloneOverAStaleTemporaryBuffer) {
  auto rng = rng_for_current_test();
  for (std::uint32_t mask : {0x000000FFu, 0x00FF00FFu, 0x00FF0000u, 0xFF00FFFFu}) {
    std::vector<std::uint32_t> input(40000);
    for (auto& k : input) k = (static_cast<std::uint32_t>(rng()) & mask) | 0x01000010u;
    for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
      const SortDesc desc{KeyType::u32, ValueType::none, input.size(), options(order)};
      Buffer keys = ctx().create_buffer(input.size() * 4);
      Buffer temporary = ctx().create_buffer(temporary_bytes(desc));
      ctx().upload(keys, std::span<const std::uint32_t>(input));
      ctx().run([&](Recorder& r) {
        r.fill_buffer(temporary.handle(), 0, VK_WHOLE_SIZE, 0xFFFFFFFFu);
        VkMemoryBarrier stale{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                                  VK_ACCESS_INDIRECT_COMMAND_READ_BIT};
        vk::vkCmdPipelineBarrier(r.commands(), VK_PIPELINE_STAGE_TRANSFER_BIT,
                                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT |
                                     VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                                 0, 1, &stale, 0, nullptr, 0, nullptr);
        record(r, desc, input.size(), {{keys.handle()}, {}, {temporary.handle()}});
        record_barrier_before_download(r.commands());
      });
      std::vector<std::uint32_t> output(input.size());
      ctx().download(keys, std::span<std::uint32_t>(output));
      ASSERT_TRUE(keys_sorted(input, output, order)) << std::hex << "mask=" << mask;
    }
  }
}

TEST_P(RadixSortTest, WritesEveryKeyBackCanonicalWhenAllKeysAreEqual) {
  const float negative_nan = -std::numeric_limits<float>::quiet_NaN();
  std::vector<float> keys(5000, negative_nan);
  sort_keys(std::span<float>(keys), options());
  for (float k : keys) ASSERT_TRUE(std::isnan(k) && !std::signbit(k));
  std::vector<double> doubles(5000, -std::numeric_limits<double>::quiet_NaN());
  sort_keys(std::span<double>(doubles), options());
  for (double k : doubles) ASSERT_TRUE(std::isnan(k) && !std::signbit(k));
  std::vector<std::uint64_t> same(3333, 0x0123456789ABCDEFull);
  expect_stable_pairs(same, SortOrder::descending);
}

TEST_P(RadixSortTest, SortsCountsAtTileEdges) {
  auto rng = rng_for_current_test();
  // Tiles hold 1024 to 10240 keys, depending on the device, the key width and the count: powers of
  // two on lavapipe; on NVIDIA 3072 (384 x 8, which every count here takes), 5120 (512 x 10), 5376
  // (384 x 14), 6272 (448 x 14), 8064 (448 x 18), 8192 (512 x 16) and 10240 (512 x 20), the larger
  // ones from 2^19 keys (radix.cpp's nvidia_tile).
  for (std::size_t base : {1024u, 2048u, 3072u, 4096u, 5120u, 5376u, 6272u, 8064u, 8192u, 10240u, 3u * 3072u, 3u * 4096u,
                           3u * 5376u, 3u * 10240u}) {
    for (std::size_t n : {base - 1, base, base + 1}) {
      expect_sorted(make_keys<std::uint32_t>(n, Dist::uniform, rng));
      expect_sorted(make_keys<std::uint64_t>(n, Dist::uniform, rng));
    }
  }
}

// Every count up to 40 and counts of each residue modulo 4 past a few thousand: the histogram
// reads keys four (or two 64-bit ones) to a 16-byte load and counts the keys after the last
// whole vector on their own.
TEST_P(RadixSortTest, SortsEveryCountAroundTheHistogramsVectors) {
  auto rng = rng_for_current_test();
  std::vector<std::size_t> counts;
  for (std::size_t n = 1; n <= 40; ++n) counts.push_back(n);
  for (std::size_t n = 4096; n < 4104; ++n) counts.push_back(n);
  for (std::size_t n : counts) {
    expect_sorted(make_keys<std::uint32_t>(n, Dist::uniform, rng));
    expect_sorted(make_keys<std::uint64_t>(n, Dist::uniform, rng), SortOrder::descending);
  }
}

TEST_P(RadixSortTest, SortsOnlyTheCountTheGpuHolds) {
  auto rng = rng_for_current_test();
  const std::size_t max_n = 20000;
  for (std::size_t n : {0u, 1u, 4095u, 12345u, 20000u}) {
    const auto input = make_keys<std::uint32_t>(max_n, Dist::uniform, rng);
    const SortDesc desc{KeyType::u32, ValueType::u32, max_n, options()};
    Buffer keys = ctx().create_buffer(max_n * 4);
    Buffer values = ctx().create_buffer(max_n * 4);
    Buffer count = ctx().create_buffer(4);
    Buffer temporary = ctx().create_buffer(temporary_bytes(desc));
    std::vector<std::uint32_t> index(max_n);
    std::iota(index.begin(), index.end(), 0u);
    ctx().upload(keys, std::span<const std::uint32_t>(input));
    ctx().upload(values, std::span<const std::uint32_t>(index));
    const std::uint32_t n32 = static_cast<std::uint32_t>(n);
    ctx().upload(count, &n32, 4);
    ctx().run([&](Recorder& r) {
      record_indirect(r, desc, {count.handle()}, {{keys.handle()}, {values.handle()}, {temporary.handle()}});
      record_barrier_before_download(r.commands());
    });
    std::vector<std::uint32_t> out_keys(max_n), out_values(max_n);
    ctx().download(keys, std::span<std::uint32_t>(out_keys));
    ctx().download(values, std::span<std::uint32_t>(out_values));
    const std::vector<std::uint32_t> head(input.begin(), input.begin() + n);
    ASSERT_TRUE(permutation_sorts(head, std::vector<std::uint32_t>(out_values.begin(), out_values.begin() + n),
                                  SortOrder::ascending, true))
        << "n=" << n;
    ASSERT_TRUE(keys_sorted(head, std::vector<std::uint32_t>(out_keys.begin(), out_keys.begin() + n),
                            SortOrder::ascending));
    for (std::size_t i = n; i < max_n; ++i) {
      ASSERT_EQ(out_keys[i], input[i]) << "key written past the count at " << i;
      ASSERT_EQ(out_values[i], i) << "value written past the count at " << i;
    }
  }
}

// One temporary buffer, zero-filled once, serves a run of radix sorts marked clear
// (SortBuffers::temporary_is_clear): each must leave its counters at zero for the next, whatever
// the key type, the order, the count or the passes that run.
TEST_P(RadixSortTest, SortsOneAfterAnotherOverATemporaryBufferKeptClear) {
  auto rng = rng_for_current_test();
  const std::size_t n = 40000;
  std::uint64_t bytes = 0;
  for (KeyType key : {KeyType::u32, KeyType::f32, KeyType::u64}) {
    for (ValueType value : {ValueType::none, ValueType::u32}) {
      bytes = std::max(bytes, temporary_bytes({key, value, n, options()}));
    }
  }
  Buffer temporary = ctx().create_buffer(bytes);
  ctx().run([&](Recorder& r) { r.fill_buffer(temporary.handle(), 0, VK_WHOLE_SIZE, 0); });
  auto words = make_keys<std::uint32_t>(n, Dist::uniform, rng);
  expect_sorted_over_clear(temporary, words, n, SortOrder::ascending, false);
  expect_sorted_over_clear(temporary, make_keys<std::uint64_t>(30000, Dist::uniform, rng), 30000,
                           SortOrder::descending, true);
  for (auto& k : words) k &= 0x00FF00FFu;  // passes 1 and 3 skipped
  expect_sorted_over_clear(temporary, words, 12345, SortOrder::ascending, true);
  expect_sorted_over_clear(temporary, make_keys<float>(n, Dist::uniform, rng), n, SortOrder::descending, false);
  expect_sorted_over_clear(temporary, make_keys<std::uint32_t>(n, Dist::uniform, rng), n, SortOrder::ascending, true);
}

// Marked clear but full of stale words, the temporary buffer's counters do not add up: the sort
// must run no pass (the keys stay as they were, and nothing is written out of bounds, which the
// validation layer would report), and sort again once the buffer is zero-filled.
TEST_P(RadixSortTest, LeavesTheKeysAloneOverATemporaryBufferWronglyMarkedClear) {
  auto rng = rng_for_current_test();
  const auto input = make_keys<std::uint32_t>(40000, Dist::uniform, rng);
  const SortDesc desc{KeyType::u32, ValueType::u32, input.size(), options()};
  Buffer temporary = ctx().create_buffer(temporary_bytes(desc));
  for (std::uint32_t stale : {0xFFFFFFFFu, 0x00000001u, 0x9E3779B9u}) {
    ctx().run([&](Recorder& r) { r.fill_buffer(temporary.handle(), 0, VK_WHOLE_SIZE, stale); });
    const auto [keys, values] = sort_over_clear(temporary, input, input.size(), SortOrder::ascending, true);
    ASSERT_EQ(keys, input) << std::hex << "stale word " << stale;
    ctx().run([&](Recorder& r) { r.fill_buffer(temporary.handle(), 0, VK_WHOLE_SIZE, 0); });
    expect_sorted_over_clear(temporary, input, input.size(), SortOrder::ascending, true);
  }
}

// An H100 as the radix sort's tuning sees it (no device needed): NVIDIA's size-dependent tiles.
DeviceInfo nvidia_like_device() {
  DeviceInfo d;
  d.name = "NVIDIA H100 80GB HBM3 (described)";
  d.vendor_id = sorting::kVendorNvidia;
  d.type = DeviceType::discrete_gpu;
  d.subgroup_size = d.min_subgroup_size = d.max_subgroup_size = 32;
  d.shared_memory_bytes = 49152;
  d.max_workgroup_invocations = 1024;
  d.max_workgroup_size = {1024, 1024, 64};
  d.max_workgroup_count = {2147483647u, 65535, 65535};
  d.subgroup_operations = {"basic", "vote", "arithmetic", "ballot", "shuffle"};
  d.vulkan_memory_model_device_scope = true;
  return d;
}

// record_sort plans a sort for the count it is given, so the temporary bytes for a max_count must
// cover every count below it: the query may not shrink as max_count grows, although NVIDIA's
// smaller tiles for small counts need larger look-back tables than the first sizes of the next
// tile class (2^18 keys in 3,072-key tiles against 2^18 + 1 in 8,192-key tiles).
TEST(RadixTemporaryBytes, NeverShrinkAsMaxCountGrows) {
  const DeviceInfo device = nvidia_like_device();
  for (KeyType key : {KeyType::u32, KeyType::u64}) {
    for (ValueType value : {ValueType::none, ValueType::u32, ValueType::u64}) {
      std::uint64_t previous = 0;
      for (std::uint64_t base : {std::uint64_t{1} << 18, std::uint64_t{1} << 22}) {
        for (std::uint64_t n = base - 2; n <= base + 2; ++n) {
          SortDesc desc{key, value, n, {}};
          desc.options.algorithm = SortAlgorithm::radix;
          const std::uint64_t bytes = sorting::device_bytes(device, desc).temporary;
          EXPECT_GE(bytes, previous) << to_string(key) << " keys, value bytes " << value_bytes(value) << ", n=" << n;
          previous = bytes;
        }
      }
    }
  }
}

const RadixVariant kDeviceClassPolicy{"DeviceClass", {}, [](const sorting::RadixPolicy&) { return true; }};

#ifdef VKC_RADIX_VARIANTS
#include "sort/radix_variants.inc"
#else
INSTANTIATE_TEST_SUITE_P(Scan, RadixSortTest,
                         ::testing::Values(RadixCase{RadixScan::lookback, &kDeviceClassPolicy},
                                           RadixCase{RadixScan::reduce_then_scan, &kDeviceClassPolicy}),
                         radix_case_name);

class RadixLimits : public GpuTest {};

TEST_F(RadixLimits, LookbackRefusesCountsFromTwoToTheThirty) {
  SortDesc desc{KeyType::u32, ValueType::none, 1ull << 30, {}};
  desc.options.algorithm = SortAlgorithm::radix;
  desc.options.radix_scan = RadixScan::lookback;
  EXPECT_THROW(sort_temporary_bytes(ctx(), desc), Error);
  desc.options.radix_scan = RadixScan::reduce_then_scan;
  EXPECT_GT(sort_temporary_bytes(ctx(), desc), (1ull << 30) * 4);
}

#endif
}  // namespace
}  // namespace vkc::test
