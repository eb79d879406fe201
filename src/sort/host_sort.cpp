// The host path of the sort functions for arrays that the device takes in one go.
#include "sort/host_sort.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/state.hpp"
#include "core/transfer.hpp"
#include "sort/key_types.hpp"
#include "sort/record.hpp"
#include "sort/workspace.hpp"

namespace vkc::sorting {

HostArray in_place(void* data) { return copied(data, data); }

HostArray copied(const void* from, void* to) {
  return {detail::read_memory(from), detail::write_memory(to), from, to};
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

// Where the arrays of a host sort lie for the device's own copies: in memory the Context pinned
// (PinnedMemory), in the caller's memory imported (HostPath::imported: all of them, or none), or
// nowhere (staged).
class DirectArrays {
 public:
  static constexpr std::size_t kArrays = 2;

  // The arrays, each way, that lie in the Context's pinned memory.
  void find_pinned(const PinnedBlocks& blocks, std::span<const HostArray* const, kArrays> arrays,
                   std::span<const std::uint64_t, kArrays> bytes) {
    for (std::size_t i = 0; i < kArrays; ++i) {
      if (!arrays[i]) continue;
      const HostArray& a = *arrays[i];
      if (a.read && a.memory_in) in_[i] = blocks.find(a.memory_in, bytes[i]);
      if (a.write && a.memory_out) out_[i] = blocks.find(a.memory_out, bytes[i]);
    }
  }

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
  const std::optional<detail::PinnedRange>& in(std::size_t i) const { return in_[i]; }
  const std::optional<detail::PinnedRange>& out(std::size_t i) const { return out_[i]; }
  bool any() const {
    return std::any_of(in_.begin(), in_.end(), [](const auto& r) { return r.has_value(); }) ||
           std::any_of(out_.begin(), out_.end(), [](const auto& r) { return r.has_value(); });
  }

 private:
  std::optional<detail::PinnedRange> pin(detail::TransferEngine& engine, const void* memory, std::uint64_t bytes) {
    if (!memory) return std::nullopt;
    owned_.push_back(engine.import(memory, bytes));
    if (!owned_.back()) return std::nullopt;
    return detail::PinnedRange{owned_.back()->buffer(), owned_.back()->offset()};
  }
  bool forget() {
    owned_.clear();
    in_ = {};
    out_ = {};
    return false;
  }
  std::vector<std::unique_ptr<detail::ImportedMemory>> owned_;
  std::array<std::optional<detail::PinnedRange>, kArrays> in_{}, out_{};
};

}  // namespace

namespace {

// One in-core host sort: the keys and values go up and down in the Context's reusable buffers by
// one of three routes (sort_in_core picks).
class InCoreSort {
 public:
  InCoreSort(Context& ctx, const PlannedSort& planned, const HostArray& keys, const HostArray* values)
      : ctx_(ctx),
        state_(detail::state_of(ctx)),
        engine_(state_.transfers()),
        planned_(planned),
        arrays_{&keys, values},
        sizes_{planned.desc.max_count * key_bytes(planned.desc.key_type),
               planned.desc.max_count * value_bytes(planned.desc.value_type)},
        target_(sort_device(ctx)) {
    // Keys, values and temporary storage, kept by the Context between calls.
    const std::uint64_t reusable_sizes[] = {device_key_bytes(planned.desc.key_type, planned.desc.max_count), sizes_[1],
                                            planned.temporary_bytes()};
    const std::vector<Buffer>& reusable = workspace(ctx).reusable_buffers(reusable_sizes);
    buffers_[0] = reusable[0].handle();
    buffers_[1] = sizes_[1] ? reusable[1].handle() : VK_NULL_HANDLE;
    temporary_ = reusable[2].handle();
  }

  // Argsort: the values are the keys' indices from `first`, made on the device.
  void number_values_from(std::uint64_t first) {
    index_values_ = true;
    index_base_ = first;
  }

  void run() {
    DirectArrays direct;
    if (imports_host_memory(state_)) direct.import(engine_, arrays_, sizes_);
    if (!direct.any() && state_.pinned) direct.find_pinned(*state_.pinned, arrays_, sizes_);
    if (direct.any()) return through(direct);
    // The second array's place in a staging buffer, aligned for the copy.
    const std::uint64_t second = (sizes_[0] + 255) / 256 * 256;
    if (second + sizes_[1] <= std::min(kOneSubmissionBytes, engine_.chunk_bytes())) return in_one_submission(second);
    through(DirectArrays{});
  }

 private:
  bool reads(std::size_t i) const { return arrays_[i] && arrays_[i]->read; }
  bool writes(std::size_t i) const { return arrays_[i] && arrays_[i]->write; }

  void record_sort(Recorder& r) const {
    const SortDesc& desc = planned_.desc;
    if (index_values_) record_iota(target_.device, r, buffers_[1], desc.value_type, desc.max_count, index_base_);
    record_planned(target_, r, planned_, SortBuffers{{buffers_[0]}, {buffers_[1]}, {temporary_}});
  }

  // Larger arrays, and any the device copies directly (pinned or imported): the direct ones move
  // in the sort's own submission, the others through the staging lanes before and after it.
  void through(const DirectArrays& direct) {
    std::vector<detail::UploadPart> up;
    std::vector<detail::DownloadPart> down;
    std::uint64_t direct_bytes = 0;
    for (std::size_t i = 0; i < 2; ++i) {
      if (reads(i) && !direct.in(i)) up.push_back({arrays_[i]->read, buffers_[i], 0, sizes_[i]});
      if (writes(i) && !direct.out(i)) down.push_back({buffers_[i], 0, sizes_[i], arrays_[i]->write});
      direct_bytes += (direct.in(i) ? sizes_[i] : 0) + (direct.out(i) ? sizes_[i] : 0);
    }
    if (!up.empty()) state_.uploaded = engine_.upload(up);
    ctx_.run([&](Recorder& r) {
      for (std::size_t i = 0; i < 2; ++i) {
        if (const auto& m = direct.in(i)) r.copy_buffer(m->buffer, buffers_[i], {m->offset, 0, sizes_[i]});
      }
      record_sort(r);
      for (std::size_t i = 0; i < 2; ++i) {
        if (const auto& m = direct.out(i)) r.copy_buffer(buffers_[i], m->buffer, {0, m->offset, sizes_[i]});
      }
    });
    if (!down.empty()) engine_.download(down, state_.compute->last());
    engine_.count_imported(direct_bytes);
  }

  // Small arrays make the round trip inside the sort's own submission through one staging
  // buffer: one submission and one wait rather than an upload's, the sort's and a download's.
  void in_one_submission(std::uint64_t second) {
    const std::uint64_t offsets[] = {0, second};
    const detail::TransferEngine::Staging staging = engine_.borrow_staging();
    for (std::size_t i = 0; i < 2; ++i) {
      if (reads(i)) arrays_[i]->read(0, staging.mapped + offsets[i], sizes_[i]);
    }
    ctx_.run([&](Recorder& r) {
      for (std::size_t i = 0; i < 2; ++i) {
        if (reads(i)) r.copy_buffer(staging.buffer, buffers_[i], {offsets[i], 0, sizes_[i]});
      }
      record_sort(r);
      for (std::size_t i = 0; i < 2; ++i) {
        if (writes(i)) r.copy_buffer(buffers_[i], staging.buffer, {0, offsets[i], sizes_[i]});
      }
    });
    for (std::size_t i = 0; i < 2; ++i) {
      if (writes(i)) arrays_[i]->write(0, staging.mapped + offsets[i], sizes_[i]);
      engine_.count_staged((reads(i) ? sizes_[i] : 0) + (writes(i) ? sizes_[i] : 0));
    }
  }

  Context& ctx_;
  detail::ContextState& state_;
  detail::TransferEngine& engine_;
  const PlannedSort& planned_;
  const HostArray* arrays_[DirectArrays::kArrays];
  std::uint64_t sizes_[DirectArrays::kArrays];
  const SortDevice target_;
  VkBuffer buffers_[DirectArrays::kArrays]{};
  VkBuffer temporary_ = VK_NULL_HANDLE;
  bool index_values_ = false;
  std::uint64_t index_base_ = 0;
};

}  // namespace

void sort_in_core(Context& ctx, const PlannedSort& planned, const HostArray& keys, const HostArray* values,
                  bool index_values, std::uint64_t index_base) {
  InCoreSort sort(ctx, planned, keys, values);
  if (index_values) sort.number_values_from(index_base);
  sort.run();
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
