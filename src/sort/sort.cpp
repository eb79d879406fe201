// The public sorting API: argument checks, buffers, and the hand-off to an algorithm.
#include "vkc/sort.hpp"

#include <array>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/kernels.hpp"
#include "core/pipeline.hpp"
#include "core/state.hpp"
#include "sort/algorithm.hpp"
#include "sort/host_sort.hpp"
#include "sort/key_types.hpp"

// iota.comp's specialization-constant ids (macros only).
#include "sort_layout.h"

namespace vkc {
namespace {

void check_count(std::uint64_t count) {
  if (count > UINT32_MAX) {
    throw Error("cannot record a sort of " + std::to_string(count) +
                " elements: the GPU-side count is 32 bits (at most 4294967295)");
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
  job.temporary = {b.temporary.buffer, Access::read_write, b.temporary.offset + sorting::kScratchOffset};
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

}  // namespace

namespace sorting {
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

SortOptions options_for_argsort(SortOptions options) {
  if (options.algorithm == SortAlgorithm::automatic && radix_algorithm_available()) {
    options.algorithm = SortAlgorithm::radix;  // argsort promises the stable permutation by default
  }
  return options;
}

void record_iota(Context& ctx, Recorder& r, VkBuffer values, ValueType type, std::uint64_t n, std::uint64_t first) {
  const std::uint32_t wg = streaming_workgroup_size(ctx.info());
  std::vector<std::uint32_t> c(IOTA_CONSTANTS);
  c[SORT_SC_WORKGROUP] = wg;
  c[IOTA_WORDS] = value_words(type);
  const Pipeline& p =
      pipeline(ctx, {.shader = shaders::sort_iota, .specialization = std::move(c), .bindings = 1, .push_bytes = 12});
  const std::uint32_t push[] = {static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(first),
                                static_cast<std::uint32_t>(first >> 32)};
  r.dispatch(p, {{values, Access::write}}, push, groups_for(n, wg));
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
  return sorting::with_key_type(type, [](auto row) { return row.name; });
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
  return sorting::with_key_type(type, [](auto row) { return row.bytes; });
}

std::size_t value_bytes(ValueType type) { return sorting::value_words(type) * 4; }

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
  sorting::sort_host(ctx, {type, ValueType::none, count, options}, sorting::in_place(keys), nullptr, false);
}

void sort_streamed(Context& ctx, KeyType type, const HostRead& keys_in, const HostWrite& keys_out,
                   std::uint64_t count, const SortOptions& options) {
  sorting::sort_host(ctx, {type, ValueType::none, count, options}, {keys_in, keys_out}, nullptr, false);
}

void sort_pairs(Context& ctx, KeyType key_type, void* keys, ValueType value_type, void* values, std::uint64_t count,
                const SortOptions& options) {
  if (value_type == ValueType::none) throw Error("sort_pairs needs a value type");
  const sorting::HostArray value_array = sorting::in_place(values);
  sorting::sort_host(ctx, {key_type, value_type, count, options}, sorting::in_place(keys), &value_array, false);
}

void sort_pairs_streamed(Context& ctx, KeyType key_type, const HostRead& keys_in, const HostWrite& keys_out,
                         ValueType value_type, const HostRead& values_in, const HostWrite& values_out,
                         std::uint64_t count, const SortOptions& options) {
  if (value_type == ValueType::none) throw Error("sort_pairs needs a value type");
  const sorting::HostArray value_array{values_in, values_out};
  sorting::sort_host(ctx, {key_type, value_type, count, options}, {keys_in, keys_out}, &value_array, false);
}

namespace {
// argsort's one path: the keys go up only (their sorted order is not wanted back), the indices,
// of `index_type`, are made on the device or, out of core, on the host, and come back.
void sort_indices(Context& ctx, KeyType type, const HostRead& keys_in, const void* keys_memory,
                  const HostWrite& indices_out, void* indices_memory, ValueType index_type, std::uint64_t count,
                  const SortOptions& options) {
  const sorting::HostArray keys{keys_in, {}, keys_memory, nullptr};
  const sorting::HostArray indices{{}, indices_out, nullptr, indices_memory};
  sorting::sort_host(ctx, {type, index_type, count, sorting::options_for_argsort(options)}, keys, &indices, true);
}

void check_32_bit_indices(std::uint64_t count) {
  if (count > UINT32_MAX) {
    throw Error("argsort of " + std::to_string(count) +
                " keys: more than 32-bit indices can number (use argsort64, which gives 64-bit ones)");
  }
}
}  // namespace

std::vector<std::uint32_t> argsort(Context& ctx, KeyType type, const void* keys, std::uint64_t count,
                                   const SortOptions& options) {
  check_32_bit_indices(count);
  std::vector<std::uint32_t> permutation(count);
  sort_indices(ctx, type, detail::read_memory(keys), keys, detail::write_memory(permutation.data()),
               permutation.data(), ValueType::u32, count, options);
  return permutation;
}

std::vector<std::uint64_t> argsort64(Context& ctx, KeyType type, const void* keys, std::uint64_t count,
                                     const SortOptions& options) {
  std::vector<std::uint64_t> permutation(count);
  sort_indices(ctx, type, detail::read_memory(keys), keys, detail::write_memory(permutation.data()),
               permutation.data(), ValueType::u64, count, options);
  return permutation;
}

void argsort_streamed(Context& ctx, KeyType type, const HostRead& keys_in, const HostWrite& indices_out,
                      std::uint64_t count, const SortOptions& options) {
  check_32_bit_indices(count);
  sort_indices(ctx, type, keys_in, nullptr, indices_out, nullptr, ValueType::u32, count, options);
}

void argsort64_streamed(Context& ctx, KeyType type, const HostRead& keys_in, const HostWrite& indices_out,
                        std::uint64_t count, const SortOptions& options) {
  sort_indices(ctx, type, keys_in, nullptr, indices_out, nullptr, ValueType::u64, count, options);
}

}  // namespace vkc
