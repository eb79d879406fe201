// What the C ABI's opaque handles hold, shared by the files that implement their functions.
#pragma once

#include <memory>
#include <mutex>

#include "vkc/context.hpp"
#include "vkc/nbody.hpp"
#include "vkc/sort.hpp"
#include "vkc/vkc.h"

struct vkc_context_options {
  vkc::ContextOptions options;
};

/// A Context and the mutex that serializes every call on it (and on its simulations).
struct vkc_context {
  explicit vkc_context(const vkc::ContextOptions& options) : context(options) {}
  std::mutex mutex;
  vkc::Context context;
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
