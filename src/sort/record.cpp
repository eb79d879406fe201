#include "sort/record.hpp"

#include <vector>

#include "core/kernels.hpp"
#include "sort/key_types.hpp"

// iota.comp's specialization-constant ids (macros only).
#include "sort_layout.h"

namespace vkc::sorting {
namespace {

Job make_job(const SortDesc& desc, const SortBuffers& b) {
  Job job;
  job.key_type = desc.key_type;
  job.value_type = desc.value_type;
  job.order = desc.options.order;
  job.max_count = desc.max_count;
  job.keys = {b.keys.buffer, Access::read_write, b.keys.offset};
  job.values = {b.values.buffer, Access::read_write, b.values.offset};
  job.temporary = {b.temporary.buffer, Access::read_write, b.temporary.offset + kScratchOffset};
  job.temporary_is_clear = b.temporary_is_clear;
  return job;
}

void check_desc(const SortDesc& desc, const SortBuffers& b) {
  check_recordable_count(desc.max_count);
  if (!b.keys.buffer || !b.temporary.buffer) throw Error("record_sort: the keys and temporary buffers are required");
  if (desc.value_type != ValueType::none && !b.values.buffer) {
    throw Error("record_sort: a values buffer is required for this value type");
  }
}

// The job of a sort whose count the host knows: the count word a ceiling that every kernel
// clamps to, or the count filled into the temporary buffer's first word.
Job job_with_known_count(const SortDevice& target, Recorder& r, const PlannedSort& planned, const SortBuffers& buffers) {
  Job job = make_job(planned.desc, buffers);
  const std::uint64_t count = planned.desc.max_count;
  if (planned.plan->clamps_count() && target.count_ceiling) {
    job.count = {target.count_ceiling, Access::read, 0, 4};
  } else {
    job.count = {buffers.temporary.buffer, Access::read, buffers.temporary.offset, 4};
    r.fill_buffer(buffers.temporary.buffer, buffers.temporary.offset, 4, static_cast<std::uint32_t>(count));
  }
  return job;
}

}  // namespace

void record_planned(const SortDevice& target, Recorder& r, const PlannedSort& planned, const SortBuffers& buffers) {
  planned.plan->record(target.device, r, job_with_known_count(target, r, planned, buffers));
}

void record_planned_together(const SortDevice& target, Recorder& r, const PlannedSort& planned,
                             std::span<const SortBuffers> buffers) {
  std::vector<Job> jobs;
  for (const SortBuffers& b : buffers) jobs.push_back(job_with_known_count(target, r, planned, b));
  planned.plan->record_together(target.device, r, jobs);
}

void record(const SortDevice& target, Recorder& r, const SortDesc& desc, std::uint64_t count,
            const SortBuffers& buffers) {
  if (count > desc.max_count) throw Error("record_sort: count exceeds SortDesc::max_count");
  SortDesc exact = desc;
  exact.max_count = count;
  check_desc(exact, buffers);
  if (count == 0) return;
  record_planned(target, r, plan_sort(target.info(), exact), buffers);
}

void record_indirect(const SortDevice& target, Recorder& r, const SortDesc& desc, BufferRange count,
                     const SortBuffers& buffers) {
  check_desc(desc, buffers);
  if (desc.max_count == 0) return;
  record_planned_indirect(target, r, plan_sort(target.info(), desc), count, buffers);
}

void record_planned_indirect(const SortDevice& target, Recorder& r, const PlannedSort& planned, BufferRange count,
                             const SortBuffers& buffers) {
  Job job = make_job(planned.desc, buffers);
  job.count = {count.buffer, Access::read, count.offset, 4};
  planned.plan->record(target.device, r, job);
}

void record_iota(detail::ComputeDevice& device, Recorder& r, VkBuffer values, ValueType type, std::uint64_t n,
                 std::uint64_t first, VkDeviceSize offset) {
  const std::uint32_t wg = streaming_workgroup_size(device.info());
  std::vector<std::uint32_t> c(IOTA_CONSTANTS);
  c[SORT_SC_WORKGROUP] = wg;
  c[IOTA_WORDS] = value_words(type);
  const Pipeline& p =
      pipeline(device, {.shader = shaders::sort_iota, .specialization = std::move(c), .bindings = 1, .push_bytes = 12});
  const std::uint32_t push[] = {static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(first),
                                static_cast<std::uint32_t>(first >> 32)};
  r.dispatch(p, {{values, Access::write, offset, n * value_bytes(type)}}, push, groups_for(n, wg));
}

}  // namespace vkc::sorting
