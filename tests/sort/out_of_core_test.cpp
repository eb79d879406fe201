// Host arrays larger than the device may hold at once: a Context capped at a few hundred KiB of
// device memory sorts arrays several times that size by partitioning them on the host. The
// result must be the in-memory sort's exactly: std::stable_sort under the order contract
// (reference.hpp), stability included.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <mutex>
#include <thread>

#include "sort/host_sort.hpp"
#include "sort/reference.hpp"
#include "support/gpu_test.hpp"
#include "vkc/sort.hpp"

namespace vkc::test {
namespace {

constexpr std::uint64_t kDeviceMemoryLimit = 256 << 10;

class OutOfCoreTest : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    ContextOptions options;
    options.quiet = true;
    options.device_memory_limit = kDeviceMemoryLimit;
    options.host_transfer = {.threads = 3, .chunk_bytes = 64 << 10};
    capped_ = std::make_unique<Context>(options);
  }
  void TearDown() override {
    for (const std::string& m : capped_->take_validation_messages()) ADD_FAILURE() << "validation layer: " << m;
    GpuTest::TearDown();
  }

  // The sort could not have held the arrays at once, and held no more than the limit.
  void expect_partitioned(std::uint64_t array_bytes) {
    EXPECT_GT(array_bytes, kDeviceMemoryLimit) << "the test's arrays fit the device: nothing was partitioned";
    EXPECT_LE(capped_->host_transfer_stats().reusable_bytes, kDeviceMemoryLimit);
  }

  template <class T>
  void expect_sorts(std::size_t n, Dist dist, SortOrder order) {
    auto rng = rng_for_current_test();
    const auto input = make_keys<T>(n, dist, rng);
    auto keys = input;
    sort(*capped_, std::span(keys), {.order = order});
    EXPECT_TRUE(keys_sorted(input, keys, order)) << n << " " << dist_name(dist) << " keys";
    expect_partitioned(n * sizeof(T));
  }

  template <class K, class V>
  void expect_sorts_pairs(std::size_t n, Dist dist, SortOrder order) {
    auto rng = rng_for_current_test();
    const auto input = make_keys<K>(n, dist, rng);
    auto keys = input;
    std::vector<V> values(n);
    for (std::uint32_t i = 0; i < n; ++i) values[i] = value_for<V>(i);
    sort_pairs(*capped_, std::span(keys), std::span(values), {.algorithm = SortAlgorithm::radix, .order = order});
    EXPECT_TRUE(pairs_sorted(input, keys, values, order, true)) << n << " " << dist_name(dist) << " pairs";
    expect_partitioned(n * (sizeof(K) + sizeof(V)));
  }

  std::unique_ptr<Context> capped_;
};

TEST_F(OutOfCoreTest, EveryKeyTypeInBothOrdersIsTheInMemorySort) {
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    expect_sorts<std::uint32_t>(150001, Dist::uniform, order);
    expect_sorts<std::int32_t>(150001, Dist::uniform, order);
    expect_sorts<float>(150001, Dist::special, order);
    expect_sorts<std::uint64_t>(70001, Dist::uniform, order);
    expect_sorts<std::int64_t>(70001, Dist::special, order);
    expect_sorts<double>(70001, Dist::special, order);
  }
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

TEST_F(OutOfCoreTest, EveryDistributionInBothOrdersIsTheInMemorySort) {
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    for (Dist dist : {Dist::sorted, Dist::reverse, Dist::equal, Dist::nearly_sorted}) {
      expect_sorts<std::uint32_t>(100001, dist, order);
      expect_sorts<double>(50001, dist, order);
    }
  }
}

TEST_F(OutOfCoreTest, KeysDecidedByTheirLeadingOrTrailingBitsOrTwoValues) {
  // sort_pairs with `automatic`: stable, as in memory at this count, though a part may be small
  // enough for bitonic.
  auto rng = rng_for_current_test();
  for (const std::string shape : {"leading bits", "trailing bits", "two values"}) {
    for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
      const auto input32 = shaped_keys<float>(100001, shape, rng);
      auto keys32 = input32;
      std::vector<std::uint32_t> values(keys32.size());
      for (std::uint32_t i = 0; i < values.size(); ++i) values[i] = value_for<std::uint32_t>(i);
      sort_pairs(*capped_, std::span(keys32), std::span(values), {.order = order});
      EXPECT_TRUE(pairs_sorted(input32, keys32, values, order, true)) << shape;
      const auto input64 = shaped_keys<std::int64_t>(50001, shape, rng);
      auto keys64 = input64;
      sort(*capped_, std::span(keys64), {.order = order});
      EXPECT_TRUE(keys_sorted(input64, keys64, order)) << shape;
    }
  }
}

TEST_F(OutOfCoreTest, CountsAroundTheCapacityAndAnEqualBucketAroundIt) {
  const std::uint64_t capacity = sorting::in_core_capacity(*capped_, {KeyType::u32, ValueType::u64, 1, {}});
  ASSERT_GT(capacity, 1000u);
  auto rng = rng_for_current_test();
  for (std::uint64_t n : {std::uint64_t{0}, std::uint64_t{1}, capacity - 1, capacity, capacity + 1, 3 * capacity + 1}) {
    for (Dist dist : {Dist::uniform, Dist::equal}) {
      const auto input = make_keys<std::uint32_t>(n, dist, rng);
      auto keys = input;
      std::vector<std::uint64_t> values(n);
      for (std::uint32_t i = 0; i < n; ++i) values[i] = value_for<std::uint64_t>(i);
      sort_pairs(*capped_, std::span(keys), std::span(values));
      EXPECT_TRUE(pairs_sorted(input, keys, values, SortOrder::ascending, true)) << n << " " << dist_name(dist);
    }
  }
}

TEST_F(OutOfCoreTest, PairsOfBothValueWidthsKeepTheirValuesInInputOrder) {
  expect_sorts_pairs<std::uint32_t, std::uint32_t>(120001, Dist::uniform, SortOrder::ascending);
  expect_sorts_pairs<float, std::uint64_t>(60001, Dist::special, SortOrder::descending);
  // Four distinct keys: every bucket too large to sort at once, down to single key values.
  expect_sorts_pairs<std::int64_t, std::uint32_t>(60001, Dist::few, SortOrder::ascending);
}

TEST_F(OutOfCoreTest, AllKeysEqualStayInInputOrder) {
  expect_sorts_pairs<std::uint64_t, std::uint64_t>(40001, Dist::equal, SortOrder::descending);
  expect_sorts<std::uint32_t>(100001, Dist::equal, SortOrder::ascending);
}

TEST_F(OutOfCoreTest, KeysSharingTheirLeadingBitsAreSplitByTheNextOnes) {
  // One bucket of the leading 16 bits holds every key; the next 16 bits spread them.
  auto rng = rng_for_current_test();
  std::vector<std::uint32_t> input(150001);
  for (auto& k : input) k = 0xABCD0000u | static_cast<std::uint32_t>(rng() & 0xFFFF);
  auto keys = input;
  sort(*capped_, std::span(keys));
  EXPECT_TRUE(keys_sorted(input, keys, SortOrder::ascending));
  expect_partitioned(input.size() * 4);
}

TEST_F(OutOfCoreTest, ArgsortGivesTheStablePermutationAtBothIndexWidths) {
  auto rng = rng_for_current_test();
  const auto input = make_keys<float>(100001, Dist::few, rng);
  EXPECT_TRUE(permutation_sorts(input, argsort(*capped_, std::span<const float>(input)), SortOrder::ascending, true));
  const std::vector<std::uint64_t> wide = argsort64(*capped_, std::span<const float>(input), {.order = SortOrder::descending});
  std::vector<std::uint32_t> narrowed(wide.begin(), wide.end());
  for (std::size_t i = 0; i < wide.size(); ++i) ASSERT_EQ(narrowed[i], wide[i]) << "index " << i << " is not 32-bit";
  EXPECT_TRUE(permutation_sorts(input, narrowed, SortOrder::descending, true));
  expect_partitioned(input.size() * 8);
}

TEST_F(OutOfCoreTest, StreamedArraysAreReadOnceForEachPassAndWrittenOnce) {
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
  sort_streamed(*capped_, KeyType::i32, read, write, input.size(), {.order = SortOrder::descending});
  EXPECT_TRUE(keys_sorted(input, output, SortOrder::descending));
  for (std::size_t i = 0; i < writes.size(); ++i) ASSERT_EQ(writes[i], 1) << "byte " << i;
  expect_partitioned(input.size() * 4);
}

TEST_F(OutOfCoreTest, ProgressRisesFromNothingToAllOnTheCallingThread) {
  std::vector<SortProgress> seen;
  const auto caller = std::this_thread::get_id();
  const SortOptions options{.progress = [&](const SortProgress& p) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    seen.push_back(p);
  }};
  std::vector<std::uint32_t> large(150001, 9), small(1000, 9);
  sort(*capped_, std::span(large), options);
  ASSERT_GE(seen.size(), 4u) << "a partitioned sort reports each pass";
  EXPECT_EQ(seen.front().done, 0u);
  EXPECT_EQ(seen.back().done, seen.back().total);
  EXPECT_EQ(seen.back().total, 3 * large.size());
  for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i].done, seen[i - 1].done);
  seen.clear();
  sort(*capped_, std::span(small), options);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].done, 0u);
  EXPECT_EQ(seen[1].done, small.size());
  EXPECT_EQ(seen[1].total, small.size());
}

TEST_F(OutOfCoreTest, KeysPastTheStorageRangeSortWithoutALimit) {
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

TEST_F(OutOfCoreTest, ALimitTooSmallForOneElementIsAnError) {
  ContextOptions options;
  options.quiet = true;
  options.device_memory_limit = 64;
  Context tiny(options);
  std::vector<std::uint64_t> keys = {3, 1, 2};
  EXPECT_THROW(sort(tiny, std::span(keys)), Error);
}

TEST_F(OutOfCoreTest, TheLimitComesFromTheEnvironmentWhenTheOptionIsUnset) {
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

TEST_F(OutOfCoreTest, ThirtyTwoBitArgsortRefusesCountsItCannotNumber) {
  const std::uint64_t too_many = std::uint64_t{1} << 32;
  EXPECT_THROW(argsort(*capped_, KeyType::u32, nullptr, too_many), Error);
  const HostRead never = [](std::uint64_t, void*, std::uint64_t) { ADD_FAILURE() << "read keys it cannot number"; };
  const HostWrite unused = [](std::uint64_t, const void*, std::uint64_t) {};
  EXPECT_THROW(argsort_streamed(*capped_, KeyType::u32, never, unused, too_many), Error);
}

}  // namespace
}  // namespace vkc::test
