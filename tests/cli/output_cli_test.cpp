// Where vkc writes and what it reads, seen from the command line: each kind of -o target,
// standard input and output, interrupts, and every check that must come before the work.
#include <gmock/gmock.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

#include "cli/run.hpp"
#include "io/npy.hpp"
#include "support/gpu_test.hpp"

extern char** environ;

namespace vkc::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Without a Vulkan driver any device work fails with "no Vulkan driver found": a run that
// fails with its own message under this environment failed before touching the device.
const std::string kNoDevice = "VKC_VALIDATION=0 VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json ";

class CliOutput : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    dir_ = scratch_dir();
    keys_.resize(3000);
    auto rng = rng_for_current_test();
    for (auto& k : keys_) k = static_cast<std::uint32_t>(rng());
    io::write_npy(path("in.npy"), io::DType::u32, std::as_bytes(std::span(keys_)), {keys_.size()});
    sorted_ = keys_;
    std::sort(sorted_.begin(), sorted_.end());
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    GpuTest::TearDown();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string sort_to(const std::string& output, const std::string& extra = "") const {
    return "sort " + extra + " '" + path("in.npy") + "' -o '" + output + "'";
  }
  // The bytes a correct run writes: the input file's .npy layout with the keys sorted.
  std::string expected_npy() {
    io::write_npy(path("expected.npy"), io::DType::u32, std::as_bytes(std::span(sorted_)), {sorted_.size()});
    std::string bytes = read_all(path("expected.npy"));
    std::filesystem::remove(path("expected.npy"));
    return bytes;
  }
  // Names in the scratch folder that are not `keep` (temporary files show up here).
  std::vector<std::string> others(const std::vector<std::string>& keep) const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir_)) {
      const std::string name = e.path().filename();
      if (std::find(keep.begin(), keep.end(), name) == keep.end()) names.push_back(name);
    }
    return names;
  }
  // Fails before any device work: one line naming `needle`, under kNoDevice, within seconds.
  void expect_fails_fast(const std::string& args, const std::string& needle) {
    const auto start = std::chrono::steady_clock::now();
    const auto o = run_vkc(args, dir_, kNoDevice);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(o.status, 1) << args;
    EXPECT_EQ(line_count(o.err), 1) << args << ": " << o.err;
    EXPECT_THAT(o.err, HasSubstr(needle)) << args;
    EXPECT_THAT(o.err, Not(HasSubstr("no Vulkan driver"))) << args << ": checked after the device was used";
    EXPECT_LT(seconds, 5.0) << args;
  }

  std::filesystem::path dir_;
  std::vector<std::uint32_t> keys_, sorted_;
};

// ---- each kind of -o target ----

TEST_F(CliOutput, RegularFileIsReplacedOnSuccess) {
  std::ofstream(path("out.npy")) << "old";
  const auto o = run_vkc(sort_to(path("out.npy")), dir_);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(read_all(path("out.npy")), expected_npy());
  EXPECT_THAT(others({"in.npy", "out.npy"}), ::testing::IsEmpty());
}

TEST_F(CliOutput, MissingFileIsCreated) {
  const auto o = run_vkc(sort_to(path("new.npy")), dir_);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(read_all(path("new.npy")), expected_npy());
}

TEST_F(CliOutput, DashWritesStandardOutput) {
  const auto o = run_vkc(sort_to("-"), dir_);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(o.out == expected_npy()) << "stdout holds " << o.out.size() << " bytes";
  EXPECT_FALSE(std::filesystem::exists(dir_ / "-"));
}

TEST_F(CliOutput, DevStdoutRedirectedToAFileWritesThatFileInPlace) {
  const auto o = run_vkc(sort_to("/dev/stdout"), dir_);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(o.out == expected_npy());
}

// The reader opens first and without blocking; the output (12 KB) fits the pipe's buffer, so
// vkc finishes before anything is read, and a FIFO replaced by a file leaves the reader empty
// rather than waiting for ever.
TEST_F(CliOutput, FifoIsWrittenForItsReader) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  const int reader = ::open(path("fifo").c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  const auto o = run_vkc(sort_to(path("fifo")), dir_);
  std::string received;
  char buffer[4096];
  for (ssize_t n; (n = ::read(reader, buffer, sizeof buffer)) > 0;) received.append(buffer, std::size_t(n));
  ::close(reader);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(received == expected_npy()) << "the reader got " << received.size() << " bytes";
  EXPECT_TRUE(std::filesystem::is_fifo(path("fifo")));
  EXPECT_THAT(others({"in.npy", "fifo"}), ::testing::IsEmpty());
}

TEST_F(CliOutput, CharacterDeviceIsWrittenNotReplaced) {
  if (::mknod(path("null").c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) GTEST_SKIP() << "mknod needs root";
  const auto o = run_vkc(sort_to(path("null")), dir_);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(std::filesystem::is_character_file(path("null")));
  EXPECT_THAT(others({"in.npy", "null"}), ::testing::IsEmpty());
}

TEST_F(CliOutput, SymlinkIsFollowedAndItsTargetReplaced) {
  std::ofstream(path("target.npy")) << "old";
  std::filesystem::create_symlink("target.npy", path("link.npy"));
  const auto o = run_vkc(sort_to(path("link.npy")), dir_);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(std::filesystem::is_symlink(path("link.npy")));
  EXPECT_EQ(read_all(path("target.npy")), expected_npy());
}

TEST_F(CliOutput, ReadOnlyFileNeedsForce) {
  std::ofstream(path("ro.npy")) << "old";
  std::filesystem::permissions(path("ro.npy"), std::filesystem::perms::owner_read | std::filesystem::perms::group_read);
  expect_fails_fast(sort_to(path("ro.npy")), "read-only");
  EXPECT_EQ(read_all(path("ro.npy")), "old");
  const auto o = run_vkc("--force " + sort_to(path("ro.npy")), dir_);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(read_all(path("ro.npy")), expected_npy());
}

// ---- standard input ----

TEST_F(CliOutput, ReadsANpyStreamFromStandardInput) {
  const auto o = run_vkc("sort - -o - < '" + path("in.npy") + "'", dir_);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(o.out == expected_npy());
}

TEST_F(CliOutput, ReadsRawKeysFromStandardInputWithType) {
  io::write_raw(path("in.bin"), std::as_bytes(std::span(keys_)));
  const auto o = run_vkc("sort --type u32 - -o '" + path("out.bin") + "' < '" + path("in.bin") + "'", dir_);
  ASSERT_EQ(o.status, 0) << o.err;
  const auto out = io::read_raw(path("out.bin"), io::DType::u32);
  ASSERT_EQ(out.bytes.size(), sorted_.size() * 4);
  EXPECT_EQ(std::memcmp(out.bytes.data(), sorted_.data(), out.bytes.size()), 0);
}

// ---- interrupts ----

// Runs vkc with `args` in the scratch folder, sends `signal` once the output's temporary file
// exists, and returns the exit status (-1 unless it exited normally).
int interrupt_while_writing(const std::filesystem::path& dir, const std::vector<std::string>& args, int signal) {
  std::vector<char*> argv{const_cast<char*>(VKC_EXECUTABLE)};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, (dir / "stderr.txt").c_str(), O_WRONLY | O_CREAT, 0644);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, VKC_EXECUTABLE, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -2;
  auto temp_name = [&] {
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (e.path().filename().string().starts_with(".out.npy.tmp-")) return e.path().filename().string();
    }
    return std::string();
  };
  // The output's temporary file, seen twice 20 ms apart (the early check's probe lives for
  // microseconds; the output's lives through the sort until its rename).
  for (int i = 0; i < 5000; ++i) {
    const std::string name = temp_name();
    std::this_thread::sleep_for(std::chrono::milliseconds(name.empty() ? 1 : 20));
    if (!name.empty() && std::filesystem::exists(dir / name)) break;
  }
  ::kill(pid, signal);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_F(CliOutput, InterruptRemovesTheTemporaryFileAndExits128PlusSignal) {
  for (const auto& [signal, code] : {std::pair{SIGINT, 130}, std::pair{SIGTERM, 143}}) {
    std::ofstream(path("out.npy")) << "old";
    const std::string device = std::to_string(ctx().info().index);
    EXPECT_EQ(interrupt_while_writing(dir_, {"--device", device, "sort", path("in.npy"), "-o", path("out.npy")}, signal),
              code)
        << read_all(path("stderr.txt"));
    EXPECT_EQ(read_all(path("out.npy")), "old");
    EXPECT_THAT(others({"in.npy", "out.npy", "stderr.txt"}), ::testing::IsEmpty()) << "debris after signal " << signal;
  }
}

// ---- checks before the work ----

TEST_F(CliOutput, SortChecksItsOutputBeforeTheWork) {
  std::ofstream(path("file")) << "";
  expect_fails_fast(sort_to(path("no-such-dir/out.npy")), "no-such-dir");
  expect_fails_fast(sort_to(path("file/out.npy")), "Not a directory");
  std::filesystem::create_directory(path("dir"));
  expect_fails_fast(sort_to(path("dir")), "is a directory");
}

TEST_F(CliOutput, SortChecksTheHostMemoryTheHeaderAsksFor) {
  // 2^36 u32 keys: a sparse 256 GiB file whose data is never read, more than the machine holds.
  const std::vector<std::uint32_t> none;
  io::write_npy(path("huge.npy"), io::DType::u32, {}, {0});
  std::string header = read_all(path("huge.npy"));
  const auto at = header.find("(0,)");
  header.replace(at, 4, "(68719476736,)");
  header.erase(header.size() - 11, 10);  // keep the 64-byte alignment and the final '\n'
  std::ofstream(path("huge.npy"), std::ios::binary) << header;
  std::filesystem::resize_file(path("huge.npy"), header.size() + (std::uint64_t{1} << 38));
  expect_fails_fast("sort '" + path("huge.npy") + "' -o '" + path("out.npy") + "'", "of host memory");
}

TEST_F(CliOutput, SortRefusesOddEvenOnALargeInputWithoutForce) {
  std::vector<std::uint32_t> many(70000, 1);
  io::write_npy(path("many.npy"), io::DType::u32, std::as_bytes(std::span(many)), {many.size()});
  expect_fails_fast("sort --algo odd_even '" + path("many.npy") + "' -o '" + path("out.npy") + "'", "--force");
}

TEST_F(CliOutput, NbodyChecksItsArgumentsAndOutputsBeforeTheWork) {
  std::ofstream(path("file")) << "";
  expect_fails_fast("nbody --bodies -5", "at least 2 bodies");
  expect_fails_fast("nbody --bodies 1000000000000", "more than this machine can hold");
  expect_fails_fast("nbody --dt 1e300", "--dt");
  expect_fails_fast("nbody --dt 1e-300", "--dt");
  expect_fails_fast("nbody --save '" + path("no-such-dir/s.npy") + "'", "no-such-dir");
  expect_fails_fast("nbody --frames '" + path("file/frames") + "'", "frames");
  std::filesystem::copy_file(path("in.npy"), path("state.npy"));
  expect_fails_fast("nbody --load '" + path("state.npy") + "' --save '" + path("state.npy") + "'", "--load file");
}

TEST_F(CliOutput, BenchChecksRangesAndOutputsBeforeTheWork) {
  expect_fails_fast("bench sort --min-n 1000 --max-n 100", "larger than --max-n");
  expect_fails_fast("bench sort --max-n 0", "--max-n must be at least 1");
  expect_fails_fast("bench sort --max-n 1024 --csv '" + path("no-such-dir/b.csv") + "'", "no-such-dir");
  expect_fails_fast("bench nbody --n 1024 --csv '" + path("no-such-dir/b.csv") + "'", "no-such-dir");
  if (std::system("command -v gnuplot >/dev/null 2>&1") == 0) {
    expect_fails_fast("bench sort --max-n 1024 --plot '" + path("no-such-dir/p.png") + "'", "no-such-dir");
  } else {
    expect_fails_fast("bench sort --max-n 1024 --plot '" + path("p.png") + "'", "needs gnuplot");
  }
}

}  // namespace
}  // namespace vkc::test
