#include "support/gpu_test.hpp"

#include "core/loader.hpp"

#include <cstdlib>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

namespace vkc::test {

// Sets the variables that VKC_TEST_ENV lists ("NAME=VALUE NAME=VALUE ..."; see
// tests/CMakeLists.txt) in this process, for the context and for any vkc process a test starts.
void apply_test_environment() {
  const char* list = std::getenv("VKC_TEST_ENV");
  if (!list) return;
  std::istringstream words(list);
  for (std::string word; words >> word;) {
    const std::size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0) throw std::runtime_error("VKC_TEST_ENV: not NAME=VALUE: " + word);
    setenv(word.substr(0, eq).c_str(), word.substr(eq + 1).c_str(), 1);
  }
}

namespace {

bool env_is_set(const char* name) {
  const char* value = std::getenv(name);
  return value && *value && std::string(value) != "0";
}

// A GPU test that runs without the validation layer proves much less than it claims: refuse,
// unless the person running it says so.
void require_validation() {
  if (env_is_set("VKC_VALIDATION") || env_is_set("VKC_TEST_UNCHECKED")) return;
  throw std::runtime_error(
      "GPU tests run under the validation layer: run them through CTest, or give them CTest's "
      "variables (VKC_TEST_ENV=\"LP_NATIVE_VECTOR_WIDTH=256 VKC_VALIDATION=1 VKC_EXPECT_SUBGROUP_SIZE=8\"), "
      "or set VKC_TEST_UNCHECKED=1 to run without it");
}

}  // namespace

Context& context() {
  static std::unique_ptr<Context> ctx = [] {
    apply_test_environment();
    require_validation();
    // Tests never write into the user's cache directory: neither this context nor the vkc
    // processes that tests start (they inherit it) keep a pipeline cache file, unless the
    // person running them names a directory. The cache's own tests name theirs.
    setenv("VKC_PIPELINE_CACHE", "off", 0);
    ContextOptions options;
    options.quiet = true;
    return std::make_unique<Context>(options);
  }();
  return *ctx;
}

void GpuTest::SetUp() {
  auto early = context().take_validation_messages();
  ASSERT_TRUE(early.empty()) << "validation message before the test: " << early.front();
  if (!context().info().is_software() || env_is_set("VKC_TEST_UNCHECKED")) return;
  const char* expected = std::getenv("VKC_EXPECT_SUBGROUP_SIZE");
  ASSERT_NE(expected, nullptr) << "on lavapipe, VKC_EXPECT_SUBGROUP_SIZE names the subgroup size this run must get "
                                  "(CTest sets it); VKC_TEST_UNCHECKED=1 runs without the check";
  ASSERT_EQ(context().info().subgroup_size, static_cast<std::uint32_t>(std::atoi(expected)))
      << "lavapipe did not give the subgroup size CTest asked for";
}

void expect_no_validation_messages() {
  for (const std::string& message : context().take_validation_messages()) {
    ADD_FAILURE() << "validation layer: " << message;
  }
}

void GpuTest::TearDown() { expect_no_validation_messages(); }

std::mt19937_64 rng_for_current_test() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string name = std::string(info->test_suite_name()) + "." + info->name();
  return std::mt19937_64(std::hash<std::string>{}(name));
}

void record_barrier_before_download(VkCommandBuffer commands) {
  const VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr,
                                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT};
  vk::vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                           VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

}  // namespace vkc::test

