// The fixture of the tests of vkc sort: a scratch folder, inputs written into it, and the check
// that a command line is refused as bad input should be.
#pragma once

#include <gmock/gmock.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/run.hpp"
#include "io/npy.hpp"
#include "io/numpy_python.hpp"
#include "support/gpu_test.hpp"
#include "vkc/sort.hpp"

namespace vkc::test {

// The whole output equals the reference: same length (an empty or truncated output fails), same bytes.
template <class T>
void expect_same_bytes(const io::Array& out, const std::vector<T>& expected, const std::string& what = "") {
  ASSERT_EQ(out.bytes.size(), expected.size() * sizeof(T)) << what;
  EXPECT_EQ(std::memcmp(out.bytes.data(), expected.data(), out.bytes.size()), 0) << what;
}

class CliSort : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    dir_ = scratch_dir();
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    GpuTest::TearDown();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  template <class T>
  std::vector<T> random(std::size_t n) {
    auto rng = rng_for_current_test();
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(static_cast<std::int64_t>(rng() % 2000001) - 1000000) / T(3);
    return v;
  }

  template <class T>
  void write_npy(const std::string& name, io::DType d, const std::vector<T>& v) {
    io::write_npy(path(name), d, std::as_bytes(std::span(v)), {v.size()});
  }

  // Refused: non-zero exit, exactly one line naming `needle`, no output file.
  void expect_refused(const std::string& args, const std::string& needle) {
    const auto o = run_vkc(args, dir_);
    EXPECT_NE(o.status, 0) << args;
    EXPECT_EQ(line_count(o.err), 1) << o.err;
    EXPECT_THAT(o.err, ::testing::HasSubstr(needle)) << args;
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
      EXPECT_THAT(entry.path().filename().string(), ::testing::Not(::testing::HasSubstr("out")))
          << "a file was left behind";
    }
  }

  // Writes `keys` as an .npy input, sorts it with vkc (file to file: the streamed path) and
  // checks the output against the library's own sort of the same keys.
  template <class T>
  void expect_cli_equals_library(io::DType type, std::vector<T> keys) {
    write_npy("in.npy", type, keys);
    const auto o = run_vkc("sort --order desc " + path("in.npy") + " -o " + path("out.npy"), dir_);
    ASSERT_EQ(o.status, 0) << o.err;
    vkc::sort(ctx(), std::span(keys), {.order = SortOrder::descending});
    const io::Array result = io::read_npy(path("out.npy"));
    EXPECT_EQ(result.dtype, type);
    EXPECT_EQ(result.shape, std::vector<std::size_t>{keys.size()});
    expect_same_bytes(result, keys, std::string(io::dtype_name(type)));
  }

  // Runs `vkc sort ARGS INPUT -o OUT` and expects OUT to hold the array of the .npy file
  // `expected` (the same dtype, shape and bytes), or, for raw output, its bytes.
  void expect_output(const std::string& args, const std::string& input, const std::string& expected,
                     const std::string& out = "out.npy") {
    const auto o = run_vkc("sort " + args + " " + path(input) + " -o " + path(out), dir_);
    ASSERT_EQ(o.status, 0) << args << ": " << o.err;
    const std::string what = args + " " + input + " vs " + expected;
    if (!out.ends_with(".npy")) {
      EXPECT_EQ(slurp(path(out)), slurp(path(expected))) << what;
      return;
    }
    const io::Array result = io::read_npy(path(out)), reference = io::read_npy(path(expected));
    EXPECT_EQ(result.dtype, reference.dtype) << what;
    EXPECT_EQ(result.shape, reference.shape) << what;
    EXPECT_TRUE(result.bytes == reference.bytes) << what;
  }

  // Runs a Python script with NumPy, the scratch folder as its argument (sys.argv[1]).
  void run_numpy(const std::string& script) {
    std::ofstream(path("numpy_script.py")) << script;
    const std::string python = numpy_python();
    ASSERT_FALSE(python.empty()) << "python3 with numpy is needed (scripts/deps.sh installs python3-numpy)";
    ASSERT_EQ(std::system((python + " '" + path("numpy_script.py") + "' '" + dir_.string() + "'").c_str()), 0)
        << "the NumPy script failed";
  }

  std::filesystem::path dir_;
};

}  // namespace vkc::test
