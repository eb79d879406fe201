// The public sorting API: argument checks, buffers, and the hand-off to an algorithm.
#include "vkc/sort.hpp"

#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/kernels.hpp"
#include "core/pipeline.hpp"
#include "core/state.hpp"
#include "core/transfer.hpp"
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

// One array of a host sort: where it comes from and where it goes. `memory_in` and `memory_out`
// are set when it is plain memory, which the imported path may pin instead of staging.
struct HostArray {
  HostRead read;
  HostWrite write;  // empty: not wanted back (argsort's keys)
  const void* memory_in = nullptr;
  void* memory_out = nullptr;
};

HostArray in_place(void* data) {
  return {detail::read_memory(data), detail::write_memory(data), data, data};
}

// The reusable device buffers of the host sort functions (ContextState::reusable_buffer).
enum ReusableSlot : std::size_t { kKeySlot, kValueSlot, kTemporarySlot };

// The imports of one host sort: the caller's arrays pinned for the device's copies, where the
// path asks for it and the memory allows (else staged).
class Imports {
 public:
  Imports(detail::ContextState& s, std::uint64_t bytes, const HostArray& array) {
    const HostPath path = s.host_transfer.path;
    if (path != HostPath::imported || !s.can_import_host_memory) return;
    detail::TransferEngine& engine = s.transfers();
    if (array.memory_in) in_ = engine.import(array.memory_in, bytes);
    if (array.memory_out && array.memory_out == array.memory_in) {
      out_ = in_.get();
    } else if (array.memory_out) {
      owned_out_ = engine.import(array.memory_out, bytes);
      out_ = owned_out_.get();
    }
  }
  const detail::ImportedMemory* in() const { return in_.get(); }
  const detail::ImportedMemory* out() const { return out_; }

 private:
  std::unique_ptr<detail::ImportedMemory> in_, owned_out_;
  const detail::ImportedMemory* out_ = nullptr;
};

// Sends every array up, imported ones by one device copy each, the rest through staging.
// Returns the point at which all have landed.
detail::TimelinePoint send(detail::TransferEngine& engine, std::span<const HostArray* const> arrays,
                           std::span<const Imports* const> imports, std::span<const VkBuffer> buffers,
                           std::span<const std::uint64_t> bytes) {
  std::vector<detail::UploadPart> staged;
  detail::TimelinePoint last;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    if (!arrays[i]) continue;
    if (const detail::ImportedMemory* m = imports[i]->in()) {
      last = engine.copy(m->buffer(), m->offset(), buffers[i], 0, bytes[i], {}, false);
    } else {
      staged.push_back({arrays[i]->read, buffers[i], 0, bytes[i]});
    }
  }
  if (!staged.empty()) last = engine.upload(staged);
  return last;  // the latest submission: it covers the earlier ones on the queue
}

// Brings every wanted array back once `after` is reached; returns when all are in place.
void receive(detail::TransferEngine& engine, std::span<const HostArray* const> arrays,
             std::span<const Imports* const> imports, std::span<const VkBuffer> buffers,
             std::span<const std::uint64_t> bytes, detail::TimelinePoint after) {
  std::vector<detail::DownloadPart> staged;
  detail::TimelinePoint copied;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    if (!arrays[i] || !arrays[i]->write) continue;
    if (const detail::ImportedMemory* m = imports[i]->out()) {
      copied = engine.copy(buffers[i], 0, m->buffer(), m->offset(), bytes[i], after, true);
    } else {
      staged.push_back({buffers[i], 0, bytes[i], arrays[i]->write});
    }
  }
  if (!staged.empty()) engine.download(staged, after);
  engine.queue().wait(copied);
}

// Uploads keys (and values, unless `iota_values` numbers them on the device), sorts them with
// `desc` in the Context's reusable buffers, and downloads what is wanted back.
void sort_on_device(Context& ctx, const SortDesc& desc, const HostArray& keys, const HostArray* values,
                    bool iota_values) {
  detail::ContextState& s = ctx.state();
  const std::uint64_t n = desc.max_count;
  const sorting::PlannedSort planned = sorting::plan_sort(ctx.info(), desc);
  const std::uint64_t key_size = n * key_bytes(desc.key_type);
  const std::uint64_t value_size = n * value_bytes(desc.value_type);
  const VkBuffer key_buffer = s.reusable_buffer(kKeySlot, key_size).handle();
  const VkBuffer value_buffer =
      desc.value_type != ValueType::none ? s.reusable_buffer(kValueSlot, value_size).handle() : VK_NULL_HANDLE;
  const Buffer& temporary = s.reusable_buffer(kTemporarySlot, kScratchOffset + planned.plan->temporary_bytes());
  const Imports key_imports(s, key_size, keys);
  const Imports value_imports(s, value_size, values ? *values : HostArray{});
  const HostArray* arrays[] = {&keys, iota_values ? nullptr : values};
  const Imports* imports[] = {&key_imports, &value_imports};
  const VkBuffer buffers[] = {key_buffer, value_buffer};
  const std::uint64_t sizes[] = {key_size, value_size};
  detail::TransferEngine& engine = s.transfers();
  s.uploaded = send(engine, arrays, imports, buffers, sizes);
  const SortBuffers sort_buffers{{key_buffer}, {value_buffer}, {temporary.handle()}};
  ctx.run([&](Recorder& r) {
    if (iota_values) sorting::record_iota(ctx, r, value_buffer, n);
    record_planned(ctx, r, planned, sort_buffers);
  });
  arrays[1] = values;
  receive(engine, arrays, imports, buffers, sizes, s.compute->last());
}

}  // namespace

namespace sorting {
SortOptions options_for_argsort(SortOptions options) {
  if (options.algorithm == SortAlgorithm::automatic && radix_algorithm_available()) {
    options.algorithm = SortAlgorithm::radix;  // argsort promises the stable permutation by default
  }
  return options;
}

void record_iota(Context& ctx, Recorder& r, VkBuffer values, std::uint64_t n) {
  const std::uint32_t wg = streaming_workgroup_size(ctx.info());
  const Pipeline& p = pipeline(ctx, {.shader = "sort/iota", .specialization = {wg}, .bindings = 1, .push_bytes = 4});
  const std::uint32_t count = static_cast<std::uint32_t>(n);
  r.dispatch(p, {{values, Access::write}}, count, groups_for(n, wg));
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
  sort_on_device(ctx, {type, ValueType::none, count, options}, in_place(keys), nullptr, false);
}

void sort_streamed(Context& ctx, KeyType type, const HostRead& keys_in, const HostWrite& keys_out,
                   std::uint64_t count, const SortOptions& options) {
  check_count(count);
  if (count == 0) return;
  sort_on_device(ctx, {type, ValueType::none, count, options}, {keys_in, keys_out}, nullptr, false);
}

void sort_pairs(Context& ctx, KeyType key_type, void* keys, ValueType value_type, void* values, std::uint64_t count,
                const SortOptions& options) {
  check_count(count);
  if (count == 0) return;
  if (value_type == ValueType::none) throw Error("sort_pairs needs a value type");
  const HostArray value_array = in_place(values);
  sort_on_device(ctx, {key_type, value_type, count, options}, in_place(keys), &value_array, false);
}

void sort_pairs_streamed(Context& ctx, KeyType key_type, const HostRead& keys_in, const HostWrite& keys_out,
                         ValueType value_type, const HostRead& values_in, const HostWrite& values_out,
                         std::uint64_t count, const SortOptions& options) {
  check_count(count);
  if (count == 0) return;
  if (value_type == ValueType::none) throw Error("sort_pairs needs a value type");
  const HostArray value_array{values_in, values_out};
  sort_on_device(ctx, {key_type, value_type, count, options}, {keys_in, keys_out}, &value_array, false);
}

std::vector<std::uint32_t> argsort(Context& ctx, KeyType type, const void* keys, std::uint64_t count,
                                   const SortOptions& options) {
  check_count(count);
  std::vector<std::uint32_t> permutation(count);
  if (count == 0) return permutation;
  const SortOptions stable = sorting::options_for_argsort(options);
  // The keys go up only: their sorted order is not wanted back.
  const HostArray key_array{detail::read_memory(keys), {}, keys, nullptr};
  const HostArray indices{{}, detail::write_memory(permutation.data()), nullptr, permutation.data()};
  sort_on_device(ctx, {type, ValueType::u32, count, stable}, key_array, &indices, true);
  return permutation;
}

}  // namespace vkc
