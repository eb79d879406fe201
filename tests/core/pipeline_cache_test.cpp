// The persistent pipeline cache (ContextOptions::pipeline_cache_dir): a Context reads the file an
// earlier one wrote, ignores any file that is not a complete cache of this device, and never
// fails for want of one.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <vector>

#include "core/loader.hpp"
#include "core/pipeline.hpp"
#include "core/pipeline_cache_file.hpp"
#include "core/state.hpp"
#include "support/gpu_test.hpp"
#include "vkc/sort.hpp"

namespace vkc::test {
namespace {

namespace fs = std::filesystem;
using detail::PipelineCacheFileHeader;

std::vector<std::byte> read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::vector<char> chars{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

void write_bytes(const fs::path& file, const std::vector<std::byte>& bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << file;
}

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) files.push_back(entry.path());
  return files;
}

// Sets an environment variable for one scope, restoring the old value after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    value ? setenv(name, value, 1) : unsetenv(name);
  }
  ~ScopedEnv() { old_ ? setenv(name_, old_->c_str(), 1) : unsetenv(name_); }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class PipelineCacheTest : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("vkc-pipeline-cache-" + std::string(info->name()) + "-" +
                                        std::to_string(std::random_device{}()));
    fs::remove_all(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
    GpuTest::TearDown();
  }

  std::unique_ptr<Context> open_context(const std::string& cache_dir) {
    return std::make_unique<Context>(ContextOptions{.device = std::to_string(ctx().info().index),
                                                    .quiet = true,
                                                    .pipeline_cache_dir = cache_dir});
  }

  // Sorts keys on `c` (building its pipelines) and checks them against std::sort.
  void expect_sorts(Context& c) {
    std::mt19937_64 rng = rng_for_current_test();
    std::vector<std::uint32_t> keys(1000);
    for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
    std::vector<std::uint32_t> expected = keys;
    std::sort(expected.begin(), expected.end());
    sort(c, std::span(keys));
    EXPECT_EQ(keys, expected);
  }

  // Destroys `c`, failing the test for anything its validation layer said.
  static void close(std::unique_ptr<Context>& c) {
    for (const std::string& m : c->take_validation_messages()) ADD_FAILURE() << "validation layer: " << m;
    c.reset();
  }

  // A context on dir_ that sorts, then is destroyed: it leaves its file. Returns the file's path.
  fs::path write_cache_file() {
    auto c = open_context(dir_);
    const fs::path file = detail::state_of(*c).cache_file.path();
    expect_sorts(*c);
    close(c);
    return file;
  }

  // What the device says its cache data must carry, asked of Vulkan directly.
  VkPhysicalDeviceProperties device_properties() {
    VkPhysicalDeviceProperties props{};
    vk::vkGetPhysicalDeviceProperties(ctx().physical_device(), &props);
    return props;
  }

  // Checks that `file` is a complete cache file for this device: vkc's header with the
  // payload's size and hash, then a VkPipelineCacheHeaderVersionOne naming this device.
  void expect_valid_file(const fs::path& file) {
    const std::vector<std::byte> bytes = read_bytes(file);
    PipelineCacheFileHeader header;
    VkPipelineCacheHeaderVersionOne driver{};
    ASSERT_GE(bytes.size(), sizeof header + sizeof driver) << file;
    std::memcpy(&header, bytes.data(), sizeof header);
    std::memcpy(&driver, bytes.data() + sizeof header, sizeof driver);
    EXPECT_EQ(header.magic, detail::kPipelineCacheMagic);
    EXPECT_EQ(header.payload_bytes, bytes.size() - sizeof header);
    EXPECT_EQ(header.payload_hash, detail::fnv1a64(std::span(bytes).subspan(sizeof header)));
    const VkPhysicalDeviceProperties props = device_properties();
    EXPECT_EQ(header.driver_version, props.driverVersion);
    EXPECT_GE(driver.headerSize, sizeof driver);
    EXPECT_EQ(driver.headerVersion, VK_PIPELINE_CACHE_HEADER_VERSION_ONE);
    EXPECT_EQ(driver.vendorID, props.vendorID);
    EXPECT_EQ(driver.deviceID, props.deviceID);
    EXPECT_EQ(std::memcmp(driver.pipelineCacheUUID, props.pipelineCacheUUID, VK_UUID_SIZE), 0);
  }

  // A cache file for this device, as the library writes it, whose driver data is a
  // VkPipelineCacheHeaderVersionOne built from the device's properties (edited by `edit`) and
  // `extra` bytes after it. Checks that, unedited, the library would load it: whatever a test
  // then does to the file is all that makes it invalid.
  template <class Edit>
  fs::path write_file_for_this_device(std::size_t extra, Edit edit) {
    const detail::PipelineCacheKey key = detail::pipeline_cache_key(ctx().physical_device());
    const VkPhysicalDeviceProperties props = device_properties();
    VkPipelineCacheHeaderVersionOne driver{sizeof driver, VK_PIPELINE_CACHE_HEADER_VERSION_ONE, props.vendorID,
                                           props.deviceID, {}};
    std::memcpy(driver.pipelineCacheUUID, props.pipelineCacheUUID, VK_UUID_SIZE);
    std::vector<std::byte> payload(sizeof driver + extra);
    for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = std::byte(i * 7 + 3);
    const fs::path file = dir_ / detail::pipeline_cache_file_name(key);
    std::memcpy(payload.data(), &driver, sizeof driver);
    EXPECT_TRUE(detail::write_pipeline_cache_file(file, key, payload));
    EXPECT_EQ(detail::read_pipeline_cache_file(file, key), payload) << "the unedited file is not one the library loads";
    edit(driver);
    std::memcpy(payload.data(), &driver, sizeof driver);
    EXPECT_TRUE(detail::write_pipeline_cache_file(file, key, payload));
    return file;
  }
  fs::path write_file_for_this_device(std::size_t extra) {
    return write_file_for_this_device(extra, [](VkPipelineCacheHeaderVersionOne&) {});
  }

  // A context on dir_ with `file` in place: it must ignore the file, sort, and leave a valid one.
  void expect_ignored_and_replaced(const fs::path& file) {
    auto c = open_context(dir_);
    EXPECT_EQ(detail::state_of(*c).cache_file.loaded_bytes(), 0u) << "the file was handed to the driver";
    EXPECT_NE(detail::compute_device(*c).pipelines.handle, VkPipelineCache(VK_NULL_HANDLE));
    expect_sorts(*c);
    close(c);
    expect_valid_file(file);
  }

  fs::path dir_;
};

TEST_F(PipelineCacheTest, SecondContextLoadsTheFileTheFirstWrote) {
  const fs::path file = write_cache_file();
  ASSERT_TRUE(fs::exists(file)) << file;
  EXPECT_EQ(file.parent_path(), dir_);
  expect_valid_file(file);

  auto second = open_context(dir_);
  EXPECT_EQ(detail::state_of(*second).cache_file.loaded_bytes(), fs::file_size(file) - sizeof(PipelineCacheFileHeader));
  expect_sorts(*second);
  close(second);
}

TEST_F(PipelineCacheTest, ContextThatBuiltNoPipelineWritesNoFile) {
  auto c = open_context(dir_);
  close(c);
  EXPECT_TRUE(files_in(dir_).empty());
}

TEST_F(PipelineCacheTest, UnchangedCacheIsNotRewritten) {
  const fs::path file = write_cache_file();
  struct stat before {};
  ASSERT_EQ(::stat(file.c_str(), &before), 0);
  auto again = open_context(dir_);  // builds the same pipelines: the driver's data is what it loaded
  expect_sorts(*again);
  close(again);
  struct stat after {};
  ASSERT_EQ(::stat(file.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino) << "the file was replaced";
}

TEST_F(PipelineCacheTest, IgnoresATruncatedFile) {
  const fs::path file = write_file_for_this_device(4096);
  std::vector<std::byte> bytes = read_bytes(file);
  bytes.resize(bytes.size() - 100);  // the driver's header is intact, its data cut short
  write_bytes(file, bytes);
  expect_ignored_and_replaced(file);
}

TEST_F(PipelineCacheTest, IgnoresAFileWhoseDataWasAltered) {
  const fs::path file = write_file_for_this_device(4096);
  std::vector<std::byte> bytes = read_bytes(file);
  bytes[bytes.size() - 10] ^= std::byte{0x40};  // one bit of the driver's data, past its header
  write_bytes(file, bytes);
  expect_ignored_and_replaced(file);
}

TEST_F(PipelineCacheTest, IgnoresAFileOfGarbage) {
  const fs::path file = write_file_for_this_device(0);
  std::mt19937_64 rng = rng_for_current_test();
  std::vector<std::byte> garbage(4096);
  for (auto& b : garbage) b = static_cast<std::byte>(rng());
  write_bytes(file, garbage);
  expect_ignored_and_replaced(file);
}

TEST_F(PipelineCacheTest, IgnoresAnEmptyFile) {
  const fs::path file = write_file_for_this_device(0);
  write_bytes(file, {});
  expect_ignored_and_replaced(file);
}

TEST_F(PipelineCacheTest, IgnoresAFileWhoseDriverHeaderNamesAnotherVendor) {
  const fs::path file = write_file_for_this_device(64, [](VkPipelineCacheHeaderVersionOne& h) { h.vendorID ^= 0x10de; });
  expect_ignored_and_replaced(file);
}

TEST_F(PipelineCacheTest, IgnoresAFileWhoseDriverHeaderHasAnotherUuid) {
  const fs::path file =
      write_file_for_this_device(64, [](VkPipelineCacheHeaderVersionOne& h) { h.pipelineCacheUUID[7] ^= 0x5a; });
  expect_ignored_and_replaced(file);
}

TEST_F(PipelineCacheTest, UnwritableDirectoryIsNotAnError) {
  // Below a regular file no directory can be created, whoever runs the test (root included).
  fs::create_directories(dir_);
  write_bytes(dir_ / "a-file", {std::byte{1}});
  const fs::path unusable = dir_ / "a-file" / "cache";
  auto c = open_context(unusable);
  expect_sorts(*c);
  EXPECT_NO_THROW(close(c));
  EXPECT_EQ(files_in(dir_).size(), 1u);
}

TEST_F(PipelineCacheTest, OffReadsAndWritesNoFile) {
  ScopedEnv xdg("XDG_CACHE_HOME", dir_.c_str());
  ScopedEnv env("VKC_PIPELINE_CACHE", nullptr);
  auto c = open_context("off");
  EXPECT_TRUE(detail::state_of(*c).cache_file.path().empty());
  EXPECT_EQ(detail::compute_device(*c).pipelines.handle, VkPipelineCache(VK_NULL_HANDLE));
  // A pipeline built, none dispatched: lavapipe compiles at the first dispatch, and with
  // XDG_CACHE_HOME moved its own disk cache (Mesa's) would start cold.
  pipeline(*c, {.shader = shaders::core_copy, .specialization = {64, 4}, .bindings = 2, .push_bytes = 4});
  close(c);
  EXPECT_FALSE(fs::exists(dir_ / "vkcompute"));
}

// ---- Where the file lives: the option, then VKC_PIPELINE_CACHE, then XDG_CACHE_HOME, then HOME ----

TEST(PipelineCacheDirectory, OptionWinsOverTheEnvironment) {
  ScopedEnv env("VKC_PIPELINE_CACHE", "/from/env");
  EXPECT_EQ(detail::pipeline_cache_directory("/from/option"), fs::path("/from/option"));
  EXPECT_EQ(detail::pipeline_cache_directory(""), fs::path("/from/env"));
}

TEST(PipelineCacheDirectory, OffInTheOptionOrTheEnvironmentTurnsItOff) {
  ScopedEnv env("VKC_PIPELINE_CACHE", "off");
  EXPECT_EQ(detail::pipeline_cache_directory(""), fs::path());
  ScopedEnv env2("VKC_PIPELINE_CACHE", "/from/env");
  EXPECT_EQ(detail::pipeline_cache_directory("off"), fs::path());
}

TEST(PipelineCacheDirectory, DefaultIsXdgCacheHomeElseHomeDotCache) {
  ScopedEnv env("VKC_PIPELINE_CACHE", nullptr);
  ScopedEnv home("HOME", "/home/someone");
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "/xdg/cache");
    EXPECT_EQ(detail::pipeline_cache_directory(""), fs::path("/xdg/cache/vkcompute"));
  }
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "relative/cache");  // the XDG specification ignores it
    EXPECT_EQ(detail::pipeline_cache_directory(""), fs::path("/home/someone/.cache/vkcompute"));
  }
  ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
  EXPECT_EQ(detail::pipeline_cache_directory(""), fs::path("/home/someone/.cache/vkcompute"));
}

// ---- Concurrent writers (processes sharing the directory under ctest -j) ----

// Writers replace the file with payloads of different sizes while a reader keeps reading it: every
// read must be one whole payload, never a mix or a part.
TEST(PipelineCacheFile, ConcurrentWritersNeverLeaveAPartialFile) {
  const fs::path dir = fs::temp_directory_path() / ("vkc-pipeline-cache-writers-" + std::to_string(std::random_device{}()));
  const fs::path file = dir / "pipelines.bin";
  detail::PipelineCacheKey key;
  key.vendor_id = 0x1234;
  key.uuid[0] = 7;
  // Payload w: a driver header for `key`, then bytes of value w; sizes differ by writer.
  auto payload = [&](int writer) {
    std::vector<std::byte> p((std::size_t{1} << 16) * (writer + 1), std::byte(writer + 1));
    VkPipelineCacheHeaderVersionOne h{32, VK_PIPELINE_CACHE_HEADER_VERSION_ONE, key.vendor_id, key.device_id, {}};
    std::memcpy(h.pipelineCacheUUID, key.uuid.data(), VK_UUID_SIZE);
    std::memcpy(p.data(), &h, sizeof h);
    return p;
  };
  const std::vector<std::vector<std::byte>> payloads = {payload(0), payload(1), payload(2)};
  std::atomic<bool> stop{false};
  std::vector<std::thread> writers;
  for (int w = 0; w < 3; ++w) {
    writers.emplace_back([&, w] {
      while (!stop) EXPECT_TRUE(detail::write_pipeline_cache_file(file, key, payloads[w]));
    });
  }
  while (!fs::exists(file)) std::this_thread::yield();  // the first rename
  int whole = 0;
  const int reads = 200;
  for (int r = 0; r < reads; ++r) {
    const std::vector<std::byte> got = detail::read_pipeline_cache_file(file, key);
    whole += std::find(payloads.begin(), payloads.end(), got) != payloads.end();
  }
  stop = true;
  for (auto& t : writers) t.join();
  EXPECT_EQ(whole, reads);
  EXPECT_EQ(files_in(dir).size(), 1u) << "temporary files were left behind";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace vkc::test
