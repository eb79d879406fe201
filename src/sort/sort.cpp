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

// Whether a host sort imports the caller's memory. `automatic` stages: pinning pages costs more
// than several threads copying them (docs/perf-notes.md#host-path).
bool imports_host_memory(const detail::ContextState& s) {
  return s.can_import_host_memory && s.host_transfer.path == HostPath::imported;
}

// The arrays of a host sort imported for the device's copies: all of them, or none.
class ImportedArrays {
 public:
  static constexpr std::size_t kArrays = 2;

  // Imports where each array comes from and goes to; false (keeping nothing) when one cannot be.
  bool import(detail::TransferEngine& engine, std::span<const HostArray* const, kArrays> arrays,
              std::span<const std::uint64_t, kArrays> bytes) {
    for (std::size_t i = 0; i < kArrays; ++i) {
      if (!arrays[i]) continue;
      const HostArray& a = *arrays[i];
      if (a.read && !(in_[i] = pin(engine, a.memory_in, bytes[i]))) return forget();
      if (a.write && a.memory_out == a.memory_in && in_[i]) {
        out_[i] = in_[i];
      } else if (a.write && !(out_[i] = pin(engine, a.memory_out, bytes[i]))) {
        return forget();
      }
    }
    return true;
  }
  const detail::ImportedMemory* in(std::size_t i) const { return in_[i]; }
  const detail::ImportedMemory* out(std::size_t i) const { return out_[i]; }

 private:
  const detail::ImportedMemory* pin(detail::TransferEngine& engine, const void* memory, std::uint64_t bytes) {
    if (!memory) return nullptr;
    owned_.push_back(engine.import(memory, bytes));
    return owned_.back().get();
  }
  bool forget() {
    owned_.clear();
    in_ = {};
    out_ = {};
    return false;
  }
  std::vector<std::unique_ptr<detail::ImportedMemory>> owned_;
  std::array<const detail::ImportedMemory*, kArrays> in_{}, out_{};
};

// Uploads keys (and values, unless `iota_values` numbers them on the device), sorts them with
// `desc` in the Context's reusable buffers, and hands back what is wanted. Imported arrays take
// one submission (copies, sort, copies); staged ones go up and down through the transfer engine.
void sort_on_device(Context& ctx, const SortDesc& desc, const HostArray& keys, const HostArray* values,
                    bool iota_values) {
  detail::ContextState& s = ctx.state();
  const std::uint64_t n = desc.max_count;
  const sorting::PlannedSort planned = sorting::plan_sort(ctx.info(), desc);
  const std::uint64_t sizes[] = {n * key_bytes(desc.key_type), n * value_bytes(desc.value_type)};
  // Keys, values and temporary storage, kept by the Context between calls.
  const std::uint64_t reusable_sizes[] = {sizes[0], sizes[1], kScratchOffset + planned.plan->temporary_bytes()};
  const std::vector<Buffer>& reusable = s.reusable_buffers(reusable_sizes);
  const VkBuffer buffers[] = {reusable[0].handle(), sizes[1] ? reusable[1].handle() : VK_NULL_HANDLE};
  const SortBuffers sort_buffers{{buffers[0]}, {buffers[1]}, {reusable[2].handle()}};
  const HostArray* arrays[] = {&keys, values};
  detail::TransferEngine& engine = s.transfers();
  const auto sort = [&](Recorder& r) {
    if (iota_values) sorting::record_iota(ctx, r, buffers[1], n);
    record_planned(ctx, r, planned, sort_buffers);
  };

  ImportedArrays imported;
  if (imports_host_memory(s) && imported.import(engine, arrays, sizes)) {
    ctx.run([&](Recorder& r) {
      for (std::size_t i = 0; i < 2; ++i) {
        if (const auto* m = imported.in(i)) r.copy_buffer(m->buffer(), buffers[i], {m->offset(), 0, sizes[i]});
      }
      sort(r);
      for (std::size_t i = 0; i < 2; ++i) {
        if (const auto* m = imported.out(i)) r.copy_buffer(buffers[i], m->buffer(), {0, m->offset(), sizes[i]});
      }
    });
    for (std::size_t i = 0; i < 2; ++i) {
      engine.count_imported((imported.in(i) ? sizes[i] : 0) + (imported.out(i) ? sizes[i] : 0));
    }
    return;
  }
  std::vector<detail::UploadPart> up;
  std::vector<detail::DownloadPart> down;
  for (std::size_t i = 0; i < 2; ++i) {
    if (arrays[i] && arrays[i]->read) up.push_back({arrays[i]->read, buffers[i], 0, sizes[i]});
    if (arrays[i] && arrays[i]->write) down.push_back({buffers[i], 0, sizes[i], arrays[i]->write});
  }
  s.uploaded = engine.upload(up);
  ctx.run(sort);
  engine.download(down, s.compute->last());
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
  const Pipeline& p = pipeline(ctx, {.shader = shaders::sort_iota, .specialization = {wg}, .bindings = 1, .push_bytes = 4});
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

void argsort_streamed(Context& ctx, KeyType type, const HostRead& keys_in, const HostWrite& indices_out,
                      std::uint64_t count, const SortOptions& options) {
  check_count(count);
  if (count == 0) return;
  const HostArray indices{{}, indices_out};
  sort_on_device(ctx, {type, ValueType::u32, count, sorting::options_for_argsort(options)}, {keys_in, {}}, &indices,
                 true);
}

}  // namespace vkc
