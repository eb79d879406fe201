// What the C ABI's opaque handles hold, shared by the files that implement their functions.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "vkc/context.hpp"
#include "vkc/device_set.hpp"
#include "vkc/nbody.hpp"
#include "vkc/sort.hpp"
#include "vkc/vkc.h"

struct vkc_context_options {
  vkc::ContextOptions options;
  std::string devices;  // vkc_context_options_set_devices; empty: one device (options.device)
};

/// A Context, or a DeviceSet and its first device's Context, and the mutex that serializes every
/// call on them (and on their simulations).
struct vkc_context {
  vkc_context(const vkc::ContextOptions& options, const std::string& device_list)
      : devices(device_list.empty() ? nullptr : std::make_unique<vkc::DeviceSet>(device_list, options)),
        own(devices ? nullptr : std::make_unique<vkc::Context>(options)),
        context(devices ? (*devices)[0] : *own) {}
  std::mutex mutex;
  std::unique_ptr<vkc::DeviceSet> devices;  // a device list's devices, else none
  std::unique_ptr<vkc::Context> own;        // the one device, without a device list
  vkc::Context& context;                    // the one device, or the list's first
  std::map<void*, vkc::PinnedMemory> pinned;  // vkc_pinned_alloc's, freed before the devices

  /// Calls f(Context&) for every device.
  template <class F>
  void for_each_device(F&& f) {
    if (!devices) return f(context);
    for (std::size_t d = 0; d < devices->size(); ++d) f((*devices)[d]);
  }
};

struct vkc_sort_options {
  vkc::SortOptions options;  // everything but the progress callback, which sort.cpp wraps per call
  vkc_progress_fn progress = nullptr;
  void* progress_user = nullptr;
};

struct vkc_nbody {
  vkc_context* owner;
  vkc::nbody::Config config;
  std::unique_ptr<vkc::nbody::Simulation> simulation;
  std::unique_ptr<vkc::nbody::Renderer> renderer;  // made on the first render, remade when the size changes
};

namespace vkc::capi {

/// The lock every call on a context holds for its duration.
inline std::unique_lock<std::mutex> lock(vkc_context& context) { return std::unique_lock(context.mutex); }

}  // namespace vkc::capi
