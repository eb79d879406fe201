// Specification of ScratchFile: unnamed, takes disjoint writes from several threads, reads them
// back, refuses what it cannot hold, and copy_in_order hands its bytes on in order.
#include "io/scratch_file.hpp"

#include "io/npy.hpp"
#include "scratch_dir.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <thread>
#include <vector>

namespace vkc::io {
namespace {

using test::read_file;
using ScratchFileTest = test::ScratchDir;

std::vector<std::uint32_t> counting(std::size_t n) {
  std::vector<std::uint32_t> v(n);
  std::iota(v.begin(), v.end(), 7u);
  return v;
}

TEST_F(ScratchFileTest, ReadsBackWhatThreadsWroteOutOfOrderAndHasNoName) {
  const auto data = counting(1 << 18);
  const auto bytes = std::as_bytes(std::span(data));
  ScratchFile scratch(bytes.size(), dir_);
  const std::size_t piece = bytes.size() / 8;
  std::vector<std::thread> writers;
  for (std::size_t p = 8; p-- > 0;) {
    writers.emplace_back([&, p] { scratch.write_at(p * piece, bytes.subspan(p * piece, piece)); });
  }
  for (auto& writer : writers) writer.join();
  std::vector<std::uint32_t> back(data.size());
  scratch.read_at(0, std::as_writable_bytes(std::span(back)));
  EXPECT_EQ(back, data);
  EXPECT_TRUE(entries().empty()) << "the scratch file shows in its directory";
}

TEST_F(ScratchFileTest, CopyInOrderWritesTheFirstBytesToAnOutput) {
  const auto data = counting((5 << 20) / 4 + 3);  // past one 4 MiB step, not a multiple of it
  const auto bytes = std::as_bytes(std::span(data));
  ScratchFile scratch(bytes.size(), dir_);
  scratch.write_at(0, bytes);
  AtomicFile out(path("out.bin"));
  copy_in_order(scratch, bytes.size() - 4, out);
  out.commit();
  const std::string written = read_file(path("out.bin"));
  ASSERT_EQ(written.size(), bytes.size() - 4);
  EXPECT_EQ(std::memcmp(written.data(), data.data(), written.size()), 0);
}

TEST_F(ScratchFileTest, RefusesAMissingDirectoryAndMoreThanTheFreeSpace) {
  EXPECT_THROW(ScratchFile(1, path("missing")), FormatError);
  EXPECT_THROW(ScratchFile(std::numeric_limits<std::uint64_t>::max(), dir_), FormatError);
  EXPECT_TRUE(entries().empty());
}

TEST_F(ScratchFileTest, ReadingPastWhatWasWrittenIsAnError) {
  ScratchFile scratch(16, dir_);
  scratch.write_at(0, std::as_bytes(std::span("0123456789", 10)));
  std::vector<std::byte> back(16);
  EXPECT_THROW(scratch.read_at(0, back), FormatError);
}

}  // namespace
}  // namespace vkc::io
