// The C ABI's one way out of a call: every entry point runs its body through guarded(), which
// turns whatever the body throws into a vkc_status and the calling thread's last-error message
// ("vkc_sort: keys is NULL").
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "vkc/vkc.h"

namespace vkc::capi {

/// A failure whose status the C layer decides itself (a bad argument, an unsupported request,
/// no device). Deliberately not a vkc::Error, so that no catch (const Error&) inside the library
/// can take it for one of its own.
struct StatusError {
  vkc_status status;
  std::string message;
};

/// Thrown from inside a progress std::function when the C callback asks to cancel.
struct Cancelled {};

/// Thrown from inside a HostRead/HostWrite when the C callback returns non-zero.
struct CallbackFailed {
  const char* which;  // the callback's parameter name: "read_keys", "write_indices", ...
  int returned;
};

[[noreturn]] void fail(vkc_status status, std::string message);
[[noreturn]] inline void invalid(std::string message) { fail(VKC_ERROR_INVALID_ARGUMENT, std::move(message)); }

/// Records the exception being handled as the thread's last error, "<function>: <message>", and
/// returns its status. Call only inside a catch block. Never throws.
vkc_status record_current_exception(const char* function) noexcept;

/// The thread's last error ("" before any failure).
const char* last_error_text() noexcept;
/// The thread's last error without its "<function>: ".
const char* last_error_message() noexcept;

/// Runs `body`; VKC_OK when it returns, else the status of what it threw.
template <class Body>
vkc_status guarded(const char* function, Body&& body) noexcept {
  try {
    body();
    return VKC_OK;
  } catch (...) {
    return record_current_exception(function);
  }
}

// Argument checks; each fails with VKC_ERROR_INVALID_ARGUMENT naming the argument.
inline void require(bool condition, const char* what) {
  if (!condition) invalid(what);
}
inline void require_pointer(const void* pointer, const char* name) {
  if (!pointer) invalid(std::string(name) + " is NULL");
}
/// What an array of `count` elements needs (its memory, its callback): NULL only when count is 0.
inline void require_given(bool given, std::uint64_t count, const char* name) {
  if (count > 0 && !given) invalid(std::string(name) + " is NULL (count " + std::to_string(count) + ")");
}
inline void require_array(const void* pointer, std::uint64_t count, const char* name) {
  require_given(pointer != nullptr, count, name);
}
template <class Function>
void require_callback(Function* callback, std::uint64_t count, const char* name) {
  require_given(callback != nullptr, count, name);
}
/// A C enumerator in [first, last], checked as an int before anything casts it.
inline void require_enum(int value, int first, int last, const char* name) {
  if (value < first || value > last) invalid("unknown " + std::string(name) + " " + std::to_string(value));
}

}  // namespace vkc::capi
