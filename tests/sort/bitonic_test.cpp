// Bitonic-specific behaviour: virtual padding past the count (no real element is pushed past n,
// even keys whose ordered form is all ones), one dispatch up to a tile, and counts that are not
// powers of two, for both bitonic and bitonic_transpose; and bitonic's GPU-only tunings.
#include <functional>
#include <limits>
#include <vector>

#include "core/recorder.hpp"
#include "core/state.hpp"
#include "sort/bitonic.hpp"
#include "sort/reference.hpp"
#include "support/gpu_test.hpp"

namespace vkc::test {
namespace {

class BitonicTest : public GpuTest, public ::testing::WithParamInterface<SortAlgorithm> {
 protected:
  template <class T>
  void expect_sorted(const std::vector<T>& input, SortOrder order) {
    auto keys = input;
    sort(ctx(), std::span<T>(keys), {GetParam(), order});
    ASSERT_TRUE(keys_sorted(input, keys, order)) << "n=" << input.size();
  }
};

TEST_P(BitonicTest, KeepsMaximalKeysBeforeThePaddingInBothOrders) {
  // Ordered form 0xFFFFFFFF: u32 max ascending, 0 descending; NaN in both orders.
  for (std::size_t n : {3u, 1000u, 4097u, 70001u}) {
    std::vector<std::uint32_t> high(n, 0xFFFFFFFFu), low(n, 0u);
    for (std::size_t i = 0; i < n; i += 3) high[i] = static_cast<std::uint32_t>(i), low[i] = 0xFFFFFFFFu - i;
    expect_sorted(high, SortOrder::ascending);
    expect_sorted(low, SortOrder::descending);
    std::vector<float> nans(n, std::numeric_limits<float>::quiet_NaN());
    for (std::size_t i = 0; i < n; i += 5) nans[i] = static_cast<float>(i) - 7.0f;
    expect_sorted(nans, SortOrder::ascending);
    expect_sorted(nans, SortOrder::descending);
  }
}

TEST_P(BitonicTest, SortsEverySmallCountUpToATile) {
  auto rng = rng_for_current_test();
  for (std::size_t n = 0; n <= 70; ++n) expect_sorted(make_keys<std::uint32_t>(n, Dist::uniform, rng), SortOrder::ascending);
  for (std::size_t n : {511u, 513u, 2047u, 2049u, 8191u, 8192u}) {
    expect_sorted(make_keys<std::int64_t>(n, Dist::special, rng), SortOrder::descending);
  }
}

TEST_P(BitonicTest, SortsLargeCountsThatAreNotPowersOfTwo) {
  auto rng = rng_for_current_test();
  for (std::size_t n : {(1u << 20) + 1, 3u << 18}) {
    expect_sorted(make_keys<std::uint32_t>(n, Dist::uniform, rng), SortOrder::ascending);
  }
}

TEST_P(BitonicTest, MovesValuesPastTheTileWithTheirKeys) {
  auto rng = rng_for_current_test();
  const std::size_t n = 3u << 16;
  const auto input = make_keys<double>(n, Dist::few, rng);
  auto keys = input;
  std::vector<std::uint64_t> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = value_for<std::uint64_t>(static_cast<std::uint32_t>(i));
  sort_pairs(ctx(), std::span<double>(keys), std::span<std::uint64_t>(values), {GetParam(), SortOrder::descending});
  ASSERT_TRUE(pairs_sorted(input, keys, values, SortOrder::descending, false));
}

class BitonicTuningTest : public GpuTest {
 protected:
  using Record = std::function<void(Recorder&, const sorting::Job&)>;
  // Sorts u32 keys ascending with `record`, bypassing the dispatcher's choices.
  std::vector<std::uint32_t> sort_with(const Record& record, std::vector<std::uint32_t> keys) {
    const auto n = static_cast<std::uint32_t>(keys.size());
    Buffer key_buffer = ctx().create_buffer(std::uint64_t{n} * 4);
    Buffer count = ctx().create_buffer(4);
    ctx().upload(key_buffer, std::span<const std::uint32_t>(keys));
    ctx().upload(count, &n, 4);
    ctx().run([&](Recorder& r) {
      record(r, job_for(n, count, key_buffer));
      r.finish_for_host();
    });
    ctx().download(key_buffer, std::span<std::uint32_t>(keys));
    return keys;
  }
  static sorting::Job job_for(std::uint32_t n, const Buffer& count, const Buffer& keys) {
    sorting::Job job;
    job.max_count = n;
    job.count = {count.handle(), Access::read, 0, 4};
    job.keys = {keys.handle(), Access::read_write};
    return job;
  }
};

// The table picks 16 elements per invocation and two sub-tiles in registers only for millions of
// keys on a GPU; here the same tunings sort a few workgroup tiles (global passes and merges
// included) on any device, at a power of two and past one.
TEST_F(BitonicTuningTest, SortsWithTheLargeSortTuningsOfGpus) {
  auto rng = rng_for_current_test();
  for (const sorting::BitonicTuning tuning : {sorting::BitonicTuning{128, 4, 1}, sorting::BitonicTuning{256, 4, 1}}) {
    for (std::size_t n : {std::size_t{1} << 15, (std::size_t{3} << 13) + 5}) {
      const auto input = make_keys<std::uint32_t>(n, Dist::uniform, rng);
      const auto record = [&](Recorder& r, const sorting::Job& job) { sorting::record_bitonic(detail::compute_device(ctx()), r, job, tuning); };
      ASSERT_TRUE(keys_sorted(input, sort_with(record, input), SortOrder::ascending))
          << "n=" << n << " wg" << tuning.workgroup_size;
    }
  }
}

// The one-workgroup kernel at every element count per invocation it allows (the dispatcher
// picks 4 or 8), from one element to a full tile.
TEST_F(BitonicTuningTest, SortsOneTileAtEveryElementCountPerInvocation) {
  auto rng = rng_for_current_test();
  for (std::uint32_t e_bits = 2; e_bits <= 5; ++e_bits) {
    std::uint32_t shapes_run = 0;
    for (std::uint32_t n : {1u, 77u, 1000u, 4096u}) {
      sorting::Job shape_job;
      shape_job.max_count = n;
      const sorting::SmallBitonic shape = sorting::small_bitonic_shape(ctx().info(), shape_job, e_bits);
      if (!shape.log_n) continue;  // the tile does not fit this device's shared memory
      ++shapes_run;
      const auto record = [&](Recorder& r, const sorting::Job& job) {
        sorting::record_small_bitonic(detail::compute_device(ctx()), r, job, shape);
      };
      const auto input = make_keys<std::uint32_t>(n, Dist::uniform, rng);
      ASSERT_TRUE(keys_sorted(input, sort_with(record, input), SortOrder::ascending)) << "n=" << n << " e" << e_bits;
    }
    // One subgroup of up to 64 lanes with 32 keys each fits the 16 KiB of shared memory that
    // every Vulkan device has, so a shape that never ran was refused, not too big for the device.
    EXPECT_GT(shapes_run, 0u) << "no count ran with " << (1u << e_bits) << " elements per invocation";
  }
}

std::string algorithm_name(const ::testing::TestParamInfo<SortAlgorithm>& info) {
  return std::string(to_string(info.param));
}

INSTANTIATE_TEST_SUITE_P(Bitonic, BitonicTest,
                         ::testing::Values(SortAlgorithm::bitonic, SortAlgorithm::bitonic_transpose), algorithm_name);

}  // namespace
}  // namespace vkc::test
