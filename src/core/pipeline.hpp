// Compute pipelines built from the embedded SPIR-V, with specialization and push constants.
//
// Every pipeline binds its buffers as storage buffers at bindings 0..N-1 of set 0 through push
// descriptors (VK_KHR_push_descriptor), so recording needs no descriptor pools or sets.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/device.hpp"
#include "core/shaders.hpp"

namespace vkc {

struct PipelineDesc {
  shaders::Shader shader;                   ///< an embedded shader, e.g. shaders::core_copy
  std::vector<std::uint32_t> specialization;  ///< value i goes to constant_id i (32-bit each)
  std::uint32_t bindings = 1;               ///< storage buffers at bindings 0..bindings-1
  std::uint32_t push_bytes = 0;             ///< size of the push-constant block (multiple of 4)
  std::uint32_t required_subgroup_size = 0; ///< 0: the device's choice
  bool full_subgroups = false;              ///< every subgroup of a workgroup is full

  auto key() const {
    // A shader is known by its name: one per embedded shader.
    return std::tie(shader.name, specialization, bindings, push_bytes, required_subgroup_size, full_subgroups);
  }
  bool operator<(const PipelineDesc& other) const { return key() < other.key(); }
};

class Pipeline {
 public:
  /// Compiles `desc` on `device` through `cache` (may be null); `statistics`: print the driver's
  /// compiler statistics (VKC_PIPELINE_STATS, which needs VK_KHR_pipeline_executable_properties).
  Pipeline(const detail::Device& device, VkPipelineCache cache, bool statistics, const PipelineDesc& desc);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  VkPipeline handle() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }
  const PipelineDesc& desc() const { return desc_; }

 private:
  void destroy() noexcept;
  VkDevice device_;
  PipelineDesc desc_;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

/// Builds each distinct pipeline once per device; references stay valid while it lives.
class PipelineCache {
 public:
  explicit PipelineCache(const detail::Device& device) : device_(device) {}
  const Pipeline& get(const PipelineDesc& desc);
  void clear() { pipelines_.clear(); }
  /// Pipelines held now.
  std::size_t size() const { return pipelines_.size(); }
  /// Pipelines compiled since creation, clear() or not (tests: recording after prepare compiles none).
  std::size_t compiled() const { return compiled_; }

  /// The driver's cache every compilation goes through (the engine's, or the persistent file's).
  VkPipelineCache handle = VK_NULL_HANDLE;
  bool statistics = false;

 private:
  const detail::Device& device_;
  std::map<PipelineDesc, std::unique_ptr<Pipeline>> pipelines_;
  std::size_t compiled_ = 0;
};

namespace detail {
/// A device that vkc records on: its facts and handles, and the pipelines built for it. A Context
/// owns one; a record-only Sorter owns one or shares its Context's.
struct ComputeDevice {
  explicit ComputeDevice(Device d = {}) : device(std::move(d)) {}
  ComputeDevice(const ComputeDevice&) = delete;
  ComputeDevice& operator=(const ComputeDevice&) = delete;
  const DeviceInfo& info() const { return device.info; }

  Device device;
  PipelineCache pipelines{device};
};
}  // namespace detail

/// The pipeline for `desc` on the device, built on first use.
const Pipeline& pipeline(detail::ComputeDevice& device, const PipelineDesc& desc);
/// The pipeline for `desc` on the context's device.
class Context;
const Pipeline& pipeline(Context& ctx, const PipelineDesc& desc);

}  // namespace vkc
