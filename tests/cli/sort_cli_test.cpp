// vkc sort through files: .npy and raw round trips against std::stable_sort, argsort as a
// uint64 .npy, and every bad input refused with one line, a non-zero exit and no output file.
#include <gmock/gmock.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <numeric>
#include <sstream>

#include "cli/sort_fixture.hpp"
#include "io/numpy_python.hpp"
#include "vkc/sort.hpp"

namespace vkc::test {
namespace {

using ::testing::HasSubstr;

TEST_F(CliSort, SortsANpyFileLikeStdSort) {
  const auto keys = random<float>(100003);
  write_npy("in.npy", io::DType::f32, keys);
  const auto before = io::read_npy(path("in.npy")).bytes;
  const auto o = run_vkc("sort " + path("in.npy") + " -o " + path("out.npy"), dir_);
  ASSERT_EQ(o.status, 0) << o.err;
  const auto out = io::read_npy(path("out.npy"));
  EXPECT_EQ(out.dtype, io::DType::f32);
  std::vector<float> expected = keys;
  std::stable_sort(expected.begin(), expected.end());
  expect_same_bytes(out, expected);
  EXPECT_EQ(io::read_npy(path("in.npy")).bytes, before) << "the input changed";
}

TEST_F(CliSort, SortsRawInt64DescendingWithEveryAlgorithm) {
  const auto keys = random<std::int64_t>(5000);
  io::write_raw(path("in.bin"), std::as_bytes(std::span(keys)));
  for (const char* algo : {"bitonic", "bitonic_transpose", "odd_even", "radix"}) {
    const auto o = run_vkc(std::string("sort --type i64 --order desc --algo ") + algo + " " + path("in.bin") + " -o " +
                               path("out.bin"),
                           dir_);
    ASSERT_EQ(o.status, 0) << algo << ": " << o.err;
    const auto out = io::read_raw(path("out.bin"), io::DType::i64);
    std::vector<std::int64_t> expected = keys;
    std::sort(expected.begin(), expected.end(), std::greater<>());
    expect_same_bytes(out, expected, algo);
  }
}

TEST_F(CliSort, ArgsortWritesTheStablePermutationAsUint64) {
  std::vector<std::uint32_t> keys(20000);
  auto rng = rng_for_current_test();
  for (auto& k : keys) k = rng() % 50;  // many ties: only a stable sort gives the reference
  write_npy("in.npy", io::DType::u32, keys);
  const auto o = run_vkc("sort --argsort " + path("in.npy") + " -o " + path("out.npy"), dir_);
  ASSERT_EQ(o.status, 0) << o.err;
  const auto out = io::read_npy(path("out.npy"));
  ASSERT_EQ(out.dtype, io::DType::u64);
  std::vector<std::uint64_t> perm(out.count());
  std::memcpy(perm.data(), out.bytes.data(), out.bytes.size());
  std::vector<std::uint64_t> expected(keys.size());
  std::iota(expected.begin(), expected.end(), 0);
  std::stable_sort(expected.begin(), expected.end(), [&](auto a, auto b) { return keys[a] < keys[b]; });
  EXPECT_EQ(perm, expected);
}

TEST_F(CliSort, EmptyArrayRoundTrips) {
  write_npy("in.npy", io::DType::u64, std::vector<std::uint64_t>{});
  const auto o = run_vkc("sort " + path("in.npy") + " -o " + path("out.npy"), dir_);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(io::read_npy(path("out.npy")).count(), 0u);
}

TEST_F(CliSort, RefusesAMissingFile) { expect_refused("sort " + path("nope.npy") + " -o " + path("out.npy"), "nope.npy"); }

TEST_F(CliSort, RefusesATruncatedNpy) {
  write_npy("in.npy", io::DType::u32, std::vector<std::uint32_t>(1000, 7));
  std::filesystem::resize_file(path("in.npy"), 300);
  expect_refused("sort " + path("in.npy") + " -o " + path("out.npy"), "truncated");
}

TEST_F(CliSort, RefusesARawSizeThatIsNotAMultipleOfTheType) {
  std::ofstream(path("in.bin")) << "0123456789";
  expect_refused("sort --type u64 " + path("in.bin") + " -o " + path("out.bin"), "not a multiple");
}

TEST_F(CliSort, RefusesRawInputWithoutAType) {
  std::ofstream(path("in.bin")) << "01234567";
  expect_refused("sort " + path("in.bin") + " -o " + path("out.bin"), "--type");
}

TEST_F(CliSort, RefusesBigEndianAndObjectDtypes) {
  for (const char* descr : {">u4", "|O"}) {
    std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (2,), }";
    header.resize(117, ' ');
    header += '\n';
    std::ofstream f(path("in.npy"), std::ios::binary);
    f << "\x93NUMPY" << '\x01' << '\x00' << static_cast<char>(header.size()) << '\x00' << header << "abcdefgh";
    f.close();
    expect_refused("sort " + path("in.npy") + " -o " + path("out.npy"), descr);
  }
}

TEST_F(CliSort, RefusesFortranOrderAndZeroDimensions) {
  const float scalar = 1.0f;
  io::write_npy(path("in.npy"), io::DType::f32, std::as_bytes(std::span(&scalar, 1)), {});
  expect_refused("sort " + path("in.npy") + " -o " + path("out.npy"), "0-dimensional");
  std::string header = "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }";
  header.resize(117, ' ');
  header += '\n';
  std::ofstream f(path("f.npy"), std::ios::binary);
  f << "\x93NUMPY" << '\x01' << '\x00' << static_cast<char>(header.size()) << '\x00' << header << "abcdefgh";
  f.close();
  expect_refused("sort " + path("f.npy") + " -o " + path("out.npy"), "ortran");
}

TEST_F(CliSort, RefusesAnOutputThatCannotBeWritten) {
  write_npy("in.npy", io::DType::u32, std::vector<std::uint32_t>{3, 1, 2});
  expect_refused("sort " + path("in.npy") + " -o " + path("no-such-dir/out.npy"), "no-such-dir");
}

TEST_F(CliSort, RefusesToOverwriteItsInput) {
  write_npy("in.npy", io::DType::u32, std::vector<std::uint32_t>{3, 1, 2});
  const auto before = io::read_npy(path("in.npy")).bytes;
  expect_refused("sort " + path("in.npy") + " -o " + path("in.npy"), "never modifies its input");
  EXPECT_EQ(io::read_npy(path("in.npy")).bytes, before);
}

TEST_F(CliSort, FileToFileOutputIsTheLibrarysSortForEveryType) {
  // Past one staging chunk of a CPU device (1 MiB), so several threads write the output.
  const std::size_t n = 300007;
  expect_cli_equals_library(io::DType::u32, random<std::uint32_t>(n));
  expect_cli_equals_library(io::DType::i32, random<std::int32_t>(n));
  expect_cli_equals_library(io::DType::f32, random<float>(n));
  expect_cli_equals_library(io::DType::u64, random<std::uint64_t>(n));
  expect_cli_equals_library(io::DType::i64, random<std::int64_t>(n));
  expect_cli_equals_library(io::DType::f64, random<double>(n));
}

// The unnamed files a run opened, or tried to, from the file log (file_log.cpp): its "tmpfile"
// and "tmpfile-refused" lines.
std::string unnamed_files(const std::filesystem::path& log) {
  std::string lines;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("tmpfile")) lines += line + "\n";
  }
  return lines;
}

TEST_F(CliSort, FileIntoStandardOutputIsTheLibrarysSortWithOrWithoutScratchSpace) {
  // Standard output takes its bytes in order: the sorted chunks wait in an unnamed scratch file
  // in $TMPDIR, or, where none can be made there, the keys are sorted in memory.
  const auto keys = random<double>(300007);
  write_npy("in.npy", io::DType::f64, keys);
  auto sorted = keys;
  vkc::sort(ctx(), std::span(sorted));
  const auto perm = vkc::argsort64(ctx(), std::span<const double>(keys));
  std::filesystem::create_directory(path("tmp"));
  for (const std::string tmpdir : {path("tmp"), path("missing")}) {
    SCOPED_TRACE("TMPDIR=" + tmpdir);
    const std::string env = "TMPDIR='" + tmpdir + "' LD_PRELOAD='" VKC_FILE_LOG_LIBRARY "' VKC_FILE_LOG='" +
                            path("files.log") + "' ";
    auto o = run_vkc("sort " + path("in.npy") + " -o -", dir_, env);
    ASSERT_EQ(o.status, 0) << o.err;
    std::ofstream(path("out.npy"), std::ios::binary) << o.out;
    expect_same_bytes(io::read_npy(path("out.npy")), sorted, "keys");
    o = run_vkc("sort --argsort " + path("in.npy") + " -o /dev/stdout", dir_, env);
    ASSERT_EQ(o.status, 0) << o.err;
    std::ofstream(path("perm.npy"), std::ios::binary) << o.out;
    expect_same_bytes(io::read_npy(path("perm.npy")), perm, "argsort");
    const std::string opened = (tmpdir == path("tmp") ? "tmpfile " : "tmpfile-refused ") + tmpdir + "\n";
    EXPECT_EQ(unnamed_files(path("files.log")), opened + opened);
    EXPECT_TRUE(std::filesystem::is_empty(path("tmp"))) << "the scratch file has a name";
    std::filesystem::remove(path("files.log"));
  }
}

TEST_F(CliSort, NpyFromStandardInputIsCopiedToScratchSpaceThenSortedIntoTheFile) {
  // A pipe cannot be read at offsets by several threads: a .npy stream (its count in the header)
  // goes into an unnamed scratch file in $TMPDIR first; raw keys from a stream (count unknown)
  // and streams without scratch space are read into memory.
  const auto keys = random<std::int32_t>(300007);
  write_npy("in.npy", io::DType::i32, keys);
  std::ofstream(path("in.bin"), std::ios::binary)
      .write(reinterpret_cast<const char*>(keys.data()), static_cast<std::streamsize>(keys.size() * sizeof(keys[0])));
  auto sorted = keys;
  vkc::sort(ctx(), std::span(sorted));
  std::filesystem::create_directory(path("tmp"));
  struct Case {
    std::string input, args, tmpdir, log;
  };
  const Case cases[] = {{"in.npy", "", path("tmp"), "tmpfile " + path("tmp") + "\n"},
                        {"in.npy", "", path("missing"), "tmpfile-refused " + path("missing") + "\n"},
                        {"in.bin", "--type i32 ", path("tmp"), ""}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.input + ", TMPDIR=" + c.tmpdir);
    // Piped in by cat (a file redirected to standard input is read at offsets like any file).
    const std::string device = "VKC_DEVICE=" + std::to_string(ctx().info().index);
    const std::string env = "cat '" + path(c.input) + "' | " + device + " TMPDIR='" + c.tmpdir + "' LD_PRELOAD='"
                            VKC_FILE_LOG_LIBRARY "' VKC_FILE_LOG='" + path("files.log") + "' ";
    const auto o = run_vkc("sort " + c.args + "-o " + path("out") + " -", dir_, env);
    ASSERT_EQ(o.status, 0) << o.err;
    const bool npy = c.input == "in.npy";
    const io::Array out = npy ? io::read_npy(path("out")) : io::read_raw(path("out"), io::DType::i32);
    expect_same_bytes(out, sorted);
    EXPECT_EQ(unnamed_files(path("files.log")), c.log);
    std::filesystem::remove(path("files.log"));
    EXPECT_TRUE(std::filesystem::is_empty(path("tmp"))) << "the scratch file has a name";
  }
}

TEST_F(CliSort, FileToFileArgsortIsTheLibrarysPermutationWidened) {
  const auto keys = random<float>(300007);
  write_npy("in.npy", io::DType::f32, keys);
  const auto o = run_vkc("sort --argsort " + path("in.npy") + " -o " + path("out.npy"), dir_);
  ASSERT_EQ(o.status, 0) << o.err;
  const auto perm = vkc::argsort(ctx(), std::span<const float>(keys));
  expect_same_bytes(io::read_npy(path("out.npy")), std::vector<std::uint64_t>(perm.begin(), perm.end()));
}

// The calls in the file log (file_log.cpp) that name `dir` or a file in it.
std::vector<std::string> calls_in(const std::string& log, const std::filesystem::path& dir) {
  std::vector<std::string> lines;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (line.find(" " + dir.string()) != std::string::npos) lines.push_back(line.substr(0, line.find(' ')));
  }
  return lines;
}

TEST_F(CliSort, OutputReachesTheDiskBeforeItsRenameUnlessNoSync) {
  const auto keys = random<std::uint32_t>(300007);
  write_npy("in.npy", io::DType::u32, keys);
  auto sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  for (const bool no_sync : {false, true}) {
    SCOPED_TRACE(no_sync ? "--no-sync" : "default");
    const std::string preload = "LD_PRELOAD='" VKC_FILE_LOG_LIBRARY "' VKC_FILE_LOG='" + path("sync.log") + "' ";
    const auto o = run_vkc(std::string("sort ") + (no_sync ? "--no-sync " : "") + path("in.npy") + " -o " + path("out.npy"),
                           dir_, preload);
    ASSERT_EQ(o.status, 0) << o.err;
    expect_same_bytes(io::read_npy(path("out.npy")), sorted);
    const auto syncs = calls_in(std::filesystem::exists(path("sync.log")) ? slurp(path("sync.log")) : "",
                                std::filesystem::canonical(dir_));
    if (no_sync) {
      EXPECT_THAT(syncs, ::testing::IsEmpty());
    } else {
      // The chunks' write-back started as they were written, the file and its directory synced.
      EXPECT_THAT(syncs, ::testing::Contains("sync_file_range"));
      EXPECT_EQ(std::count(syncs.begin(), syncs.end(), "fsync"), 2);
    }
    std::filesystem::remove(path("sync.log"));
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) names.push_back(entry.path().filename());
    EXPECT_THAT(names, ::testing::UnorderedElementsAre("in.npy", "out.npy")) << "a temporary file was left";
  }
}

TEST_F(CliSort, FilesPastTheDeviceMemoryLimitSortAsTheyWouldInMemory) {
  // 1.2 MB of keys under a 256 KiB device limit: sorted in runs kept in host memory and merged
  // on the device; the reference is the library's in-memory sort on an unlimited context.
  const std::string limited = "VKC_DEVICE_MEMORY_LIMIT=256K ";
  auto keys = random<std::uint32_t>(300007);
  write_npy("in.npy", io::DType::u32, keys);
  auto o = run_vkc("sort --order desc " + path("in.npy") + " -o " + path("out.npy"), dir_, limited);
  ASSERT_EQ(o.status, 0) << o.err;
  auto sorted = keys;
  vkc::sort(ctx(), std::span(sorted), {.order = SortOrder::descending});
  expect_same_bytes(io::read_npy(path("out.npy")), sorted, "file to file");
  // Standard input is read whole, then sorted the same way.
  o = run_vkc("sort - -o " + path("stdin.npy") + " <" + path("in.npy"), dir_, limited);
  ASSERT_EQ(o.status, 0) << o.err;
  std::sort(sorted.begin(), sorted.end());
  expect_same_bytes(io::read_npy(path("stdin.npy")), sorted, "from standard input");
  // Few distinct keys: the stable permutation, whose equal keys span many parts.
  std::vector<float> few(200003);
  for (std::size_t i = 0; i < few.size(); ++i) few[i] = static_cast<float>(keys[i] % 3);
  write_npy("few.npy", io::DType::f32, few);
  o = run_vkc("sort --argsort " + path("few.npy") + " -o " + path("perm.npy"), dir_, limited);
  ASSERT_EQ(o.status, 0) << o.err;
  expect_same_bytes(io::read_npy(path("perm.npy")), vkc::argsort64(ctx(), std::span<const float>(few)), "argsort");
}

TEST_F(CliSort, AWriteFailureMidOutputLeavesNoOutputAndTheInputUnchanged) {
  const auto keys = random<std::int64_t>(300007);  // 2.4 MB, past the 256 KiB the limit allows
  write_npy("in.npy", io::DType::i64, keys);
  const std::string before = slurp(path("in.npy"));
  const std::string command = "ulimit -f 512; VKC_DEVICE=" + std::to_string(ctx().info().index) + " '" VKC_EXECUTABLE
                              "' --quiet sort " + path("in.npy") + " -o " + path("out.npy") + " 2>'" + path("err.txt") + "'";
  const int raw = std::system(("bash -c \"" + command + "\"").c_str());
  ASSERT_TRUE(WIFEXITED(raw));
  EXPECT_EQ(WEXITSTATUS(raw), 1);
  const std::string err = slurp(path("err.txt"));
  EXPECT_EQ(line_count(err), 1) << err;
  EXPECT_THAT(err, HasSubstr("out.npy")) << err;
  EXPECT_EQ(slurp(path("in.npy")), before);
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) names.push_back(entry.path().filename());
  EXPECT_THAT(names, ::testing::UnorderedElementsAre("in.npy", "err.txt")) << "an output or temporary file was left";
}

TEST_F(CliSort, ExistingOutputSurvivesAFailedRun) {
  write_npy("in.npy", io::DType::u32, std::vector<std::uint32_t>{3, 1, 2});
  std::ofstream(path("old.npy")) << "precious";
  // Bad input (refused before the output is touched), then a failure after the output checks
  // (no such device), then a --type that disagrees with the file.
  for (const std::string& args : {"sort " + path("missing.npy") + " -o " + path("old.npy"),
                                  "--device 42 sort " + path("in.npy") + " -o " + path("old.npy"),
                                  "sort --type f32 " + path("in.npy") + " -o " + path("old.npy")}) {
    const auto o = run_vkc(args, dir_);
    EXPECT_NE(o.status, 0) << args;
    EXPECT_EQ(line_count(o.err), 1) << o.err;
    std::ifstream in(path("old.npy"));
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "precious") << args;
  }
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) names.push_back(entry.path().filename());
  EXPECT_THAT(names, ::testing::UnorderedElementsAre("in.npy", "old.npy")) << "a temporary file was left behind";
}

TEST_F(CliSort, RefusesATypeThatDisagreesWithTheNpyDtype) {
  write_npy("in.npy", io::DType::u32, std::vector<std::uint32_t>{3, 1, 2});
  expect_refused("sort --type f32 " + path("in.npy") + " -o " + path("out.npy"), "holds u32, not --type f32");
}

TEST_F(CliSort, AgreesWithTheSameTypeGivenForANpyFile) {
  write_npy("in.npy", io::DType::i32, std::vector<std::int32_t>{3, -1, 2});
  const auto o = run_vkc("sort --type i32 " + path("in.npy") + " -o " + path("out.npy"), dir_);
  ASSERT_EQ(o.status, 0) << o.err;
  expect_same_bytes(io::read_npy(path("out.npy")), std::vector<std::int32_t>{-1, 2, 3});
}

// NumPy writes the input and computes the reference: np.sort(kind="stable") puts NaN last and
// keeps -0.0 and +0.0 in input order; the contract adds -0.0 before +0.0 (after it descending),
// and descending is the reverse of ascending with the NaNs still last.
TEST_F(CliSort, NaNAndSignedZeroOrderMatchesNumPy) {
  const std::string script =
      "import numpy as np, sys\n"
      "d = sys.argv[1]; rng = np.random.default_rng(7)\n"
      "for t in ('f4', 'f8'):\n"
      "    pool = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1.5, -1.5, 1e-40, -1e-40, 3.0], dtype=t)\n"
      "    x = np.concatenate([pool, rng.choice(pool, 3000), rng.standard_normal(1000).astype(t)])\n"
      "    np.save(f'{d}/in_{t}.npy', x)\n"
      "    a = np.sort(x, kind='stable'); z = a == 0\n"
      "    a[z] = np.concatenate([a[z][np.signbit(a[z])], a[z][~np.signbit(a[z])]])\n"
      "    nan = np.isnan(a)\n"
      "    np.save(f'{d}/asc_{t}.npy', a)\n"
      "    np.save(f'{d}/desc_{t}.npy', np.concatenate([a[~nan][::-1], a[nan]]))\n";
  std::ofstream(path("make.py")) << script;
  const std::string python = numpy_python();
  ASSERT_FALSE(python.empty()) << "python3 with numpy is needed (scripts/deps.sh installs python3-numpy)";
  ASSERT_EQ(std::system((python + " '" + path("make.py") + "' '" + dir_.string() + "'").c_str()), 0)
      << "python3 with numpy is needed (scripts/deps.sh installs python3-numpy)";
  const std::pair<const char*, const char*> runs[] = {{"f4", "asc"},  {"f4", "desc"}, {"f8", "asc"},
                                                      {"f8", "desc"}, {"f4", "asc --algo bitonic"},
                                                      {"f8", "desc --algo odd_even"}};
  for (const auto& [type, order] : runs) {
    const std::string what = std::string(type) + " " + order;
    const auto o = run_vkc("sort --order " + std::string(order) + " " + path(std::string("in_") + type + ".npy") +
                               " -o " + path("out.npy"),
                           dir_);
    ASSERT_EQ(o.status, 0) << what << ": " << o.err;
    const auto expected = io::read_npy(path(std::string(order).substr(0, std::string(order).find(' ')) + "_" + type + ".npy"));
    const auto out = io::read_npy(path("out.npy"));
    ASSERT_EQ(out.bytes.size(), expected.bytes.size()) << what;
    EXPECT_TRUE(out.bytes == expected.bytes) << what;
  }
}

// --devices: the test's device opened twice and three times; keys, argsort and both orders as
// NumPy sorts them (its stable sorts under the contract: python/tests/reference.py), and lists
// that name no device refused before any output exists.
TEST_F(CliSort, DevicesSortTogetherAsNumPy) {
  run_numpy(std::string(R"(
import numpy as np, sys
d = sys.argv[1]
sys.path.insert(0, ')") + VKC_PYTHON_TESTS_DIR + R"(')
from reference import random_keys, sorted_reference, stable_order
rng = np.random.default_rng(54)
for t in ('f4', 'i8', 'u2'):
    x = random_keys(rng, t, 50021)
    np.save(f'{d}/in_{t}.npy', x)
    for order in ('asc', 'desc'):
        np.save(f'{d}/{order}_{t}.npy', sorted_reference(x, order == 'desc'))
        np.save(f'{d}/arg_{order}_{t}.npy', stable_order(x, order == 'desc').astype(np.uint64))
)");
  const std::string index = std::to_string(ctx().info().index);
  for (const std::string devices : {index + "," + index, index + "," + index + "," + index}) {
    for (const std::string t : {"f4", "i8", "u2"}) {
      for (const std::string order : {"asc", "desc"}) {
        SCOPED_TRACE(devices + " " + t + " " + order);
        expect_output("--devices " + devices + " --order " + order, "in_" + t + ".npy", order + "_" + t + ".npy");
        expect_output("--devices " + devices + " --argsort --order " + order, "in_" + t + ".npy",
                      "arg_" + order + "_" + t + ".npy");
      }
    }
  }
  std::filesystem::remove(path("out.npy"));
  expect_refused("sort --devices " + index + ",," + index + " " + path("in_f4.npy") + " -o " + path("out.npy"),
                 "empty item");
  expect_refused("sort --devices 99 " + path("in_f4.npy") + " -o " + path("out.npy"), "99");
}

}  // namespace
}  // namespace vkc::test
