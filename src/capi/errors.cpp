// The thread's last error and the mapping from exceptions to statuses, for every C library of vkc
// (libvkcompute.so, libvkcompute_mpi.so: each records its own functions' failures).
#include "capi/errors.hpp"

#include <algorithm>
#include <cstdio>
#include <new>
#include <string_view>

#include "vkc/context.hpp"

namespace vkc::capi {
namespace {

// A fixed buffer: recording a failure allocates nothing, so it cannot fail itself.
thread_local char last_error[2048];
thread_local std::size_t message_at = 0;  // where the message begins, after "<function>: "

void set_last_error(const char* function, std::string_view message) noexcept {
  const int prefix = std::snprintf(last_error, sizeof last_error, "%s: ", function);
  std::size_t at = std::clamp<std::size_t>(prefix < 0 ? 0 : prefix, 0, sizeof last_error - 1);
  message_at = at;
  for (const char c : message) {
    if (at + 1 >= sizeof last_error) break;
    last_error[at++] = (c == '\n' || c == '\r') ? ' ' : c;  // the contract promises one line
  }
  last_error[at] = '\0';
}

bool ends_with(std::string_view text, std::string_view tail) {
  return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

// core/check.cpp ends the message of every failed Vulkan call with "(VkResult <n>)".
vkc_status status_of(const Error& e) {
  const std::string_view what = e.what();
  if (ends_with(what, "(VkResult -1)") || ends_with(what, "(VkResult -2)")) return VKC_ERROR_OUT_OF_MEMORY;
  if (ends_with(what, "(VkResult -4)")) return VKC_ERROR_DEVICE_LOST;
  return VKC_ERROR_FAILED;
}

}  // namespace

void fail(vkc_status status, std::string message) { throw StatusError{status, std::move(message)}; }

vkc_status record_current_exception(const char* function) noexcept {
  try {
    throw;
  } catch (const StatusError& e) {
    set_last_error(function, e.message);
    return e.status;
  } catch (const Cancelled&) {
    set_last_error(function, "cancelled: the progress callback returned non-zero");
    return VKC_ERROR_CANCELLED;
  } catch (const CallbackFailed& e) {
    char text[96];
    std::snprintf(text, sizeof text, "the %s callback returned %d", e.which, e.returned);
    set_last_error(function, text);
    return VKC_ERROR_CALLBACK;
  } catch (const std::bad_alloc&) {
    set_last_error(function, "out of host memory");
    return VKC_ERROR_OUT_OF_MEMORY;
  } catch (const Error& e) {
    set_last_error(function, e.what());
    return status_of(e);
  } catch (const std::exception& e) {
    set_last_error(function, e.what());
    return VKC_ERROR_FAILED;
  } catch (...) {
    set_last_error(function, "an unknown exception");
    return VKC_ERROR_FAILED;
  }
}

const char* last_error_text() noexcept { return last_error; }

const char* last_error_message() noexcept { return last_error + message_at; }

}  // namespace vkc::capi
