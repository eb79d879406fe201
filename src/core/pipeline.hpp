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
#include <vector>

#include "core/shaders.hpp"

namespace vkc::detail {
struct ContextState;
}

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
  Pipeline(const detail::ContextState& state, const PipelineDesc& desc);
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

/// Builds each distinct pipeline once per Context; references stay valid while it lives.
class PipelineCache {
 public:
  const Pipeline& get(const detail::ContextState& state, const PipelineDesc& desc);
  void clear() { pipelines_.clear(); }
  /// Pipelines built since the Context was created (or last cleared).
  std::size_t size() const { return pipelines_.size(); }

 private:
  std::map<PipelineDesc, std::unique_ptr<Pipeline>> pipelines_;
};

/// The pipeline for `desc` on the context's device, built on first use.
class Context;
const Pipeline& pipeline(Context& ctx, const PipelineDesc& desc);

}  // namespace vkc
