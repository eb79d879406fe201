// What the sort functions of the C ABI share (sort.cpp, segments.cpp): the C enumerators turned
// into the C++ ones, the argument checks, and the frame every sort call runs in.
#pragma once

#include <cstdint>
#include <utility>

#include "capi/errors.hpp"
#include "capi/handles.hpp"

namespace vkc::capi {

// The C enumerators, checked, as the C++ ones (VKC_ERROR_INVALID_ARGUMENT for unknown ones).
KeyType key_type(vkc_key_type type);
ValueType value_type(vkc_value_type type);

/// The options of one call (NULL: the defaults), the C progress callback wrapped.
SortOptions resolve(const vkc_sort_options* options);

/// Counts whose arrays' byte sizes fit 64 bits (and so every size the library computes).
void require_count(std::uint64_t count);
/// argsort promises the stable permutation: only the stable algorithms.
void require_stable(const SortOptions& options);
/// VKC_ERROR_UNSUPPORTED past what uint32 indices number.
void require_32_bit_indices(std::uint64_t count);
/// A bit range narrower than the key is for radix alone, and starts within the key.
void require_bits_fit(KeyType type, const SortOptions& options);
/// VKC_ERROR_UNSUPPORTED for 64-bit keys on a device without shaderInt64.
void require_device_takes(const Context& ctx, KeyType type);

/// The frame of every sort function: the context, key type and options checked; `body` runs
/// with the context locked, after its own checks, once the device is known to take the key type.
/// With `on_devices`, `sort` gets a context's DeviceSet where it has one (a device list:
/// vkc_context_options_set_devices), else its Context.
template <bool on_devices, class Body>
vkc_status sort_frame(const char* function, vkc_context* context, vkc_key_type type, std::uint64_t count,
                      const vkc_sort_options* options, Body&& body) {
  return guarded(function, [&] {
    require_pointer(context, "context");
    const KeyType key = key_type(type);
    require_count(count);
    const SortOptions resolved = resolve(options);
    require_bits_fit(key, resolved);
    body(key, resolved, [&](auto&& sort) {
      const auto held = lock(*context);
      if constexpr (on_devices) {
        context->for_each_device([&](Context& device) { require_device_takes(device, key); });
        if (context->devices) return sort(*context->devices);
      }
      require_device_takes(context->context, key);
      sort(context->context);
    });
  });
}

/// A sort function that runs on one device (a device list's first).
template <class Body>
vkc_status sort_call(const char* function, vkc_context* context, vkc_key_type type, std::uint64_t count,
                     const vkc_sort_options* options, Body&& body) {
  return sort_frame<false>(function, context, type, count, options, std::forward<Body>(body));
}

/// A sort function that splits its arrays across a device list's devices.
template <class Body>
vkc_status sort_call_on_devices(const char* function, vkc_context* context, vkc_key_type type, std::uint64_t count,
                                const vkc_sort_options* options, Body&& body) {
  return sort_frame<true>(function, context, type, count, options, std::forward<Body>(body));
}

}  // namespace vkc::capi
