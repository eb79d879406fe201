// Planning a sort: the algorithm chosen once, its plan built once, and the device memory a sort
// of any count needs, in closed form (no plan is built to learn it).
#pragma once

#include <cstdint>
#include <memory>

#include "sort/algorithm.hpp"
#include "sort/radix_policy.hpp"
#include "vkc/sort.hpp"

namespace vkc::sorting {

/// The dispatcher keeps the element count at the start of the temporary buffer; the
/// algorithm's scratch follows at this offset (a multiple of every storage-buffer alignment).
constexpr std::uint64_t kScratchOffset = 256;

/// A sort planned: the algorithm chosen once, and its plan.
struct PlannedSort {
  SortDesc desc;
  const Algorithm* algorithm = nullptr;
  std::unique_ptr<SortPlan> plan;
  /// The temporary buffer's bytes: the dispatcher's and the algorithm's.
  std::uint64_t temporary_bytes() const { return kScratchOffset + plan->temporary_bytes(); }
};

/// Chooses the algorithm for `desc` and plans it.
PlannedSort plan_sort(const DeviceInfo& device, const SortDesc& desc);

/// A radix sort planned under a policy edit (tests and probes).
PlannedSort plan_radix_sort(const DeviceInfo& device, const SortDesc& desc, const RadixPolicyEdit& edit);

/// The device memory of one sort of desc.max_count elements: its keys, values and temporary
/// buffer (what a host sort allocates, and sort_temporary_bytes reports).
struct DeviceBytes {
  std::uint64_t keys = 0, values = 0, temporary = 0;
  std::uint64_t total() const { return keys + values + temporary; }
};

/// DeviceBytes for desc, with `algorithm` (or the one choose() picks), in closed form.
DeviceBytes device_bytes(const DeviceInfo& device, const Algorithm& algorithm, const SortDesc& desc);
DeviceBytes device_bytes(const DeviceInfo& device, const SortDesc& desc);

/// The most elements of desc's types that one sort on the device takes, with the algorithm
/// chosen for desc.max_count (what a larger sort sorts its runs and parts with): every buffer
/// within the device's storage-range and allocation limits, all of them within `memory_limit`,
/// counts within the kernels' 32 bits. Solved from the algorithm's TemporaryBounds in closed
/// form; it may fall short of the exact largest count by the bounds' slack (a few hundred
/// elements at most), never above it.
std::uint64_t in_core_capacity(const DeviceInfo& device, const SortDesc& desc, std::uint64_t memory_limit);

/// `desc` with `automatic` resolved to the algorithm that choose() picks for it (its count
/// clamped to what one sort takes).
SortDesc with_algorithm_chosen(const DeviceInfo& device, SortDesc desc);

/// `options` with `automatic` resolved to a stable algorithm: what argsort sorts with.
SortOptions options_for_argsort(SortOptions options);

/// Throws Error when `count` exceeds what a recorded sort takes (its GPU-side count is 32 bits).
void check_recordable_count(std::uint64_t count);

}  // namespace vkc::sorting
