// Sorting on a DeviceSet: the test's device opened 2, 3 and 4 times, every key type, both orders,
// keys, pairs and argsort against std::stable_sort under the contract (reference.hpp), with keys
// that skew the partition (all equal, two values, all in one device's range), counts smaller
// than the number of devices, and devices capped below their share so that each sorts out of
// core. Also how device lists are read (choose_devices).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "sort/device_set_sort.hpp"
#include "sort/reference.hpp"
#include "support/device_set_test.hpp"
#include "vkc/device_set.hpp"
#include "vkc/sort.hpp"

namespace vkc::test {
namespace {

class DeviceSetSort : public DeviceSetTest {
 protected:
  SortOptions options(SortOrder order, SortAlgorithm algorithm = SortAlgorithm::automatic) const {
    SortOptions o;
    o.order = order;
    o.algorithm = algorithm;
    return o;
  }

  // Keys, pairs (stably: the values are the input's indices) and argsort64 of `input` on `set`.
  template <class K>
  void expect_every_form(DeviceSet& set, const std::vector<K>& input, SortOrder order,
                         SortAlgorithm algorithm = SortAlgorithm::radix) {
    SCOPED_TRACE(std::to_string(set.size()) + " devices, n=" + std::to_string(input.size()));
    auto keys = input;
    sort(set, key_type_of<K>(), keys.data(), keys.size(), options(order, algorithm));
    ASSERT_TRUE(keys_sorted(input, keys, order));
    keys = input;
    std::vector<std::uint32_t> values(input.size());
    std::iota(values.begin(), values.end(), 0u);
    sort_pairs(set, key_type_of<K>(), keys.data(), ValueType::u32, values.data(), keys.size(), options(order, algorithm));
    ASSERT_TRUE(keys_sorted(input, keys, order));
    ASSERT_TRUE(permutation_sorts(input, values, order, /*stable=*/true));
    // The _to forms leave their input as it was.
    const auto before = input;
    std::vector<K> sorted(input.size());
    std::vector<std::uint32_t> sorted_values(input.size());
    sort_to(set, key_type_of<K>(), input.data(), sorted.data(), input.size(), options(order, algorithm));
    ASSERT_TRUE(keys_sorted(input, sorted, order));
    std::iota(values.begin(), values.end(), 0u);
    sort_pairs_to(set, key_type_of<K>(), input.data(), sorted.data(), ValueType::u32, values.data(),
                  sorted_values.data(), input.size(), options(order, algorithm));
    ASSERT_TRUE(permutation_sorts(input, sorted_values, order, /*stable=*/true));
    ASSERT_EQ(std::memcmp(input.data(), before.data(), input.size() * sizeof(K)), 0) << "the input changed";
    const auto wide = argsort64(set, key_type_of<K>(), input.data(), input.size(), options(order));
    ASSERT_TRUE(permutation_sorts(input, std::vector<std::uint32_t>(wide.begin(), wide.end()), order, /*stable=*/true));
  }
};

template <class T>
class DeviceSetKeyTypes : public DeviceSetSort {};
using KeyTypes = ::testing::Types<std::uint32_t, std::int32_t, float, std::uint64_t, std::int64_t, double,
                                  std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, Float16, BFloat16>;
TYPED_TEST_SUITE(DeviceSetKeyTypes, KeyTypes);

TYPED_TEST(DeviceSetKeyTypes, SortsEveryFormInBothOrders) {
  auto rng = rng_for_current_test();
  for (std::size_t copies : {2u, 3u}) {
    for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
      this->expect_every_form(this->devices(copies), make_keys<TypeParam>(9001, Dist::special, rng), order);
    }
  }
}

// Each device's share of the partition, as `devices` devices would get it.
template <class K>
std::vector<std::uint64_t> shares(const std::vector<K>& keys, std::size_t devices, SortOrder order) {
  SortOptions o;
  o.order = order;
  const auto bounds = sorting::device_bounds(key_type_of<K>(), o, keys.data(), keys.size(), devices);
  std::vector<std::uint64_t> out;
  for (std::size_t d = 0; d + 1 < bounds.size(); ++d) out.push_back(bounds[d + 1] - bounds[d]);
  return out;
}

TEST_F(DeviceSetSort, SkewedKeysStillSplitEvenly) {
  auto rng = rng_for_current_test();
  DeviceSet& set = devices(4);
  for (Dist dist : {Dist::equal, Dist::few, Dist::sorted, Dist::reverse}) {
    SCOPED_TRACE(dist_name(dist));
    expect_every_form(set, make_keys<std::uint32_t>(20000, dist, rng), SortOrder::ascending);
  }
  // All equal, and two values nearly all one of them: the runs of equal keys are cut by position.
  const std::vector<std::uint64_t> even(4, 5000);
  EXPECT_EQ(shares(make_keys<std::uint32_t>(20000, Dist::equal, rng), 4, SortOrder::ascending), even);
  std::vector<std::uint64_t> two(20000, 7);
  for (std::size_t i = 0; i < two.size(); i += 97) two[i] = 3;
  EXPECT_EQ(shares(two, 4, SortOrder::descending), even);
  expect_every_form(set, two, SortOrder::descending);
  // Distinct keys: the sampled splitters leave each device within a tenth of its even share;
  // keys that all fall in one narrow range of values are split alike (the splitters follow them).
  for (std::uint64_t share : shares(make_keys<std::uint32_t>(20000, Dist::uniform, rng), 4, SortOrder::ascending)) {
    EXPECT_NEAR(double(share), 5000.0, 500.0);
  }
  std::vector<std::int32_t> narrow(20000);
  for (auto& k : narrow) k = 1000 + std::int32_t(rng() % 50);
  for (std::uint64_t share : shares(narrow, 4, SortOrder::ascending)) EXPECT_NEAR(double(share), 5000.0, 500.0);
  expect_every_form(set, narrow, SortOrder::ascending);
}

TEST_F(DeviceSetSort, CountsBelowTheNumberOfDevices) {
  auto rng = rng_for_current_test();
  for (std::size_t n : {0u, 1u, 2u, 3u, 5u}) {
    expect_every_form(devices(4), make_keys<float>(n, Dist::special, rng), SortOrder::descending);
    expect_every_form(devices(4), make_keys<std::uint16_t>(n, Dist::few, rng), SortOrder::ascending);
  }
}

TEST_F(DeviceSetSort, UnstableAlgorithmsSortToo) {
  auto rng = rng_for_current_test();
  const auto input = make_keys<double>(12345, Dist::special, rng);
  for (SortAlgorithm algorithm : {SortAlgorithm::bitonic, SortAlgorithm::automatic}) {
    auto keys = input;
    sort(devices(3), KeyType::f64, keys.data(), keys.size(), options(SortOrder::ascending, algorithm));
    ASSERT_TRUE(keys_sorted(input, keys, SortOrder::ascending));
  }
}

TEST_F(DeviceSetSort, EachDeviceSortsItsShareOutOfCore) {
  auto rng = rng_for_current_test();
  DeviceSet capped(repeated_device(2), quiet_options(96 << 10));  // below each device's share
  watch(capped);
  const auto input = make_keys<std::uint32_t>(60000, Dist::uniform, rng);
  expect_every_form(capped, input, SortOrder::ascending);
  forget(capped);
}

// The partition moves each device's range into host memory that device pinned, so that its
// copies read and write the range directly: only a sort into the caller's array stages, and only
// on the way down. Release of the cached memory between calls frees that memory; the next call
// pins it again and sorts the same.
TEST_F(DeviceSetSort, RangesMoveThroughPinnedMemoryWithoutStagingUp) {
  auto rng = rng_for_current_test();
  DeviceSet& set = devices(2);
  const auto input = make_keys<std::uint32_t>(300000, Dist::uniform, rng);
  const auto staged = [&] {
    std::uint64_t bytes = 0;
    for (std::size_t d = 0; d < set.size(); ++d) bytes += set[d].host_transfer_stats().staged_bytes;
    return bytes;
  };
  const auto o = options(SortOrder::ascending, SortAlgorithm::radix);
  for (bool release : {false, true}) {
    SCOPED_TRACE(release ? "after release_cached_memory" : "warm");
    if (release) {
      for (std::size_t d = 0; d < set.size(); ++d) set[d].release_cached_memory();
    }
    auto keys = input;
    std::uint64_t before = staged();
    sort(set, KeyType::u32, keys.data(), keys.size(), o);
    ASSERT_TRUE(keys_sorted(input, keys, o.order));
    EXPECT_EQ(staged() - before, 0u) << "an in-place sort of pinned ranges stages nothing";
    std::vector<std::uint32_t> sorted(input.size());
    before = staged();
    sort_to(set, KeyType::u32, input.data(), sorted.data(), input.size(), o);
    ASSERT_TRUE(keys_sorted(input, sorted, o.order));
    EXPECT_EQ(staged() - before, input.size() * sizeof(std::uint32_t)) << "only the way down is staged";
  }
}

// Progress as on one device: on the calling thread only, never going back, ending at the whole
// count; a callback that throws cancels every device and leaves an in-place sort's arrays as
// they were.
TEST_F(DeviceSetSort, ProgressOnTheCallingThreadAndCancellation) {
  auto rng = rng_for_current_test();
  const auto input = make_keys<std::uint32_t>(200000, Dist::uniform, rng);
  const auto caller = std::this_thread::get_id();
  std::uint64_t calls = 0, last_done = 0, total = 0;
  bool other_thread = false, went_back = false;
  SortOptions o;
  o.progress = [&](const SortProgress& p) {
    other_thread = other_thread || std::this_thread::get_id() != caller;
    went_back = went_back || p.done < last_done;
    last_done = p.done;
    total = p.total;
    ++calls;
  };
  auto keys = input;
  sort(devices(3), KeyType::u32, keys.data(), keys.size(), o);
  ASSERT_TRUE(keys_sorted(input, keys, SortOrder::ascending));
  EXPECT_FALSE(other_thread);
  EXPECT_FALSE(went_back);
  EXPECT_GE(calls, 2u);
  EXPECT_EQ(last_done, input.size());
  EXPECT_EQ(total, input.size());

  for (int cancel_at : {0, 1}) {
    int call = 0;
    o.progress = [&](const SortProgress&) {
      if (call++ >= cancel_at) throw std::runtime_error("cancelled by the test");
    };
    keys = input;
    std::vector<std::uint32_t> values(input.size(), 7);
    EXPECT_THROW(sort(devices(3), KeyType::u32, keys.data(), keys.size(), o), std::runtime_error);
    EXPECT_EQ(keys, input) << "a cancelled sort wrote the keys";
    EXPECT_THROW(sort_pairs(devices(3), KeyType::u32, keys.data(), ValueType::u32, values.data(), keys.size(), o),
                 std::runtime_error);
    EXPECT_EQ(keys, input) << "a cancelled sort_pairs wrote the keys";
    EXPECT_EQ(values, std::vector<std::uint32_t>(input.size(), 7)) << "a cancelled sort_pairs wrote the values";
  }
  // The devices are still usable afterwards.
  expect_every_form(devices(3), make_keys<std::uint32_t>(5000, Dist::uniform, rng), SortOrder::ascending);
}

TEST_F(DeviceSetSort, OneDeviceIsTheSingleDeviceSort) {
  auto rng = rng_for_current_test();
  expect_every_form(devices(1), make_keys<std::int64_t>(5000, Dist::few, rng), SortOrder::descending);
}

TEST(DeviceLists, ChooseDevicesReadsListsAndAll) {
  std::vector<DeviceInfo> devices(4);
  const DeviceType types[] = {DeviceType::cpu, DeviceType::discrete_gpu, DeviceType::integrated_gpu,
                              DeviceType::discrete_gpu};
  const char* names[] = {"llvmpipe", "GPU A", "iGPU", "GPU B"};
  for (std::uint32_t i = 0; i < 4; ++i) {
    devices[i].index = i;
    devices[i].type = types[i];
    devices[i].name = names[i];
  }
  EXPECT_EQ(choose_devices(devices, "all"), (std::vector<std::uint32_t>{1, 3}));
  EXPECT_EQ(choose_devices(devices, "0,2"), (std::vector<std::uint32_t>{0, 2}));
  EXPECT_EQ(choose_devices(devices, "3,3,3"), (std::vector<std::uint32_t>{3, 3, 3}));
  EXPECT_EQ(choose_devices(devices, "gpu b,llvm"), (std::vector<std::uint32_t>{3, 0}));
  EXPECT_THROW(choose_devices(devices, "0,,1"), Error);
  EXPECT_THROW(choose_devices(devices, "7"), Error);
  std::vector<DeviceInfo> cpus(2);
  cpus[0].type = cpus[1].type = DeviceType::cpu;
  cpus[1].index = 1;
  EXPECT_EQ(choose_devices(cpus, "all"), (std::vector<std::uint32_t>{0, 1}));
}

}  // namespace
}  // namespace vkc::test
