// Instance, validation layer, device choice and creation, and command submission.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <utility>

#include "core/check.hpp"
#include "core/device_info.hpp"
#include "core/loader.hpp"
#include "core/state.hpp"

namespace vkc {
using namespace vk;

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0;
}

bool has_layer(const char* name) {
  std::uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const auto& l : layers) {
    if (std::strcmp(l.layerName, name) == 0) return true;
  }
  return false;
}

VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                     VkDebugUtilsMessageTypeFlagsEXT,
                                                     const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* state = static_cast<detail::ContextState*>(user);
  std::lock_guard lock(state->messages_mutex);
  state->validation_messages.emplace_back(data->pMessage ? data->pMessage : "(empty validation message)");
  return VK_FALSE;
}

VkDebugUtilsMessengerCreateInfoEXT messenger_info(detail::ContextState* state) {
  VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  info.pfnUserCallback = on_validation_message;
  info.pUserData = state;
  return info;
}

VkInstance create_instance(detail::ContextState* state, bool validation) {
  load_loader();
  std::uint32_t version = VK_API_VERSION_1_0;
  if (vkEnumerateInstanceVersion) vkEnumerateInstanceVersion(&version);
  if (version < VK_API_VERSION_1_2) {
    throw Error("the Vulkan loader supports only version " + std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
                std::to_string(VK_API_VERSION_MINOR(version)) + "; vkc needs 1.2");
  }
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "vkcompute";
  app.pEngineName = "vkc";
  app.apiVersion = VK_API_VERSION_1_3;

  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  const VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  VkDebugUtilsMessengerCreateInfoEXT messenger = messenger_info(state);
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  if (validation) {
    if (!has_layer(kValidationLayer)) {
      throw Error("validation was asked for but VK_LAYER_KHRONOS_validation is not installed "
                  "(Debian: apt-get install vulkan-validationlayers)");
    }
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    features.pNext = &messenger;  // also report messages from instance creation itself
    info.pNext = &features;
  }
  info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VkInstance instance = VK_NULL_HANDLE;
  const VkResult result = vkCreateInstance(&info, nullptr, &instance);
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER) {
    throw Error("no Vulkan driver found: the loader has no device to offer (install a GPU driver, or "
                "mesa-vulkan-drivers for lavapipe)");
  }
  check(result, "vkCreateInstance");
  load_instance(instance);
  return instance;
}

std::vector<VkPhysicalDevice> physical_devices(VkInstance instance) {
  std::uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  check(vkEnumeratePhysicalDevices(instance, &count, devices.data()), "vkEnumeratePhysicalDevices");
  devices.resize(count);
  return devices;
}

std::vector<DeviceInfo> infos_of(const std::vector<VkPhysicalDevice>& devices) {
  std::vector<DeviceInfo> infos;
  for (std::uint32_t i = 0; i < devices.size(); ++i) infos.push_back(detail::query_device_info(devices[i], i));
  return infos;
}

std::vector<VkQueueFamilyProperties> queue_families(VkPhysicalDevice physical) {
  std::uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
  return families;
}

std::uint32_t compute_queue_family(VkPhysicalDevice physical, const std::string& name) {
  const auto families = queue_families(physical);
  for (std::uint32_t i = 0; i < families.size(); ++i) {
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) return i;
  }
  throw Error("'" + name + "' has no compute queue");
}

// Where host transfers go: a transfer-only family (the copy engines, beside compute), else a
// second queue of the compute family, else none (they share the compute queue).
struct QueueChoice {
  std::uint32_t family = 0;
  std::uint32_t index = 0;
  bool separate = false;
};

QueueChoice transfer_queue_choice(VkPhysicalDevice physical, std::uint32_t compute_family) {
  const auto families = queue_families(physical);
  for (std::uint32_t i = 0; i < families.size(); ++i) {
    const VkQueueFlags flags = families[i].queueFlags;
    if ((flags & VK_QUEUE_TRANSFER_BIT) && !(flags & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT))) {
      return {i, 0, true};
    }
  }
  if (families[compute_family].queueCount >= 2) return {compute_family, 1, true};
  return {compute_family, 0, false};
}

// VKC_PIPELINE_STATS=1 asks the driver for each pipeline's compiler statistics (registers,
// shared memory, instruction counts: whatever it reports), printed when the pipeline is built.
// For tuning kernels; needs VK_KHR_pipeline_executable_properties.
bool wants_pipeline_statistics(VkPhysicalDevice physical) {
  const char* env = std::getenv("VKC_PIPELINE_STATS");
  return env && *env == '1' && detail::has_extension(physical, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
}

VkDevice create_device(VkInstance instance, VkPhysicalDevice physical, const DeviceInfo& info, std::uint32_t family,
                       QueueChoice transfer, bool statistics) {
  DeviceRequirements wanted = device_requirements(instance, physical);
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &wanted.vulkan12};
  features.features = wanted.features;
  wanted.vulkan12.pNext = &wanted.vulkan11;
  if (info.subgroup_size_control) wanted.vulkan11.pNext = &wanted.subgroup_size_control;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable_info{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR, features.pNext};
  if (statistics) {
    wanted.extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    executable_info.pipelineExecutableInfo = VK_TRUE;
    features.pNext = &executable_info;
  }
  const float priorities[] = {1.0f, 1.0f};
  std::vector<VkDeviceQueueCreateInfo> queues(1, {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO});
  queues[0].queueFamilyIndex = family;
  queues[0].queueCount = transfer.separate && transfer.family == family ? 2 : 1;
  queues[0].pQueuePriorities = priorities;
  if (transfer.separate && transfer.family != family) {
    queues.push_back(queues[0]);
    queues[1].queueFamilyIndex = transfer.family;
    queues[1].queueCount = 1;
  }
  VkDeviceCreateInfo create{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
  create.queueCreateInfoCount = static_cast<std::uint32_t>(queues.size());
  create.pQueueCreateInfos = queues.data();
  create.enabledExtensionCount = static_cast<std::uint32_t>(wanted.extensions.size());
  create.ppEnabledExtensionNames = wanted.extensions.data();
  VkDevice device = VK_NULL_HANDLE;
  check(vkCreateDevice(physical, &create, nullptr, &device), "vkCreateDevice", info.name);
  return device;
}

void create_command_objects(detail::ContextState& s) {
  const VkDevice device = s.device().device;
  const std::string& name = s.info().name;
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = s.queue_family;
  check(vkCreateCommandPool(device, &pool, nullptr, &s.command_pool), "vkCreateCommandPool", name);
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = s.command_pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  check(vkAllocateCommandBuffers(device, &alloc, &s.command_buffer), "vkAllocateCommandBuffers", name);
  s.compute = std::make_unique<detail::TimelineQueue>(device, s.queue, s.queue_family, name, !s.info().is_software());
  if (s.core.device.buffer_families.empty()) s.core.device.buffer_families = {s.queue_family};
}

}  // namespace

Context::State::~State() {
  const VkDevice device = core.device.device;
  const VkInstance instance = core.device.instance;
  if (device) {
    // An adopted device's other queues are the engine's: its commands recorded by vkc are done
    // by contract (AdoptedDevice), and the Context's own submissions each waited.
    if (!adopted) vkDeviceWaitIdle(device);
    attachments.clear();
    transfers_.reset();  // waits for its own copies
    if (pinned) pinned->free_all();  // a PinnedMemory that outlives the Context frees nothing
    cache_file.save(core.pipelines.compiled() != 0);
    cache_file.close();
    core.pipelines.clear();
    compute.reset();
    transfer_only.reset();
    if (command_pool) vkDestroyCommandPool(device, command_pool, nullptr);
    if (!adopted) vkDestroyDevice(device, nullptr);
  }
  if (messenger) vkDestroyDebugUtilsMessengerEXT(instance, messenger, nullptr);
  // Nobody can take these any more (leak reports arrive during destruction): print them, so
  // that a test runner watching stderr fails the run.
  for (const std::string& message : validation_messages) {
    std::fprintf(stderr, "vkc: validation message: %s\n", message.c_str());
  }
  if (instance && !adopted) vkDestroyInstance(instance, nullptr);
}

DeviceRequirements device_requirements(VkInstance instance, VkPhysicalDevice physical,
                                       PFN_vkGetInstanceProcAddr get_instance_proc_addr) {
  load_engine_instance(instance, get_instance_proc_addr);
  const DeviceInfo info = detail::query_device_info(physical, 0);
  if (info.api_version < VK_API_VERSION_1_2) {
    throw Error("'" + info.name + "' supports Vulkan " + info.api_version_string() + "; vkc needs 1.2");
  }
  if (!detail::has_extension(physical, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
    throw Error("'" + info.name + "' lacks VK_KHR_push_descriptor, which vkc needs");
  }
  DeviceRequirements r;
  r.extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  if (info.api_version < VK_API_VERSION_1_3 && info.subgroup_size_control) {
    r.extensions.push_back(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  }

  // What the device offers, kept only for the features vkc's shaders may use.
  VkPhysicalDeviceSubgroupSizeControlFeatures size_control{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
                                       info.subgroup_size_control ? &size_control : nullptr};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v11};
  VkPhysicalDeviceFeatures2 offered{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
  vkGetPhysicalDeviceFeatures2(physical, &offered);
  r.features.shaderInt64 = offered.features.shaderInt64;
  r.features.shaderFloat64 = offered.features.shaderFloat64;
  r.vulkan12.vulkanMemoryModel = v12.vulkanMemoryModel;
  r.vulkan12.vulkanMemoryModelDeviceScope = v12.vulkanMemoryModelDeviceScope;
  r.vulkan12.shaderSubgroupExtendedTypes = v12.shaderSubgroupExtendedTypes;
  r.vulkan11.storageBuffer16BitAccess = v11.storageBuffer16BitAccess;
  r.vulkan12.storageBuffer8BitAccess = v12.storageBuffer8BitAccess;
  r.vulkan12.shaderInt8 = v12.shaderInt8;
  r.vulkan12.hostQueryReset = v12.hostQueryReset;
  if (info.subgroup_size_control) {
    r.subgroup_size_control.subgroupSizeControl = size_control.subgroupSizeControl;
    r.subgroup_size_control.computeFullSubgroups = size_control.computeFullSubgroups;
  }
  r.vulkan12.timelineSemaphore = VK_TRUE;  // core in 1.2: every 1.2 device has it
  if (info.host_import_alignment) {
    r.extensions.push_back(VK_KHR_EXTERNAL_MEMORY_EXTENSION_NAME);
    r.extensions.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  }
  return r;
}

std::vector<DeviceInfo> enumerate_devices() {
  detail::ContextState probe;
  probe.core.device.instance = create_instance(&probe, false);
  return infos_of(physical_devices(probe.core.device.instance));
}

Context::Context(const ContextOptions& options) : state_(std::make_unique<State>()) {
  State& s = *state_;
  detail::Device& d = s.core.device;
  const bool validation = options.validation || env_flag("VKC_VALIDATION");
  d.instance = create_instance(&s, validation);
  if (validation) {
    const auto info = messenger_info(&s);
    check(vkCreateDebugUtilsMessengerEXT(d.instance, &info, nullptr, &s.messenger), "vkCreateDebugUtilsMessengerEXT");
  }
  const auto devices = physical_devices(d.instance);
  const auto infos = infos_of(devices);
  std::string wanted = options.device;
  if (wanted.empty() && std::getenv("VKC_DEVICE")) wanted = std::getenv("VKC_DEVICE");
  const std::uint32_t index = detail::choose_device(infos, wanted);
  d.physical = devices[index];
  d.info = infos[index];
  vkGetPhysicalDeviceMemoryProperties(d.physical, &d.memory);
  if (wanted.empty() && d.info.is_software() && !options.quiet) {
    std::fprintf(stderr, "vkc: no GPU found, computing on the CPU through '%s'\n", d.info.name.c_str());
  }
  s.queue_family = compute_queue_family(d.physical, d.info.name);
  s.core.pipelines.statistics = wants_pipeline_statistics(d.physical);
  const QueueChoice transfer = transfer_queue_choice(d.physical, s.queue_family);
  d.device = create_device(d.instance, d.physical, d.info, s.queue_family, transfer, s.core.pipelines.statistics);
  vkGetDeviceQueue(d.device, s.queue_family, 0, &s.queue);
  d.buffer_families = {s.queue_family};
  if (transfer.separate) {
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(d.device, transfer.family, transfer.index, &queue);
    s.transfer_only = std::make_unique<detail::TimelineQueue>(d.device, queue, transfer.family, d.info.name,
                                                              !d.info.is_software());
    if (transfer.family != s.queue_family) d.buffer_families.push_back(transfer.family);
  }
  s.host_transfer = options.host_transfer;
  s.memory_limit = detail::resolve_memory_limit(options.device_memory_limit);
  d.can_import_host_memory = d.info.host_import_alignment != 0;
  s.cache_file.open(d.device, d.physical, detail::pipeline_cache_directory(options.pipeline_cache_dir));
  s.core.pipelines.handle = s.cache_file.handle();
  create_command_objects(s);
}

// Nothing here reads the environment but the loader's file name where the engine gives no
// vkGetInstanceProcAddr: an engine's device behaves as its arguments say.
Context::Context(const AdoptedDevice& adopted) : state_(std::make_unique<State>()) {
  if (!adopted.instance || !adopted.physical_device || !adopted.device || !adopted.queue) {
    throw Error("an adopted device needs its VkInstance, VkPhysicalDevice, VkDevice and VkQueue");
  }
  load_engine_instance(adopted.instance, adopted.get_instance_proc_addr);
  State& s = *state_;
  s.adopted = true;
  detail::Device& d = s.core.device;
  d = detail::describe_device(adopted.instance, adopted.physical_device);
  const auto families = queue_families(d.physical);
  if (adopted.queue_family >= families.size() || !(families[adopted.queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT)) {
    throw Error("queue family " + std::to_string(adopted.queue_family) + " of '" + d.info.name + "' has no compute");
  }
  s.queue_family = adopted.queue_family;
  d.device = adopted.device;
  s.queue = adopted.queue;
  s.core.pipelines.handle = adopted.pipeline_cache;
  s.host_transfer = adopted.host_transfer;
  s.memory_limit = adopted.device_memory_limit;
  create_command_objects(s);
}

Context::~Context() = default;
Context::Context(Context&&) noexcept = default;
Context& Context::operator=(Context&&) noexcept = default;

const DeviceInfo& Context::info() const { return state_->info(); }
VkInstance Context::instance() const { return state_->device().instance; }
VkPhysicalDevice Context::physical_device() const { return state_->device().physical; }
VkDevice Context::device() const { return state_->device().device; }
VkQueue Context::queue() const { return state_->queue; }
std::uint32_t Context::queue_family() const { return state_->queue_family; }

std::vector<std::string> Context::take_validation_messages() {
  std::lock_guard lock(state_->messages_mutex);
  return std::exchange(state_->validation_messages, {});
}

Recorder* Context::begin_commands() {
  State& s = *state_;
  if (s.recorder) throw Error("Context::run called while another run is recording");
  check(vkResetCommandBuffer(s.command_buffer, 0), "vkResetCommandBuffer", s.info().name);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(s.command_buffer, &begin), "vkBeginCommandBuffer", s.info().name);
  s.recorder = std::make_unique<Recorder>(s.device(), s.command_buffer);
  return s.recorder.get();
}

void Context::abandon_commands() noexcept {
  State& s = *state_;
  vkEndCommandBuffer(s.command_buffer);
  s.recorder.reset();
}

void Context::submit_and_wait() {
  State& s = *state_;
  s.recorder->finish_for_host();
  s.recorder.reset();
  check(vkEndCommandBuffer(s.command_buffer), "vkEndCommandBuffer", s.info().name);
  s.compute->wait(s.compute->submit(s.command_buffer, std::exchange(s.uploaded, {})));
}

double Context::run_timed(const std::function<void(Recorder&)>& record) {
  TimestampQueries queries(*this, 2);
  run([&](Recorder& r) {
    r.reset_queries(queries.pool(), 0, 2);
    r.write_timestamp(queries.pool(), 0);
    record(r);
    r.write_timestamp(queries.pool(), 1);
  });
  return queries.elapsed_ns(0, 1);
}


TimestampQueries::TimestampQueries(Context& ctx, std::uint32_t count)
    : TimestampQueries(detail::compute_device(ctx).device, count) {}

const Pipeline& pipeline(Context& ctx, const PipelineDesc& desc) { return pipeline(detail::compute_device(ctx), desc); }

}  // namespace vkc
