#include "core/recorder.hpp"

#include <algorithm>

#include "core/check.hpp"
#include "core/loader.hpp"
#include "core/pipeline.hpp"

namespace vkc {
using namespace vk;

namespace {
// Every stage and access the library's commands use: the destination of each barrier, so that
// one barrier orders the earlier commands before any later command.
constexpr VkPipelineStageFlags kAllStages =
    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT;
constexpr VkAccessFlags kAllAccess = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                     VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                                     VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
}  // namespace

Recorder::Recorder(const detail::Device& device, VkCommandBuffer commands) : device_(device), commands_(commands) {}

const DeviceInfo& Recorder::device() const { return device_.info; }

Recorder::Range Recorder::range_of(VkDeviceSize offset, VkDeviceSize bytes) {
  return {offset, bytes == VK_WHOLE_SIZE ? VK_WHOLE_SIZE : offset + bytes};
}

// Read-after-write, write-after-write and write-after-read, where the byte ranges overlap.
bool Recorder::Tracked::conflicts_with(const Use& use) const {
  const auto overlapping = [&](const std::vector<Range>& ranges) {
    return std::any_of(ranges.begin(), ranges.end(), [&](const Range& r) { return r.overlaps(use.range); });
  };
  return overlapping(written) || (use.write && overlapping(read));
}

void Recorder::prepare(std::span<const Use> uses) {
  const bool hazard = std::any_of(uses.begin(), uses.end(), [&](const Use& use) {
    const auto it = tracked_.find(use.buffer);
    return it != tracked_.end() && it->second.conflicts_with(use);
  });
  if (hazard) barrier(kAllStages, kAllAccess);
  for (const Use& use : uses) {
    Tracked& t = tracked_[use.buffer];
    t.stages |= use.stage;
    if (use.write) {
      t.write_access |= use.access;
      t.written.push_back(use.range);
    } else {
      t.read.push_back(use.range);
    }
  }
}

void Recorder::barrier(VkPipelineStageFlags dst_stages, VkAccessFlags dst_access) {
  VkPipelineStageFlags src_stages = 0;
  VkAccessFlags src_access = 0;
  for (const auto& [buffer, t] : tracked_) {
    src_stages |= t.stages;
    src_access |= t.write_access;
  }
  if (!src_stages) return;
  // Makes every write recorded so far available and visible to the destination stages, and
  // orders every earlier read before later writes (execution dependency).
  record_global_barrier(src_stages, dst_stages, src_access, dst_access);
}

void Recorder::record_global_barrier(VkPipelineStageFlags src_stages, VkPipelineStageFlags dst_stages,
                                     VkAccessFlags src_access, VkAccessFlags dst_access) {
  VkMemoryBarrier memory{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  memory.srcAccessMask = src_access;
  memory.dstAccessMask = dst_access;
  if (!dry()) vkCmdPipelineBarrier(commands_, src_stages, dst_stages, 0, 1, &memory, 0, nullptr, 0, nullptr);
  ++barriers_;
  tracked_.clear();
}

std::vector<Recorder::Use> Recorder::uses_of(std::span<const Binding> bindings) const {
  std::vector<Use> uses;
  for (const Binding& b : bindings) {
    const bool reads = static_cast<int>(b.access) & static_cast<int>(Access::read);
    const bool writes = static_cast<int>(b.access) & static_cast<int>(Access::write);
    const Range range = range_of(b.offset, b.range);
    if (reads) uses.push_back({b.buffer, range, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, false, VK_ACCESS_SHADER_READ_BIT});
    if (writes) uses.push_back({b.buffer, range, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, true, VK_ACCESS_SHADER_WRITE_BIT});
  }
  return uses;
}

void Recorder::bind(const Pipeline& pipeline, std::span<const Binding> bindings, const void* push,
                    std::uint32_t push_bytes) {
  if (bindings.size() != pipeline.desc().bindings) {
    throw Error("shader " + std::string(pipeline.desc().shader.name) + " takes " +
                std::to_string(pipeline.desc().bindings) + " buffers, got " + std::to_string(bindings.size()));
  }
  if (push_bytes != pipeline.desc().push_bytes) {
    throw Error("shader " + std::string(pipeline.desc().shader.name) + " takes " +
                std::to_string(pipeline.desc().push_bytes) + " bytes of push constants, got " +
                std::to_string(push_bytes));
  }
  std::vector<VkDescriptorBufferInfo> infos;
  std::vector<VkWriteDescriptorSet> writes;
  infos.reserve(bindings.size());
  for (std::uint32_t i = 0; i < bindings.size(); ++i) {
    infos.push_back({bindings[i].buffer, bindings[i].offset, bindings[i].range});
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstBinding = i;
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w.pBufferInfo = &infos.back();
    writes.push_back(w);
  }
  if (dry()) return;
  vkCmdBindPipeline(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
  vkCmdPushDescriptorSetKHR(commands_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0,
                            static_cast<std::uint32_t>(writes.size()), writes.data());
  if (push_bytes) {
    vkCmdPushConstants(commands_, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
  }
}

Grid grid_for(const DeviceInfo& device, std::uint64_t groups) {
  const std::uint64_t x = std::max<std::uint64_t>(1, std::min<std::uint64_t>(groups, device.max_workgroup_count[0]));
  const std::uint64_t y = (groups + x - 1) / x;
  if (y > device.max_workgroup_count[1]) {
    throw Error("dispatch of " + std::to_string(groups) + " workgroups exceeds the grid limits of '" + device.name + "'");
  }
  return {static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)};
}

void Recorder::dispatch(const Pipeline& pipeline, std::span<const Binding> bindings, const void* push,
                        std::uint32_t push_bytes, std::uint64_t groups) {
  if (groups == 0) return;
  const Grid grid = grid_for(device_.info, groups);
  const auto uses = uses_of(bindings);
  prepare(uses);
  bind(pipeline, bindings, push, push_bytes);
  dispatched_.push_back(pipeline.desc().shader.name);
  if (!dry()) vkCmdDispatch(commands_, grid.x, grid.y, 1);
}

void Recorder::dispatch_indirect(const Pipeline& pipeline, std::span<const Binding> bindings, const void* push,
                                 std::uint32_t push_bytes, VkBuffer args, VkDeviceSize offset) {
  auto uses = uses_of(bindings);
  uses.push_back({args, range_of(offset, sizeof(VkDispatchIndirectCommand)), VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                  false, VK_ACCESS_INDIRECT_COMMAND_READ_BIT});
  prepare(uses);
  bind(pipeline, bindings, push, push_bytes);
  dispatched_.push_back(pipeline.desc().shader.name);
  if (!dry()) vkCmdDispatchIndirect(commands_, args, offset);
}

void Recorder::copy_buffer(VkBuffer src, VkBuffer dst, const VkBufferCopy& region) {
  const Use uses[] = {
      {src, range_of(region.srcOffset, region.size), VK_PIPELINE_STAGE_TRANSFER_BIT, false, VK_ACCESS_TRANSFER_READ_BIT},
      {dst, range_of(region.dstOffset, region.size), VK_PIPELINE_STAGE_TRANSFER_BIT, true, VK_ACCESS_TRANSFER_WRITE_BIT}};
  prepare(uses);
  if (!dry()) vkCmdCopyBuffer(commands_, src, dst, 1, &region);
}

void Recorder::fill_buffer(VkBuffer dst, VkDeviceSize offset, VkDeviceSize bytes, std::uint32_t value) {
  const Use uses[] = {{dst, range_of(offset, bytes), VK_PIPELINE_STAGE_TRANSFER_BIT, true, VK_ACCESS_TRANSFER_WRITE_BIT}};
  prepare(uses);
  if (!dry()) vkCmdFillBuffer(commands_, dst, offset, bytes, value);
}

void Recorder::write_timestamp(VkQueryPool pool, std::uint32_t query) {
  if (!dry()) vkCmdWriteTimestamp(commands_, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, pool, query);
}

void Recorder::reset_queries(VkQueryPool pool, std::uint32_t first, std::uint32_t count) {
  if (!dry()) vkCmdResetQueryPool(commands_, pool, first, count);
}

void Recorder::barrier_all() {
  // Orders everything before it (whoever recorded it) before everything after it, and makes
  // all writes visible: the fence between this recorder's commands and foreign ones.
  record_global_barrier(kAllStages, kAllStages, kAllAccess, kAllAccess);
}

void Recorder::finish_for_host() { barrier(VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT); }

TimestampQueries::TimestampQueries(const detail::Device& device, std::uint32_t count) : device_(device), count_(count) {
  if (device_.info.timestamp_valid_bits == 0) {
    throw Error("the compute queue of '" + device_.info.name + "' does not support timestamps");
  }
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = count;
  check(vkCreateQueryPool(device_.device, &info, nullptr, &pool_), "vkCreateQueryPool", device_.info.name);
}

TimestampQueries::~TimestampQueries() { vkDestroyQueryPool(device_.device, pool_, nullptr); }

std::vector<std::uint64_t> TimestampQueries::read_ticks() const {
  std::vector<std::uint64_t> ticks(count_);
  check(vkGetQueryPoolResults(device_.device, pool_, 0, count_, ticks.size() * sizeof(std::uint64_t), ticks.data(),
                              sizeof(std::uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
        "vkGetQueryPoolResults", device_.info.name);
  return ticks;
}

std::uint64_t TimestampQueries::tick_mask() const {
  const std::uint32_t bits = device_.info.timestamp_valid_bits;
  return bits >= 64 ? ~0ull : ((1ull << bits) - 1);
}

std::vector<double> TimestampQueries::read_ns() const {
  const auto ticks = read_ticks();
  std::vector<double> ns(count_);
  for (std::uint32_t i = 0; i < count_; ++i) {
    ns[i] = static_cast<double>(ticks[i] & tick_mask()) * device_.info.timestamp_period_ns;
  }
  return ns;
}

double TimestampQueries::elapsed_ns(std::uint32_t first, std::uint32_t last) const {
  const auto ticks = read_ticks();
  // Modular difference: counters narrower than 64 bits may wrap between the two queries.
  const std::uint64_t delta = (ticks.at(last) - ticks.at(first)) & tick_mask();
  return static_cast<double>(delta) * device_.info.timestamp_period_ns;
}

}  // namespace vkc
