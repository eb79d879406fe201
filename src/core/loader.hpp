// Run-time binding to the Vulkan loader: the library opens libvulkan.so.1 itself, so that a
// missing loader is an Error with one clear message, not a failure to start the program.
#pragma once

#include <vulkan/vulkan_core.h>

namespace vkc::vk {

#define VKC_GLOBAL_FUNCTIONS(X)          \
  X(vkCreateInstance)                    \
  X(vkEnumerateInstanceVersion)          \
  X(vkEnumerateInstanceLayerProperties)  \
  X(vkEnumerateInstanceExtensionProperties)

#define VKC_INSTANCE_FUNCTIONS(X)                    \
  X(vkDestroyInstance)                               \
  X(vkEnumeratePhysicalDevices)                      \
  X(vkGetPhysicalDeviceProperties)                   \
  X(vkGetPhysicalDeviceProperties2)                  \
  X(vkGetPhysicalDeviceFeatures2)                    \
  X(vkGetPhysicalDeviceMemoryProperties)             \
  X(vkGetPhysicalDeviceQueueFamilyProperties)        \
  X(vkEnumerateDeviceExtensionProperties)            \
  X(vkCreateDevice)                                  \
  X(vkGetDeviceProcAddr)                             \
  X(vkCreateDebugUtilsMessengerEXT)                  \
  X(vkDestroyDebugUtilsMessengerEXT)

#define VKC_DEVICE_FUNCTIONS(X)            \
  X(vkDestroyDevice)                       \
  X(vkGetDeviceQueue)                      \
  X(vkDeviceWaitIdle)                      \
  X(vkCreateBuffer)                        \
  X(vkDestroyBuffer)                       \
  X(vkGetBufferMemoryRequirements)         \
  X(vkAllocateMemory)                      \
  X(vkFreeMemory)                          \
  X(vkBindBufferMemory)                    \
  X(vkMapMemory)                           \
  X(vkUnmapMemory)                         \
  X(vkInvalidateMappedMemoryRanges)        \
  X(vkFlushMappedMemoryRanges)             \
  X(vkCreateShaderModule)                  \
  X(vkDestroyShaderModule)                 \
  X(vkCreateDescriptorSetLayout)           \
  X(vkDestroyDescriptorSetLayout)          \
  X(vkCreatePipelineLayout)                \
  X(vkDestroyPipelineLayout)               \
  X(vkCreateComputePipelines)              \
  X(vkDestroyPipeline)                     \
  X(vkCreatePipelineCache)                 \
  X(vkDestroyPipelineCache)                \
  X(vkGetPipelineCacheData)                \
  X(vkCreateCommandPool)                   \
  X(vkDestroyCommandPool)                  \
  X(vkAllocateCommandBuffers)              \
  X(vkFreeCommandBuffers)                  \
  X(vkResetCommandBuffer)                  \
  X(vkBeginCommandBuffer)                  \
  X(vkEndCommandBuffer)                    \
  X(vkCreateFence)                         \
  X(vkDestroyFence)                        \
  X(vkResetFences)                         \
  X(vkWaitForFences)                       \
  X(vkQueueSubmit)                         \
  X(vkCreateSemaphore)                     \
  X(vkDestroySemaphore)                    \
  X(vkWaitSemaphores)                      \
  X(vkGetSemaphoreCounterValue)            \
  X(vkGetMemoryHostPointerPropertiesEXT)   \
  X(vkCreateQueryPool)                     \
  X(vkDestroyQueryPool)                    \
  X(vkGetQueryPoolResults)                 \
  X(vkCmdResetQueryPool)                   \
  X(vkCmdWriteTimestamp)                   \
  X(vkCmdBindPipeline)                     \
  X(vkCmdPushConstants)                    \
  X(vkCmdPushDescriptorSetKHR)             \
  X(vkCmdDispatch)                         \
  X(vkCmdDispatchIndirect)                 \
  X(vkCmdPipelineBarrier)                  \
  X(vkCmdCopyBuffer)                       \
  X(vkCmdFillBuffer)                       \
  X(vkGetPipelineExecutablePropertiesKHR)  \
  X(vkGetPipelineExecutableStatisticsKHR)

#define VKC_DECLARE(name) extern PFN_##name name;
VKC_GLOBAL_FUNCTIONS(VKC_DECLARE)
VKC_INSTANCE_FUNCTIONS(VKC_DECLARE)
VKC_DEVICE_FUNCTIONS(VKC_DECLARE)
#undef VKC_DECLARE

/// Opens the loader once (VKC_VULKAN_LIBRARY overrides its file name) and binds the global
/// functions. Throws Error when the loader cannot be opened.
void load_loader();
/// Binds instance- and device-level functions. Device functions are bound through the loader's
/// dispatching entry points, so the same pointers serve every device of every Context.
void load_instance(VkInstance instance);
/// Binds the instance- and device-level functions of an engine's `instance`: through the engine's
/// own vkGetInstanceProcAddr where it gives one (the loader is then never opened), else through
/// the loader vkc opens. The pointers are process-wide, as above: every handle given to vkc must
/// come from that same loader.
void load_engine_instance(VkInstance instance, PFN_vkGetInstanceProcAddr get_instance_proc_addr);
/// Whether vkc has opened the loader itself (tests of the engine path).
bool loader_opened();

}  // namespace vkc::vk
