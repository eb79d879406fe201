#include "core/loader.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

#include "vkc/context.hpp"

namespace vkc::vk {

#define VKC_DEFINE(name) PFN_##name name = nullptr;
VKC_GLOBAL_FUNCTIONS(VKC_DEFINE)
VKC_INSTANCE_FUNCTIONS(VKC_DEFINE)
VKC_DEVICE_FUNCTIONS(VKC_DEFINE)
#undef VKC_DEFINE

namespace {
PFN_vkGetInstanceProcAddr get_instance_proc = nullptr;
bool opened = false;

void open_loader() {
  const char* override_name = std::getenv("VKC_VULKAN_LIBRARY");
  const std::string file = override_name && *override_name ? override_name : "libvulkan.so.1";
  void* library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    throw Error("cannot open the Vulkan loader (" + file +
                "): install libvulkan1 (Debian: apt-get install libvulkan1 mesa-vulkan-drivers)");
  }
  opened = true;
  get_instance_proc = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library, "vkGetInstanceProcAddr"));
  if (!get_instance_proc) throw Error(file + " does not export vkGetInstanceProcAddr");
#define VKC_LOAD(name) name = reinterpret_cast<PFN_##name>(get_instance_proc(nullptr, #name));
  VKC_GLOBAL_FUNCTIONS(VKC_LOAD)
#undef VKC_LOAD
  if (!vkCreateInstance) throw Error(file + " does not provide vkCreateInstance");
}
}  // namespace

void load_loader() {
  static std::once_flag once;
  static std::string failure;
  std::call_once(once, [] {
    try {
      open_loader();
    } catch (const Error& e) {
      failure = e.what();
    }
  });
  if (!failure.empty()) throw Error(failure);
}

namespace {
// The pointers are the loader's dispatching entry points, the same for every instance, except
// that an extension's (VK_EXT_debug_utils') are null for an instance that did not enable it: a
// bound one is never replaced by null, so that an instance made later without validation (a
// device listing) leaves a validating Context able to destroy its messenger.
void bind_instance_functions(PFN_vkGetInstanceProcAddr get, VkInstance instance) {
#define VKC_LOAD(name) \
  if (const auto bound = reinterpret_cast<PFN_##name>(get(instance, #name))) name = bound;
  VKC_INSTANCE_FUNCTIONS(VKC_LOAD)
  VKC_DEVICE_FUNCTIONS(VKC_LOAD)
#undef VKC_LOAD
}
}  // namespace

void load_instance(VkInstance instance) { bind_instance_functions(get_instance_proc, instance); }

void load_engine_instance(VkInstance instance, PFN_vkGetInstanceProcAddr get_instance_proc_addr) {
  if (get_instance_proc_addr) return bind_instance_functions(get_instance_proc_addr, instance);
  load_loader();
  load_instance(instance);
}

bool loader_opened() { return opened; }

}  // namespace vkc::vk
