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
#include "support/gpu_test.hpp"
#include "vkc/sort.hpp"

namespace {

std::vector<std::string>& engine_messages() {
  static std::vector<std::string> messages;
  return messages;
}

VKAPI_ATTR VkBool32 VKAPI_CALL collect_message(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                               const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  engine_messages().emplace_back(data->pMessage ? data->pMessage : "(empty)");
  return VK_FALSE;
}

void ok(VkResult result, const char* what) {
  if (result != VK_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + std::to_string(result));
}

// A host-visible buffer of the engine's, so that the test fills and reads it without staging.
struct EngineBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;
};

// What an engine owns: instance, messenger, device, queue, pipeline cache, command buffer.
class Engine {
 public:
  explicit Engine(std::uint32_t device_index) {
    create_instance();
    std::uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance_, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance_, &count, devices.data());
    physical_ = devices.at(device_index);
    family_ = compute_family();
    create_device();
    VkPipelineCacheCreateInfo cache{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    ok(vkCreatePipelineCache(device_, &cache, nullptr, &cache_), "vkCreatePipelineCache");
    VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool.queueFamilyIndex = family_;
    ok(vkCreateCommandPool(device_, &pool, nullptr, &pool_), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    ok(vkAllocateCommandBuffers(device_, &alloc, &commands_), "vkAllocateCommandBuffers");
  }

  ~Engine() {
    for (const EngineBuffer& b : buffers_) {
      vkDestroyBuffer(device_, b.buffer, nullptr);
      vkFreeMemory(device_, b.memory, nullptr);
    }
    vkDestroyCommandPool(device_, pool_, nullptr);
    vkDestroyPipelineCache(device_, cache_, nullptr);
    vkDestroyDevice(device_, nullptr);
    destroy_messenger();
    vkDestroyInstance(instance_, nullptr);
  }

  vkc::AdoptedDevice adopted() const { return {instance_, physical_, device_, family_, queue_, cache_}; }
  VkCommandBuffer commands() const { return commands_; }

  EngineBuffer buffer(VkDeviceSize bytes) {
    EngineBuffer b;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = std::max<VkDeviceSize>(bytes, 16);
    info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                 VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    ok(vkCreateBuffer(device_, &info, nullptr, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements needs;
    vkGetBufferMemoryRequirements(device_, b.buffer, &needs);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = needs.size;
    alloc.memoryTypeIndex = host_visible_type(needs.memoryTypeBits);
    ok(vkAllocateMemory(device_, &alloc, nullptr, &b.memory), "vkAllocateMemory");
    ok(vkBindBufferMemory(device_, b.buffer, b.memory, 0), "vkBindBufferMemory");
    ok(vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
    buffers_.push_back(b);
    return b;
  }

  void begin() {
    ok(vkResetCommandPool(device_, pool_, 0), "vkResetCommandPool");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    ok(vkBeginCommandBuffer(commands_, &begin), "vkBeginCommandBuffer");
  }

  void submit_and_wait() {
    ok(vkEndCommandBuffer(commands_), "vkEndCommandBuffer");
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands_;
    ok(vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
    ok(vkQueueWaitIdle(queue_), "vkQueueWaitIdle");
  }

  void barrier(VkPipelineStageFlags src_stages, VkAccessFlags src_access, VkPipelineStageFlags dst_stages,
               VkAccessFlags dst_access) {
    const VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, src_access, dst_access};
    vkCmdPipelineBarrier(commands_, src_stages, dst_stages, 0, 1, &b, 0, nullptr, 0, nullptr);
  }

 private:
  void create_instance() {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "engine_test";
    app.apiVersion = VK_API_VERSION_1_3;
    const char* layers[] = {"VK_LAYER_KHRONOS_validation"};
    const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
    VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger.pfnUserCallback = collect_message;
    const VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT, &messenger};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, &features};
    info.pApplicationInfo = &app;
    info.enabledLayerCount = 1;
    info.ppEnabledLayerNames = layers;
    info.enabledExtensionCount = 2;
    info.ppEnabledExtensionNames = extensions;
    ok(vkCreateInstance(&info, nullptr, &instance_), "vkCreateInstance");
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
    ok(create(instance_, &messenger, nullptr, &messenger_), "vkCreateDebugUtilsMessengerEXT");
  }

  void destroy_messenger() {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    destroy(instance_, messenger_, nullptr);
  }

  std::uint32_t compute_family() const {
    std::uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, families.data());
    for (std::uint32_t i = 0; i < count; ++i) {
      if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) return i;
    }
    throw std::runtime_error("no compute queue");
  }

  // The device with what vkc asks for, chained as the engine would chain its own features.
  void create_device() {
    vkc::DeviceRequirements needs = vkc::device_requirements(instance_, physical_);
    if (needs.subgroup_size_control.subgroupSizeControl) needs.vulkan12.pNext = &needs.subgroup_size_control;
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &needs.vulkan12};
    features.features = needs.features;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = family_;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.enabledExtensionCount = static_cast<std::uint32_t>(needs.extensions.size());
    info.ppEnabledExtensionNames = needs.extensions.data();
    ok(vkCreateDevice(physical_, &info, nullptr, &device_), "vkCreateDevice");
    vkGetDeviceQueue(device_, family_, 0, &queue_);
  }

  std::uint32_t host_visible_type(std::uint32_t type_bits) const {
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(physical_, &memory);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
      if ((type_bits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & want) == want) return i;
    }
    throw std::runtime_error("no host-visible coherent memory");
  }

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  std::uint32_t family_ = 0;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
  std::vector<EngineBuffer> buffers_;
};

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

  // Keys and their input positions as values, filled by the host into the engine's buffers.
  struct Input {
    std::vector<std::uint32_t> keys, values;
  };
  Input random_input() {
    std::mt19937_64 rng = vkc::test::rng_for_current_test();
    Input in{std::vector<std::uint32_t>(kMaxCount), std::vector<std::uint32_t>(kMaxCount)};
    for (std::uint32_t& k : in.keys) k = static_cast<std::uint32_t>(rng()) % 997;  // many ties: stability shows
    std::iota(in.values.begin(), in.values.end(), 0u);
    return in;
  }

  // std::stable_sort's order of the first `count` pairs; the rest stay as they were.
  static Input expected(Input in, std::uint32_t count) {
    std::vector<std::uint32_t> order(count);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return in.keys[a] < in.keys[b]; });
    Input out = in;
    for (std::uint32_t i = 0; i < count; ++i) {
      out.keys[i] = in.keys[order[i]];
      out.values[i] = in.values[order[i]];
    }
    return out;
  }

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
  EXPECT_EQ(vkc_->state().pipeline_cache, engine_->adopted().pipeline_cache);
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
