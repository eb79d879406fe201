// vkc info: every Vulkan device with the facts the library uses; --json for machines.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "vkc/context.hpp"

namespace vkc::cli {
namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// null when the driver gives no PCI address; a fact the system does not tell is null too.
nlohmann::json pci_json(const DeviceInfo::Pci& p) {
  if (!p.known) return nullptr;
  const auto or_null = [](auto value, bool known) { return known ? nlohmann::json(value) : nlohmann::json(nullptr); };
  return {{"address", p.address()},
          {"numa_node", or_null(p.numa_node, p.numa_node >= 0)},
          {"link_speed", or_null(p.link_speed, !p.link_speed.empty())},
          {"link_width", or_null(p.link_width, p.link_width > 0)},
          {"max_link_speed", or_null(p.max_link_speed, !p.max_link_speed.empty())},
          {"max_link_width", or_null(p.max_link_width, p.max_link_width > 0)}};
}

// "0000:1b:00.0, link 32.0 GT/s PCIe x16 (max 32.0 GT/s PCIe x16), NUMA node 0", or "unknown".
std::string pci_text(const DeviceInfo::Pci& p) {
  if (!p.known) return "unknown";
  std::string text = p.address();
  const auto link = [](const std::string& speed, std::uint32_t width) {
    return (speed.empty() ? std::string("?") : speed) + " x" + (width ? std::to_string(width) : std::string("?"));
  };
  if (!p.link_speed.empty() || p.link_width) {
    text += ", link " + link(p.link_speed, p.link_width) + " (max " + link(p.max_link_speed, p.max_link_width) + ")";
  }
  if (p.numa_node >= 0) text += ", NUMA node " + std::to_string(p.numa_node);
  return text;
}

nlohmann::json to_json(const DeviceInfo& d) {
  nlohmann::json heaps = nlohmann::json::array();
  for (const auto& h : d.heaps) heaps.push_back({{"bytes", h.bytes}, {"device_local", h.device_local}});
  return {{"index", d.index},
          {"name", d.name},
          {"driver", d.driver_name},
          {"driver_info", d.driver_info},
          {"api_version", d.api_version_string()},
          {"type", to_string(d.type)},
          {"vendor_id", d.vendor_id},
          {"device_id", d.device_id},
          {"subgroup_size", d.subgroup_size},
          {"min_subgroup_size", d.min_subgroup_size},
          {"max_subgroup_size", d.max_subgroup_size},
          {"subgroup_size_control", d.subgroup_size_control},
          {"max_workgroup_subgroups", d.max_workgroup_subgroups},
          {"subgroup_operations", d.subgroup_operations},
          {"shared_memory_bytes", d.shared_memory_bytes},
          {"max_workgroup_invocations", d.max_workgroup_invocations},
          {"max_storage_buffer_range", d.max_storage_buffer_range},
          {"max_allocation_bytes", d.max_allocation_bytes},
          {"memory_heaps", heaps},
          {"timestamp_period_ns", d.timestamp_period_ns},
          {"timestamp_valid_bits", d.timestamp_valid_bits},
          {"shader_int64", d.shader_int64},
          {"shader_float64", d.shader_float64},
          {"pci", pci_json(d.pci)}};
}

void print_text(const DeviceInfo& d) {
  std::ostringstream heaps;
  for (std::size_t i = 0; i < d.heaps.size(); ++i) {
    heaps << (i ? ", " : "") << mib(d.heaps[i].bytes) << (d.heaps[i].device_local ? " device-local" : " host");
  }
  std::printf("[%u] %s\n", d.index, d.name.c_str());
  std::printf("    type                  %s\n", to_string(d.type));
  std::printf("    driver                %s %s\n", d.driver_name.c_str(), d.driver_info.c_str());
  std::printf("    Vulkan API            %s\n", d.api_version_string().c_str());
  std::printf("    subgroup size         %u (min %u, max %u%s)\n", d.subgroup_size, d.min_subgroup_size,
              d.max_subgroup_size, d.subgroup_size_control ? ", size control" : "");
  std::printf("    subgroup operations   %s\n", join(d.subgroup_operations).c_str());
  std::printf("    shared memory         %u bytes per workgroup\n", d.shared_memory_bytes);
  std::printf("    workgroup invocations %u max\n", d.max_workgroup_invocations);
  std::printf("    storage buffer range  %s\n", mib(d.max_storage_buffer_range).c_str());
  std::printf("    memory heaps          %s\n", heaps.str().c_str());
  std::printf("    timestamp period      %g ns (%u valid bits)\n", d.timestamp_period_ns, d.timestamp_valid_bits);
  std::printf("    64-bit int / float    %s / %s\n", d.shader_int64 ? "yes" : "no", d.shader_float64 ? "yes" : "no");
  std::printf("    PCI                   %s\n", pci_text(d.pci).c_str());
}

std::string version_string(std::uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

// The loader's version and the device a command would run on, or why there is none.
std::string vulkan_text(const Common& common) {
  try {
    std::string text = "Vulkan loader " + version_string(vulkan_loader_version());
    const auto devices = enumerate_devices();
    if (devices.empty()) return text + "\ndevice: none found";
    const DeviceInfo& d = devices[choose_device(devices, common.device)];
    return text + "\ndevice [" + std::to_string(d.index) + "] " + d.name + " (" + d.driver_name + " " + d.driver_info +
           ", Vulkan " + d.api_version_string() + ")";
  } catch (const std::exception& e) {
    return std::string("Vulkan: ") + e.what();
  }
}

}  // namespace

std::string version_text(const Common& common) {
  return "vkc " VKC_VERSION " (commit " + build_commit() + ")\n" + vulkan_text(common);
}

void register_info(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("info", "list the Vulkan devices and what vkc knows of them");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "print JSON instead of text");
  cmd->callback([&common, json] {
    auto devices = enumerate_devices();
    if (devices.empty()) throw Error("no Vulkan device found (install a GPU driver, or mesa-vulkan-drivers for lavapipe)");
    if (!common.device.empty()) {
      const auto index = choose_device(devices, common.device);
      devices = {devices[index]};
    }
    if (*json) {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& d : devices) out.push_back(to_json(d));
      std::cout << out.dump(2) << "\n";
      return;
    }
    for (const auto& d : devices) print_text(d);
  });
}

}  // namespace vkc::cli
