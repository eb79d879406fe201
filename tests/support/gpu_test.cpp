#include "support/gpu_test.hpp"

#include "core/loader.hpp"

#include <cstdlib>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

namespace vkc::test {

namespace {

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

}  // namespace

Context& context() {
  static std::unique_ptr<Context> ctx = [] {
    apply_test_environment();
    ContextOptions options;
    options.quiet = true;
    return std::make_unique<Context>(options);
  }();
  return *ctx;
}

void GpuTest::SetUp() {
  auto early = context().take_validation_messages();
  ASSERT_TRUE(early.empty()) << "validation message before the test: " << early.front();
  if (const char* expected = std::getenv("VKC_EXPECT_SUBGROUP_SIZE"); expected && context().info().is_software()) {
    ASSERT_EQ(context().info().subgroup_size, static_cast<std::uint32_t>(std::atoi(expected)))
        << "lavapipe did not give the subgroup size CTest asked for";
  }
}

void GpuTest::TearDown() {
  for (const std::string& message : context().take_validation_messages()) {
    ADD_FAILURE() << "validation layer: " << message;
  }
}

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

