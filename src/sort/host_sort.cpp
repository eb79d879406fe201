// The host path of the sort functions for arrays that the device takes in one go.
#include "sort/host_sort.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <vector>

#include "core/state.hpp"
#include "core/transfer.hpp"
#include "sort/record.hpp"
#include "sort/workspace.hpp"

namespace vkc::sorting {

HostArray in_place(void* data) {
  return {detail::read_memory(data), detail::write_memory(data), data, data};
}

namespace {

// Up to this many bytes of keys and values, a host sort copies them on one thread and runs in one
// submission; above, the lanes' copies overlap the device's (docs/perf-notes.md#host-path).
constexpr std::uint64_t kOneSubmissionBytes = std::uint64_t{64} << 10;

// Whether a host sort imports the caller's memory. `automatic` stages: pinning pages costs more
// than several threads copying them (docs/perf-notes.md#host-path).
bool imports_host_memory(const detail::ContextState& s) {
  return s.device().can_import_host_memory && s.host_transfer.path == HostPath::imported;
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

}  // namespace

// The keys and values go up and down in the Context's reusable buffers: imported arrays in one
// submission (copies, sort, copies), staged ones through the transfer engine.
void sort_in_core(Context& ctx, const PlannedSort& planned, const HostArray& keys, const HostArray* values,
                  bool index_values, std::uint64_t index_base) {
  detail::ContextState& s = detail::state_of(ctx);
  const SortDesc& desc = planned.desc;
  const std::uint64_t n = desc.max_count;
  const std::uint64_t sizes[] = {n * key_bytes(desc.key_type), n * value_bytes(desc.value_type)};
  // Keys, values and temporary storage, kept by the Context between calls.
  const std::uint64_t reusable_sizes[] = {sizes[0], sizes[1], planned.temporary_bytes()};
  SortWorkspace& space = workspace(ctx);
  const std::vector<Buffer>& reusable = space.reusable_buffers(reusable_sizes);
  const SortDevice target = space.target();
  const VkBuffer buffers[] = {reusable[0].handle(), sizes[1] ? reusable[1].handle() : VK_NULL_HANDLE};
  const SortBuffers sort_buffers{{buffers[0]}, {buffers[1]}, {reusable[2].handle()}};
  const HostArray* arrays[] = {&keys, values};
  detail::TransferEngine& engine = s.transfers();
  const auto sort = [&](Recorder& r) {
    if (index_values) record_iota(target.device, r, buffers[1], desc.value_type, n, index_base);
    record_planned(target, r, planned, sort_buffers);
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
  // Small arrays make the round trip inside the sort's own submission through one staging
  // buffer: one submission and one wait rather than an upload's, the sort's and a download's.
  const std::uint64_t offsets[] = {0, (sizes[0] + 255) / 256 * 256};
  if (offsets[1] + sizes[1] <= std::min(kOneSubmissionBytes, engine.chunk_bytes())) {
    const detail::TransferEngine::Staging staging = engine.borrow_staging();
    for (std::size_t i = 0; i < 2; ++i) {
      if (arrays[i] && arrays[i]->read) arrays[i]->read(0, staging.mapped + offsets[i], sizes[i]);
    }
    ctx.run([&](Recorder& r) {
      for (std::size_t i = 0; i < 2; ++i) {
        if (arrays[i] && arrays[i]->read) r.copy_buffer(staging.buffer, buffers[i], {offsets[i], 0, sizes[i]});
      }
      sort(r);
      for (std::size_t i = 0; i < 2; ++i) {
        if (arrays[i] && arrays[i]->write) r.copy_buffer(buffers[i], staging.buffer, {0, offsets[i], sizes[i]});
      }
    });
    for (std::size_t i = 0; i < 2; ++i) {
      if (!arrays[i]) continue;
      if (arrays[i]->write) arrays[i]->write(0, staging.mapped + offsets[i], sizes[i]);
      engine.count_staged((arrays[i]->read ? sizes[i] : 0) + (arrays[i]->write ? sizes[i] : 0));
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

namespace {
// Whether the device takes the planned sort in one go: every buffer within the device's
// storage-range and allocation limits, all of them within the Context's device memory limit.
bool fits_in_core(Context& ctx, const PlannedSort& planned) {
  const DeviceInfo& info = ctx.info();
  const std::uint64_t per_buffer = detail::largest_buffer_bytes(info);
  const DeviceBytes bytes = device_bytes(info, *planned.algorithm, planned.desc);
  return planned.desc.max_count <= UINT32_MAX && bytes.keys <= per_buffer && bytes.values <= per_buffer &&
         bytes.temporary <= per_buffer && bytes.total() <= detail::state_of(ctx).device_memory_limit();
}
}  // namespace

void report_progress(const SortDesc& desc, std::uint64_t done, std::uint64_t total) {
  if (desc.options.progress) desc.options.progress({done, total});
}

std::uint64_t in_core_capacity(Context& ctx, const SortDesc& desc) {
  return sorting::in_core_capacity(ctx.info(), desc, detail::state_of(ctx).device_memory_limit());
}

// The sort is planned once: whether it fits is read from the plan's closed form, and the plan
// records it. Only counts past 32 bits, which no plan takes, go straight out of core.
void sort_host(Context& ctx, const SortDesc& desc, const HostArray& keys, const HostArray* values, bool index_values) {
  if (desc.max_count == 0) return;
  if (desc.max_count <= UINT32_MAX) {
    const PlannedSort planned = plan_sort(ctx.info(), desc);
    if (fits_in_core(ctx, planned)) {
      report_progress(desc, 0, desc.max_count);
      sort_in_core(ctx, planned, keys, values, index_values);
      return report_progress(desc, desc.max_count, desc.max_count);
    }
  }
  // `automatic` resolved once for the whole array, so that every run and part is sorted as the
  // array would be in memory (a part small enough for bitonic must not lose radix's stability).
  const SortDesc whole = with_algorithm_chosen(ctx.info(), desc);
  const std::uint64_t capacity = in_core_capacity(ctx, whole);
  if (capacity == 0) throw Error("the device has no room to sort even one element of this type");
  sort_out_of_core(ctx, whole, keys, values, index_values, capacity);
}

}  // namespace vkc::sorting
