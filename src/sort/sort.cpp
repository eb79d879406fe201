// The public sorting API: argument checks, buffers, and the hand-off to an algorithm.
#include "vkc/sort.hpp"

#include <cstring>
#include <string>

#include "core/kernels.hpp"
#include "core/pipeline.hpp"
#include "core/state.hpp"
#include "sort/algorithm.hpp"

namespace vkc {
namespace {

// The dispatcher keeps the element count at the start of the temporary buffer; the
// algorithm's scratch follows at this offset (a multiple of every storage-buffer alignment).
constexpr std::uint64_t kScratchOffset = 256;

void check_count(std::uint64_t count) {
  if (count > UINT32_MAX) {
    throw Error("cannot sort " + std::to_string(count) + " elements: the limit is 2^32 - 1 (4294967295)");
  }
}

sorting::Job make_job(const SortDesc& desc, const SortBuffers& b) {
  sorting::Job job;
  job.key_type = desc.key_type;
  job.value_type = desc.value_type;
  job.order = desc.options.order;
  job.radix_scan = desc.options.radix_scan;
  job.max_count = desc.max_count;
  job.keys = {b.keys.buffer, Access::read_write, b.keys.offset};
  job.values = {b.values.buffer, Access::read_write, b.values.offset};
  job.temporary = {b.temporary.buffer, Access::read_write, b.temporary.offset + kScratchOffset};
  job.temporary_is_clear = b.temporary_is_clear;
  return job;
}

void check_desc(const SortDesc& desc, const SortBuffers& b) {
  check_count(desc.max_count);
  if (!b.keys.buffer || !b.temporary.buffer) throw Error("record_sort: the keys and temporary buffers are required");
  if (desc.value_type != ValueType::none && !b.values.buffer) {
    throw Error("record_sort: a values buffer is required for this value type");
  }
}

// Records a planned sort of exactly planned.desc.max_count elements, whose count the host knows.
void record_planned(Context& ctx, Recorder& r, const sorting::PlannedSort& planned, const SortBuffers& buffers) {
  sorting::Job job = make_job(planned.desc, buffers);
  const std::uint64_t count = planned.desc.max_count;
  if (planned.plan->clamps_count()) {
    job.count = {ctx.state().count_ceiling.handle(), Access::read, 0, 4};
  } else {
    job.count = {buffers.temporary.buffer, Access::read, buffers.temporary.offset, 4};
    r.fill_buffer(buffers.temporary.buffer, buffers.temporary.offset, 4, static_cast<std::uint32_t>(count));
  }
  planned.plan->record(ctx, r, job);
}

// Uploads keys (and values), sorts them with `desc`, downloads them.
void sort_on_device(Context& ctx, const SortDesc& desc, void* keys, void* values, bool iota_values) {
  const std::uint64_t n = desc.max_count;
  const sorting::PlannedSort planned = sorting::plan_sort(ctx.info(), desc);
  Buffer key_buffer = ctx.create_buffer(n * key_bytes(desc.key_type));
  Buffer value_buffer;
  if (desc.value_type != ValueType::none) value_buffer = ctx.create_buffer(n * value_bytes(desc.value_type));
  Buffer temporary = ctx.create_buffer(kScratchOffset + planned.plan->temporary_bytes());
  ctx.upload(key_buffer, keys, key_buffer.bytes());
  if (values && !iota_values) ctx.upload(value_buffer, values, value_buffer.bytes());
  const SortBuffers buffers{{key_buffer.handle()}, {value_buffer.handle()}, {temporary.handle()}};
  ctx.run([&](Recorder& r) {
    if (iota_values) sorting::record_iota(ctx, r, value_buffer, n);
    record_planned(ctx, r, planned, buffers);
  });
  ctx.download(key_buffer, keys, key_buffer.bytes());
  if (values) ctx.download(value_buffer, values, value_buffer.bytes());
}

}  // namespace

namespace sorting {
SortOptions options_for_argsort(SortOptions options) {
  if (options.algorithm == SortAlgorithm::automatic && radix_algorithm_available()) {
    options.algorithm = SortAlgorithm::radix;  // argsort promises the stable permutation by default
  }
  return options;
}

void record_iota(Context& ctx, Recorder& r, const Buffer& values, std::uint64_t n) {
  const std::uint32_t wg = streaming_workgroup_size(ctx.info());
  const Pipeline& p = pipeline(ctx, {.shader = "sort/iota", .specialization = {wg}, .bindings = 1, .push_bytes = 4});
  const std::uint32_t count = static_cast<std::uint32_t>(n);
  r.dispatch(p, {writes(values)}, count, groups_for(n, wg));
}

void record(Context& ctx, Recorder& r, const SortDesc& desc, std::uint64_t count, const SortBuffers& buffers,
            const RadixPolicyEdit& edit) {
  if (count > desc.max_count) throw Error("record_sort: count exceeds SortDesc::max_count");
  SortDesc exact = desc;
  exact.max_count = count;
  check_desc(exact, buffers);
  if (count == 0) return;
  record_planned(ctx, r, plan_sort(ctx.info(), exact, edit), buffers);
}

void record_indirect(Context& ctx, Recorder& r, const SortDesc& desc, BufferRange count, const SortBuffers& buffers,
                     const RadixPolicyEdit& edit) {
  check_desc(desc, buffers);
  if (desc.max_count == 0) return;
  const PlannedSort planned = plan_sort(ctx.info(), desc, edit);
  Job job = make_job(desc, buffers);
  job.count = {count.buffer, Access::read, count.offset, 4};
  planned.plan->record(ctx, r, job);
}

std::uint64_t temporary_bytes(const DeviceInfo& device, const SortDesc& desc, const RadixPolicyEdit& edit) {
  check_count(desc.max_count);
  if (desc.max_count == 0) return kScratchOffset;
  return kScratchOffset + plan_sort(device, desc, edit).plan->temporary_bytes();
}
}  // namespace sorting

std::string_view to_string(SortAlgorithm algorithm) {
  switch (algorithm) {
    case SortAlgorithm::automatic: return "auto";
    case SortAlgorithm::bitonic: return "bitonic";
    case SortAlgorithm::bitonic_transpose: return "bitonic_transpose";
    case SortAlgorithm::odd_even: return "odd_even";
    case SortAlgorithm::radix: return "radix";
  }
  return "?";
}

std::string_view to_string(KeyType type) {
  switch (type) {
    case KeyType::u32: return "u32";
    case KeyType::i32: return "i32";
    case KeyType::f32: return "f32";
    case KeyType::u64: return "u64";
    case KeyType::i64: return "i64";
    case KeyType::f64: return "f64";
  }
  return "?";
}

SortAlgorithm parse_algorithm(std::string_view name) {
  for (SortAlgorithm a : {SortAlgorithm::automatic, SortAlgorithm::bitonic, SortAlgorithm::bitonic_transpose,
                          SortAlgorithm::odd_even, SortAlgorithm::radix}) {
    if (name == to_string(a)) return a;
  }
  throw Error("unknown sort algorithm '" + std::string(name) +
              "' (expected auto, bitonic, bitonic_transpose, odd_even or radix)");
}

std::size_t key_bytes(KeyType type) {
  switch (type) {
    case KeyType::u32:
    case KeyType::i32:
    case KeyType::f32: return 4;
    default: return 8;
  }
}

std::size_t value_bytes(ValueType type) {
  switch (type) {
    case ValueType::none: return 0;
    case ValueType::u32: return 4;
    case ValueType::u64: return 8;
  }
  return 0;
}

std::uint64_t sort_temporary_bytes(Context& ctx, const SortDesc& desc) { return sorting::temporary_bytes(ctx.info(), desc); }

void record_sort(Context& ctx, VkCommandBuffer commands, const SortDesc& desc, std::uint64_t count,
                 const SortBuffers& buffers) {
  Recorder r(ctx.state(), commands);
  sorting::record(ctx, r, desc, count, buffers);
}

void record_sort_indirect(Context& ctx, VkCommandBuffer commands, const SortDesc& desc, BufferRange count,
                          const SortBuffers& buffers) {
  Recorder r(ctx.state(), commands);
  sorting::record_indirect(ctx, r, desc, count, buffers);
}

void sort(Context& ctx, KeyType type, void* keys, std::uint64_t count, const SortOptions& options) {
  check_count(count);
  if (count == 0) return;
  sort_on_device(ctx, {type, ValueType::none, count, options}, keys, nullptr, false);
}

void sort_pairs(Context& ctx, KeyType key_type, void* keys, ValueType value_type, void* values, std::uint64_t count,
                const SortOptions& options) {
  check_count(count);
  if (count == 0) return;
  if (value_type == ValueType::none) throw Error("sort_pairs needs a value type");
  sort_on_device(ctx, {key_type, value_type, count, options}, keys, values, false);
}

std::vector<std::uint32_t> argsort(Context& ctx, KeyType type, const void* keys, std::uint64_t count,
                                   const SortOptions& options) {
  check_count(count);
  std::vector<std::uint32_t> permutation(count);
  if (count == 0) return permutation;
  const SortOptions stable = sorting::options_for_argsort(options);
  std::vector<std::byte> scratch_keys(count * key_bytes(type));
  std::memcpy(scratch_keys.data(), keys, scratch_keys.size());
  sort_on_device(ctx, {type, ValueType::u32, count, stable}, scratch_keys.data(), permutation.data(), true);
  return permutation;
}

}  // namespace vkc
