// The planner's closed forms against what they stand for: the device bytes of a sort against what
// a host sort allocates and what its plan records over, and the in-core capacity against the
// largest count whose device bytes fit, found by search, on lavapipe and on an H100-like device
// (planning is arithmetic on a DeviceInfo: NVIDIA's tile classes are checked here too).
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "sort/planner.hpp"
#include "sort/workspace.hpp"
#include "support/gpu_test.hpp"
#include "vkc/sort.hpp"

namespace vkc::test {
namespace {

const KeyType kKeys[] = {KeyType::u32, KeyType::f32, KeyType::u64, KeyType::f64};
const ValueType kValues[] = {ValueType::none, ValueType::u32, ValueType::u64};

std::string name(const SortDesc& d) {
  return std::string(to_string(d.options.algorithm)) + ' ' + std::string(to_string(d.key_type)) + " values " +
         std::to_string(value_bytes(d.value_type)) + "B n=" + std::to_string(d.max_count);
}

// An H100/H200 as vkc sees it: the facts the planner reads.
DeviceInfo nvidia_like() {
  DeviceInfo d;
  d.name = "H100-like";
  d.vendor_id = 0x10DE;
  d.type = DeviceType::discrete_gpu;
  d.subgroup_size = d.min_subgroup_size = d.max_subgroup_size = 32;
  d.subgroup_size_control = true;
  d.subgroup_operations = {"basic", "vote", "arithmetic", "ballot", "shuffle", "shuffle_relative", "clustered", "quad"};
  d.vulkan_memory_model_device_scope = true;
  d.shared_memory_bytes = 49152;
  d.max_workgroup_invocations = 1024;
  d.max_workgroup_size = {1024, 1024, 64};
  d.max_workgroup_count = {0x7FFFFFFF, 65535, 65535};
  d.max_storage_buffer_range = 0xFFFFFFFFull;
  d.max_allocation_bytes = 0xFFFFFFFFull;
  d.storage_offset_alignment = 16;
  d.heaps = {{std::uint64_t{80} << 30, true}};
  d.shader_int64 = d.shader_float64 = true;
  return d;
}

class PlannerTest : public GpuTest {};

template <class T>
std::vector<T> random_words(std::size_t n, std::mt19937_64& rng) {
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(rng());
  return v;
}

// What vkc::sort_pairs (or sort) asks the Context for: keys, values and temporary bytes, exactly
// the closed form of the plan it sorts with. The sort's result is checked too.
TEST_F(PlannerTest, DeviceBytesAreWhatAHostSortAllocates) {
  auto rng = rng_for_current_test();
  for (KeyType key : {KeyType::u32, KeyType::u64}) {
    for (ValueType value : kValues) {
      for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{1000}, std::uint64_t{4097}, std::uint64_t{70001}}) {
        const SortDesc desc{key, value, n, {}};
        auto keys = random_words<std::uint32_t>(n * key_bytes(key) / 4, rng);
        auto values = random_words<std::uint32_t>(std::max<std::size_t>(1, n * value_bytes(value) / 4), rng);
        if (value == ValueType::none) {
          sort(ctx(), key, keys.data(), n);
        } else {
          sort_pairs(ctx(), key, keys.data(), value, values.data(), n);
        }
        const sorting::DeviceBytes bytes = sorting::device_bytes(ctx().info(), desc);
        const std::vector<std::uint64_t>& asked = sorting::workspace(ctx()).last_request();
        ASSERT_EQ(asked.size(), 3u) << name(desc);
        EXPECT_EQ(asked[0], bytes.keys) << name(desc);
        EXPECT_EQ(asked[1], bytes.values) << name(desc);
        EXPECT_EQ(asked[2], bytes.temporary) << name(desc);
        if (key == KeyType::u32) {
          EXPECT_TRUE(std::is_sorted(keys.begin(), keys.begin() + n)) << name(desc);
        }
      }
    }
  }
}

// sort_temporary_bytes (the closed form) is what the plan of that sort records over, for every
// algorithm, key and value type, on either side of the radix sort's size classes.
TEST_F(PlannerTest, TemporaryBytesAreThePlansOwn) {
  for (const DeviceInfo& device : {ctx().info(), nvidia_like()}) {
    for (SortAlgorithm algorithm : {SortAlgorithm::automatic, SortAlgorithm::radix, SortAlgorithm::bitonic,
                                    SortAlgorithm::bitonic_transpose, SortAlgorithm::odd_even}) {
      for (KeyType key : kKeys) {
        for (ValueType value : kValues) {
          for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{5000}, (std::uint64_t{1} << 18) + 1,
                                  (std::uint64_t{1} << 22) + 3, std::uint64_t{1} << 27}) {
            const SortDesc desc{key, value, n, {algorithm}};
            const sorting::PlannedSort planned = sorting::plan_sort(device, desc);
            EXPECT_EQ(sorting::device_bytes(device, desc).temporary, planned.temporary_bytes())
                << device.name << ' ' << name(desc);
          }
        }
      }
    }
  }
}

// Whether one sort of n elements fits the limits, by its exact device bytes.
bool fits(const DeviceInfo& device, const sorting::Algorithm& algorithm, SortDesc desc, std::uint64_t n,
          std::uint64_t limit) {
  if (n > UINT32_MAX) return false;
  desc.max_count = n;
  const sorting::DeviceBytes b = sorting::device_bytes(device, algorithm, desc);
  const std::uint64_t per_buffer = detail::largest_buffer_bytes(device);
  return b.keys <= per_buffer && b.values <= per_buffer && b.temporary <= per_buffer && b.total() <= limit;
}

// The closed-form capacity never passes the largest count that fits, and falls short of it by no
// more than its bounds' slack, over key and value types and memory limits.
TEST_F(PlannerTest, CapacityIsTheLargestCountThatFitsWithinTheBoundsSlack) {
  constexpr std::uint64_t kSlack = 1024;
  for (const DeviceInfo& device : {ctx().info(), nvidia_like()}) {
    for (KeyType key : kKeys) {
      for (ValueType value : kValues) {
        for (std::uint64_t limit : {std::uint64_t{64} << 10, std::uint64_t{3} << 20, std::uint64_t{100} << 20,
                                    std::uint64_t{5} << 30, std::uint64_t{72} << 30}) {
          const SortDesc desc{key, value, std::uint64_t{1} << 34, {}};
          const sorting::Algorithm& algorithm = sorting::choose(device, {key, value, UINT32_MAX, {}});
          const std::uint64_t capacity = sorting::in_core_capacity(device, desc, limit);
          std::uint64_t lo = 0, hi = UINT32_MAX;  // the exact largest count that fits, by search
          while (lo < hi) {
            const std::uint64_t mid = hi - (hi - lo) / 2;
            if (fits(device, algorithm, desc, mid, limit)) {
              lo = mid;
            } else {
              hi = mid - 1;
            }
          }
          const std::string what = device.name + ' ' + name(desc) + " limit " + std::to_string(limit);
          EXPECT_LE(capacity, lo) << what;
          EXPECT_LE(lo - capacity, kSlack) << what << ": exact " << lo;
          if (capacity) EXPECT_TRUE(fits(device, algorithm, desc, capacity, limit)) << what;
        }
      }
    }
  }
}

}  // namespace
}  // namespace vkc::test
