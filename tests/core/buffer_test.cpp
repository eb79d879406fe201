// Buffers: uploads and downloads return what was sent; the shader copy copies exactly.
#include <numeric>
#include <vector>

#include "core/kernels.hpp"
#include "support/gpu_test.hpp"

namespace vkc::test {
namespace {

class BufferTest : public GpuTest {};

std::vector<std::uint32_t> random_words(std::size_t n, std::mt19937_64& rng) {
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = static_cast<std::uint32_t>(rng());
  return v;
}

TEST_F(BufferTest, RoundTripReturnsTheUploadedBytes) {
  auto rng = rng_for_current_test();
  for (std::size_t n : {1u, 3u, 1000u, 1u << 20}) {
    const auto data = random_words(n, rng);
    Buffer b = ctx().create_buffer(n * 4);
    ctx().upload(b, std::span<const std::uint32_t>(data));
    std::vector<std::uint32_t> back(n);
    ctx().download(b, std::span<std::uint32_t>(back));
    EXPECT_EQ(back, data) << "n = " << n;
  }
}

TEST_F(BufferTest, UploadAtAnOffsetLeavesTheRestAlone) {
  auto rng = rng_for_current_test();
  const auto first = random_words(64, rng);
  const auto patch = random_words(16, rng);
  Buffer b = ctx().create_buffer(64 * 4);
  ctx().upload(b, std::span<const std::uint32_t>(first));
  ctx().upload(b, patch.data(), patch.size() * 4, 8 * 4);
  std::vector<std::uint32_t> expected = first;
  std::copy(patch.begin(), patch.end(), expected.begin() + 8);
  std::vector<std::uint32_t> back(64);
  ctx().download(b, std::span<std::uint32_t>(back));
  EXPECT_EQ(back, expected);
}

TEST_F(BufferTest, ShaderCopyCopiesEveryWordIncludingTheTail) {
  auto rng = rng_for_current_test();
  for (std::size_t n : {1u, 2u, 3u, 4u, 5u, 1023u, 4096u, 1000003u}) {
    const auto data = random_words(n, rng);
    Buffer src = ctx().create_buffer(n * 4);
    Buffer dst = ctx().create_buffer(n * 4 + 4);
    ctx().upload(src, std::span<const std::uint32_t>(data));
    const std::uint32_t sentinel[] = {0xDEADBEEF};
    ctx().upload(dst, sentinel, 4, n * 4);
    ctx().copy(src, dst, n * 4);
    std::vector<std::uint32_t> back(n + 1);
    ctx().download(dst, std::span<std::uint32_t>(back));
    EXPECT_TRUE(std::equal(data.begin(), data.end(), back.begin())) << "n = " << n;
    EXPECT_EQ(back[n], 0xDEADBEEF) << "the copy wrote past its end, n = " << n;
  }
}

TEST_F(BufferTest, RecordedCopiesInOneSubmissionRunInOrder) {
  // b -> c must wait for a -> b: the public record_copy orders them as copy() would.
  auto rng = rng_for_current_test();
  const std::size_t n = 300007;
  const auto data = random_words(n, rng);
  Buffer a = ctx().create_buffer(n * 4);
  Buffer b = ctx().create_buffer(n * 4);
  Buffer c = ctx().create_buffer(n * 4 + 4);
  ctx().upload(a, std::span<const std::uint32_t>(data));
  const std::uint32_t sentinel[] = {0xDEADBEEF};
  ctx().upload(c, sentinel, 4, n * 4);
  ctx().run([&](Recorder& r) {
    ctx().record_copy(r, a, b, n * 4);
    ctx().record_copy(r, b, c, n * 4);
  });
  std::vector<std::uint32_t> back(n + 1);
  ctx().download(c, std::span<std::uint32_t>(back));
  EXPECT_TRUE(std::equal(data.begin(), data.end(), back.begin()));
  EXPECT_EQ(back[n], 0xDEADBEEF) << "the copy wrote past its end";
}

TEST_F(BufferTest, RecordedCopyRefusesWhatCopyRefuses) {
  Buffer b = ctx().create_buffer(64);
  Buffer big = ctx().create_buffer(128);
  EXPECT_THROW(ctx().run([&](Recorder& r) { ctx().record_copy(r, b, big, 6); }), Error);
  EXPECT_THROW(ctx().run([&](Recorder& r) { ctx().record_copy(r, big, b, 128); }), Error);
  ctx().copy(b, big, 64);  // the context still works
}

TEST_F(BufferTest, RangesOutsideTheBufferAreRefused) {
  Buffer b = ctx().create_buffer(64);
  std::vector<std::byte> data(128);
  EXPECT_THROW(ctx().upload(b, data.data(), 128), Error);
  EXPECT_THROW(ctx().download(b, data.data(), 16, 56), Error);
  EXPECT_THROW(ctx().copy(b, b, 6), Error);
}

TEST_F(BufferTest, EmptyBuffersAndTransfersAreAllowed) {
  Buffer b = ctx().create_buffer(0);
  EXPECT_TRUE(b);
  EXPECT_EQ(b.bytes(), 0u);
  ctx().upload(b, nullptr, 0);
  ctx().download(b, nullptr, 0);
}

}  // namespace
}  // namespace vkc::test
