// vkc::Sorter on an engine's own device, as an engine would use it in a frame: created from the
// engine's instance, physical device, device, vkGetInstanceProcAddr and pipeline cache, with no
// queue and without vkc opening a Vulkan loader of its own; pipelines prepared up front; sorts
// recorded between the engine's barriers and submitted by the engine. Any message of the
// validation layer (synchronization validation on) fails the test. No vkc::Context is made here.
#include <vulkan/vulkan.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/loader.hpp"
#include "engine.hpp"
#include "support/gpu_test.hpp"
#include "vkc/sort.hpp"

namespace vkc::test {
namespace {

// Past one radix tile at every lavapipe subgroup size, so several workgroups rank and scatter.
constexpr std::uint32_t kMaxCount = 5000;

SortDesc pairs_desc(SortAlgorithm algorithm, std::uint64_t max_count = kMaxCount) {
  return {KeyType::u32, ValueType::u32, max_count, {algorithm}};
}

class EngineSorter : public ::testing::Test {
 protected:
  void SetUp() override {
    apply_test_environment();  // the subgroup size CTest asks for, before the engine's instance
    engine_messages().clear();
    const char* device = std::getenv("VKC_DEVICE");
    engine_.emplace(device && *device ? static_cast<std::uint32_t>(std::atoi(device)) : 0u);
  }

  void TearDown() override {
    sorter_.reset();  // before the engine destroys its device
    engine_.reset();
    for (const std::string& m : engine_messages()) ADD_FAILURE() << "validation layer (engine's messenger): " << m;
  }

  Sorter& make_sorter(std::vector<SortDesc> prepare) {
    SorterCreateInfo info;
    info.instance = engine_->instance();
    info.physical_device = engine_->physical_device();
    info.device = engine_->device();
    info.get_instance_proc_addr = vkGetInstanceProcAddr;  // the engine's loader, never vkc's
    info.pipeline_cache = engine_->pipeline_cache();
    info.prepare = std::move(prepare);
    sorter_.emplace(info);
    const char* expected = std::getenv("VKC_EXPECT_SUBGROUP_SIZE");
    if (sorter_->info().is_software() && expected) {
      EXPECT_EQ(sorter_->info().subgroup_size, static_cast<std::uint32_t>(std::atoi(expected)));
    }
    return *sorter_;
  }

  Pairs random_input() {
    std::mt19937_64 rng = rng_for_current_test();
    return random_pairs(kMaxCount, rng);
  }
  static Pairs expected(const Pairs& in, std::uint32_t count) { return stably_sorted(in, count); }

  // Sorts the first `count` pairs of `in` on the engine's device (the count in a GPU word when
  // `indirect`), in host-visible buffers of the engine's, between the contract's barriers; the
  // temporary buffer has exactly the size and usage the Sorter asks for.
  Pairs sort_on_engine(const SortDesc& desc, const Pairs& in, std::uint32_t count, bool indirect) {
    const VkDeviceSize bytes = VkDeviceSize{kMaxCount} * 4;
    const EngineBuffer keys = engine_->buffer(bytes), values = engine_->buffer(bytes), count_word = engine_->buffer(4);
    const SortStorageRequirements needs = sorter_->temporary_requirements(desc);
    const EngineBuffer temporary = engine_->buffer(needs.size, needs.usage);
    std::memcpy(keys.mapped, in.keys.data(), bytes);
    std::memcpy(values.mapped, in.values.data(), bytes);
    std::memcpy(count_word.mapped, &count, 4);

    engine_->begin();
    // The host's writes are visible to the submission; the sort's stages still wait for nothing.
    engine_->barrier(VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT,
                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                     VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT);
    const SortBuffers buffers{{keys.buffer}, {values.buffer}, {temporary.buffer}};
    if (indirect) {
      sorter_->record_sort_indirect(engine_->commands(), desc, {count_word.buffer}, buffers);
    } else {
      sorter_->record_sort(engine_->commands(), desc, count, buffers);
    }
    engine_->barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                     VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                     VK_ACCESS_HOST_READ_BIT);
    engine_->submit_and_wait();

    Pairs out{std::vector<std::uint32_t>(kMaxCount), std::vector<std::uint32_t>(kMaxCount)};
    std::memcpy(out.keys.data(), keys.mapped, bytes);
    std::memcpy(out.values.data(), values.mapped, bytes);
    return out;
  }

  std::optional<Engine> engine_;
  std::optional<Sorter> sorter_;
};

TEST_F(EngineSorter, SortsPairsWithoutAQueueOrVkcsOwnLoader) {
  const SortDesc desc = pairs_desc(SortAlgorithm::radix);
  make_sorter({desc});
  const Pairs in = random_input();
  const Pairs out = sort_on_engine(desc, in, kMaxCount, false);
  const Pairs want = expected(in, kMaxCount);
  EXPECT_EQ(out.keys, want.keys);
  EXPECT_EQ(out.values, want.values);
  EXPECT_FALSE(vk::loader_opened()) << "the Sorter opened a Vulkan loader instead of using the engine's";
}

TEST_F(EngineSorter, SortsTheCountTheGpuHolds) {
  const SortDesc desc = pairs_desc(SortAlgorithm::radix);
  make_sorter({desc});
  const Pairs in = random_input();
  const std::uint32_t count = kMaxCount - 1234;  // below max_count: the tail stays as it was
  const Pairs out = sort_on_engine(desc, in, count, true);
  const Pairs want = expected(in, count);
  EXPECT_EQ(out.keys, want.keys);
  EXPECT_EQ(out.values, want.values);
  EXPECT_FALSE(vk::loader_opened());
}

// After prepare, recording any count up to max_count, direct or indirect, builds no pipeline.
TEST_F(EngineSorter, RecordingAfterPrepareCompilesNoPipeline) {
  std::vector<SortDesc> descs;
  for (SortAlgorithm a : {SortAlgorithm::automatic, SortAlgorithm::radix, SortAlgorithm::bitonic,
                          SortAlgorithm::bitonic_transpose, SortAlgorithm::odd_even}) {
    descs.push_back(pairs_desc(a));
    descs.push_back({KeyType::f64, ValueType::none, kMaxCount, {a, SortOrder::descending}});
  }
  Sorter& sorter = make_sorter(descs);
  const std::size_t prepared = sorter.pipelines_compiled();
  EXPECT_GT(prepared, 0u);
  const EngineBuffer keys = engine_->buffer(kMaxCount * 8), values = engine_->buffer(kMaxCount * 4);
  const EngineBuffer count_word = engine_->buffer(4);
  for (const SortDesc& desc : descs) {
    const EngineBuffer temporary = engine_->buffer(sorter.temporary_requirements(desc).size);
    const SortBuffers buffers{{keys.buffer}, {desc.value_type == ValueType::none ? VK_NULL_HANDLE : values.buffer},
                              {temporary.buffer}};
    for (std::uint64_t count : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{77}, std::uint64_t{1024},
                                std::uint64_t{1025}, std::uint64_t{4097}, std::uint64_t{kMaxCount}}) {
      engine_->begin();
      sorter.record_sort(engine_->commands(), desc, count, buffers);
      engine_->end();
      EXPECT_EQ(sorter.pipelines_compiled(), prepared)
          << to_string(desc.options.algorithm) << ' ' << to_string(desc.key_type) << " n=" << count;
    }
    engine_->begin();
    sorter.record_sort_indirect(engine_->commands(), desc, {count_word.buffer}, buffers);
    engine_->end();
    EXPECT_EQ(sorter.pipelines_compiled(), prepared) << to_string(desc.options.algorithm) << " indirect";
  }
}

// A pipeline that was not prepared is still built when recorded (counted), so prepare is an
// optimisation the engine chooses, never a precondition.
TEST_F(EngineSorter, CompilesWhatWasNotPreparedWhenRecorded) {
  const SortDesc desc = pairs_desc(SortAlgorithm::radix);
  Sorter& sorter = make_sorter({});
  EXPECT_EQ(sorter.pipelines_compiled(), 0u);
  const Pairs in = random_input();
  const Pairs out = sort_on_engine(desc, in, kMaxCount, false);
  EXPECT_EQ(out.keys, expected(in, kMaxCount).keys);
  EXPECT_GT(sorter.pipelines_compiled(), 0u);
}

TEST_F(EngineSorter, TemporaryRequirementsNameSizeAlignmentAndUsage) {
  Sorter& sorter = make_sorter({});
  const SortStorageRequirements needs = sorter.temporary_requirements(pairs_desc(SortAlgorithm::radix));
  EXPECT_GE(needs.size, 16u);
  EXPECT_GE(needs.alignment, sorter.info().storage_offset_alignment);
  EXPECT_EQ(needs.alignment & (needs.alignment - 1), 0u) << "a power of two";
  const VkBufferUsageFlags wanted = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                                    VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  EXPECT_EQ(needs.usage & wanted, wanted);
}

TEST(EngineSorterErrors, RefusesAMissingHandleWithAVkcError) {
  EXPECT_THROW(Sorter(SorterCreateInfo{}), Error);
}

}  // namespace
}  // namespace vkc::test
