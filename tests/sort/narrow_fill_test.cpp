// 8-bit keys sorted alone over the whole key: the radix sort writes the output from the
// histogram's digit offsets (sort/radix/fill_narrow) instead of scattering the keys. Results are
// checked against std::stable_sort (reference.hpp): counts around a word, keys of one value and
// of two, the extremes, keys at offsets through the record API, a GPU-side count, and what is
// recorded for this sort and for the sorts that keep their passes.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/loader.hpp"
#include "core/recorder.hpp"
#include "sort/key_types.hpp"
#include "sort/planner.hpp"
#include "sort/record.hpp"
#include "sort/recorded_sort.hpp"
#include "sort/reference.hpp"
#include "sort/workspace.hpp"
#include "support/gpu_test.hpp"
#include "vkc/sort.hpp"

namespace vkc::test {
namespace {

constexpr SortOrder kOrders[] = {SortOrder::ascending, SortOrder::descending};
constexpr std::string_view kFill = "sort/radix/fill_narrow";

class NarrowFill : public GpuTest {
 protected:
  VkDeviceSize offset_alignment() {
    VkPhysicalDeviceProperties properties{};
    vk::vkGetPhysicalDeviceProperties(ctx().physical_device(), &properties);
    return properties.limits.minStorageBufferOffsetAlignment;
  }
};

SortOptions radix(SortOrder order) { return {.algorithm = SortAlgorithm::radix, .order = order}; }

template <class T>
const char* type_name() {
  return std::is_signed_v<T> ? "i8" : "u8";
}

// Sorts `input` through the host API and checks it against std::stable_sort.
template <class T>
void expect_sorts(Context& ctx, const std::vector<T>& input, SortOrder order, const char* what) {
  std::vector<T> keys = input;
  sort(ctx, std::span<T>(keys), radix(order));
  EXPECT_TRUE(keys_sorted(input, keys, order))
      << type_name<T>() << " " << what << ", " << input.size() << " keys, " << (order == SortOrder::ascending ? "ascending" : "descending");
}

template <class T>
std::vector<T> drawn_from(const std::vector<T>& values, std::size_t n, std::mt19937_64& rng) {
  std::vector<T> keys(n);
  for (T& k : keys) k = values[rng() % values.size()];
  return keys;
}

template <class T>
void sorts_every_count(Context& ctx) {
  auto rng = rng_for_current_test();
  for (std::size_t n : {0, 1, 2, 3, 4, 5, 777, 20011, (1 << 20) + 3}) {
    const auto input = make_keys<T>(n, Dist::uniform, rng);
    for (SortOrder order : kOrders) expect_sorts(ctx, input, order, "uniform");
  }
}

// Counts below, at and past a word of four keys, past a tile, and past 2^20.
TEST_F(NarrowFill, SortsEveryCountAroundAWordInBothOrders) {
  sorts_every_count<std::uint8_t>(ctx());
  sorts_every_count<std::int8_t>(ctx());
}

// One value: every key has the same digit, so the histogram's last workgroup gives the fill no
// workgroups and the keys stay as they are, sorted.
template <class T>
void sorts_keys_of_one_value(Context& ctx) {
  for (T value : {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0), T(0x5A)}) {
    for (SortOrder order : kOrders) expect_sorts(ctx, std::vector<T>(20011, value), order, "one value");
  }
}

TEST_F(NarrowFill, SortsKeysOfOneValue) {
  sorts_keys_of_one_value<std::uint8_t>(ctx());
  sorts_keys_of_one_value<std::int8_t>(ctx());
}

// Two values: the extremes (the first and last digits, whose runs meet at one index), and two
// neighbours across the signed keys' sign boundary and the unsigned keys' middle.
template <class T>
void sorts_keys_of_two_values(Context& ctx) {
  auto rng = rng_for_current_test();
  const std::vector<std::vector<T>> pairs = {{std::numeric_limits<T>::min(), std::numeric_limits<T>::max()},
                                             {T(-1), T(0)}, {T(0x7F), T(0x80)}};
  for (const auto& values : pairs) {
    for (std::size_t n : {2, 5, 20011}) {
      const auto input = drawn_from(values, n, rng);
      for (SortOrder order : kOrders) expect_sorts(ctx, input, order, "two values");
    }
  }
}

TEST_F(NarrowFill, SortsKeysOfTwoValues) {
  sorts_keys_of_two_values<std::uint8_t>(ctx());
  sorts_keys_of_two_values<std::int8_t>(ctx());
}

// The extremes (0 and 255, -128 and 127) and their neighbours, alone and among every other value.
template <class T>
void sorts_the_extremes(Context& ctx) {
  auto rng = rng_for_current_test();
  constexpr T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  const std::vector<T> extremes = {lo, T(lo + 1), T(hi - 1), hi};
  for (SortOrder order : kOrders) {
    expect_sorts(ctx, drawn_from(extremes, 20011, rng), order, "extremes");
    expect_sorts(ctx, make_keys<T>(20011, Dist::special, rng), order, "extremes among others");
  }
}

TEST_F(NarrowFill, SortsTheExtremes) {
  sorts_the_extremes<std::uint8_t>(ctx());
  sorts_the_extremes<std::int8_t>(ctx());
}

// Sorts the first `count` of `max_count` keys through the record API, the buffers at `at`, the
// count on the host or on the GPU; checks the sorted head, the untouched tail (the bytes that
// share the last key's word included) and every buffer's guards.
template <class T>
void sorts_recorded(Context& ctx, SortOrder order, std::size_t max_count, std::size_t count, bool indirect,
                    const Offsets& at, std::mt19937_64& rng) {
  const auto input = make_keys<T>(max_count, Dist::uniform, rng);
  RecordedSort<T> s(ctx, {key_type_of<T>(), ValueType::none, max_count, radix(order)}, at);
  s.load(input);
  indirect ? s.sort_indirect(static_cast<std::uint32_t>(count)) : s.sort(count);
  const auto keys = s.keys();
  const std::string where = std::string(type_name<T>()) + " count " + std::to_string(count) + " of " +
                            std::to_string(max_count) + " at " + std::to_string(at.keys) + (indirect ? " (GPU-side count)" : "");
  EXPECT_TRUE(keys_sorted(std::vector(input.begin(), input.begin() + count), std::vector(keys.begin(), keys.begin() + count), order)) << where;
  EXPECT_TRUE(std::equal(keys.begin() + count, keys.end(), input.begin() + count)) << where << ": a key past the count changed";
  EXPECT_TRUE(s.guards_intact()) << where;
}

// Offsets of 1, 2 and 3 units, a unit the device's minStorageBufferOffsetAlignment (the least
// offset a keys buffer may have: bytes 1, 2 and 3 where it is 1; 16, 32 and 48 on lavapipe), with
// counts that end a word at each of its bytes.
TEST_F(NarrowFill, SortsKeysAtOffsetsThroughTheRecordApi) {
  auto rng = rng_for_current_test();
  const VkDeviceSize unit = offset_alignment();
  for (VkDeviceSize units : {1, 2, 3}) {
    const Offsets at{.keys = units * unit, .values = 0, .temporary = 5 * unit, .count = 7 * unit};
    for (SortOrder order : kOrders) {
      for (std::size_t count : {1, 2, 3, 5, 20011}) {
        sorts_recorded<std::uint8_t>(ctx(), order, 20011 + units, count, false, at, rng);
        sorts_recorded<std::int8_t>(ctx(), order, 20011 + units, count, false, at, rng);
      }
    }
  }
}

// The count on the GPU (record_sort_indirect), from none to max_count: the fill's grid is max_count's
// and its workgroups past the count write nothing.
TEST_F(NarrowFill, SortsTheCountTheGpuHolds) {
  auto rng = rng_for_current_test();
  const Offsets at{.keys = offset_alignment()};
  for (SortOrder order : kOrders) {
    for (std::size_t count : {0, 1, 3, 4, 777, 20011}) {
      sorts_recorded<std::uint8_t>(ctx(), order, 20011, count, true, at, rng);
      sorts_recorded<std::int8_t>(ctx(), order, 20011, count, true, at, rng);
    }
  }
}

// A temporary buffer marked clear: trusted when it is, and left clear for the next sort; set
// wrongly, the counts do not add up and the keys stay as they were (sort.hpp), as for the passes.
TEST_F(NarrowFill, TrustsAClearTemporaryBufferAndLeavesTheKeysWhereItIsNot) {
  auto rng = rng_for_current_test();
  constexpr std::size_t n = 2500;
  RecordedSort<std::uint8_t> s(ctx(), {KeyType::u8, ValueType::none, n, radix(SortOrder::descending)});
  s.temporary().fill(0);
  s.temporary_is_clear = true;
  for (std::size_t count : {n - 301, n}) {
    const auto input = make_keys<std::uint8_t>(n, Dist::uniform, rng);
    s.load(input);
    s.sort_indirect(static_cast<std::uint32_t>(count));
    const auto keys = s.keys();
    EXPECT_TRUE(keys_sorted(std::vector(input.begin(), input.begin() + count),
                            std::vector(keys.begin(), keys.begin() + count), SortOrder::descending))
        << "count " << count << " over a clear buffer";
  }
  const auto input = make_keys<std::uint8_t>(n, Dist::uniform, rng);
  s.temporary().fill(1);  // stale counts
  s.load(input);
  s.sort_indirect(n);
  EXPECT_EQ(s.keys(), input);
  EXPECT_TRUE(s.guards_intact());
}

// The shaders that one sort of `desc` dispatches, recorded with its count on the host or on the GPU.
std::vector<std::string_view> shaders_dispatched(Context& ctx, const SortDesc& desc, bool indirect) {
  const sorting::PlannedSort planned = sorting::plan_sort(ctx.info(), desc);
  Buffer keys = ctx.create_buffer(sorting::device_key_bytes(desc.key_type, desc.max_count));
  Buffer values = ctx.create_buffer(std::max<std::uint64_t>(4, desc.max_count * value_bytes(desc.value_type)));
  Buffer count = ctx.create_buffer(4);
  Buffer temporary = ctx.create_buffer(planned.temporary_bytes());
  ctx.upload(count, std::span<const std::uint32_t>(std::vector<std::uint32_t>{0}));
  const BufferRange values_range = desc.value_type == ValueType::none ? BufferRange{} : BufferRange{values.handle()};
  const SortBuffers buffers{{keys.handle()}, values_range, {temporary.handle()}};
  std::vector<std::string_view> dispatched;
  ctx.run([&](Recorder& r) {
    if (indirect) {
      sorting::record_planned_indirect(sorting::sort_device(ctx), r, planned, {count.handle()}, buffers);
    } else {
      sorting::record_planned(sorting::sort_device(ctx), r, planned, buffers);
    }
    dispatched = r.shaders_dispatched();
  });
  return dispatched;
}

// 8-bit keys alone, in both orders and with either count: the histogram and the fill, no pass.
TEST_F(NarrowFill, RecordsTheHistogramAndTheFillAlone) {
  const std::vector<std::string_view> expected = {"sort/radix/histogram_narrow", kFill};
  for (KeyType type : {KeyType::u8, KeyType::i8}) {
    for (SortOrder order : kOrders) {
      for (bool indirect : {false, true}) {
        EXPECT_EQ(shaders_dispatched(ctx(), {type, ValueType::none, 20011, radix(order)}, indirect), expected)
            << to_string(type) << (indirect ? " indirect" : "");
      }
    }
  }
}

// Pairs, a bit range narrower than the key and 16-bit keys keep their scatter passes.
TEST_F(NarrowFill, KeepsThePassesOfEveryOtherNarrowSort) {
  SortOptions low_bits = radix(SortOrder::ascending);
  low_bits.end_bit = 4;
  const SortDesc others[] = {{KeyType::u8, ValueType::u32, 20011, radix(SortOrder::ascending)},
                             {KeyType::i8, ValueType::none, 20011, low_bits},
                             {KeyType::u16, ValueType::none, 20011, radix(SortOrder::descending)}};
  for (const SortDesc& desc : others) {
    const auto dispatched = shaders_dispatched(ctx(), desc, false);
    const auto scatters = std::count_if(dispatched.begin(), dispatched.end(),
                                        [](std::string_view s) { return s.starts_with("sort/radix/scatter"); });
    EXPECT_EQ(scatters, 2) << to_string(desc.key_type) << ": both passes recorded";
    EXPECT_EQ(std::count(dispatched.begin(), dispatched.end(), kFill), 0) << to_string(desc.key_type);
  }
}

}  // namespace
}  // namespace vkc::test
