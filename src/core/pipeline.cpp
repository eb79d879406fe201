#include "core/pipeline.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "core/check.hpp"
#include "core/loader.hpp"

namespace vkc {
using namespace vk;

namespace {

VkDescriptorSetLayout create_set_layout(const detail::Device& s, std::uint32_t count) {
  std::vector<VkDescriptorSetLayoutBinding> bindings(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  }
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  info.bindingCount = count;
  info.pBindings = bindings.data();
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  check(vkCreateDescriptorSetLayout(s.device, &info, nullptr, &layout), "vkCreateDescriptorSetLayout",
        s.info.name);
  return layout;
}

VkPipelineLayout create_layout(const detail::Device& s, VkDescriptorSetLayout set_layout,
                               std::uint32_t push_bytes) {
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = 1;
  info.pSetLayouts = &set_layout;
  info.pushConstantRangeCount = push_bytes ? 1 : 0;
  info.pPushConstantRanges = &range;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  check(vkCreatePipelineLayout(s.device, &info, nullptr, &layout), "vkCreatePipelineLayout", s.info.name);
  return layout;
}

VkShaderModule create_module(const detail::Device& s, const shaders::Shader& shader) {
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = shader.spirv.size_bytes();
  info.pCode = shader.spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  check(vkCreateShaderModule(s.device, &info, nullptr, &module),
        "vkCreateShaderModule(" + std::string(shader.name) + ")", s.info.name);
  return module;
}

std::string statistic_value(const VkPipelineExecutableStatisticKHR& st) {
  switch (st.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: return st.value.b32 ? "true" : "false";
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: return std::to_string(st.value.i64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: return std::to_string(st.value.u64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: return std::to_string(st.value.f64);
    default: return "?";
  }
}

// One stderr line per executable of the pipeline: the shader, its specialization and every
// statistic the driver reports.
void print_statistics(const detail::Device& s, const PipelineDesc& desc, VkPipeline pipeline) {
  VkPipelineInfoKHR pipeline_info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, nullptr, pipeline};
  std::uint32_t executables = 0;
  if (vkGetPipelineExecutablePropertiesKHR(s.device, &pipeline_info, &executables, nullptr) != VK_SUCCESS) return;
  for (std::uint32_t e = 0; e < executables; ++e) {
    VkPipelineExecutableInfoKHR executable{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, nullptr, pipeline, e};
    std::uint32_t count = 0;
    if (vkGetPipelineExecutableStatisticsKHR(s.device, &executable, &count, nullptr) != VK_SUCCESS) continue;
    std::vector<VkPipelineExecutableStatisticKHR> stats(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    if (vkGetPipelineExecutableStatisticsKHR(s.device, &executable, &count, stats.data()) != VK_SUCCESS) continue;
    std::string line = "vkc: pipeline " + std::string(desc.shader.name) + " [";
    for (std::size_t i = 0; i < desc.specialization.size(); ++i) {
      if (i) line += ',';
      line += std::to_string(desc.specialization[i]);
    }
    line += "]";
    for (const auto& st : stats) line += std::string(" | ") + st.name + "=" + statistic_value(st);
    std::fprintf(stderr, "%s\n", line.c_str());
  }
}

VkPipeline create_pipeline(const detail::Device& s, VkPipelineCache cache, bool statistics, const PipelineDesc& desc,
                           VkPipelineLayout layout) {
  VkShaderModule module = create_module(s, desc.shader);
  std::vector<VkSpecializationMapEntry> entries;
  for (std::uint32_t i = 0; i < desc.specialization.size(); ++i) {
    entries.push_back({i, i * 4u, 4});
  }
  VkSpecializationInfo spec{static_cast<std::uint32_t>(entries.size()), entries.data(),
                            desc.specialization.size() * 4, desc.specialization.data()};
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
  required.requiredSubgroupSize = desc.required_subgroup_size;

  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = entries.empty() ? nullptr : &spec;
  if (s.info.subgroup_size_control) {
    if (desc.required_subgroup_size) info.stage.pNext = &required;
    if (desc.full_subgroups) info.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  } else if (desc.required_subgroup_size && desc.required_subgroup_size != s.info.subgroup_size) {
    vkDestroyShaderModule(s.device, module, nullptr);
    throw Error("shader " + std::string(desc.shader.name) + " needs subgroup size " +
                std::to_string(desc.required_subgroup_size) + ", which '" + s.info.name + "' cannot provide");
  }
  info.layout = layout;
  if (statistics) info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  VkPipeline pipeline = VK_NULL_HANDLE;
  const VkResult result = vkCreateComputePipelines(s.device, cache, 1, &info, nullptr, &pipeline);
  vkDestroyShaderModule(s.device, module, nullptr);
  check(result, "vkCreateComputePipelines(" + std::string(desc.shader.name) + ")", s.info.name);
  if (statistics) print_statistics(s, desc, pipeline);
  return pipeline;
}

}  // namespace

Pipeline::Pipeline(const detail::Device& device, VkPipelineCache cache, bool statistics, const PipelineDesc& desc)
    : device_(device.device), desc_(desc) {
  try {
    set_layout_ = create_set_layout(device, desc.bindings);
    layout_ = create_layout(device, set_layout_, desc.push_bytes);
    pipeline_ = create_pipeline(device, cache, statistics, desc, layout_);
  } catch (...) {
    destroy();
    throw;
  }
}

Pipeline::~Pipeline() { destroy(); }

void Pipeline::destroy() noexcept {
  if (pipeline_) vkDestroyPipeline(device_, pipeline_, nullptr);
  if (layout_) vkDestroyPipelineLayout(device_, layout_, nullptr);
  if (set_layout_) vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
  pipeline_ = VK_NULL_HANDLE;
  layout_ = VK_NULL_HANDLE;
  set_layout_ = VK_NULL_HANDLE;
}

const Pipeline& PipelineCache::get(const PipelineDesc& desc) {
  auto it = pipelines_.find(desc);
  if (it == pipelines_.end()) {
    it = pipelines_.emplace(desc, std::make_unique<Pipeline>(device_, handle, statistics, desc)).first;
    ++compiled_;
  }
  return *it->second;
}

const Pipeline& pipeline(detail::ComputeDevice& device, const PipelineDesc& desc) { return device.pipelines.get(desc); }

}  // namespace vkc
