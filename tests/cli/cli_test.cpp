// vkc info and the runtime's failure modes, seen from the command line: one clear line on
// stderr and a non-zero exit, never a crash or a hang.
#include <gmock/gmock.h>
#include <sys/wait.h>

#include <fstream>
#include <random>
#include <sstream>

#include "cli/run.hpp"
#include "support/gpu_test.hpp"

namespace vkc::test {

namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class CliInfo : public GpuTest {};

TEST_F(CliInfo, ListsTheDeviceWithItsLimits) {
  const auto dir = scratch_dir();
  const auto o = run_vkc("info", dir);
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_THAT(o.out, HasSubstr(ctx().info().name));
  EXPECT_THAT(o.out, HasSubstr("subgroup size         " + std::to_string(ctx().info().subgroup_size)));
  EXPECT_THAT(o.out, HasSubstr("shared memory"));
  EXPECT_THAT(o.out, HasSubstr("timestamp period"));
  EXPECT_THAT(o.err, Not(HasSubstr("validation message")));
}

TEST_F(CliInfo, JsonNamesEveryField) {
  const auto dir = scratch_dir();
  const auto o = run_vkc("info --json", dir);
  EXPECT_EQ(o.status, 0) << o.err;
  for (const char* key : {"\"name\"", "\"driver\"", "\"api_version\"", "\"type\"", "\"subgroup_size\"",
                          "\"min_subgroup_size\"", "\"subgroup_operations\"", "\"shared_memory_bytes\"",
                          "\"max_workgroup_invocations\"", "\"memory_heaps\"", "\"timestamp_period_ns\"", "\"pci\""}) {
    EXPECT_THAT(o.out, HasSubstr(key));
  }
}

TEST_F(CliInfo, BadDeviceIndexIsOneLineAndAFailure) {
  const auto o = run_vkc("--device 42 info", scratch_dir());
  EXPECT_NE(o.status, 0);
  EXPECT_EQ(line_count(o.err), 1) << o.err;
  EXPECT_THAT(o.err, HasSubstr("no Vulkan device with index 42"));
}

TEST_F(CliInfo, MissingLoaderIsOneLineAndAFailure) {
  const auto o = run_vkc("info", scratch_dir(), "VKC_VULKAN_LIBRARY=/nonexistent/libvulkan.so.1 ");
  EXPECT_NE(o.status, 0);
  EXPECT_EQ(line_count(o.err), 1) << o.err;
  EXPECT_THAT(o.err, HasSubstr("cannot open the Vulkan loader"));
}

TEST_F(CliInfo, MachineWithoutVulkanDeviceIsOneLineAndAFailure) {
  // Without validation: the loader reports the missing driver file to a debug messenger too.
  const auto o = run_vkc("demo", scratch_dir(),
                         "VKC_VALIDATION=0 VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json ");
  EXPECT_NE(o.status, 0);
  EXPECT_EQ(line_count(o.err), 1) << o.err;
  EXPECT_THAT(o.err, HasSubstr("no Vulkan driver found"));
}

TEST_F(CliInfo, AllocationBeyondTheDeviceIsOneLineAndAFailure) {
  if (ctx().info().max_storage_buffer_range >= (256u << 20)) GTEST_SKIP() << "this device holds 256 MiB buffers";
  const auto o = run_vkc("demo --count 67108864", scratch_dir());
  EXPECT_NE(o.status, 0);
  EXPECT_EQ(line_count(o.err), 1) << o.err;
  EXPECT_THAT(o.err, HasSubstr("maxStorageBufferRange"));
}

TEST_F(CliInfo, CommandLineThatDoesNotParseIsOneLineAndExitStatus2) {
  for (const char* args : {"sort", "bench sort --algos quick", "info --no-such-option", "", "nbody --steps x"}) {
    const auto o = run_vkc(args, scratch_dir());
    EXPECT_EQ(o.status, 2) << args;
    EXPECT_EQ(line_count(o.err), 1) << args << ": " << o.err;
    EXPECT_THAT(o.err, HasSubstr("vkc: ")) << args;
  }
}

// --algos takes a comma list as well as separate words; each named algorithm gets its column.
TEST_F(CliInfo, BenchSortTakesAlgorithmsAsACommaList) {
  for (const char* algos : {"bitonic,radix", "bitonic radix"}) {
    const auto o = run_vkc(std::string("bench sort --min-n 1024 --max-n 1024 --runs 10 --warmup 0 --cpu-max-n 0 "
                                       "--no-transfer --algos ") + algos,
                           scratch_dir());
    ASSERT_EQ(o.status, 0) << algos << ": " << o.err;
    EXPECT_THAT(o.out, HasSubstr("bitonic GPU ms")) << algos;
    EXPECT_THAT(o.out, HasSubstr("radix GPU ms")) << algos;
    EXPECT_THAT(o.out, Not(HasSubstr("odd_even GPU ms"))) << algos;
  }
}

// The CSV has the columns the benchmark files under bench/results/ use, and one verified row per
// algorithm and size (it is rewritten after every size, so a run cut short keeps what it finished).
TEST_F(CliInfo, BenchSortWritesOneCsvRowPerAlgorithmAndSize) {
  const auto dir = scratch_dir();
  const auto csv = dir / "bench.csv";
  const auto o = run_vkc("bench sort --min-n 512 --max-n 2048 --runs 10 --warmup 0 --cpu-max-n 512 --no-transfer "
                         "--algos radix --values u32 --csv '" + csv.string() + "'",
                         dir);
  ASSERT_EQ(o.status, 0) << o.err;
  std::istringstream lines(slurp(csv));
  std::string header, line;
  std::getline(lines, header);
  EXPECT_THAT(header, ::testing::StartsWith("algorithm,key_type,value_type,order,dist,n,gpu_ms,wall_ms,gkeys_per_s,"
                                            "cub_ms,ratio_to_cub,host_to_host_ms,copy_bound_ms,"
                                            "torch_host_to_host_ms,verified,"));
  std::vector<std::string> rows;
  while (std::getline(lines, line)) rows.push_back(line.substr(0, line.find(",yes,")));
  EXPECT_THAT(rows, ::testing::UnorderedElementsAre(::testing::StartsWith("radix,u32,u32,asc,uniform,512,"),
                                                    ::testing::StartsWith("radix,u32,u32,asc,uniform,1024,"),
                                                    ::testing::StartsWith("radix,u32,u32,asc,uniform,2048,"),
                                                    ::testing::StartsWith("std_sort,u32,u32,asc,uniform,512,"),
                                                    ::testing::StartsWith("std_sort_par,u32,u32,asc,uniform,512,")));
  for (const auto& row : rows) EXPECT_EQ(std::count(row.begin(), row.end(), ','), 13) << row;
}

// --devices in both benchmarks: the test's device twice, each result checked by the benchmark
// against one device's (a mismatch fails the command), and reported beside it.
TEST_F(CliInfo, BenchmarksTimeTheDeviceSetBesideOneDevice) {
  const auto dir = scratch_dir();
  const std::string twice = std::to_string(ctx().info().index) + "," + std::to_string(ctx().info().index);
  const auto csv = dir / "nbody.csv";
  const auto nbody = run_vkc("bench nbody --n 600 --runs 3 --warmup 1 --devices " + twice + " --csv '" + csv.string() + "'", dir);
  ASSERT_EQ(nbody.status, 0) << nbody.err;
  std::istringstream lines(slurp(csv));
  std::string header, row;
  std::getline(lines, header);
  std::getline(lines, row);
  EXPECT_THAT(header, HasSubstr("step ms, 2 devices"));
  EXPECT_THAT(row, ::testing::StartsWith("600,"));
  const auto sort = run_vkc("bench sort --min-n 4096 --max-n 4096 --runs 10 --warmup 0 --cpu-max-n 0 --algos radix "
                            "--devices " + twice + " --csv '" + (dir / "sort.csv").string() + "'", dir);
  ASSERT_EQ(sort.status, 0) << sort.err;
  EXPECT_THAT(slurp(dir / "sort.csv"), HasSubstr("host_to_host_on_2_devices,u32"));
}

// Every key type and a bit range: each CSV row records the key type, the bit range sorted by (the
// key's width without --bits, an end past it cut to it) and the bytes a radix sort of it moves per
// key (digit passes x 2(k + v) + k), after the verified column.
TEST_F(CliInfo, BenchSortTakesNarrowKeysAndABitRange) {
  struct Case {
    const char* options;
    const char* row;   // the row's first cells
    const char* tail;  // verified, begin_bit, end_bit, bytes_per_key
  };
  const Case cases[] = {{"--type u16 --order desc", "radix,u16,none,desc,uniform,1024,", ",yes,0,16,10,"},
                        {"--type f16 --values u32", "radix,f16,u32,asc,uniform,1024,", ",yes,0,16,26,"},
                        {"--type u32 --bits 0:16", "radix,u32,none,asc,uniform,1024,", ",yes,0,16,20,"},
                        {"--type i8 --bits 4:99", "radix,i8,none,asc,uniform,1024,", ",yes,4,8,3,"}};
  for (const Case& c : cases) {
    const auto dir = scratch_dir();
    const auto csv = dir / "bench.csv";
    const std::string args = "bench sort --min-n 1024 --max-n 1024 --runs 10 --warmup 0 --cpu-max-n 0 "
                             "--no-transfer --algos radix --csv '" + csv.string() + "' " + c.options;
    const auto o = run_vkc(args, dir);
    ASSERT_EQ(o.status, 0) << c.options << ": " << o.err;
    std::istringstream lines(slurp(csv));
    std::string header, row;
    std::getline(lines, header);
    EXPECT_THAT(header, HasSubstr(",verified,begin_bit,end_bit,bytes_per_key,")) << c.options;
    std::getline(lines, row);
    EXPECT_THAT(row, ::testing::StartsWith(c.row)) << c.options;
    EXPECT_THAT(row, HasSubstr(c.tail)) << c.options;
  }
}

// Only the radix sort takes a bit range: naming another algorithm with --bits is refused.
TEST_F(CliInfo, BenchSortBitsOnlyWithRadix) {
  const auto o = run_vkc("bench sort --max-n 1024 --algos bitonic --bits 0:8", scratch_dir());
  EXPECT_EQ(o.status, 1);
  EXPECT_THAT(o.err, HasSubstr("only the radix sort sorts by a bit range"));
}

TEST_F(CliInfo, VersionNamesTheVersionCommitLoaderAndDevice) {
  const auto o = run_vkc("--version", scratch_dir());
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_THAT(o.out, ::testing::StartsWith("vkc 0."));
  EXPECT_THAT(o.out, HasSubstr("(commit "));
  EXPECT_THAT(o.out, ::testing::ContainsRegex("Vulkan loader [0-9]+\\.[0-9]+\\.[0-9]+"));
  EXPECT_THAT(o.out, HasSubstr("device [" + std::to_string(ctx().info().index) + "] " + ctx().info().name));
}

TEST_F(CliInfo, GlobalOptionsWorkAfterTheSubcommand) {
  const auto o = run_vkc("info --device 42", scratch_dir());
  EXPECT_EQ(o.status, 1);
  EXPECT_THAT(o.err, HasSubstr("no Vulkan device with index 42"));
  const auto ok = run_vkc("info --device " + std::to_string(ctx().info().index) + " --json", scratch_dir());
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_THAT(ok.out, HasSubstr(ctx().info().name));
}

TEST_F(CliInfo, HelpShowsTheDefaults) {
  const auto sort = run_vkc("sort --help", scratch_dir());
  EXPECT_EQ(sort.status, 0);
  EXPECT_THAT(sort.out, HasSubstr("=auto"));
  EXPECT_THAT(sort.out, HasSubstr("=asc"));
  const auto bench = run_vkc("bench sort --help", scratch_dir());
  EXPECT_THAT(bench.out, HasSubstr("=512"));     // --min-n
  EXPECT_THAT(bench.out, HasSubstr("=uniform"));  // --dist
  EXPECT_THAT(bench.out, HasSubstr("=15"));       // --runs
  const auto nbody = run_vkc("nbody --help", scratch_dir());
  EXPECT_THAT(nbody.out, HasSubstr("=4096"));
  const auto top = run_vkc("--help", scratch_dir());
  EXPECT_THAT(top.out, HasSubstr("2 usage error"));
  EXPECT_THAT(top.out, HasSubstr("bench"));
}

// The benchmarks are vkc-bench, which `vkc bench` runs from vkc's own folder: options given to vkc
// before `bench` reach it, and its exit status and stderr are the command's.
TEST_F(CliInfo, OptionsBeforeBenchReachTheBenchmarks) {
  const auto o = run_vkc("--device 42 bench sort --max-n 1024", scratch_dir());
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(line_count(o.err), 1) << o.err;
  EXPECT_THAT(o.err, HasSubstr("no Vulkan device with index 42"));
}

TEST_F(CliInfo, BenchWithoutVkcBenchBesideItSaysTheBenchmarksAreNotBuilt) {
  const auto dir = scratch_dir();
  const auto vkc = dir / "vkc", err = dir / "stderr.txt";
  std::filesystem::copy_file(VKC_EXECUTABLE, vkc);
  const int raw = std::system(("'" + vkc.string() + "' bench sort --max-n 1024 2>'" + err.string() + "'").c_str());
  EXPECT_EQ(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, 1);
  const std::string message = slurp(err);
  EXPECT_EQ(line_count(message), 1) << message;
  EXPECT_THAT(message, HasSubstr("the benchmarks are not built"));
  EXPECT_THAT(message, HasSubstr("-DVKC_BUILD_BENCH=ON"));
}

TEST_F(CliInfo, ProgressIsLinesOnANonTerminalAndQuietSilencesIt) {
  const std::string args = "bench sort --min-n 512 --max-n 1024 --runs 10 --warmup 0 --cpu-max-n 0 --no-transfer --algos radix";
  const auto o = run_vkc(args, scratch_dir());
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_THAT(o.err, HasSubstr("vkc bench sort: radix n=512\n"));
  EXPECT_THAT(o.err, HasSubstr("vkc bench sort: radix n=1024\n"));
  EXPECT_THAT(o.err, Not(HasSubstr("\r")));
  const auto quiet = run_vkc(args + " --quiet", scratch_dir());
  ASSERT_EQ(quiet.status, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
}

// The plot draws gkeys_per_s on a log axis: a rate rounded to 0 (lavapipe sorts at M keys/s)
// would vanish from it. Every row with a time has a positive rate that agrees with n / time.
TEST_F(CliInfo, BenchSortCsvHasAPositiveRateForEveryTime) {
  const auto dir = scratch_dir();
  const auto csv = dir / "bench.csv";
  const auto o = run_vkc("bench sort --min-n 512 --max-n 1024 --runs 10 --warmup 0 --cpu-max-n 512 --algos bitonic,radix "
                         "--odd-even-max-n 0 --csv '" + csv.string() + "'",
                         dir);
  ASSERT_EQ(o.status, 0) << o.err;
  std::istringstream lines(slurp(csv));
  std::string line;
  std::getline(lines, line);
  int rows = 0;
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::stringstream cells_in(line);
    for (std::string cell; std::getline(cells_in, cell, ',');) cells.push_back(cell);
    ASSERT_GE(cells.size(), 9u) << line;
    const std::string& time = cells[6].empty() ? cells[7] : cells[6];  // gpu_ms, else wall_ms
    ASSERT_FALSE(time.empty()) << line;
    const double n = std::stod(cells[5]), ms = std::stod(time), rate = std::stod(cells[8]);
    EXPECT_GT(rate, 0) << line;
    EXPECT_NEAR(rate, n / ms / 1e6, 1e-3 * rate) << line;
    ++rows;
  }
  EXPECT_GE(rows, 7) << "bitonic and radix at 2 sizes, std::sort, std::sort par and auto at 512";
}

// gnuplot is optional (scripts/deps.sh does not install it); without it --plot is refused up front
// (CliOutput.BenchChecksRangesAndOutputsBeforeTheWork).
TEST_F(CliInfo, BenchSortPlotIsAPng) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) GTEST_SKIP() << "gnuplot not installed";
  const auto dir = scratch_dir();
  const auto png = dir / "plot.png";
  const auto o = run_vkc("bench sort --min-n 512 --max-n 1024 --runs 10 --warmup 0 --cpu-max-n 512 --algos radix "
                         "--no-transfer --plot '" + png.string() + "'",
                         dir);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_THAT(slurp(png), ::testing::StartsWith("\x89PNG\r\n\x1a\n"));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1) << "only the plot is left";
}

TEST_F(CliInfo, ArgsortWithAnUnstableAlgorithmSaysSo) {
  const auto dir = scratch_dir();
  std::ofstream(dir / "in.bin", std::ios::binary) << std::string(64, '\0');
  const auto o = run_vkc("sort --argsort --algo bitonic --type u32 '" + (dir / "in.bin").string() + "' -o '" +
                             (dir / "out.npy").string() + "'",
                         dir);
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_THAT(o.err, HasSubstr("bitonic is not stable"));
}

TEST_F(CliInfo, DemoDispatchIsVerified) {
  const auto o = run_vkc("demo --count 100003", scratch_dir());
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_THAT(o.out, HasSubstr("verified"));
}

}  // namespace
}  // namespace vkc::test
