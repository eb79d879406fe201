// Timestamps: GPU time in nanoseconds, increasing, and larger for more work.
#include <vector>

#include "core/kernels.hpp"
#include "support/gpu_test.hpp"

namespace vkc::test {
namespace {

class TimestampTest : public GpuTest {};

TEST_F(TimestampTest, MeasuresPositiveTimeThatGrowsWithWork) {
  const std::size_t n = 1 << 22;
  Buffer a = ctx().create_buffer(n * 4);
  Buffer b = ctx().create_buffer(n * 4);
  TimestampQueries queries(ctx(), 3);
  ctx().run([&](Recorder& r) {
    r.reset_queries(queries.pool(), 0, 3);
    r.write_timestamp(queries.pool(), 0);
    record_affine(ctx(), r, a, b, {1024, 1, 1});
    r.write_timestamp(queries.pool(), 1);
    for (int i = 0; i < 4; ++i) {
      record_affine(ctx(), r, a, b, {static_cast<std::uint32_t>(n), 1, 1});
      record_affine(ctx(), r, b, a, {static_cast<std::uint32_t>(n), 1, 1});
    }
    r.write_timestamp(queries.pool(), 2);
  });
  const auto ns = queries.read_ns();
  EXPECT_GT(ns[1], ns[0]);
  EXPECT_GT(ns[2], ns[1]);
  EXPECT_GT(ns[2] - ns[1], ns[1] - ns[0]) << "eight passes over 16 MiB should take longer than one over 4 KiB";
  EXPECT_LT(ns[2] - ns[0], 60e9) << "not nanoseconds";
}

TEST_F(TimestampTest, RunTimedMeasuresTheRecordedWork) {
  const std::size_t n = 1 << 22;
  Buffer a = ctx().create_buffer(n * 4);
  Buffer b = ctx().create_buffer(n * 4);
  const double small = ctx().run_timed([&](Recorder& r) { ctx().record_copy(r, a, b, 4096); });
  const double large = ctx().run_timed([&](Recorder& r) {
    for (int i = 0; i < 4; ++i) {
      ctx().record_copy(r, a, b, n * 4);
      ctx().record_copy(r, b, a, n * 4);
    }
  });
  EXPECT_GT(small, 0);
  EXPECT_GT(large, small) << "eight copies of 16 MiB should take longer than one of 4 KiB";
  EXPECT_LT(large, 60e9) << "not nanoseconds";
}

TEST_F(TimestampTest, LoaderOffersTheVersionContextsNeed) {
  // This program's context exists, and a context needs a 1.2 loader.
  EXPECT_GE(vulkan_loader_version(), VK_API_VERSION_1_2);
  EXPECT_EQ(VK_API_VERSION_MAJOR(vulkan_loader_version()), 1u);
}

}  // namespace
}  // namespace vkc::test
