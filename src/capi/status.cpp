// The C ABI's functions that say what happened: statuses, the last error, the versions.
#include "capi/errors.hpp"

extern "C" {

const char* vkc_last_error(void) { return vkc::capi::last_error_text(); }

const char* vkc_status_name(vkc_status status) {
  switch (static_cast<int>(status)) {
    case VKC_OK: return "VKC_OK";
    case VKC_ERROR_INVALID_ARGUMENT: return "VKC_ERROR_INVALID_ARGUMENT";
    case VKC_ERROR_UNSUPPORTED: return "VKC_ERROR_UNSUPPORTED";
    case VKC_ERROR_OUT_OF_MEMORY: return "VKC_ERROR_OUT_OF_MEMORY";
    case VKC_ERROR_DEVICE_LOST: return "VKC_ERROR_DEVICE_LOST";
    case VKC_ERROR_NO_DEVICE: return "VKC_ERROR_NO_DEVICE";
    case VKC_ERROR_CANCELLED: return "VKC_ERROR_CANCELLED";
    case VKC_ERROR_CALLBACK: return "VKC_ERROR_CALLBACK";
    case VKC_ERROR_FAILED: return "VKC_ERROR_FAILED";
    default: return "VKC_STATUS_UNKNOWN";
  }
}

uint32_t vkc_abi_version(void) { return VKC_ABI_VERSION; }

const char* vkc_version(void) { return VKC_LIBRARY_VERSION; }

}  // extern "C"
