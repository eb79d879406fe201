// vkc::Sorter: sorts recorded on an engine's device with no queue of vkc's own, its pipelines
// prepared up front by recording the sorts it may meet without writing any command.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <set>

#include "core/device.hpp"
#include "core/loader.hpp"
#include "sort/radix_policy.hpp"
#include "sort/key_types.hpp"
#include "sort/record.hpp"
#include "sort/segmented.hpp"
#include "sort/workspace.hpp"

namespace vkc {

struct Sorter::State {
  std::unique_ptr<detail::ComputeDevice> owned;  // null where the Sorter is a Context's
  detail::ComputeDevice* device = nullptr;
  Buffer count_ceiling;
  sorting::SortDevice target() const { return {*device, count_ceiling.handle()}; }
};

namespace {

// The count word of sorts whose count the host knows, written through a mapping, so that no
// submission is needed; where the device has no host-visible device-local memory such sorts
// fill their count in instead (a host-memory word that every workgroup reads would cost more).
Buffer count_ceiling(const detail::Device& device) {
  const std::uint32_t ceiling = UINT32_MAX;
  try {
    return detail::create_host_written_buffer(device, &ceiling, sizeof ceiling, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  } catch (const Error&) {
    return Buffer();
  }
}

// The counts at which what a sort records may change: each power of two and the count past it
// (the algorithms' thresholds, the `automatic` crossover), each radix size class's top, and the
// largest count itself.
std::set<std::uint64_t> representative_counts(std::uint64_t max_count) {
  std::set<std::uint64_t> counts{max_count};
  for (std::uint64_t p = 1; p <= max_count; p *= 2) {
    counts.insert(p);
    if (p + 1 <= max_count) counts.insert(p + 1);
  }
  for (const std::uint64_t top : sorting::radix_tile_boundaries()) {
    if (top <= max_count) counts.insert(top);
  }
  if (sorting::radix_lookback_limit() <= max_count) counts.insert(sorting::radix_lookback_limit());
  return counts;
}

// Buffers for recording without commands: distinct non-null handles that nothing dereferences.
SortBuffers dry_buffers(VkDeviceSize keys_offset) {
  const auto handle = [](std::uintptr_t value) { return reinterpret_cast<VkBuffer>(value); };
  return {{handle(1), keys_offset}, {handle(2), keys_offset}, {handle(3), 0}};
}

// Offsets of the keys and values that change what a sort records (its 8- and 16-byte loads and
// stores): 0, and the smaller multiples of the device's alignment where it allows them.
std::vector<VkDeviceSize> representative_offsets(const DeviceInfo& info) {
  std::vector<VkDeviceSize> offsets{0};
  const VkDeviceSize alignment = std::max<VkDeviceSize>(1, info.storage_offset_alignment);
  for (VkDeviceSize o = alignment; o < 16; o += alignment) offsets.push_back(o);
  return offsets;
}

}  // namespace

Sorter::Sorter() : state_(std::make_unique<State>()) {}

Sorter::Sorter(const SorterCreateInfo& info) : Sorter() {
  if (!info.instance || !info.physical_device || !info.device) {
    throw Error("a Sorter needs the engine's VkInstance, VkPhysicalDevice and VkDevice");
  }
  vk::load_engine_instance(info.instance, info.get_instance_proc_addr);
  detail::Device device = detail::describe_device(info.instance, info.physical_device);
  device.device = info.device;
  state_->owned = std::make_unique<detail::ComputeDevice>(std::move(device));
  state_->owned->pipelines.handle = info.pipeline_cache;
  state_->device = state_->owned.get();
  state_->count_ceiling = count_ceiling(state_->device->device);
  for (const SortDesc& desc : info.prepare) prepare(desc);
}

Sorter::~Sorter() = default;
Sorter::Sorter(Sorter&&) noexcept = default;
Sorter& Sorter::operator=(Sorter&&) noexcept = default;

const DeviceInfo& Sorter::info() const { return state_->device->info(); }

void Sorter::prepare(const SortDesc& desc) {
  sorting::check_recordable_count(desc.max_count);
  const sorting::SortDevice target = state_->target();
  Recorder dry(target.device.device, VK_NULL_HANDLE);
  for (const VkDeviceSize offset : representative_offsets(info())) {
    const SortBuffers buffers = dry_buffers(offset);
    for (const std::uint64_t count : representative_counts(desc.max_count)) {
      sorting::record(target, dry, desc, count, buffers);
    }
    sorting::record_indirect(target, dry, desc, {buffers.temporary.buffer, 0}, buffers);
  }
}

SortStorageRequirements Sorter::temporary_requirements(const SortDesc& desc) const {
  sorting::check_recordable_count(desc.max_count);
  // 16 bytes at least: the sorts' 8- and 16-byte accesses of the temporary buffer stay aligned.
  const VkDeviceSize alignment = std::max<VkDeviceSize>(16, info().storage_offset_alignment);
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  return {sorting::device_bytes(info(), desc).temporary, alignment, usage};
}

namespace {
sorting::SegmentedJob segmented_job(const SegmentedSortDesc& desc, const SegmentedSortBuffers& buffers) {
  if (sorting::is_narrow(desc.key_type)) throw Error("a recorded segmented sort takes keys of 32 or 64 bits");
  if (desc.argsort && desc.value_type == ValueType::none) throw Error("a segmented argsort needs an index type");
  using Output = sorting::SegmentedOutput;
  const Output output = !desc.argsort ? (desc.value_type == ValueType::none ? Output::keys : Output::pairs)
                        : desc.numbering == SegmentIndices::local ? Output::local_indices
                                                                  : Output::global_indices;
  const auto binding = [](const BufferRange& b, Access access) { return Binding{b.buffer, access, b.offset}; };
  return {.key_type = desc.key_type,
          .value_type = desc.value_type,
          .order = desc.order,
          .output = output,
          .count = desc.count,
          .segments = desc.segments,
          .rows = desc.columns != 0,
          .columns = desc.columns,
          .keys = binding(buffers.keys, Access::read_write),
          .values = binding(buffers.values, Access::read_write),
          .begins = binding(buffers.begins, Access::read),
          .ends = binding(buffers.ends, Access::read),
          .segment_count = binding(buffers.segment_count, Access::read),
          .temporary = binding(buffers.temporary, Access::read_write)};
}
}  // namespace

SortStorageRequirements Sorter::temporary_requirements(const SegmentedSortDesc& desc) const {
  const SortStorageRequirements whole = temporary_requirements(SortDesc{desc.key_type, ValueType::none, 1});
  return {sorting::segmented_temporary_bytes(info(), segmented_job(desc, {})), whole.alignment, whole.usage};
}

void Sorter::record_segmented_sort(VkCommandBuffer commands, const SegmentedSortDesc& desc,
                                   const SegmentedSortBuffers& buffers) {
  Recorder r(state_->device->device, commands);
  sorting::record_segmented(state_->target(), r, segmented_job(desc, buffers));
}

void Sorter::record_sort(VkCommandBuffer commands, const SortDesc& desc, std::uint64_t count,
                         const SortBuffers& buffers) {
  Recorder r(state_->device->device, commands);
  sorting::record(state_->target(), r, desc, count, buffers);
}

void Sorter::record_sort_indirect(VkCommandBuffer commands, const SortDesc& desc, BufferRange count,
                                  const SortBuffers& buffers) {
  Recorder r(state_->device->device, commands);
  sorting::record_indirect(state_->target(), r, desc, count, buffers);
}

std::size_t Sorter::pipelines_compiled() const { return state_->device->pipelines.compiled(); }

Sorter SorterAccess::over(detail::ComputeDevice& device) {
  Sorter sorter;
  sorter.state_->device = &device;
  sorter.state_->count_ceiling = count_ceiling(device.device);
  return sorter;
}

sorting::SortDevice SorterAccess::target(const Sorter& sorter) { return sorter.state_->target(); }

}  // namespace vkc
