#include "core/check.hpp"

#include "vkc/context.hpp"

namespace vkc {

const char* describe(VkResult result) {
  switch (result) {
    case VK_SUCCESS: return "success";
    case VK_NOT_READY: return "not ready";
    case VK_TIMEOUT: return "timed out";
    case VK_INCOMPLETE: return "incomplete";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "out of host memory";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "out of device memory";
    case VK_ERROR_INITIALIZATION_FAILED: return "initialization failed";
    case VK_ERROR_DEVICE_LOST: return "device lost";
    case VK_ERROR_MEMORY_MAP_FAILED: return "memory map failed";
    case VK_ERROR_LAYER_NOT_PRESENT: return "layer not present";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "extension not present";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "feature not present";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "incompatible driver (no Vulkan device installed?)";
    case VK_ERROR_TOO_MANY_OBJECTS: return "too many objects";
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return "format not supported";
    case VK_ERROR_FRAGMENTED_POOL: return "fragmented pool";
    case VK_ERROR_OUT_OF_POOL_MEMORY: return "out of pool memory";
    case VK_ERROR_INVALID_EXTERNAL_HANDLE: return "invalid external handle";
    case VK_ERROR_FRAGMENTATION: return "fragmentation";
    case VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS: return "invalid opaque capture address";
    case VK_ERROR_INVALID_SHADER_NV: return "invalid shader";
    default: return "unknown error";
  }
}

void check(VkResult result, std::string_view call, std::string_view device) {
  if (result == VK_SUCCESS) return;
  std::string message(call);
  message += " failed";
  if (!device.empty()) {
    message += " on '";
    message += device;
    message += "'";
  }
  message += ": ";
  message += describe(result);
  message += " (VkResult " + std::to_string(static_cast<int>(result)) + ")";
  throw Error(message);
}

}  // namespace vkc
