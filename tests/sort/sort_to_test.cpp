// sort_to, sort_pairs_to, argsort_to and argsort64_to: the sorts from the caller's arrays into
// others. Each leaves its inputs as they were and gives exactly what the in-place form (sort,
// sort_pairs) or the allocating one (argsort, argsort64) gives, on every route: one submission,
// staged, imported, and out of core with the runs in host memory or on the device. The suites
// are named for the functions (`ctest -R "sort_to|argsort_to"`), so calls are qualified: vkc::.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "sort/host_sort.hpp"
#include "sort/reference.hpp"
#include "support/gpu_test.hpp"
#include "vkc/sort.hpp"

namespace vkc::test {
namespace {

// Sizes for each route: one submission (up to 64 KiB), staged, and past a limit of 256 KiB
// (runs in host memory) or of 8/5 of the arrays (runs on the device).
constexpr std::size_t kOneSubmission = 1000, kStaged = 100003, kOutOfCore = 150001;

class ToArraysTest : public GpuTest {
 protected:
  void TearDown() override {
    for (auto& c : own_) {
      for (const std::string& m : c->take_validation_messages()) ADD_FAILURE() << "validation layer: " << m;
    }
    GpuTest::TearDown();
  }

  Context& own(ContextOptions options) {
    options.quiet = true;
    own_.push_back(std::make_unique<Context>(options));
    return *own_.back();
  }
  // The contexts on which `n` elements of `key` and `value` types sort out of core (runs in host
  // memory, on the device), having checked that one in-core sort could not take them.
  std::vector<Context*> out_of_core_contexts(std::uint64_t n, KeyType key, ValueType value = ValueType::none) {
    const std::uint64_t bytes = n * (key_bytes(key) + value_bytes(value));
    std::vector<Context*> contexts{&own({.device_memory_limit = 256 << 10}), &own({.device_memory_limit = bytes * 8 / 5})};
    for (Context* c : contexts) {
      EXPECT_LT(sorting::in_core_capacity(*c, {key, value, n, {}}), n) << "the arrays fit the device";
    }
    return contexts;
  }

  // sort_to against sort on a copy: the same bytes, and the input untouched.
  template <class T>
  void expect_sort_to_is_sort(Context& c, std::size_t n, Dist dist, SortOrder order) {
    auto rng = rng_for_current_test();
    const std::vector<T> input = make_keys<T>(n, dist, rng);
    std::vector<T> keys = input, sorted(n);
    vkc::sort_to(c, key_type_of<T>(), keys.data(), sorted.data(), n, {.order = order});
    EXPECT_EQ(std::memcmp(keys.data(), input.data(), n * sizeof(T)), 0) << "the input changed";
    EXPECT_TRUE(keys_sorted(input, sorted, order)) << n << " " << dist_name(dist) << " keys";
    vkc::sort(c, std::span(keys), {.order = order});
    EXPECT_EQ(std::memcmp(keys.data(), sorted.data(), n * sizeof(T)), 0) << "sort_to differs from sort";
  }

  template <class K, class V>
  void expect_sort_pairs_to_is_sort_pairs(Context& c, std::size_t n) {
    auto rng = rng_for_current_test();
    const std::vector<K> input = make_keys<K>(n, Dist::few, rng);
    std::vector<V> input_values(n);
    for (std::uint32_t i = 0; i < n; ++i) input_values[i] = value_for<V>(i);
    std::vector<K> keys = input, sorted_keys(n);
    std::vector<V> values = input_values, sorted_values(n);
    const SortOptions radix{.algorithm = SortAlgorithm::radix};
    vkc::sort_pairs_to(c, key_type_of<K>(), keys.data(), sorted_keys.data(), value_type_of<V>(), values.data(),
                       sorted_values.data(), n, radix);
    EXPECT_EQ(std::memcmp(keys.data(), input.data(), n * sizeof(K)), 0) << "the keys changed";
    EXPECT_EQ(values, input_values) << "the values changed";
    EXPECT_TRUE(pairs_sorted(input, sorted_keys, sorted_values, SortOrder::ascending, true)) << n << " pairs";
    vkc::sort_pairs(c, std::span(keys), std::span(values), radix);
    EXPECT_EQ(std::memcmp(keys.data(), sorted_keys.data(), n * sizeof(K)), 0) << "keys differ from sort_pairs'";
    EXPECT_EQ(values, sorted_values) << "values differ from sort_pairs'";
  }

  template <class T>
  void expect_argsorts_to_are_argsorts(Context& c, std::size_t n, SortOrder order) {
    auto rng = rng_for_current_test();
    const std::vector<T> input = make_keys<T>(n, Dist::few, rng);
    std::vector<T> keys = input;
    std::vector<std::uint32_t> narrow(n);
    std::vector<std::uint64_t> wide(n);
    vkc::argsort_to(c, key_type_of<T>(), keys.data(), narrow.data(), n, {.order = order});
    vkc::argsort64_to(c, key_type_of<T>(), keys.data(), wide.data(), n, {.order = order});
    EXPECT_EQ(std::memcmp(keys.data(), input.data(), n * sizeof(T)), 0) << "the keys changed";
    EXPECT_TRUE(permutation_sorts(input, narrow, order, true)) << n << " keys";
    EXPECT_EQ(narrow, vkc::argsort(c, std::span<const T>(keys), {.order = order}));
    EXPECT_EQ(wide, vkc::argsort64(c, std::span<const T>(keys), {.order = order}));
    EXPECT_TRUE(std::equal(wide.begin(), wide.end(), narrow.begin())) << "the widths disagree";
  }

  std::vector<std::unique_ptr<Context>> own_;
};

using sort_to = ToArraysTest;
using argsort_to = ToArraysTest;

TEST_F(sort_to, LeavesTheInputUntouchedAndEqualsSortForEveryKeyType) {
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    for (std::size_t n : {std::size_t{1}, kOneSubmission, kStaged}) {
      expect_sort_to_is_sort<std::uint32_t>(ctx(), n, Dist::uniform, order);
      expect_sort_to_is_sort<std::int32_t>(ctx(), n, Dist::uniform, order);
      expect_sort_to_is_sort<float>(ctx(), n, Dist::special, order);
      expect_sort_to_is_sort<std::uint64_t>(ctx(), n, Dist::uniform, order);
      expect_sort_to_is_sort<std::int64_t>(ctx(), n, Dist::special, order);
      expect_sort_to_is_sort<double>(ctx(), n, Dist::special, order);
    }
  }
}

TEST_F(sort_to, TheSameArrayForBothSortsInPlace) {
  auto rng = rng_for_current_test();
  const std::vector<float> input = make_keys<float>(kStaged, Dist::special, rng);
  std::vector<float> keys = input;
  vkc::sort_to(ctx(), KeyType::f32, keys.data(), keys.data(), keys.size());
  EXPECT_TRUE(keys_sorted(input, keys, SortOrder::ascending));
}

TEST_F(sort_to, NothingToSortTouchesNothing) {
  vkc::sort_to(ctx(), KeyType::u32, nullptr, nullptr, 0);
  vkc::sort_pairs_to(ctx(), KeyType::u32, nullptr, nullptr, ValueType::u32, nullptr, nullptr, 0);
  vkc::argsort_to(ctx(), KeyType::u32, nullptr, nullptr, 0);
  vkc::argsort64_to(ctx(), KeyType::u32, nullptr, nullptr, 0);
}

TEST_F(sort_to, ReadsAndWritesTheCallersMemoryOnTheImportedPath) {
  Context& c = own({.host_transfer = {.path = HostPath::imported}});
  ASSERT_NE(c.info().host_import_alignment, 0u) << "the device offers no VK_EXT_external_memory_host";
  const HostTransferStats before = c.host_transfer_stats();
  expect_sort_to_is_sort<std::int32_t>(c, kStaged, Dist::uniform, SortOrder::descending);
  EXPECT_GT(c.host_transfer_stats().imported_bytes, before.imported_bytes);
  expect_sort_pairs_to_is_sort_pairs<float, std::uint64_t>(c, kStaged);
}

TEST_F(sort_to, LeavesTheInputUntouchedAndEqualsSortOutOfCore) {
  for (Context* c : out_of_core_contexts(kOutOfCore, KeyType::u64)) {
    expect_sort_to_is_sort<std::uint64_t>(*c, kOutOfCore, Dist::uniform, SortOrder::ascending);
    expect_sort_to_is_sort<float>(*c, kOutOfCore, Dist::special, SortOrder::descending);
  }
}

TEST_F(sort_to, PairsLeaveTheirInputsUntouchedAndEqualSortPairs) {
  expect_sort_pairs_to_is_sort_pairs<std::uint32_t, std::uint32_t>(ctx(), kOneSubmission);
  expect_sort_pairs_to_is_sort_pairs<double, std::uint32_t>(ctx(), kStaged);
  expect_sort_pairs_to_is_sort_pairs<std::int32_t, std::uint64_t>(ctx(), kStaged);
}

TEST_F(sort_to, PairsLeaveTheirInputsUntouchedAndEqualSortPairsOutOfCore) {
  for (Context* c : out_of_core_contexts(kOutOfCore, KeyType::f32, ValueType::u64)) {
    expect_sort_pairs_to_is_sort_pairs<float, std::uint64_t>(*c, kOutOfCore);
  }
}

TEST_F(argsort_to, BothWidthsEqualArgsortAndLeaveTheKeysUntouched) {
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    expect_argsorts_to_are_argsorts<float>(ctx(), kOneSubmission, order);
    expect_argsorts_to_are_argsorts<std::int64_t>(ctx(), kStaged, order);
  }
}

TEST_F(argsort_to, BothWidthsEqualArgsortOutOfCore) {
  for (Context* c : out_of_core_contexts(kOutOfCore, KeyType::u32, ValueType::u64)) {
    expect_argsorts_to_are_argsorts<std::uint32_t>(*c, kOutOfCore, SortOrder::descending);
  }
}

TEST_F(argsort_to, ThirtyTwoBitIndicesRefuseCountsPast32BitsBeforeReading) {
  const std::uint32_t keys[1] = {};
  std::uint32_t indices[1] = {};
  EXPECT_THROW(vkc::argsort_to(ctx(), KeyType::u32, keys, indices, std::uint64_t{1} << 32), Error);
}

}  // namespace
}  // namespace vkc::test
