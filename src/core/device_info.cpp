#include "core/device_info.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "core/check.hpp"
#include "core/loader.hpp"

namespace vkc {
using namespace vk;

const char* to_string(DeviceType type) {
  switch (type) {
    case DeviceType::integrated_gpu: return "integrated GPU";
    case DeviceType::discrete_gpu: return "discrete GPU";
    case DeviceType::virtual_gpu: return "virtual GPU";
    case DeviceType::cpu: return "CPU";
    default: return "other";
  }
}

std::string DeviceInfo::Pci::address() const {
  if (!known) return {};
  char text[32];
  std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", domain, bus, device, function);
  return text;
}

std::uint64_t DeviceInfo::device_local_bytes() const {
  std::uint64_t best = 0;
  for (const Heap& h : heaps) {
    if (h.device_local) best = std::max(best, h.bytes);
  }
  return best;
}

std::string DeviceInfo::api_version_string() const {
  return std::to_string(VK_API_VERSION_MAJOR(api_version)) + "." + std::to_string(VK_API_VERSION_MINOR(api_version)) +
         "." + std::to_string(VK_API_VERSION_PATCH(api_version));
}

std::uint32_t choose_device(const std::vector<DeviceInfo>& devices, std::string_view wanted) {
  std::string name(wanted);
  if (name.empty()) {
    if (const char* env = std::getenv("VKC_DEVICE")) name = env;
  }
  return detail::choose_device(devices, name);
}

std::uint32_t vulkan_loader_version() {
  load_loader();
  std::uint32_t version = VK_API_VERSION_1_0;
  if (vkEnumerateInstanceVersion) vkEnumerateInstanceVersion(&version);
  return version;
}

namespace detail {
namespace {

DeviceType device_type(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return DeviceType::integrated_gpu;
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return DeviceType::discrete_gpu;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return DeviceType::virtual_gpu;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return DeviceType::cpu;
    default: return DeviceType::other;
  }
}

std::vector<std::string> subgroup_operation_names(VkSubgroupFeatureFlags flags) {
  static const std::pair<VkSubgroupFeatureFlagBits, const char*> kNames[] = {
      {VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},
      {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
      {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"},
      {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"},
      {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle"},
      {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle_relative"},
      {VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered"},
      {VK_SUBGROUP_FEATURE_QUAD_BIT, "quad"},
      {VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV, "partitioned"},
  };
  std::vector<std::string> names;
  for (const auto& [bit, name] : kNames) {
    if (flags & bit) names.emplace_back(name);
  }
  return names;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::uint32_t timestamp_bits(VkPhysicalDevice physical) {
  std::uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
  for (const auto& f : families) {
    if (f.queueFlags & VK_QUEUE_COMPUTE_BIT) return f.timestampValidBits;
  }
  return 0;
}

// The first line of a sysfs file; empty when it cannot be read.
std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// A sysfs number, or `otherwise` when the file is missing or holds no number.
template <class T>
T number_in(const std::string& path, T otherwise) {
  const std::string text = first_line(path);
  T value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end != text.data() ? value : otherwise;
}

// sysfs says "Unknown" for a link it cannot read (a function without a link, a virtual device).
std::string link_speed_in(const std::string& path) {
  std::string speed = first_line(path);
  return speed.rfind("Unknown", 0) == 0 ? std::string() : speed;
}

}  // namespace

void read_pci_link(DeviceInfo::Pci& pci, const std::string& root) {
  if (!pci.known) return;
  const std::string dir = root + "/" + pci.address() + "/";
  pci.numa_node = number_in<int>(dir + "numa_node", -1);
  pci.link_speed = link_speed_in(dir + "current_link_speed");
  pci.max_link_speed = link_speed_in(dir + "max_link_speed");
  pci.link_width = number_in<std::uint32_t>(dir + "current_link_width", 0);
  pci.max_link_width = number_in<std::uint32_t>(dir + "max_link_width", 0);
}

bool has_extension(VkPhysicalDevice physical, const char* name) {
  std::uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
  return std::any_of(extensions.begin(), extensions.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

DeviceInfo query_device_info(VkPhysicalDevice physical, std::uint32_t index) {
  VkPhysicalDeviceSubgroupSizeControlProperties size_props{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, &size_props};
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES, &subgroup};
  VkPhysicalDeviceMaintenance3Properties maintenance3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES,
                                                      &driver};
  const bool host_import = has_extension(physical, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  VkPhysicalDeviceExternalMemoryHostPropertiesEXT import_props{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT, &maintenance3};
  void* chain = host_import ? static_cast<void*>(&import_props) : &maintenance3;
  const bool pci_bus_info = has_extension(physical, VK_EXT_PCI_BUS_INFO_EXTENSION_NAME);
  VkPhysicalDevicePCIBusInfoPropertiesEXT pci{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT, chain};
  if (pci_bus_info) chain = &pci;
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, chain};
  vkGetPhysicalDeviceProperties2(physical, &props);
  const VkPhysicalDeviceLimits& limits = props.properties.limits;

  VkPhysicalDeviceSubgroupSizeControlFeatures size_features{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v11};
  if (props.properties.apiVersion >= VK_API_VERSION_1_2) size_features.pNext = &v12;
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &size_features};
  vkGetPhysicalDeviceFeatures2(physical, &features);

  DeviceInfo info;
  info.index = index;
  info.name = props.properties.deviceName;
  info.driver_name = driver.driverName;
  info.driver_info = driver.driverInfo;
  info.api_version = props.properties.apiVersion;
  info.vendor_id = props.properties.vendorID;
  info.device_id = props.properties.deviceID;
  info.type = device_type(props.properties.deviceType);
  info.subgroup_size = subgroup.subgroupSize;
  const bool size_control = props.properties.apiVersion >= VK_API_VERSION_1_3 ||
                            has_extension(physical, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  info.subgroup_size_control = size_control && size_features.subgroupSizeControl &&
                               size_features.computeFullSubgroups &&
                               (size_props.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
  info.max_workgroup_subgroups = size_control ? size_props.maxComputeWorkgroupSubgroups : 0;
  info.min_subgroup_size = size_control ? size_props.minSubgroupSize : subgroup.subgroupSize;
  info.max_subgroup_size = size_control ? size_props.maxSubgroupSize : subgroup.subgroupSize;
  info.subgroup_operations = subgroup_operation_names(subgroup.supportedOperations);
  info.shared_memory_bytes = limits.maxComputeSharedMemorySize;
  info.max_workgroup_invocations = limits.maxComputeWorkGroupInvocations;
  std::copy_n(limits.maxComputeWorkGroupSize, 3, info.max_workgroup_size.begin());
  std::copy_n(limits.maxComputeWorkGroupCount, 3, info.max_workgroup_count.begin());
  info.max_storage_buffer_range = limits.maxStorageBufferRange;
  info.storage_offset_alignment = limits.minStorageBufferOffsetAlignment;
  info.max_allocation_bytes = maintenance3.maxMemoryAllocationSize;
  info.host_import_alignment = host_import ? import_props.minImportedHostPointerAlignment : 0;
  info.timestamp_period_ns = limits.timestampPeriod;
  info.timestamp_valid_bits = timestamp_bits(physical);
  info.shader_int64 = features.features.shaderInt64;
  info.shader_float64 = features.features.shaderFloat64;
  info.narrow_storage = v11.storageBuffer16BitAccess && v12.storageBuffer8BitAccess;
  info.vulkan_memory_model_device_scope = v12.vulkanMemoryModel && v12.vulkanMemoryModelDeviceScope;

  if (pci_bus_info) {
    info.pci = {.known = true, .domain = pci.pciDomain, .bus = pci.pciBus, .device = pci.pciDevice,
                .function = pci.pciFunction};
    read_pci_link(info.pci);
  }

  VkPhysicalDeviceMemoryProperties memory{};
  vkGetPhysicalDeviceMemoryProperties(physical, &memory);
  for (std::uint32_t i = 0; i < memory.memoryHeapCount; ++i) {
    info.heaps.push_back({memory.memoryHeaps[i].size, (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0});
  }
  return info;
}

std::uint32_t choose_device(const std::vector<DeviceInfo>& devices, const std::string& wanted) {
  if (devices.empty()) {
    throw Error("no Vulkan device found (install a GPU driver, or mesa-vulkan-drivers for lavapipe)");
  }
  if (!wanted.empty()) {
    std::uint32_t index = 0;
    const auto [end, ec] = std::from_chars(wanted.data(), wanted.data() + wanted.size(), index);
    if (ec == std::errc() && end == wanted.data() + wanted.size()) {
      if (index >= devices.size()) {
        throw Error("no Vulkan device with index " + wanted + " (there are " + std::to_string(devices.size()) +
                    "; see vkc info)");
      }
      return index;
    }
    for (const DeviceInfo& d : devices) {
      if (lower(d.name).find(lower(wanted)) != std::string::npos) return d.index;
    }
    throw Error("no Vulkan device whose name contains '" + wanted + "' (see vkc info)");
  }
  const auto best = std::min_element(devices.begin(), devices.end(), [](const DeviceInfo& a, const DeviceInfo& b) {
    return device_type_preference(a.type) < device_type_preference(b.type);
  });
  return best->index;
}

int device_type_preference(DeviceType type) {
  switch (type) {
    case DeviceType::discrete_gpu: return 0;
    case DeviceType::integrated_gpu: return 1;
    case DeviceType::virtual_gpu: return 2;
    case DeviceType::cpu: return 4;
    default: return 3;
  }
}

Device describe_device(VkInstance instance, VkPhysicalDevice physical) {
  std::uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  check(vkEnumeratePhysicalDevices(instance, &count, devices.data()), "vkEnumeratePhysicalDevices");
  const auto end = devices.begin() + count;
  const auto found = std::find(devices.begin(), end, physical);
  if (found == end) throw Error("the VkPhysicalDevice is not one of the VkInstance's devices");
  Device d;
  d.instance = instance;
  d.physical = physical;
  d.info = query_device_info(physical, static_cast<std::uint32_t>(found - devices.begin()));
  vkGetPhysicalDeviceMemoryProperties(physical, &d.memory);
  return d;
}

}  // namespace detail
}  // namespace vkc
