// Context options and contexts.
#include <string>
#include <vector>

#include "capi/devices.hpp"
#include "capi/errors.hpp"
#include "capi/handles.hpp"

using namespace vkc::capi;

namespace {

// Applies `change` to the options' C++ form after checking the handle.
template <class Change>
vkc_status change_options(const char* function, vkc_context_options* options, Change&& change) {
  return guarded(function, [&] {
    require_pointer(options, "options");
    change(options->options);
  });
}

}  // namespace

extern "C" {

vkc_status vkc_context_options_create(vkc_context_options** options) {
  return guarded("vkc_context_options_create", [&] {
    require_pointer(options, "options");
    *options = nullptr;
    *options = new vkc_context_options();
  });
}

void vkc_context_options_destroy(vkc_context_options* options) { delete options; }

vkc_status vkc_context_options_set_device(vkc_context_options* options, const char* device) {
  return change_options("vkc_context_options_set_device", options,
                        [&](vkc::ContextOptions& o) { o.device = device ? device : ""; });
}

vkc_status vkc_context_options_set_devices(vkc_context_options* options, const char* devices) {
  return guarded("vkc_context_options_set_devices", [&] {
    require_pointer(options, "options");
    options->devices = devices ? devices : "";
  });
}

vkc_status vkc_context_options_set_device_memory_limit(vkc_context_options* options, uint64_t bytes) {
  return change_options("vkc_context_options_set_device_memory_limit", options,
                        [&](vkc::ContextOptions& o) { o.device_memory_limit = bytes; });
}

vkc_status vkc_context_options_set_pipeline_cache_dir(vkc_context_options* options, const char* dir) {
  return change_options("vkc_context_options_set_pipeline_cache_dir", options,
                        [&](vkc::ContextOptions& o) { o.pipeline_cache_dir = dir ? dir : ""; });
}

vkc_status vkc_context_options_set_validation(vkc_context_options* options, int enabled) {
  return change_options("vkc_context_options_set_validation", options,
                        [&](vkc::ContextOptions& o) { o.validation = enabled != 0; });
}

vkc_status vkc_context_options_set_quiet(vkc_context_options* options, int quiet) {
  return change_options("vkc_context_options_set_quiet", options,
                        [&](vkc::ContextOptions& o) { o.quiet = quiet != 0; });
}

vkc_status vkc_context_options_set_host_threads(vkc_context_options* options, uint32_t threads) {
  return change_options("vkc_context_options_set_host_threads", options,
                        [&](vkc::ContextOptions& o) { o.host_transfer.threads = threads; });
}

vkc_status vkc_context_create(const vkc_context_options* options, vkc_context** context) {
  return guarded("vkc_context_create", [&] {
    require_pointer(context, "context");
    *context = nullptr;
    const vkc::ContextOptions chosen = options ? options->options : vkc::ContextOptions{};
    const std::string devices = options ? options->devices : std::string();
    try {
      *context = new vkc_context(chosen, devices);
    } catch (const vkc::Error&) {
      // Only now the device list (an instance of its own, a tenth of a second on some drivers):
      // no loader, no device or no match is VKC_ERROR_NO_DEVICE; else the device itself failed.
      if (devices.empty()) chosen_device(chosen.device);
      else chosen_devices(devices);
      throw;
    }
  });
}

void vkc_context_destroy(vkc_context* context) { delete context; }

vkc_status vkc_context_get_device_info(vkc_context* context, vkc_device_info* info, size_t info_size) {
  return guarded("vkc_context_get_device_info", [&] {
    require_pointer(context, "context");
    const auto held = lock(*context);
    write_device_info(context->context.info(), info, info_size);
  });
}

vkc_status vkc_context_release_cached_memory(vkc_context* context) {
  return guarded("vkc_context_release_cached_memory", [&] {
    require_pointer(context, "context");
    const auto held = lock(*context);
    context->for_each_device([](vkc::Context& c) { c.release_cached_memory(); });
  });
}

vkc_status vkc_pinned_alloc(vkc_context* context, uint64_t bytes, void** data) {
  return guarded("vkc_pinned_alloc", [&] {
    require_pointer(context, "context");
    require_pointer(data, "data");
    const auto held = lock(*context);
    vkc::PinnedMemory memory = context->context.allocate_pinned(bytes);
    *data = memory.data();
    context->pinned.emplace(memory.data(), std::move(memory));
  });
}

vkc_status vkc_pinned_free(vkc_context* context, void* data) {
  return guarded("vkc_pinned_free", [&] {
    require_pointer(context, "context");
    if (!data) return;
    const auto held = lock(*context);
    if (context->pinned.erase(data) == 0) invalid("data: not memory that vkc_pinned_alloc gave this context");
  });
}

vkc_status vkc_context_take_validation_messages(vkc_context* context, vkc_message_fn sink, void* user) {
  return guarded("vkc_context_take_validation_messages", [&] {
    require_pointer(context, "context");
    std::vector<std::string> messages;
    {
      const auto held = lock(*context);
      context->for_each_device([&](vkc::Context& c) {
        for (std::string& m : c.take_validation_messages()) messages.push_back(std::move(m));
      });
    }
    // Outside the lock: the sink may call into the context.
    if (sink) {
      for (const std::string& message : messages) sink(user, message.c_str());
    }
  });
}

}  // extern "C"
