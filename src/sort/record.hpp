// The recording spine: a planned sort recorded over buffers, the one path that the record API,
// the host sorts and the benchmarks share.
#pragma once

#include <span>

#include <vulkan/vulkan_core.h>

#include <cstdint>

#include "core/pipeline.hpp"
#include "core/recorder.hpp"
#include "sort/planner.hpp"
#include "vkc/sort.hpp"

namespace vkc::sorting {

/// What recording a sort needs of its device: the device with its pipelines, and a buffer whose
/// first uint32 holds 2^32 - 1, which sorts of a host-known count bind as their count where the
/// algorithm's kernels clamp the count (SortPlan::clamps_count). Without one (null: the device has
/// no host-visible device-local memory to write it into) such sorts fill the count in instead.
struct SortDevice {
  detail::ComputeDevice& device;
  VkBuffer count_ceiling = VK_NULL_HANDLE;
  const DeviceInfo& info() const { return device.info(); }
};

/// Records a planned sort of exactly planned.desc.max_count elements, whose count the host knows.
void record_planned(const SortDevice& target, Recorder& r, const PlannedSort& planned, const SortBuffers& buffers);

/// Records the planned sort once for each set of buffers (each set its own arrays and temporary
/// storage), every set's step before the next step of any where the plan allows (SortPlan::record_together).
void record_planned_together(const SortDevice& target, Recorder& r, const PlannedSort& planned,
                             std::span<const SortBuffers> buffers);

/// Records a sort of `count` (<= desc.max_count) elements, planned for that count: record_sort.
void record(const SortDevice& target, Recorder& r, const SortDesc& desc, std::uint64_t count,
            const SortBuffers& buffers);

/// Records a planned sort whose count is the uint32 at `count` (<= planned.desc.max_count).
void record_planned_indirect(const SortDevice& target, Recorder& r, const PlannedSort& planned, BufferRange count,
                             const SortBuffers& buffers);

/// record_sort_indirect's path: the count in a buffer, up to desc.max_count.
void record_indirect(const SortDevice& target, Recorder& r, const SortDesc& desc, BufferRange count,
                     const SortBuffers& buffers);

/// Records values[i] = first + i for i < n (uint32 or, for ValueType::u64, uint64): the initial
/// values of an argsort, or of one run of a larger argsort. A uint32 first + n must fit 32 bits.
void record_iota(detail::ComputeDevice& device, Recorder& r, VkBuffer values, ValueType type, std::uint64_t n,
                 std::uint64_t first = 0, VkDeviceSize offset = 0);

}  // namespace vkc::sorting
