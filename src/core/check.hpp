// Turning VkResult codes into Errors that name the call, the result and the device.
#pragma once

#include <vulkan/vulkan_core.h>

#include <string>
#include <string_view>

namespace vkc {

/// "out of device memory" for VK_ERROR_OUT_OF_DEVICE_MEMORY, and so on.
const char* describe(VkResult result);

/// Throws Error("<call> failed on '<device>': <description>") unless result is VK_SUCCESS.
void check(VkResult result, std::string_view call, std::string_view device = {});

}  // namespace vkc
