// Keys of 8 and 16 bits beyond the contract suite (contract_test.cpp runs them through every
// algorithm at every size): every bit pattern of the 16-bit floats, every byte value many times
// over, and the bytes that share a 32-bit word with the last key of a recorded sort.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "core/recorder.hpp"
#include "sort/planner.hpp"
#include "sort/record.hpp"
#include "sort/recorded_sort.hpp"
#include "sort/reference.hpp"
#include "sort/workspace.hpp"
#include "support/gpu_test.hpp"
#include "vkc/sort.hpp"

namespace vkc::test {
namespace {

class NarrowKeys : public GpuTest {};

// The contract's order of 16-bit floats with NaNs ordered by their payload, as the contract says
// (ascending in both orders): what a sort of every bit pattern must give exactly.
template <class T>
bool half_less_with_payloads(T a, T b, SortOrder order) {
  const bool nan_a = std::isnan(decoded(a)), nan_b = std::isnan(decoded(b));
  if (nan_a && nan_b) return (a.bits & 0x7FFF) < (b.bits & 0x7FFF);
  return contract_less(a, b, order);
}

template <class T>
std::vector<T> every_bit_pattern_shuffled() {
  std::vector<T> keys(1 << 16);
  for (std::uint32_t b = 0; b < keys.size(); ++b) keys[b] = T{static_cast<std::uint16_t>(b)};
  auto rng = rng_for_current_test();
  std::shuffle(keys.begin(), keys.end(), rng);
  return keys;
}

template <class T>
void sorts_every_bit_pattern(Context& ctx, KeyType type, SortAlgorithm algorithm) {
  const std::vector<T> input = every_bit_pattern_shuffled<T>();
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    std::vector<T> expected = input;
    std::stable_sort(expected.begin(), expected.end(), [&](T a, T b) { return half_less_with_payloads(a, b, order); });
    for (T& key : expected) key = as_returned(key);
    std::vector<T> keys = input;
    sort(ctx, type, keys.data(), keys.size(), {.algorithm = algorithm, .order = order});
    const auto differs = std::mismatch(keys.begin(), keys.end(), expected.begin(),
                                       [](T a, T b) { return a.bits == b.bits; });
    EXPECT_EQ(differs.first, keys.end()) << to_string(algorithm) << " " << (order == SortOrder::ascending ? "ascending" : "descending")
                                         << ": first difference at " << differs.first - keys.begin() << ", got "
                                         << *differs.first << ", expected " << *differs.second;
  }
}

TEST_F(NarrowKeys, EveryFloat16BitPatternSortsExactly) {
  for (SortAlgorithm a : {SortAlgorithm::radix, SortAlgorithm::bitonic, SortAlgorithm::bitonic_transpose}) {
    sorts_every_bit_pattern<Float16>(ctx(), KeyType::f16, a);
  }
}

TEST_F(NarrowKeys, EveryBFloat16BitPatternSortsExactly) {
  for (SortAlgorithm a : {SortAlgorithm::radix, SortAlgorithm::bitonic, SortAlgorithm::bitonic_transpose}) {
    sorts_every_bit_pattern<BFloat16>(ctx(), KeyType::bf16, a);
  }
}

// Argsort over every pattern: the stable permutation of the payload-ordered contract.
template <class T>
void argsorts_every_bit_pattern(Context& ctx, KeyType type) {
  const std::vector<T> input = every_bit_pattern_shuffled<T>();
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    std::vector<std::uint64_t> expected(input.size());
    std::iota(expected.begin(), expected.end(), 0);
    std::stable_sort(expected.begin(), expected.end(),
                     [&](std::uint64_t a, std::uint64_t b) { return half_less_with_payloads(input[a], input[b], order); });
    EXPECT_EQ(argsort64(ctx, type, input.data(), input.size(), {.order = order}), expected);
  }
}

TEST_F(NarrowKeys, EveryHalfFloatBitPatternArgsortsStably) {
  argsorts_every_bit_pattern<Float16>(ctx(), KeyType::f16);
  argsorts_every_bit_pattern<BFloat16>(ctx(), KeyType::bf16);
}

// Every byte value `copies` times in random order: argsort must keep each value's copies in
// their input order (radix by default, odd_even where asked).
template <class T>
void argsorts_every_byte_value(Context& ctx, std::size_t copies, SortAlgorithm algorithm) {
  std::vector<T> keys;
  for (std::size_t c = 0; c < copies; ++c) {
    for (int v = 0; v < 256; ++v) keys.push_back(static_cast<T>(v));
  }
  auto rng = rng_for_current_test();
  std::shuffle(keys.begin(), keys.end(), rng);
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    const SortOptions options{.algorithm = algorithm, .order = order};
    const std::vector<std::uint32_t> expected = reference_argsort(keys, order);
    EXPECT_EQ(argsort(ctx, std::span<const T>(keys), options), expected) << to_string(algorithm);
    const std::vector<std::uint64_t> wide = argsort64(ctx, std::span<const T>(keys), options);
    EXPECT_TRUE(std::equal(wide.begin(), wide.end(), expected.begin(), expected.end())) << "argsort64";
  }
}

TEST_F(NarrowKeys, EveryByteValueManyTimesOverArgsortsStably) {
  argsorts_every_byte_value<std::uint8_t>(ctx(), 301, SortAlgorithm::radix);
  argsorts_every_byte_value<std::int8_t>(ctx(), 301, SortAlgorithm::radix);
  argsorts_every_byte_value<std::uint8_t>(ctx(), 5, SortAlgorithm::odd_even);
  argsorts_every_byte_value<std::int8_t>(ctx(), 5, SortAlgorithm::odd_even);
}

// A recorded sort of narrow keys may write whole words (the images' narrowing, the copying pass):
// the bytes that share the last key's word but follow it must come back as they were.
template <class T>
void keeps_the_bytes_past_the_last_key(Context& ctx, SortAlgorithm algorithm, std::size_t n) {
  auto rng = rng_for_current_test();
  const std::vector<T> input = make_keys<T>(n, Dist::uniform, rng);
  const std::size_t words = (n * sizeof(T) + 3) / 4;
  std::vector<std::uint8_t> bytes(words * 4, 0x5C);
  std::memcpy(bytes.data(), input.data(), n * sizeof(T));
  const SortDesc desc{key_type_of<T>(), ValueType::none, n, {.algorithm = algorithm}};
  GuardedBuffer keys(ctx, "keys", 0, bytes.size());
  keys.write(bytes);
  GuardedBuffer temporary(ctx, "temporary", 0, sort_temporary_bytes(ctx, desc));
  ctx.run([&](Recorder& r) {
    record_sort(ctx, r.commands(), desc, n, SortBuffers{keys.range(), {}, temporary.range()});
    record_barrier_before_download(r.commands());
  });
  const std::vector<std::uint8_t> out = keys.read<std::uint8_t>(bytes.size());
  std::vector<T> sorted(n);
  std::memcpy(sorted.data(), out.data(), n * sizeof(T));
  EXPECT_TRUE(keys_sorted(input, sorted, SortOrder::ascending)) << to_string(algorithm) << " " << n;
  for (std::size_t b = n * sizeof(T); b < bytes.size(); ++b) EXPECT_EQ(out[b], 0x5C) << "byte " << b << " past the keys";
  EXPECT_TRUE(keys.guards_intact());
}

TEST_F(NarrowKeys, RecordedSortsKeepTheBytesPastTheLastKey) {
  for (SortAlgorithm a : {SortAlgorithm::radix, SortAlgorithm::bitonic, SortAlgorithm::odd_even, SortAlgorithm::bitonic_transpose}) {
    for (std::size_t n : {1, 3, 1001, 5003}) {
      keeps_the_bytes_past_the_last_key<std::uint8_t>(ctx(), a, n);
      keeps_the_bytes_past_the_last_key<Float16>(ctx(), a, n);
    }
  }
}

// Radix sorts narrow keys as they are kept where the device has 8- and 16-bit storage (lavapipe
// has), and through 32-bit images where it has not: both routes, planned for each kind of device
// and recorded here, sort (key, index) pairs into the stable permutation.
template <class T>
void sorts_pairs_planned_for(Context& ctx, bool narrow_storage, std::size_t n) {
  DeviceInfo device = ctx.info();
  device.narrow_storage = narrow_storage;
  auto rng = rng_for_current_test();
  const std::vector<T> input = make_keys<T>(n, Dist::uniform, rng);
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    const SortDesc desc{key_type_of<T>(), ValueType::u32, n, {.algorithm = SortAlgorithm::radix, .order = order}};
    const sorting::PlannedSort planned = sorting::plan_sort(device, desc);
    Buffer keys = ctx.create_buffer((n * sizeof(T) + 3) / 4 * 4);
    Buffer values = ctx.create_buffer(n * 4);
    Buffer temporary = ctx.create_buffer(planned.temporary_bytes());
    std::vector<std::uint32_t> index(n);
    std::iota(index.begin(), index.end(), 0u);
    ctx.upload(keys, input.data(), n * sizeof(T));
    ctx.upload(values, index.data(), n * 4);
    ctx.run([&](Recorder& r) {
      sorting::record_planned(sorting::sort_device(ctx), r, planned,
                              SortBuffers{{keys.handle()}, {values.handle()}, {temporary.handle()}});
      record_barrier_before_download(r.commands());
    });
    ctx.download(values, index.data(), n * 4);
    EXPECT_EQ(index, reference_argsort(input, order)) << (narrow_storage ? "as kept" : "as images") << " " << n;
  }
}

TEST_F(NarrowKeys, RadixSortsAsKeptOrAsImagesByTheDevicesStorage) {
  for (std::size_t n : {1, 777, 20011}) {
    for (bool narrow_storage : {true, false}) {
      sorts_pairs_planned_for<std::uint8_t>(ctx(), narrow_storage, n);
      sorts_pairs_planned_for<std::int16_t>(ctx(), narrow_storage, n);
      sorts_pairs_planned_for<Float16>(ctx(), narrow_storage, n);
    }
  }
}

// Kept as they are, narrow keys need no images: the plan's temporary storage shrinks by more
// than the 4 bytes of an image per key.
TEST_F(NarrowKeys, RadixAsKeptNeedsNoImages) {
  ASSERT_TRUE(ctx().info().narrow_storage) << "lavapipe offers 8- and 16-bit storage";
  DeviceInfo without = ctx().info();
  without.narrow_storage = false;
  for (KeyType type : {KeyType::u8, KeyType::i16, KeyType::bf16}) {
    const SortDesc desc{type, ValueType::none, 1 << 20, {.algorithm = SortAlgorithm::radix}};
    const std::uint64_t as_kept = sorting::plan_sort(ctx().info(), desc).temporary_bytes();
    const std::uint64_t as_images = sorting::plan_sort(without, desc).temporary_bytes();
    EXPECT_GE(as_images, as_kept + 4 * desc.max_count) << to_string(type);
  }
}

}  // namespace
}  // namespace vkc::test
