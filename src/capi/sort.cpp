// Sort options and the sort functions: argument checks, then the C++ API under the context's lock.
#include <cstdint>
#include <string>

#include "capi/sort_calls.hpp"

namespace vkc::capi {
namespace {

// The C enumerators are the C++ ones' positions, so a checked value converts by a cast.
static_assert(VKC_KEY_U32 == int(KeyType::u32) && VKC_KEY_I32 == int(KeyType::i32) && VKC_KEY_F32 == int(KeyType::f32) &&
              VKC_KEY_U64 == int(KeyType::u64) && VKC_KEY_I64 == int(KeyType::i64) && VKC_KEY_F64 == int(KeyType::f64) &&
              VKC_KEY_U8 == int(KeyType::u8) && VKC_KEY_I8 == int(KeyType::i8) && VKC_KEY_U16 == int(KeyType::u16) &&
              VKC_KEY_I16 == int(KeyType::i16) && VKC_KEY_F16 == int(KeyType::f16) &&
              VKC_KEY_BF16 == int(KeyType::bf16));
static_assert(VKC_VALUE_U32 == int(ValueType::u32) && VKC_VALUE_U64 == int(ValueType::u64));
static_assert(VKC_ALGORITHM_AUTO == int(SortAlgorithm::automatic) && VKC_ALGORITHM_BITONIC == int(SortAlgorithm::bitonic) &&
              VKC_ALGORITHM_BITONIC_TRANSPOSE == int(SortAlgorithm::bitonic_transpose) &&
              VKC_ALGORITHM_ODD_EVEN == int(SortAlgorithm::odd_even) && VKC_ALGORITHM_RADIX == int(SortAlgorithm::radix));
static_assert(VKC_ORDER_ASCENDING == int(SortOrder::ascending) && VKC_ORDER_DESCENDING == int(SortOrder::descending));
static_assert(VKC_RADIX_SCAN_AUTO == int(RadixScan::automatic) && VKC_RADIX_SCAN_LOOKBACK == int(RadixScan::lookback) &&
              VKC_RADIX_SCAN_REDUCE_THEN_SCAN == int(RadixScan::reduce_then_scan));

// A streamed array's C callback (given where count > 0), wrapped: a non-zero return throws
// CallbackFailed from inside the sort, which the library passes on from its worker threads.
HostRead checked_read(vkc_read_fn read, void* user, std::uint64_t count, const char* name) {
  require_callback(read, count, name);
  return [read, user, name](std::uint64_t offset, void* dst, std::uint64_t bytes) {
    if (const int returned = read(user, offset, dst, bytes)) throw CallbackFailed{name, returned};
  };
}

HostWrite checked_write(vkc_write_fn write, void* user, std::uint64_t count, const char* name) {
  require_callback(write, count, name);
  return [write, user, name](std::uint64_t offset, const void* src, std::uint64_t bytes) {
    if (const int returned = write(user, offset, src, bytes)) throw CallbackFailed{name, returned};
  };
}

// `to` may be `from` itself, or apart from it, never partly over it.
void require_apart_or_same(const void* from, const void* to, std::uint64_t bytes, const char* from_name,
                           const char* to_name) {
  const auto a = reinterpret_cast<std::uintptr_t>(from), b = reinterpret_cast<std::uintptr_t>(to);
  if (a != b && a < b + bytes && b < a + bytes) {
    invalid(std::string(to_name) + " overlaps " + from_name + " (they must be the same array or apart)");
  }
}

}  // namespace

KeyType key_type(vkc_key_type type) {
  require_enum(static_cast<int>(type), VKC_KEY_U32, VKC_KEY_BF16, "key type");
  return static_cast<KeyType>(static_cast<int>(type));
}

ValueType value_type(vkc_value_type type) {
  require_enum(static_cast<int>(type), VKC_VALUE_U32, VKC_VALUE_U64, "value type");
  return static_cast<ValueType>(static_cast<int>(type));
}

// A non-zero return of the progress callback throws Cancelled from inside the sort, on the
// calling thread, which the library lets through.
SortOptions resolve(const vkc_sort_options* options) {
  if (!options) return {};
  SortOptions resolved = options->options;
  if (const vkc_progress_fn progress = options->progress) {
    void* const user = options->progress_user;
    resolved.progress = [progress, user](const SortProgress& p) {
      if (progress(user, p.done, p.total) != 0) throw Cancelled{};
    };
  }
  return resolved;
}

void require_count(std::uint64_t count) {
  if (count > UINT64_MAX / 16) invalid("count " + std::to_string(count) + " is larger than any array");
}

void require_stable(const SortOptions& options) {
  const SortAlgorithm a = options.algorithm;
  if (a != SortAlgorithm::automatic && a != SortAlgorithm::radix && a != SortAlgorithm::odd_even) {
    invalid("argsort is stable: the algorithm must be auto, radix or odd_even, not " + std::string(to_string(a)));
  }
}

void require_32_bit_indices(std::uint64_t count) {
  if (count > UINT32_MAX) {
    fail(VKC_ERROR_UNSUPPORTED, "argsort of " + std::to_string(count) +
                                    " keys: more than uint32 indices number (use the argsort64 form)");
  }
}

// A bit range narrower than the key (vkc_sort_options_set_bits) is for radix alone, and starts
// within the key: both the caller's mistakes, refused as such here (the library would fail with
// a plain Error, VKC_ERROR_FAILED).
void require_bits_fit(KeyType type, const SortOptions& options) {
  const std::uint32_t width = vkc::key_bits(type);
  if (options.begin_bit == 0 && options.end_bit >= width) return;
  const std::string range = "bit range [" + std::to_string(options.begin_bit) + ", " +
                            (options.end_bit == UINT32_MAX ? std::string("end") : std::to_string(options.end_bit)) + ")";
  if (options.begin_bit > width) {
    invalid(range + " starts past the " + std::to_string(width) + " bits of " + std::string(to_string(type)) + " keys");
  }
  const vkc::SortAlgorithm a = options.algorithm;
  if (a != vkc::SortAlgorithm::automatic && a != vkc::SortAlgorithm::radix) {
    invalid(range + ": only radix sorts by a bit range, not " + std::string(to_string(a)) + " (use auto or radix)");
  }
}

void require_device_takes(const Context& ctx, KeyType type) {
  if (key_bytes(type) == 8 && !ctx.info().shader_int64) {
    fail(VKC_ERROR_UNSUPPORTED, std::string(to_string(type)) + " keys need 64-bit integers in shaders (shaderInt64), which '" +
                                    ctx.info().name + "' lacks");
  }
}

namespace {

template <class Change>
vkc_status change_options(const char* function, vkc_sort_options* options, Change&& change) {
  return guarded(function, [&] {
    require_pointer(options, "options");
    change(*options);
  });
}

}  // namespace
}  // namespace vkc::capi

using namespace vkc::capi;
using vkc::KeyType;
using vkc::SortOptions;

extern "C" {

vkc_status vkc_sort_options_create(vkc_sort_options** options) {
  return guarded("vkc_sort_options_create", [&] {
    require_pointer(options, "options");
    *options = nullptr;
    *options = new vkc_sort_options();
  });
}

void vkc_sort_options_destroy(vkc_sort_options* options) { delete options; }

vkc_status vkc_sort_options_set_algorithm(vkc_sort_options* options, vkc_sort_algorithm algorithm) {
  return change_options("vkc_sort_options_set_algorithm", options, [&](vkc_sort_options& o) {
    require_enum(static_cast<int>(algorithm), VKC_ALGORITHM_AUTO, VKC_ALGORITHM_RADIX, "algorithm");
    o.options.algorithm = static_cast<vkc::SortAlgorithm>(static_cast<int>(algorithm));
  });
}

vkc_status vkc_sort_options_set_order(vkc_sort_options* options, vkc_sort_order order) {
  return change_options("vkc_sort_options_set_order", options, [&](vkc_sort_options& o) {
    require_enum(static_cast<int>(order), VKC_ORDER_ASCENDING, VKC_ORDER_DESCENDING, "order");
    o.options.order = static_cast<vkc::SortOrder>(static_cast<int>(order));
  });
}

vkc_status vkc_sort_options_set_radix_scan(vkc_sort_options* options, vkc_radix_scan scan) {
  return change_options("vkc_sort_options_set_radix_scan", options, [&](vkc_sort_options& o) {
    require_enum(static_cast<int>(scan), VKC_RADIX_SCAN_AUTO, VKC_RADIX_SCAN_REDUCE_THEN_SCAN, "radix scan");
    o.options.radix_scan = static_cast<vkc::RadixScan>(static_cast<int>(scan));
  });
}

vkc_status vkc_sort_options_set_progress(vkc_sort_options* options, vkc_progress_fn progress, void* user) {
  return change_options("vkc_sort_options_set_progress", options, [&](vkc_sort_options& o) {
    o.progress = progress;
    o.progress_user = user;
  });
}

vkc_status vkc_sort_options_set_bits(vkc_sort_options* options, uint32_t begin_bit, uint32_t end_bit) {
  return change_options("vkc_sort_options_set_bits", options, [&](vkc_sort_options& o) {
    if (begin_bit > end_bit) {
      invalid("begin_bit " + std::to_string(begin_bit) + " is past end_bit " + std::to_string(end_bit));
    }
    o.options.begin_bit = begin_bit;
    o.options.end_bit = end_bit;
  });
}

vkc_status vkc_sort_options_get_order(const vkc_sort_options* options, vkc_sort_order* order) {
  return guarded("vkc_sort_options_get_order", [&] {
    require_pointer(order, "order");
    *order = static_cast<vkc_sort_order>(static_cast<int>(options ? options->options.order : SortOptions{}.order));
  });
}

vkc_status vkc_sort_options_get_bits(const vkc_sort_options* options, uint32_t* begin_bit, uint32_t* end_bit) {
  return guarded("vkc_sort_options_get_bits", [&] {
    require_pointer(begin_bit, "begin_bit");
    require_pointer(end_bit, "end_bit");
    const SortOptions& o = options ? options->options : SortOptions{};
    *begin_bit = o.begin_bit;
    *end_bit = o.end_bit;
  });
}

vkc_status vkc_sort(vkc_context* context, vkc_key_type type, void* keys, uint64_t count,
                    const vkc_sort_options* options) {
  return sort_call_on_devices("vkc_sort", context, type, count, options, [&](KeyType key, const SortOptions& o, auto locked) {
    require_array(keys, count, "keys");
    locked([&](auto& on) { vkc::sort(on, key, keys, count, o); });
  });
}

vkc_status vkc_sort_to(vkc_context* context, vkc_key_type type, const void* keys, void* sorted_keys, uint64_t count,
                       const vkc_sort_options* options) {
  return sort_call_on_devices("vkc_sort_to", context, type, count, options, [&](KeyType key, const SortOptions& o, auto locked) {
    require_array(keys, count, "keys");
    require_array(sorted_keys, count, "sorted_keys");
    require_apart_or_same(keys, sorted_keys, count * vkc::key_bytes(key), "keys", "sorted_keys");
    locked([&](auto& on) { vkc::sort_to(on, key, keys, sorted_keys, count, o); });
  });
}

vkc_status vkc_sort_pairs(vkc_context* context, vkc_key_type key_type, void* keys, vkc_value_type value_type,
                          void* values, uint64_t count, const vkc_sort_options* options) {
  return sort_call_on_devices("vkc_sort_pairs", context, key_type, count, options,
                   [&](KeyType key, const SortOptions& o, auto locked) {
                     const vkc::ValueType value = vkc::capi::value_type(value_type);
                     require_array(keys, count, "keys");
                     require_array(values, count, "values");
                     locked([&](auto& on) { vkc::sort_pairs(on, key, keys, value, values, count, o); });
                   });
}

vkc_status vkc_sort_pairs_to(vkc_context* context, vkc_key_type key_type, const void* keys, void* sorted_keys,
                             vkc_value_type value_type, const void* values, void* sorted_values, uint64_t count,
                             const vkc_sort_options* options) {
  return sort_call_on_devices(
      "vkc_sort_pairs_to", context, key_type, count, options, [&](KeyType key, const SortOptions& o, auto locked) {
        const vkc::ValueType value = vkc::capi::value_type(value_type);
        require_array(keys, count, "keys");
        require_array(sorted_keys, count, "sorted_keys");
        require_array(values, count, "values");
        require_array(sorted_values, count, "sorted_values");
        require_apart_or_same(keys, sorted_keys, count * vkc::key_bytes(key), "keys", "sorted_keys");
        require_apart_or_same(values, sorted_values, count * vkc::value_bytes(value), "values", "sorted_values");
        locked([&](auto& on) { vkc::sort_pairs_to(on, key, keys, sorted_keys, value, values, sorted_values, count, o); });
      });
}

vkc_status vkc_argsort(vkc_context* context, vkc_key_type type, const void* keys, uint64_t count, uint32_t* indices,
                       const vkc_sort_options* options) {
  return sort_call("vkc_argsort", context, type, count, options, [&](KeyType key, const SortOptions& o, auto locked) {
    require_array(keys, count, "keys");
    require_array(indices, count, "indices");
    require_stable(o);
    require_32_bit_indices(count);
    locked([&](vkc::Context& ctx) { vkc::argsort_to(ctx, key, keys, indices, count, o); });
  });
}

vkc_status vkc_argsort64(vkc_context* context, vkc_key_type type, const void* keys, uint64_t count, uint64_t* indices,
                         const vkc_sort_options* options) {
  return sort_call_on_devices("vkc_argsort64", context, type, count, options,
                              [&](KeyType key, const SortOptions& o, auto locked) {
    require_array(keys, count, "keys");
    require_array(indices, count, "indices");
    require_stable(o);
    locked([&](auto& on) { vkc::argsort64_to(on, key, keys, indices, count, o); });
  });
}

vkc_status vkc_sort_streamed(vkc_context* context, vkc_key_type type, vkc_read_fn read_keys, void* read_user,
                             vkc_write_fn write_keys, void* write_user, uint64_t count,
                             const vkc_sort_options* options) {
  return sort_call("vkc_sort_streamed", context, type, count, options,
                   [&](KeyType key, const SortOptions& o, auto locked) {
                     const vkc::HostRead in = checked_read(read_keys, read_user, count, "read_keys");
                     const vkc::HostWrite out = checked_write(write_keys, write_user, count, "write_keys");
                     locked([&](vkc::Context& ctx) { vkc::sort_streamed(ctx, key, in, out, count, o); });
                   });
}

vkc_status vkc_sort_pairs_streamed(vkc_context* context, vkc_key_type key_type, vkc_read_fn read_keys,
                                   void* read_keys_user, vkc_write_fn write_keys, void* write_keys_user,
                                   vkc_value_type value_type, vkc_read_fn read_values, void* read_values_user,
                                   vkc_write_fn write_values, void* write_values_user, uint64_t count,
                                   const vkc_sort_options* options) {
  return sort_call(
      "vkc_sort_pairs_streamed", context, key_type, count, options,
      [&](KeyType key, const SortOptions& o, auto locked) {
        const vkc::ValueType value = vkc::capi::value_type(value_type);
        const vkc::HostRead keys_in = checked_read(read_keys, read_keys_user, count, "read_keys");
        const vkc::HostWrite keys_out = checked_write(write_keys, write_keys_user, count, "write_keys");
        const vkc::HostRead values_in = checked_read(read_values, read_values_user, count, "read_values");
        const vkc::HostWrite values_out = checked_write(write_values, write_values_user, count, "write_values");
        locked([&](vkc::Context& ctx) {
          vkc::sort_pairs_streamed(ctx, key, keys_in, keys_out, value, values_in, values_out, count, o);
        });
      });
}

vkc_status vkc_argsort_streamed(vkc_context* context, vkc_key_type type, vkc_read_fn read_keys, void* read_user,
                                vkc_write_fn write_indices, void* write_user, uint64_t count,
                                const vkc_sort_options* options) {
  return sort_call("vkc_argsort_streamed", context, type, count, options,
                   [&](KeyType key, const SortOptions& o, auto locked) {
                     require_stable(o);
                     require_32_bit_indices(count);
                     const vkc::HostRead in = checked_read(read_keys, read_user, count, "read_keys");
                     const vkc::HostWrite out = checked_write(write_indices, write_user, count, "write_indices");
                     locked([&](vkc::Context& ctx) { vkc::argsort_streamed(ctx, key, in, out, count, o); });
                   });
}

vkc_status vkc_argsort64_streamed(vkc_context* context, vkc_key_type type, vkc_read_fn read_keys, void* read_user,
                                  vkc_write_fn write_indices, void* write_user, uint64_t count,
                                  const vkc_sort_options* options) {
  return sort_call("vkc_argsort64_streamed", context, type, count, options,
                   [&](KeyType key, const SortOptions& o, auto locked) {
                     require_stable(o);
                     const vkc::HostRead in = checked_read(read_keys, read_user, count, "read_keys");
                     const vkc::HostWrite out = checked_write(write_indices, write_user, count, "write_indices");
                     locked([&](vkc::Context& ctx) { vkc::argsort64_streamed(ctx, key, in, out, count, o); });
                   });
}

}  // extern "C"
