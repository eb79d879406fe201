// The host path of the sort functions for arrays that the device takes in one go.
#include "sort/host_sort.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <vector>

#include "core/state.hpp"
#include "core/transfer.hpp"
#include "sort/algorithm.hpp"

namespace vkc::sorting {

HostArray in_place(void* data) {
  return {detail::read_memory(data), detail::write_memory(data), data, data};
}

namespace {

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

}  // namespace

// The keys and values go up and down in the Context's reusable buffers: imported arrays in one
// submission (copies, sort, copies), staged ones through the transfer engine.
void sort_in_core(Context& ctx, const SortDesc& desc, const HostArray& keys, const HostArray* values,
                  bool index_values, std::uint64_t index_base) {
  detail::ContextState& s = ctx.state();
  const std::uint64_t n = desc.max_count;
  const PlannedSort planned = plan_sort(ctx.info(), desc);
  const std::uint64_t sizes[] = {n * key_bytes(desc.key_type), n * value_bytes(desc.value_type)};
  // Keys, values and temporary storage, kept by the Context between calls.
  const std::uint64_t reusable_sizes[] = {sizes[0], sizes[1], kScratchOffset + planned.plan->temporary_bytes()};
  const std::vector<Buffer>& reusable = s.reusable_buffers(reusable_sizes);
  const VkBuffer buffers[] = {reusable[0].handle(), sizes[1] ? reusable[1].handle() : VK_NULL_HANDLE};
  const SortBuffers sort_buffers{{buffers[0]}, {buffers[1]}, {reusable[2].handle()}};
  const HostArray* arrays[] = {&keys, values};
  detail::TransferEngine& engine = s.transfers();
  const auto sort = [&](Recorder& r) {
    if (index_values) record_iota(ctx, r, buffers[1], desc.value_type, n, index_base);
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

namespace {
// Whether sort_in_core takes `count` elements of desc's types (in_core_capacity).
bool fits_in_core(Context& ctx, const SortDesc& desc, std::uint64_t count) {
  const DeviceInfo& info = ctx.info();
  const std::uint64_t per_buffer = detail::largest_buffer_bytes(info);
  if (count > UINT32_MAX) return false;
  SortDesc d = desc;
  d.max_count = count;
  const std::uint64_t keys = count * key_bytes(desc.key_type), values = count * value_bytes(desc.value_type);
  const std::uint64_t temporary = temporary_bytes(info, d);
  return keys <= per_buffer && values <= per_buffer && temporary <= per_buffer &&
         keys + values + temporary <= ctx.state().device_memory_limit();
}
}  // namespace

void report_progress(const SortDesc& desc, std::uint64_t done, std::uint64_t total) {
  if (desc.options.progress) desc.options.progress({done, total});
}

std::uint64_t in_core_capacity(Context& ctx, const SortDesc& desc) {
  std::uint64_t lo = 0, hi = UINT32_MAX;  // fits(lo); the capacity is in [lo, hi]
  if (fits_in_core(ctx, desc, hi)) return hi;
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (fits_in_core(ctx, desc, mid) ? lo : hi) = mid;
  }
  return lo;
}

void sort_host(Context& ctx, const SortDesc& desc, const HostArray& keys, const HostArray* values, bool index_values) {
  if (desc.max_count == 0) return;
  if (fits_in_core(ctx, desc, desc.max_count)) {
    report_progress(desc, 0, desc.max_count);
    sort_in_core(ctx, desc, keys, values, index_values);
    return report_progress(desc, desc.max_count, desc.max_count);
  }
  const std::uint64_t capacity = in_core_capacity(ctx, desc);
  if (capacity == 0) throw Error("the device has no room to sort even one element of this type");
  sort_out_of_core(ctx, desc, keys, values, index_values, capacity);
}

}  // namespace vkc::sorting
