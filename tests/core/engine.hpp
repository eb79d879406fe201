// An engine of the tests' own: raw Vulkan through the loader the test links creates the instance
// (validation layer, synchronization validation, the engine's own messenger), the device with
// what vkc asks for, buffers and a command buffer, as a renderer would.
#pragma once

#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "vkc/context.hpp"

namespace vkc::test {

inline std::vector<std::string>& engine_messages() {
  static std::vector<std::string> messages;
  return messages;
}

inline VKAPI_ATTR VkBool32 VKAPI_CALL collect_message(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                               const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  engine_messages().emplace_back(data->pMessage ? data->pMessage : "(empty)");
  return VK_FALSE;
}

inline void ok(VkResult result, const char* what) {
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

  vkc::AdoptedDevice adopted() const {
    return {instance_, physical_, device_, family_, queue_, cache_, vkGetInstanceProcAddr};
  }
  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_; }
  VkDevice device() const { return device_; }
  VkPipelineCache pipeline_cache() const { return cache_; }
  VkCommandBuffer commands() const { return commands_; }

  static constexpr VkBufferUsageFlags kAnyUse = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                                                VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

  EngineBuffer buffer(VkDeviceSize bytes, VkBufferUsageFlags usage = kAnyUse) {
    EngineBuffer b;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = std::max<VkDeviceSize>(bytes, 16);
    info.usage = usage;
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

  void end() { ok(vkEndCommandBuffer(commands_), "vkEndCommandBuffer"); }

  void submit_and_wait() {
    end();
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
    vkc::DeviceRequirements needs = vkc::device_requirements(instance_, physical_, vkGetInstanceProcAddr);
    needs.vulkan12.pNext = &needs.vulkan11;
    if (needs.subgroup_size_control.subgroupSizeControl) needs.vulkan11.pNext = &needs.subgroup_size_control;
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

/// Keys with many ties (so that stability shows) and their input positions as values.
struct Pairs {
  std::vector<std::uint32_t> keys, values;
};

inline Pairs random_pairs(std::uint32_t n, std::mt19937_64& rng) {
  Pairs in{std::vector<std::uint32_t>(n), std::vector<std::uint32_t>(n)};
  for (std::uint32_t& k : in.keys) k = static_cast<std::uint32_t>(rng()) % 997;
  std::iota(in.values.begin(), in.values.end(), 0u);
  return in;
}

/// std::stable_sort's order of the first `count` pairs; the rest stay as they were.
inline Pairs stably_sorted(Pairs in, std::uint32_t count) {
  std::vector<std::uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return in.keys[a] < in.keys[b]; });
  Pairs out = in;
  for (std::uint32_t i = 0; i < count; ++i) {
    out.keys[i] = in.keys[order[i]];
    out.values[i] = in.values[order[i]];
  }
  return out;
}

}  // namespace vkc::test
