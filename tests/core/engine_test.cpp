// An engine's own Vulkan objects adopted by vkc (Context(AdoptedDevice)): raw Vulkan creates
// the instance (validation layer, synchronization validation, the engine's own messenger),
// device, buffers and command buffer; vkc records record_sort and record_sort_indirect between
// the engine's barriers, as sort.hpp's contract asks. Any validation message fails the test.
#include <vulkan/vulkan.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/state.hpp"
#include "engine.hpp"
#include "support/gpu_test.hpp"
#include "vkc/sort.hpp"

namespace {

using vkc::test::Engine;
using vkc::test::EngineBuffer;
using vkc::test::engine_messages;

// Just past one radix tile at every lavapipe subgroup size (1,024 to 4,096 keys), so several
// workgroups rank and scatter.
constexpr std::uint32_t kMaxCount = 5000;

class EngineAdoption : public vkc::test::GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();  // applies CTest's environment (the subgroup size) before our instance
    engine_messages().clear();
    engine_.emplace(ctx().info().index);
    vkc_.emplace(engine_->adopted());
  }

  void TearDown() override {
    vkc_.reset();     // before the engine destroys its device: vkc's objects go first
    engine_.reset();  // a leak of vkc's, or a device destroyed twice, is a message here
    for (const std::string& m : engine_messages()) ADD_FAILURE() << "validation layer (engine's messenger): " << m;
    GpuTest::TearDown();
  }

  using Input = vkc::test::Pairs;
  Input random_input() {
    std::mt19937_64 rng = vkc::test::rng_for_current_test();
    return vkc::test::random_pairs(kMaxCount, rng);
  }
  static Input expected(const Input& in, std::uint32_t count) { return vkc::test::stably_sorted(in, count); }

  // The engine's producer: a copy of the input into the sort's buffers, then the contract's
  // barrier before the sort (transfer writes visible to compute reads and writes).
  void record_upload(const EngineBuffer& from, const EngineBuffer& to, VkDeviceSize bytes) {
    const VkBufferCopy region{0, 0, bytes};
    vkCmdCopyBuffer(engine_->commands(), from.buffer, to.buffer, 1, &region);
  }
  void record_barrier_before_sort() {
    engine_->barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT |
                         VK_PIPELINE_STAGE_TRANSFER_BIT,
                     VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT |
                         VK_ACCESS_TRANSFER_WRITE_BIT);
  }
  // The contract's barrier after the sort, to the engine's consumer (a transfer), then the
  // copy out and the barrier that lets the host read it.
  void record_download(const EngineBuffer& from, const EngineBuffer& to, VkDeviceSize bytes) {
    const VkBufferCopy region{0, 0, bytes};
    vkCmdCopyBuffer(engine_->commands(), from.buffer, to.buffer, 1, &region);
  }
  void record_barrier_after_sort() {
    engine_->barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                     VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                     VK_ACCESS_TRANSFER_READ_BIT);
  }
  void record_barrier_to_host() {
    engine_->barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                     VK_ACCESS_HOST_READ_BIT);
  }

  // Sorts `in` (its first `count` pairs; the count in a GPU buffer when `indirect`) on the
  // engine's device and returns what the engine read back.
  Input sort_on_engine(const Input& in, std::uint32_t count, bool indirect) {
    const VkDeviceSize bytes = VkDeviceSize{kMaxCount} * 4;
    const vkc::SortDesc desc{vkc::KeyType::u32, vkc::ValueType::u32, kMaxCount, {vkc::SortAlgorithm::radix}};
    const EngineBuffer staging_keys = engine_->buffer(bytes);
    const EngineBuffer staging_values = engine_->buffer(bytes);
    const EngineBuffer keys = engine_->buffer(bytes);
    const EngineBuffer values = engine_->buffer(bytes);
    const EngineBuffer count_word = engine_->buffer(4);
    const EngineBuffer temporary = engine_->buffer(vkc::sort_temporary_bytes(*vkc_, desc));
    const EngineBuffer out_keys = engine_->buffer(bytes);
    const EngineBuffer out_values = engine_->buffer(bytes);
    std::memcpy(staging_keys.mapped, in.keys.data(), bytes);
    std::memcpy(staging_values.mapped, in.values.data(), bytes);

    engine_->begin();
    record_upload(staging_keys, keys, bytes);
    record_upload(staging_values, values, bytes);
    vkCmdFillBuffer(engine_->commands(), count_word.buffer, 0, 4, count);  // the GPU-side count
    record_barrier_before_sort();
    const vkc::SortBuffers buffers{{keys.buffer}, {values.buffer}, {temporary.buffer}};
    if (indirect) {
      vkc::record_sort_indirect(*vkc_, engine_->commands(), desc, {count_word.buffer}, buffers);
    } else {
      vkc::record_sort(*vkc_, engine_->commands(), desc, count, buffers);
    }
    record_barrier_after_sort();
    record_download(keys, out_keys, bytes);
    record_download(values, out_values, bytes);
    record_barrier_to_host();
    engine_->submit_and_wait();

    Input out{std::vector<std::uint32_t>(kMaxCount), std::vector<std::uint32_t>(kMaxCount)};
    std::memcpy(out.keys.data(), out_keys.mapped, bytes);
    std::memcpy(out.values.data(), out_values.mapped, bytes);
    return out;
  }

  std::optional<Engine> engine_;
  std::optional<vkc::Context> vkc_;
};

TEST_F(EngineAdoption, RecordSortSortsPairsOnTheEnginesDevice) {
  const Input in = random_input();
  const Input out = sort_on_engine(in, kMaxCount, false);
  const Input want = expected(in, kMaxCount);
  EXPECT_EQ(out.keys, want.keys);
  EXPECT_EQ(out.values, want.values);
}

TEST_F(EngineAdoption, RecordSortIndirectSortsTheCountTheGpuHolds) {
  const Input in = random_input();
  const std::uint32_t count = kMaxCount - 1234;  // below max_count: the tail stays as it was
  const Input out = sort_on_engine(in, count, true);
  const Input want = expected(in, count);
  EXPECT_EQ(out.keys, want.keys);
  EXPECT_EQ(out.values, want.values);
}

TEST_F(EngineAdoption, ReportsTheEnginesDevice) {
  EXPECT_EQ(vkc_->device(), engine_->adopted().device);
  EXPECT_EQ(vkc_->queue(), engine_->adopted().queue);
  EXPECT_EQ(vkc_->info().index, ctx().info().index);
}

// An adopted device compiles into the engine's VkPipelineCache and never writes a cache file,
// even where VKC_PIPELINE_CACHE names a directory.
TEST_F(EngineAdoption, UsesTheEnginesPipelineCacheAndWritesNoFile) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("vkc-engine-cache-" + std::to_string(std::random_device{}()));
  const std::string old = std::getenv("VKC_PIPELINE_CACHE") ? std::getenv("VKC_PIPELINE_CACHE") : "";
  setenv("VKC_PIPELINE_CACHE", dir.c_str(), 1);
  vkc_.emplace(engine_->adopted());
  EXPECT_EQ(vkc::detail::compute_device(*vkc_).pipelines.handle, engine_->adopted().pipeline_cache);
  const Input in = random_input();
  const Input out = sort_on_engine(in, kMaxCount, false);
  EXPECT_EQ(out.keys, expected(in, kMaxCount).keys);
  vkc_.reset();
  old.empty() ? unsetenv("VKC_PIPELINE_CACHE") : setenv("VKC_PIPELINE_CACHE", old.c_str(), 1);
  EXPECT_FALSE(std::filesystem::exists(dir));
  std::filesystem::remove_all(dir);
}

TEST(EngineAdoptionErrors, RefusesAMissingHandleWithAVkcError) {
  EXPECT_THROW(vkc::Context(vkc::AdoptedDevice{}), vkc::Error);
}

}  // namespace
