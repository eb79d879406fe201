// The host path of the convenient sort functions: buffers and staging reused across calls of
// every size and kind, the staged and imported paths each forced, streamed arrays, and memory
// released on request. References: std::stable_sort under the order contract (reference.hpp).
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>

#include "sort/reference.hpp"
#include "support/gpu_test.hpp"
#include "vkc/sort.hpp"

namespace vkc::test {
namespace {

// A Context of its own (the shared one keeps the default options), validated as the shared one.
class HostPathTest : public GpuTest {
 protected:
  Context& own(HostTransferOptions transfer) {
    ContextOptions options;
    options.quiet = true;
    options.host_transfer = transfer;
    own_ = std::make_unique<Context>(options);
    return *own_;
  }
  void TearDown() override {
    if (own_) {
      for (const std::string& m : own_->take_validation_messages()) ADD_FAILURE() << "validation layer: " << m;
    }
    GpuTest::TearDown();
  }

  template <class T>
  void expect_sorts(Context& ctx, std::size_t n, SortOrder order = SortOrder::ascending) {
    auto rng = rng_for_current_test();
    rng.discard(n);
    const auto input = make_keys<T>(n, Dist::uniform, rng);
    auto keys = input;
    sort(ctx, std::span(keys), {.order = order});
    EXPECT_TRUE(keys_sorted(input, keys, order)) << n << " keys";
  }

  template <class K, class V>
  void expect_sorts_pairs(Context& ctx, std::size_t n) {
    auto rng = rng_for_current_test();
    const auto input = make_keys<K>(n, Dist::few, rng);
    auto keys = input;
    std::vector<V> values(n);
    for (std::uint32_t i = 0; i < n; ++i) values[i] = value_for<V>(i);
    sort_pairs(ctx, std::span(keys), std::span(values), {.algorithm = SortAlgorithm::radix});
    EXPECT_TRUE(pairs_sorted(input, keys, values, SortOrder::ascending, true)) << n << " pairs";
  }

  std::unique_ptr<Context> own_;
};

TEST_F(HostPathTest, CallsOfGrowingShrinkingAndMixedKindsOnOneContextAreEachCorrect) {
  Context& c = ctx();
  expect_sorts<std::uint32_t>(c, 1000);
  expect_sorts_pairs<std::uint64_t, std::uint32_t>(c, 70001);
  expect_sorts<double>(c, 300, SortOrder::descending);
  expect_sorts<std::uint32_t>(c, 200003);
  auto rng = rng_for_current_test();
  const auto floats = make_keys<float>(5000, Dist::special, rng);
  EXPECT_TRUE(permutation_sorts(floats, argsort(c, std::span(floats)), SortOrder::ascending, true));
  expect_sorts_pairs<std::int32_t, std::uint64_t>(c, 4099);
  expect_sorts<std::int64_t>(c, 1);
}

// Arrays in the Context's pinned memory are copied by the device alone, each way on its own:
// in place, from pinned into pageable memory and back, pairs and argsort, and a range that
// starts inside a block; nothing of them is staged, and pageable arrays still are.
TEST_F(HostPathTest, PinnedArraysMoveWithoutStagingEitherWay) {
  Context& c = own({});
  constexpr std::size_t n = 300007;  // past the one-submission size: the lanes' path otherwise
  auto rng = rng_for_current_test();
  const auto input = make_keys<std::uint32_t>(n, Dist::uniform, rng);
  PinnedMemory pinned = c.allocate_pinned((n + 16) * sizeof(std::uint32_t));
  auto* keys = static_cast<std::uint32_t*>(pinned.data()) + 16;  // inside the block, not at its start
  std::copy(input.begin(), input.end(), keys);
  const HostTransferStats before = c.host_transfer_stats();
  sort(c, std::span(keys, n));
  EXPECT_TRUE(keys_sorted(input, std::vector<std::uint32_t>(keys, keys + n), SortOrder::ascending));
  const HostTransferStats in_place = c.host_transfer_stats();
  EXPECT_EQ(in_place.staged_bytes, before.staged_bytes);
  EXPECT_EQ(in_place.imported_bytes - before.imported_bytes, 2 * n * sizeof(std::uint32_t));

  std::vector<std::uint32_t> pageable(n);
  sort_to(c, KeyType::u32, input.data(), keys, n, {.order = SortOrder::descending});  // pageable in, pinned out
  EXPECT_TRUE(keys_sorted(input, std::vector<std::uint32_t>(keys, keys + n), SortOrder::descending));
  sort_to(c, KeyType::u32, keys, pageable.data(), n, {});  // pinned in, pageable out
  EXPECT_TRUE(keys_sorted(input, pageable, SortOrder::ascending));
  const HostTransferStats mixed = c.host_transfer_stats();
  EXPECT_EQ(mixed.staged_bytes - in_place.staged_bytes, 2 * n * sizeof(std::uint32_t));
  EXPECT_EQ(mixed.imported_bytes - in_place.imported_bytes, 2 * n * sizeof(std::uint32_t));

  std::copy(input.begin(), input.end(), keys);
  PinnedMemory indices = c.allocate_pinned(n * sizeof(std::uint64_t));
  argsort64_to(c, KeyType::u32, keys, static_cast<std::uint64_t*>(indices.data()), n, {});
  const auto* order = static_cast<const std::uint64_t*>(indices.data());
  EXPECT_TRUE(permutation_sorts(input, std::vector<std::uint32_t>(order, order + n), SortOrder::ascending, true));
  std::vector<std::uint32_t> values(n);
  for (std::uint32_t i = 0; i < n; ++i) values[i] = value_for<std::uint32_t>(i);
  sort_pairs(c, std::span(keys, n), std::span(values));  // pinned keys, pageable values
  EXPECT_TRUE(pairs_sorted(input, std::vector<std::uint32_t>(keys, keys + n), values, SortOrder::ascending, true));
  EXPECT_FALSE(PinnedMemory{});
}

TEST_F(HostPathTest, PinnedMemoryThatOutlivesItsContextFreesNothing) {
  PinnedMemory kept;
  {
    Context& c = own({});
    kept = c.allocate_pinned(1000);
    std::memset(kept.data(), 0, 1000);
    own_.reset();  // frees the block with the device
  }
  EXPECT_TRUE(kept);  // its destructor must not touch the device that is gone
}

TEST_F(HostPathTest, ASmallSortAfterALargeOneSeesOnlyItsOwnKeys) {
  Context& c = ctx();
  std::vector<std::uint32_t> large(150000, 7u);  // every stale word a 7 the small sort would show
  sort(c, std::span(large));
  std::vector<std::uint32_t> small = {900, 3, 500};
  sort(c, std::span(small), {.algorithm = SortAlgorithm::radix});
  EXPECT_EQ(small, (std::vector<std::uint32_t>{3, 500, 900}));
  std::vector<std::uint32_t> small_values = {1, 2, 3};
  std::vector<std::uint32_t> small_keys = {30, 10, 20};
  sort_pairs(c, std::span(small_keys), std::span(small_values));
  EXPECT_EQ(small_values, (std::vector<std::uint32_t>{2, 3, 1}));
}

TEST_F(HostPathTest, ReusedBuffersServeTheNextCallWithoutNewAllocations) {
  Context& c = own({});
  expect_sorts<std::uint32_t>(c, 100000);
  const HostTransferStats after_first = c.host_transfer_stats();
  EXPECT_GT(after_first.reusable_bytes, 100000u * 4);
  expect_sorts<std::uint32_t>(c, 60000);
  EXPECT_EQ(c.host_transfer_stats().reusable_bytes, after_first.reusable_bytes) << "a smaller sort reallocated";
  EXPECT_EQ(c.host_transfer_stats().staging_bytes, after_first.staging_bytes);
}

TEST_F(HostPathTest, StagedPathMovesEveryByteThroughStaging) {
  // Chunks of 64 KiB over two lanes: many turns of each lane's two staging buffers.
  Context& c = own({.path = HostPath::staged, .threads = 2, .chunk_bytes = 64 << 10});
  const std::size_t n = 300001;
  expect_sorts<std::uint32_t>(c, n);
  const HostTransferStats stats = c.host_transfer_stats();
  EXPECT_EQ(stats.imported_bytes, 0u);
  EXPECT_EQ(stats.staged_bytes, 2 * n * 4) << "keys up, keys down, and nothing else";
  EXPECT_EQ(stats.staging_bytes, 2 * 2 * (64u << 10));
}

TEST_F(HostPathTest, ImportedPathCopiesStraightFromTheCallersMemory) {
  Context& c = own({.path = HostPath::imported});
  ASSERT_NE(c.info().host_import_alignment, 0u) << "the device offers no VK_EXT_external_memory_host";
  const HostTransferStats before = c.host_transfer_stats();
  // Keys that start 4 bytes into an allocation: the import covers whole aligned pages.
  auto rng = rng_for_current_test();
  const auto input = make_keys<std::uint32_t>(100000, Dist::uniform, rng);
  std::vector<std::uint32_t> storage(input.size() + 1);
  std::memcpy(storage.data() + 1, input.data(), input.size() * 4);
  sort(c, std::span(storage).subspan(1));
  EXPECT_TRUE(keys_sorted(input, std::vector(storage.begin() + 1, storage.end()), SortOrder::ascending));
  const HostTransferStats stats = c.host_transfer_stats();
  EXPECT_EQ(stats.imported_bytes - before.imported_bytes, 2 * input.size() * 4);
  EXPECT_EQ(stats.staged_bytes, before.staged_bytes);
  expect_sorts_pairs<std::uint32_t, std::uint64_t>(c, 5000);
  auto floats = make_keys<float>(3000, Dist::special, rng);
  EXPECT_TRUE(permutation_sorts(floats, argsort(c, std::span<const float>(floats)), SortOrder::ascending, true));
}

TEST_F(HostPathTest, StreamedSortReadsTheInputAndWritesEveryOutputByteOnce) {
  Context& c = own({.threads = 3, .chunk_bytes = 64 << 10});
  auto rng = rng_for_current_test();
  const auto input = make_keys<std::int64_t>(70000, Dist::uniform, rng);
  const auto pristine = input;
  std::vector<std::int64_t> output(input.size());
  std::vector<std::atomic<int>> writes(input.size() * 8);
  const HostRead read = [&](std::uint64_t offset, void* dst, std::uint64_t bytes) {
    std::memcpy(dst, reinterpret_cast<const std::byte*>(input.data()) + offset, bytes);
  };
  const HostWrite write = [&](std::uint64_t offset, const void* src, std::uint64_t bytes) {
    std::memcpy(reinterpret_cast<std::byte*>(output.data()) + offset, src, bytes);
    for (std::uint64_t i = offset; i < offset + bytes; ++i) ++writes[i];
  };
  sort_streamed(c, KeyType::i64, read, write, input.size());
  EXPECT_TRUE(keys_sorted(input, output, SortOrder::ascending));
  EXPECT_EQ(input, pristine);
  for (std::size_t i = 0; i < writes.size(); ++i) ASSERT_EQ(writes[i], 1) << "byte " << i;
}

TEST_F(HostPathTest, AReaderThatThrowsEndsTheSortAndTheContextSortsAfterwards) {
  Context& c = own({.threads = 2, .chunk_bytes = 64 << 10});
  const HostRead failing = [](std::uint64_t offset, void*, std::uint64_t) {
    if (offset > 0) throw std::runtime_error("disk on fire");
  };
  const HostWrite unused = [](std::uint64_t, const void*, std::uint64_t) { ADD_FAILURE() << "wrote after a failure"; };
  EXPECT_THROW(
      {
        try {
          sort_streamed(c, KeyType::u32, failing, unused, 100000);
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "disk on fire");
          throw;
        }
      },
      std::runtime_error);
  expect_sorts<std::uint32_t>(c, 100000);
}

TEST_F(HostPathTest, AWriterThatThrowsEndsTheSortAndTheContextSortsAfterwards) {
  Context& c = own({.threads = 2, .chunk_bytes = 64 << 10});
  std::vector<std::uint32_t> input(100000, 5);
  const HostRead read = [&](std::uint64_t offset, void* dst, std::uint64_t bytes) {
    std::memcpy(dst, reinterpret_cast<const std::byte*>(input.data()) + offset, bytes);
  };
  const HostWrite failing = [](std::uint64_t offset, const void*, std::uint64_t) {
    if (offset > 0) throw std::runtime_error("disk full");
  };
  EXPECT_THROW(sort_streamed(c, KeyType::u32, read, failing, input.size()), std::runtime_error);
  expect_sorts<std::uint32_t>(c, 100000);
}

TEST_F(HostPathTest, ReleasedMemoryIsGoneAndComesBackOnTheNextSort) {
  Context& c = own({});
  expect_sorts<std::uint64_t>(c, 50000);
  ASSERT_GT(c.host_transfer_stats().staging_bytes, 0u);
  c.release_cached_memory();
  EXPECT_EQ(c.host_transfer_stats().staging_bytes, 0u);
  EXPECT_EQ(c.host_transfer_stats().reusable_bytes, 0u);
  expect_sorts<std::uint64_t>(c, 50000);
}

TEST_F(HostPathTest, UploadAndDownloadOfManyChunksAtOffsetsRoundTrip) {
  Context& c = own({.threads = 3, .chunk_bytes = 64 << 10});
  std::vector<std::uint8_t> data(1 << 20 | 12345);
  auto rng = rng_for_current_test();
  for (auto& b : data) b = static_cast<std::uint8_t>(rng());
  Buffer buffer = c.create_buffer(data.size() + 100);
  c.upload(buffer, data.data(), data.size(), 100);
  std::vector<std::uint8_t> back(data.size());
  c.download(buffer, back.data(), back.size(), 100);
  EXPECT_EQ(back, data);
}

}  // namespace
}  // namespace vkc::test
