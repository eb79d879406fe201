// Host arrays larger than the device may hold at once: the sort does them in runs and merges
// the runs by parts. Each test runs twice: with a Context capped at 256 KiB of device memory,
// below the arrays themselves, so that the runs wait in host memory; and with a cap a little above
// each array (8/5 of it), below what one in-core sort needs, so that they stay on the device.
// The result must be the in-memory sort's exactly: std::stable_sort under the order contract
// (reference.hpp), stability included.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <mutex>
#include <thread>

#include "core/state.hpp"
#include "sort/algorithm.hpp"
#include "sort/host_sort.hpp"
#include "sort/record.hpp"
#include "sort/reference.hpp"
#include "support/gpu_test.hpp"
#include "vkc/sort.hpp"

namespace vkc::test {
namespace {

constexpr std::uint64_t kHostRunsLimit = 256 << 10;

enum class Runs { in_host_memory, on_device };

class OutOfCoreTest : public GpuTest, public ::testing::WithParamInterface<Runs> {
 protected:
  void TearDown() override {
    for (auto& c : contexts_) {
      for (const std::string& m : c->take_validation_messages()) ADD_FAILURE() << "validation layer: " << m;
    }
    GpuTest::TearDown();
  }

  // A Context on which a sort of `n` elements of `desc`'s types is partitioned, its runs where
  // the test's parameter says.
  Context& context_for(SortDesc desc, std::uint64_t n) {
    desc.max_count = n;
    const std::uint64_t bytes = n * (key_bytes(desc.key_type) + value_bytes(desc.value_type));
    ContextOptions options;
    options.quiet = true;
    options.device_memory_limit = GetParam() == Runs::in_host_memory ? kHostRunsLimit : bytes * 8 / 5;
    options.host_transfer = {.threads = 3, .chunk_bytes = 64 << 10};
    contexts_.push_back(std::make_unique<Context>(options));
    Context& ctx = *contexts_.back();
    last_ = {desc, bytes, options.device_memory_limit};
    return ctx;
  }
  template <class K>
  Context& context_for(std::uint64_t n, ValueType values = ValueType::none) {
    return context_for({key_type_of<K>(), values, 0, {}}, n);
  }

  // The last context_for's sort could not have held the arrays at once, held no more than its
  // limit, and kept its runs where the parameter says: on the device, every byte crossed the
  // bus once each way (and a little for the samples), not twice.
  void expect_partitioned() {
    const auto& [desc, bytes, limit] = last_;
    Context& ctx = *contexts_.back();
    if (desc.max_count > 0) {
      EXPECT_LT(sorting::in_core_capacity(ctx, desc), desc.max_count) << "the arrays fit the device: nothing was partitioned";
    }
    const HostTransferStats stats = ctx.host_transfer_stats();
    EXPECT_LE(stats.reusable_bytes, limit);
    if (GetParam() == Runs::in_host_memory) {
      EXPECT_GT(bytes, limit) << "the runs could have stayed on the device";
    } else {
      EXPECT_LE(stats.staged_bytes, 2 * bytes + bytes / 8) << "the runs went through the host";
    }
  }

  template <class T>
  void expect_sorts(std::size_t n, Dist dist, SortOrder order) {
    auto rng = rng_for_current_test();
    const auto input = make_keys<T>(n, dist, rng);
    auto keys = input;
    sort(context_for<T>(n), std::span(keys), {.order = order});
    EXPECT_TRUE(keys_sorted(input, keys, order)) << n << " " << dist_name(dist) << " keys";
    expect_partitioned();
  }

  template <class K, class V>
  void expect_sorts_pairs(std::size_t n, Dist dist, SortOrder order) {
    auto rng = rng_for_current_test();
    const auto input = make_keys<K>(n, dist, rng);
    auto keys = input;
    std::vector<V> values(n);
    for (std::uint32_t i = 0; i < n; ++i) values[i] = value_for<V>(i);
    sort_pairs(context_for<K>(n, value_type_of<V>()), std::span(keys), std::span(values),
               {.algorithm = SortAlgorithm::radix, .order = order});
    EXPECT_TRUE(pairs_sorted(input, keys, values, order, true)) << n << " " << dist_name(dist) << " pairs";
    expect_partitioned();
  }

  std::vector<std::unique_ptr<Context>> contexts_;
  // The last context_for's sort: its description, its arrays' bytes and its context's limit.
  struct {
    SortDesc desc;
    std::uint64_t bytes = 0, limit = 0;
  } last_;
};

INSTANTIATE_TEST_SUITE_P(Runs, OutOfCoreTest, ::testing::Values(Runs::in_host_memory, Runs::on_device),
                         [](const auto& info) {
                           return std::string(info.param == Runs::on_device ? "OnDevice" : "InHostMemory");
                         });

TEST_P(OutOfCoreTest, EveryKeyTypeInBothOrdersIsTheInMemorySort) {
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    expect_sorts<std::uint32_t>(150001, Dist::uniform, order);
    expect_sorts<std::int32_t>(150001, Dist::uniform, order);
    expect_sorts<float>(150001, Dist::special, order);
    expect_sorts<std::uint64_t>(70001, Dist::uniform, order);
    expect_sorts<std::int64_t>(70001, Dist::special, order);
    expect_sorts<double>(70001, Dist::special, order);
  }
}

TEST_P(OutOfCoreTest, NarrowKeyTypesInBothOrdersAreTheInMemorySort) {
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    expect_sorts<std::uint8_t>(300001, Dist::uniform, order);  // more than the host runs' limit
    expect_sorts<std::int8_t>(300001, Dist::special, order);
    expect_sorts<std::uint16_t>(150001, Dist::uniform, order);
    expect_sorts<std::int16_t>(150001, Dist::special, order);
    expect_sorts<Float16>(150001, Dist::special, order);
    expect_sorts<BFloat16>(150001, Dist::special, order);
  }
}

// A bit range cuts the merge's keys as it cuts the runs' (the run search compares the same bits):
// the result is the in-memory sort by the same range, stable order among equal cuts included.
TEST_P(OutOfCoreTest, ABitRangeIsTheInMemorySortByTheSameRange) {
  auto rng = rng_for_current_test();
  const SortOptions options{.begin_bit = 5, .end_bit = 14};
  const std::vector<std::uint32_t> u32_input = make_keys<std::uint32_t>(150001, Dist::uniform, rng);
  std::vector<std::uint32_t> expected = u32_input, keys = u32_input;
  sort(ctx(), std::span(expected), options);
  sort(context_for<std::uint32_t>(keys.size()), std::span(keys), options);
  EXPECT_EQ(keys, expected);
  expect_partitioned();
  const std::vector<Float16> f16_input = make_keys<Float16>(150001, Dist::special, rng);
  std::vector<Float16> f16_expected = f16_input, f16_keys = f16_input;
  sort(ctx(), std::span(f16_expected), options);
  sort(context_for<Float16>(f16_keys.size()), std::span(f16_keys), options);
  EXPECT_TRUE(std::equal(f16_keys.begin(), f16_keys.end(), f16_expected.begin(),
                         [](Float16 a, Float16 b) { return a.bits == b.bits; }));
  expect_partitioned();
}

// Keys whose order the leading bits alone decide, or the trailing bits alone, or two values only.
template <class T>
std::vector<T> shaped_keys(std::size_t n, const std::string& shape, std::mt19937_64& rng) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  constexpr unsigned kBits = sizeof(T) * 8;
  std::vector<T> keys(n);
  for (auto& key : keys) {
    Bits bits = 0;
    if (shape == "leading bits") bits = static_cast<Bits>(rng() & 0xFF) << (kBits - 8);
    if (shape == "trailing bits") bits = (Bits{0x3C5A} << (kBits - 16)) | static_cast<Bits>(rng() & 0xFF);
    if (shape == "two values") bits = (rng() & 1) ? Bits{0x3C5A} << (kBits - 16) : Bits{7};
    std::memcpy(&key, &bits, sizeof key);
  }
  return keys;
}

TEST_P(OutOfCoreTest, EveryDistributionInBothOrdersIsTheInMemorySort) {
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    for (Dist dist : {Dist::sorted, Dist::reverse, Dist::equal, Dist::nearly_sorted}) {
      expect_sorts<std::uint32_t>(100001, dist, order);
      expect_sorts<double>(50001, dist, order);
    }
  }
}

TEST_P(OutOfCoreTest, KeysDecidedByTheirLeadingOrTrailingBitsOrTwoValues) {
  // sort_pairs with `automatic`: stable, as in memory at this count, though a part may be small
  // enough for bitonic.
  auto rng = rng_for_current_test();
  for (const std::string shape : {"leading bits", "trailing bits", "two values"}) {
    for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
      const auto input32 = shaped_keys<float>(100001, shape, rng);
      auto keys32 = input32;
      std::vector<std::uint32_t> values(keys32.size());
      for (std::uint32_t i = 0; i < values.size(); ++i) values[i] = value_for<std::uint32_t>(i);
      sort_pairs(context_for<float>(keys32.size(), ValueType::u32), std::span(keys32), std::span(values),
                 {.order = order});
      EXPECT_TRUE(pairs_sorted(input32, keys32, values, order, true)) << shape;
      expect_partitioned();
      const auto input64 = shaped_keys<std::int64_t>(50001, shape, rng);
      auto keys64 = input64;
      sort(context_for<std::int64_t>(keys64.size()), std::span(keys64), {.order = order});
      EXPECT_TRUE(keys_sorted(input64, keys64, order)) << shape;
      expect_partitioned();
    }
  }
}

TEST_P(OutOfCoreTest, CountsAroundTheCapacityAndAnEqualBucketAroundIt) {
  // The capacity of one in-core sort under the limit of the largest array here: the counts
  // around it sort in core or in one or two runs, and around three of it in four.
  Context& probe = context_for<std::uint32_t>(60001, ValueType::u64);
  const std::uint64_t capacity = sorting::in_core_capacity(probe, {KeyType::u32, ValueType::u64, 1, {}});
  ASSERT_GT(capacity, 1000u);
  auto rng = rng_for_current_test();
  for (std::uint64_t n : {std::uint64_t{0}, std::uint64_t{1}, capacity - 1, capacity, capacity + 1, 3 * capacity + 1}) {
    for (Dist dist : {Dist::uniform, Dist::equal}) {
      const auto input = make_keys<std::uint32_t>(n, dist, rng);
      auto keys = input;
      std::vector<std::uint64_t> values(n);
      for (std::uint32_t i = 0; i < n; ++i) values[i] = value_for<std::uint64_t>(i);
      sort_pairs(probe, std::span(keys), std::span(values));
      EXPECT_TRUE(pairs_sorted(input, keys, values, SortOrder::ascending, true)) << n << " " << dist_name(dist);
    }
  }
}

TEST_P(OutOfCoreTest, PairsOfBothValueWidthsKeepTheirValuesInInputOrder) {
  expect_sorts_pairs<std::uint32_t, std::uint32_t>(120001, Dist::uniform, SortOrder::ascending);
  expect_sorts_pairs<float, std::uint64_t>(60001, Dist::special, SortOrder::descending);
  // Four distinct keys: every bucket too large to sort at once, down to single key values.
  expect_sorts_pairs<std::int64_t, std::uint32_t>(60001, Dist::few, SortOrder::ascending);
}

TEST_P(OutOfCoreTest, AllKeysEqualStayInInputOrder) {
  expect_sorts_pairs<std::uint64_t, std::uint64_t>(40001, Dist::equal, SortOrder::descending);
  expect_sorts<std::uint32_t>(100001, Dist::equal, SortOrder::ascending);
}

TEST_P(OutOfCoreTest, KeysSharingTheirLeadingBitsAreSplitByTheNextOnes) {
  // One bucket of the leading 16 bits holds every key; the next 16 bits spread them.
  auto rng = rng_for_current_test();
  std::vector<std::uint32_t> input(150001);
  for (auto& k : input) k = 0xABCD0000u | static_cast<std::uint32_t>(rng() & 0xFFFF);
  auto keys = input;
  sort(context_for<std::uint32_t>(keys.size()), std::span(keys));
  EXPECT_TRUE(keys_sorted(input, keys, SortOrder::ascending));
  expect_partitioned();
}

TEST_P(OutOfCoreTest, ArgsortGivesTheStablePermutationAtBothIndexWidths) {
  auto rng = rng_for_current_test();
  const auto input = make_keys<float>(100001, Dist::few, rng);
  Context& narrow = context_for<float>(input.size(), ValueType::u32);
  EXPECT_TRUE(permutation_sorts(input, argsort(narrow, std::span<const float>(input)), SortOrder::ascending, true));
  expect_partitioned();
  Context& wide_context = context_for<float>(input.size(), ValueType::u64);
  const std::vector<std::uint64_t> wide =
      argsort64(wide_context, std::span<const float>(input), {.order = SortOrder::descending});
  std::vector<std::uint32_t> narrowed(wide.begin(), wide.end());
  for (std::size_t i = 0; i < wide.size(); ++i) ASSERT_EQ(narrowed[i], wide[i]) << "index " << i << " is not 32-bit";
  EXPECT_TRUE(permutation_sorts(input, narrowed, SortOrder::descending, true));
  expect_partitioned();
}

TEST_P(OutOfCoreTest, StreamedArraysAreReadOnceForEachPassAndWrittenOnce) {
  auto rng = rng_for_current_test();
  const auto input = make_keys<std::int32_t>(150001, Dist::uniform, rng);
  std::vector<std::int32_t> output(input.size());
  std::vector<int> writes(input.size() * 4);
  const HostRead read = [&](std::uint64_t offset, void* dst, std::uint64_t bytes) {
    std::memcpy(dst, reinterpret_cast<const std::byte*>(input.data()) + offset, bytes);
  };
  std::mutex mutex;
  const HostWrite write = [&](std::uint64_t offset, const void* src, std::uint64_t bytes) {
    std::memcpy(reinterpret_cast<std::byte*>(output.data()) + offset, src, bytes);
    const std::lock_guard lock(mutex);
    for (std::uint64_t i = offset; i < offset + bytes; ++i) ++writes[i];
  };
  sort_streamed(context_for<std::int32_t>(input.size()), KeyType::i32, read, write, input.size(),
                {.order = SortOrder::descending});
  EXPECT_TRUE(keys_sorted(input, output, SortOrder::descending));
  for (std::size_t i = 0; i < writes.size(); ++i) ASSERT_EQ(writes[i], 1) << "byte " << i;
  expect_partitioned();
}

TEST_P(OutOfCoreTest, ProgressRisesFromNothingToAllOnTheCallingThread) {
  std::vector<SortProgress> seen;
  const auto caller = std::this_thread::get_id();
  const SortOptions options{.progress = [&](const SortProgress& p) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    seen.push_back(p);
  }};
  std::vector<std::uint32_t> large(150001, 9), small(1000, 9);
  Context& capped = context_for<std::uint32_t>(large.size());
  sort(capped, std::span(large), options);
  ASSERT_GE(seen.size(), 4u) << "a partitioned sort reports each pass";
  EXPECT_EQ(seen.front().done, 0u);
  EXPECT_EQ(seen.back().done, seen.back().total);
  EXPECT_EQ(seen.back().total, 2 * large.size());
  for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i].done, seen[i - 1].done);
  seen.clear();
  sort(capped, std::span(small), options);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].done, 0u);
  EXPECT_EQ(seen[1].done, small.size());
  EXPECT_EQ(seen[1].total, small.size());
}

// The limit itself, the 32-bit argsort's bound, and an array past the storage range on an uncapped
// Context.
using OutOfCoreLimits = GpuTest;

TEST_F(OutOfCoreLimits, KeysPastTheStorageRangeSortWithoutALimit) {
  // One more key than a buffer of the device's storage range holds (lavapipe: 128 MiB).
  const std::uint64_t n = ctx().info().max_storage_buffer_range / 4 + 1;
  if (n > (std::uint64_t{1} << 26)) GTEST_SKIP() << "this device's storage range holds " << n - 1 << " keys";
  auto rng = rng_for_current_test();
  const auto input = make_keys<std::uint32_t>(n, Dist::uniform, rng);
  auto keys = input;
  sort(ctx(), std::span(keys));
  auto expected = input;
  std::sort(expected.begin(), expected.end());
  EXPECT_TRUE(keys == expected);
}

TEST_F(OutOfCoreLimits, ALimitTooSmallForOneElementIsAnError) {
  ContextOptions options;
  options.quiet = true;
  options.device_memory_limit = 64;
  Context tiny(options);
  std::vector<std::uint64_t> keys = {3, 1, 2};
  EXPECT_THROW(sort(tiny, std::span(keys)), Error);
}

TEST_F(OutOfCoreLimits, TheLimitComesFromTheEnvironmentWhenTheOptionIsUnset) {
  ContextOptions options;
  options.quiet = true;
  ::setenv("VKC_DEVICE_MEMORY_LIMIT", "200K", 1);
  Context from_env(options);
  auto rng = rng_for_current_test();
  const auto input = make_keys<std::uint32_t>(100001, Dist::uniform, rng);
  auto keys = input;
  sort(from_env, std::span(keys));
  EXPECT_TRUE(keys_sorted(input, keys, SortOrder::ascending));
  EXPECT_LE(from_env.host_transfer_stats().reusable_bytes, 200u << 10);
  for (const char* bad : {"12Q", "-5", "0", "K", "99999999999T"}) {
    ::setenv("VKC_DEVICE_MEMORY_LIMIT", bad, 1);
    EXPECT_THROW(Context{options}, Error) << bad;
  }
  ::unsetenv("VKC_DEVICE_MEMORY_LIMIT");
}

// argsort64 numbers each run's indices from the run's first element; past 2^32 elements (too many
// for this machine) the low word wraps and carries into the high one.
TEST_F(OutOfCoreLimits, RunIndicesPast32BitsCarryIntoTheHighWord) {
  const std::uint64_t first = (std::uint64_t{1} << 32) - 5, n = 1000;
  Buffer indices = ctx().create_buffer(n * 8);
  ctx().run([&](Recorder& r) { sorting::record_iota(detail::compute_device(ctx()), r, indices.handle(), ValueType::u64, n, first); });
  std::vector<std::uint64_t> got(n);
  ctx().download(indices, std::span<std::uint64_t>(got));
  for (std::uint64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], first + i) << "index " << i;
  const std::uint64_t later = (std::uint64_t{7} << 32) + 3;
  ctx().run([&](Recorder& r) { sorting::record_iota(detail::compute_device(ctx()), r, indices.handle(), ValueType::u64, n, later); });
  ctx().download(indices, std::span<std::uint64_t>(got));
  for (std::uint64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], later + i) << "index " << i;
}

TEST_F(OutOfCoreLimits, ThirtyTwoBitArgsortRefusesCountsItCannotNumber) {
  const std::uint64_t too_many = std::uint64_t{1} << 32;
  EXPECT_THROW(argsort(ctx(), KeyType::u32, nullptr, too_many), Error);
  const HostRead never = [](std::uint64_t, void*, std::uint64_t) { ADD_FAILURE() << "read keys it cannot number"; };
  const HostWrite unused = [](std::uint64_t, const void*, std::uint64_t) {};
  EXPECT_THROW(argsort_streamed(ctx(), KeyType::u32, never, unused, too_many), Error);
}

}  // namespace
}  // namespace vkc::test
