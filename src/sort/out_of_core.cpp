// Host arrays longer than the device sorts at once (host_sort.hpp). The array is sorted in runs
// of what the device takes; samples of the runs then cut their merged order into parts that fit
// again (run_parts.hpp), and each part, gathered from every run, is sorted and written to its
// place in the output. Where all the runs fit the device memory limit together they stay on the
// device, so that every byte crosses the bus once each way; else they wait in host memory.
#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/loader.hpp"
#include "core/kernels.hpp"
#include "core/pipeline.hpp"
#include "core/state.hpp"
#include "core/submissions.hpp"
#include "core/transfer.hpp"
#include "core/worker_pool.hpp"
#include "sort/host_sort.hpp"
#include "sort/key_bits.hpp"
#include "sort/record.hpp"
#include "sort/run_parts.hpp"
#include "sort/workspace.hpp"

// run_search.comp's specialization-constant ids (macros only).
#include "sort_layout.h"

namespace vkc::sorting {
using namespace vk;
namespace {

// The most runs kept on the device: the samples grow with their square (sample_stride).
constexpr std::uint64_t kMaxDeviceRuns = 256;
// What a host thread copies at a time where parts already in order go straight to the output.
constexpr std::uint64_t kCopySlice = std::uint64_t{8} << 20;

// A key's place in the sort's order as an unsigned integer: the sort gives keys in the unsigned
// order of these bits, and the run search shader compares the same bits.
template <class Bits>
struct Ordering {
  KeyBits<Bits> bits;
  bool descending = false;
  std::uint64_t operator()(Bits key) const { return bits.rank(bits.canonical(key), descending); }
};

// Elements [first, first + count) of an array.
struct Span {
  std::uint64_t first = 0, count = 0;
};

// Runs of at most `capacity` elements, as equal as they can be.
std::vector<Span> cut_runs(std::uint64_t n, std::uint64_t capacity) {
  const std::uint64_t runs = (n + capacity - 1) / capacity;
  std::vector<Span> out;
  for (std::uint64_t r = 0; r < runs; ++r) out.push_back({n * r / runs, n * (r + 1) / runs - n * r / runs});
  return out;
}

// One part of the merged order: its elements in each run, and where they go in the output.
struct Part {
  std::vector<Span> pieces;  // one a run, `first` counted from the run's start
  Span output;
  bool equal_keys = false;

  // The run that holds all of the part, or pieces.size() where several do.
  std::size_t only_run() const {
    const auto nonempty = [](const Span& p) { return p.count > 0; };
    const auto first = std::find_if(pieces.begin(), pieces.end(), nonempty);
    return std::find_if(first + 1, pieces.end(), nonempty) == pieces.end() ? first - pieces.begin() : pieces.size();
  }
  // Already in its final order: one key, or one run's elements.
  bool in_order() const { return equal_keys || only_run() < pieces.size(); }
};

// The boundaries between the cuts, in order: cut i lies between boundaries i and i + 1.
std::vector<Boundary> boundaries_of(const std::vector<PartCut>& cuts) {
  std::vector<Boundary> out{cuts.front().from};
  for (const PartCut& c : cuts) out.push_back(c.to);
  return out;
}

// The parts from where every boundary falls in every run: positions[run][boundary].
std::vector<Part> locate_parts(const std::vector<PartCut>& cuts,
                               const std::vector<std::vector<std::uint64_t>>& positions) {
  std::vector<Part> parts;
  std::uint64_t at = 0;
  for (std::size_t c = 0; c < cuts.size(); ++c) {
    Part part{.output = {at, 0}, .equal_keys = cuts[c].equal_keys};
    for (const std::vector<std::uint64_t>& run : positions) {
      part.pieces.push_back({run[c], run[c + 1] - run[c]});
      part.output.count += run[c + 1] - run[c];
    }
    at += part.output.count;
    if (part.output.count) parts.push_back(std::move(part));
  }
  return parts;
}

HostRead shifted(const HostRead& read, std::uint64_t by) {
  return [read, by](std::uint64_t offset, void* dst, std::uint64_t bytes) { read(by + offset, dst, bytes); };
}

HostWrite shifted(const HostWrite& write, std::uint64_t by) {
  return [write, by](std::uint64_t offset, const void* src, std::uint64_t bytes) { write(by + offset, src, bytes); };
}

const void* offset_by(const void* memory, std::uint64_t bytes) {
  return memory ? static_cast<const std::byte*>(memory) + bytes : nullptr;
}

void* offset_by(void* memory, std::uint64_t bytes) { return memory ? static_cast<std::byte*>(memory) + bytes : nullptr; }

class LargeSort {
 public:
  LargeSort(Context& ctx, const SortDesc& desc, const HostArray& keys, const HostArray* values, bool index_values)
      : ctx_(ctx),
        desc_(desc),
        keys_(keys),
        values_(values),
        index_values_(index_values),
        key_bytes_(key_bytes(desc.key_type)),
        value_bytes_(value_bytes(desc.value_type)) {}

  // Sorts with the runs kept on the device, where they fit its memory limit (and the device
  // gives that memory); false, having done nothing, where they do not.
  bool sort_on_device(std::uint64_t capacity) {
    const std::uint64_t run_capacity = device_run_capacity(capacity);
    if (!run_capacity) return false;
    const std::vector<Span> runs = cut_runs(count(), run_capacity);
    const std::uint64_t part_capacity = (count() + runs.size() - 1) / runs.size();  // the longest run
    DeviceArrays arrays;
    try {
      arrays = device_arrays(runs, part_capacity);
    } catch (const Error&) {
      return false;  // the limit promised memory that the device did not give
    }
    with_key_bits(desc_.key_type, desc_.options, [&](auto bits) { on_device(bits, runs, arrays, part_capacity); });
    return true;
  }
  void sort_through_host(std::uint64_t capacity) {
    with_key_bits(desc_.key_type, desc_.options, [&](auto bits) { through_host(bits, capacity); });
  }

 private:
  std::uint64_t count() const { return desc_.max_count; }
  std::uint64_t element_bytes() const { return key_bytes_ + value_bytes_; }
  bool has_values() const { return values_ != nullptr; }

  // Device memory for runs of at most `run_capacity`: the runs, two part buffers of the longest
  // run (one filled while the other goes down), the sort's temporary storage and the samples.
  // (The cut's boundaries and their positions in the runs, a few KiB, are left out.)
  std::uint64_t device_bytes(std::uint64_t run_capacity) const {
    const std::uint64_t runs = (count() + run_capacity - 1) / run_capacity;
    const std::uint64_t part = (count() + runs - 1) / runs;
    const std::uint64_t samples = count() / sample_stride(part, std::min(runs, part)) + runs;
    return (count() + 2 * part) * element_bytes() + sorting::device_bytes(ctx_.info(), desc_of(part)).temporary +
           samples * key_bytes_;
  }

  // The most elements a run may hold for the runs to stay on the device, within `capacity`
  // (what one in-core sort takes); 0 where they cannot. The fewest runs win: fewer, longer runs
  // need more memory (the samples, which shrink, aside), so each count of runs is tried in turn.
  std::uint64_t device_run_capacity(std::uint64_t capacity) const {
    const std::uint64_t limit = detail::state_of(ctx_).device_memory_limit();
    for (std::uint64_t runs = (count() + capacity - 1) / capacity; runs <= kMaxDeviceRuns; ++runs) {
      const std::uint64_t run = (count() + runs - 1) / runs;
      if (runs <= run && device_bytes(run) <= limit) return run;
    }
    return 0;
  }

  SortDesc desc_of(std::uint64_t n) const {
    SortDesc d = desc_;
    d.max_count = n;
    d.options.progress = nullptr;
    return d;
  }

  void progress(std::uint64_t done) const { report_progress(desc_, done, 2 * count()); }

  // ---- Runs on the device ----

  struct DeviceArrays {
    std::vector<VkBuffer> run_keys, run_values;  // values: null where the sort has none
    VkBuffer part_keys[2]{}, part_values[2]{};
    VkBuffer temporary = VK_NULL_HANDLE;
  };

  template <class Bits>
  void on_device(KeyBits<Bits> bits, const std::vector<Span>& runs, DeviceArrays& arrays,
                 std::uint64_t part_capacity) {
    detail::Submissions submissions(detail::state_of(ctx_));
    progress(0);
    sort_runs_on_device(runs, arrays, submissions);
    const Ordering<Bits> order{bits, desc_.options.order == SortOrder::descending};
    const std::vector<RunSample> samples = sample_device_runs<Bits>(runs, arrays, submissions, part_capacity, order);
    const std::vector<PartCut> cuts = cut_parts(samples, part_capacity);
    const std::vector<Part> parts = locate_parts(cuts, search_device_runs(runs, arrays, submissions, cuts));
    write_parts_from_device(parts, arrays, submissions);
  }

  // The runs' and parts' buffers, which the Context keeps for the next sort as it keeps an
  // in-core sort's: slots 0-2 (a part's keys and values, the temporary storage) are those an
  // in-core sort uses.
  DeviceArrays device_arrays(const std::vector<Span>& runs, std::uint64_t part_capacity) const {
    const std::uint64_t part_keys = device_key_bytes(desc_.key_type, part_capacity);
    const std::uint64_t part_values = part_capacity * value_bytes_;
    std::vector<std::uint64_t> sizes = {part_keys, part_values,
                                        sorting::device_bytes(ctx_.info(), desc_of(part_capacity)).temporary,
                                        part_keys, part_values};
    for (const Span& run : runs) {
      sizes.insert(sizes.end(), {device_key_bytes(desc_.key_type, run.count), run.count * value_bytes_});
    }
    const std::vector<Buffer>& b = workspace(ctx_).reusable_buffers(sizes);
    const auto values = [&](std::size_t slot) { return has_values() ? b[slot].handle() : VK_NULL_HANDLE; };
    DeviceArrays a{.part_keys = {b[0].handle(), b[3].handle()}, .part_values = {values(1), values(4)},
                   .temporary = b[2].handle()};
    for (std::size_t i = 0; i < runs.size(); ++i) {
      a.run_keys.push_back(b[5 + 2 * i].handle());
      a.run_values.push_back(values(6 + 2 * i));
    }
    return a;
  }

  // Records the sort of `n` elements in `keys` and `values`, in place.
  void record_sort(Recorder& r, std::uint64_t n, VkBuffer keys, VkBuffer values, VkBuffer temporary) const {
    record_planned(sort_device(ctx_), r, plan_sort(ctx_.info(), desc_of(n)), SortBuffers{{keys}, {values}, {temporary}});
  }

  // Each run goes up while the one before it sorts.
  void sort_runs_on_device(const std::vector<Span>& runs, DeviceArrays& a, detail::Submissions& submissions) {
    detail::TransferEngine& engine = detail::state_of(ctx_).transfers();
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const Span run = runs[i];
      std::vector<detail::UploadPart> up{
          {shifted(keys_.read, run.first * key_bytes_), a.run_keys[i], 0, run.count * key_bytes_}};
      if (has_values() && !index_values_) {
        up.push_back({shifted(values_->read, run.first * value_bytes_), a.run_values[i], 0,
                      run.count * value_bytes_});
      }
      const detail::TimelinePoint landed = engine.upload(up);
      submissions.submit(landed, [&](Recorder& r) {
        if (index_values_) record_iota(detail::compute_device(ctx_), r, a.run_values[i], desc_.value_type, run.count, run.first);
        record_sort(r, run.count, a.run_keys[i], a.run_values[i], a.temporary);
      });
      progress(run.first + run.count);
    }
  }

  template <class Bits>
  std::vector<RunSample> sample_device_runs(const std::vector<Span>& runs, const DeviceArrays& a,
                                            detail::Submissions& submissions, std::uint64_t capacity,
                                            const Ordering<Bits>& order) {
    const std::uint64_t stride = sample_stride(capacity, runs.size());
    std::vector<RunSample> samples(runs.size());
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      samples[i] = {runs[i].count, stride, {}};
      total += (runs[i].count + stride - 1) / stride;
    }
    const Buffer gathered = detail::create_device_buffer(detail::state_of(ctx_).device(), total * sizeof(Bits));
    const detail::TimelinePoint copied = submissions.submit({}, [&](Recorder& r) {
      std::uint64_t at = 0;
      for (std::size_t i = 0; i < runs.size(); ++i) {
        std::vector<VkBufferCopy> regions;
        for (std::uint64_t p = 0; p < runs[i].count; p += stride, at += sizeof(Bits)) {
          regions.push_back({p * sizeof(Bits), at, sizeof(Bits)});
        }
        vkCmdCopyBuffer(r.commands(), a.run_keys[i], gathered.handle(), static_cast<std::uint32_t>(regions.size()),
                        regions.data());
      }
    });
    std::vector<Bits> keys(total);
    const detail::DownloadPart down{gathered.handle(), 0, total * sizeof(Bits), detail::write_memory(keys.data())};
    detail::state_of(ctx_).transfers().download({&down, 1}, copied);
    std::size_t k = 0;
    for (RunSample& sample : samples) {
      for (std::uint64_t p = 0; p < sample.count; p += stride) sample.keys.push_back(order(keys[k++]));
    }
    return samples;
  }

  // positions[run][boundary], searched on the device.
  std::vector<std::vector<std::uint64_t>> search_device_runs(const std::vector<Span>& runs, const DeviceArrays& a,
                                                             detail::Submissions& submissions,
                                                             const std::vector<PartCut>& cuts) {
    const std::vector<Boundary> boundaries = boundaries_of(cuts);
    std::vector<std::uint32_t> queries;
    for (const Boundary& b : boundaries) {
      queries.insert(queries.end(), {static_cast<std::uint32_t>(b.key), static_cast<std::uint32_t>(b.key >> 32),
                                     b.kind == Boundary::Kind::after ? 1u : 0u, 0u});
    }
    const std::uint64_t q = boundaries.size();
    const Buffer query_buffer = detail::create_device_buffer(detail::state_of(ctx_).device(), q * 16);
    const Buffer found = detail::create_device_buffer(detail::state_of(ctx_).device(), runs.size() * q * 4);
    detail::TransferEngine& engine = detail::state_of(ctx_).transfers();
    const detail::UploadPart up{detail::read_memory(queries.data()), query_buffer.handle(), 0, q * 16};
    const std::uint32_t wg = streaming_workgroup_size(ctx_.info());
    std::vector<std::uint32_t> c(RUN_SEARCH_CONSTANTS);
    c[SORT_SC_WORKGROUP] = wg;
    c[RUN_SEARCH_KEY_WORDS] = key_words(desc_.key_type);
    c[RUN_SEARCH_KEY_KIND] = key_kind(desc_.key_type);
    c[RUN_SEARCH_DESCENDING] = desc_.options.order == SortOrder::descending;
    with_key_type(desc_.key_type, [&](auto row) {
      c[RUN_SEARCH_KEY_BITS] = row.narrow ? row.width : 32;
      c[RUN_SEARCH_EXPONENT] = row.narrow ? static_cast<std::uint32_t>(row.exponent) : 0;
    });
    const RangeWords range = range_words(desc_.key_type, desc_.options);
    const Pipeline& search = pipeline(ctx_, {.shader = shaders::sort_run_search,
                                             .specialization = std::move(c),
                                             .bindings = 3,
                                             .push_bytes = 20});
    const detail::TimelinePoint searched = submissions.submit(engine.upload({&up, 1}), [&](Recorder& r) {
      for (std::size_t i = 0; i < runs.size(); ++i) {
        const std::uint32_t push[] = {static_cast<std::uint32_t>(runs[i].count), static_cast<std::uint32_t>(q),
                                      static_cast<std::uint32_t>(i * q), range.low, range.high};
        r.dispatch(search, {{a.run_keys[i], Access::read}, reads(query_buffer), writes(found)}, push, groups_for(q, wg));
      }
    });
    std::vector<std::uint32_t> words(runs.size() * q);
    const detail::DownloadPart down{found.handle(), 0, words.size() * 4, detail::write_memory(words.data())};
    engine.download({&down, 1}, searched);
    std::vector<std::vector<std::uint64_t>> positions(runs.size(), std::vector<std::uint64_t>(q));
    for (std::size_t i = 0; i < runs.size(); ++i) {
      for (std::size_t b = 0; b < q; ++b) {
        const Boundary::Kind kind = boundaries[b].kind;
        positions[i][b] = kind == Boundary::Kind::start ? 0
                          : kind == Boundary::Kind::end ? runs[i].count
                                                        : words[i * q + b];
      }
    }
    return positions;
  }

  // Each part is gathered from the runs and sorted (where not already in order) while the one
  // before it goes down.
  void write_parts_from_device(const std::vector<Part>& parts, const DeviceArrays& a, detail::Submissions& submissions) {
    detail::ContextState& s = detail::state_of(ctx_);
    std::vector<detail::DownloadPart> pending;
    detail::TimelinePoint pending_ready;
    const auto flush = [&] {
      s.transfers().download(pending, pending_ready);
      pending.clear();
    };
    for (std::size_t p = 0; p < parts.size(); ++p) {
      const Part& part = parts[p];
      std::vector<detail::DownloadPart> down;
      detail::TimelinePoint ready = s.compute->last();
      if (part.in_order()) {
        add_downloads_from_runs(down, part, a);
      } else {
        const int slot = static_cast<int>(p % 2);
        ready = submissions.submit(s.transfer_queue().last(), [&](Recorder& r) {
          gather(r, part, a, slot);
          record_sort(r, part.output.count, a.part_keys[slot], a.part_values[slot], a.temporary);
        });
        add_downloads(down, part.output, a.part_keys[slot], a.part_values[slot], 0);
      }
      if (!pending.empty()) flush();
      pending = std::move(down);
      pending_ready = ready;
      progress(count() + part.output.first);
    }
    if (!pending.empty()) flush();
    progress(2 * count());
  }

  void gather(Recorder& r, const Part& part, const DeviceArrays& a, int slot) const {
    std::uint64_t at = 0;
    for (std::size_t i = 0; i < part.pieces.size(); ++i) {
      const Span piece = part.pieces[i];
      if (!piece.count) continue;
      r.copy_buffer(a.run_keys[i], a.part_keys[slot],
                    {piece.first * key_bytes_, at * key_bytes_, piece.count * key_bytes_});
      if (has_values()) {
        r.copy_buffer(a.run_values[i], a.part_values[slot],
                      {piece.first * value_bytes_, at * value_bytes_, piece.count * value_bytes_});
      }
      at += piece.count;
    }
  }

  // The downloads of `out.count` keys and values that start at element `from` of the buffers
  // and go to `out.first` of the output.
  void add_downloads(std::vector<detail::DownloadPart>& down, Span out, VkBuffer keys, VkBuffer values,
                     std::uint64_t from) const {
    if (keys_.write) {
      down.push_back({keys, from * key_bytes_, out.count * key_bytes_, shifted(keys_.write, out.first * key_bytes_)});
    }
    if (has_values() && values_->write) {
      down.push_back({values, from * value_bytes_, out.count * value_bytes_,
                      shifted(values_->write, out.first * value_bytes_)});
    }
  }

  // A part already in order goes down straight from the runs, piece after piece.
  void add_downloads_from_runs(std::vector<detail::DownloadPart>& down, const Part& part,
                               const DeviceArrays& a) const {
    std::uint64_t at = part.output.first;
    for (std::size_t i = 0; i < part.pieces.size(); ++i) {
      const Span piece = part.pieces[i];
      if (!piece.count) continue;
      add_downloads(down, {at, piece.count}, a.run_keys[i],
                    a.run_values[i], piece.first);
      at += piece.count;
    }
  }

  // ---- Runs in host memory ----

  using Pieces = std::vector<std::pair<const std::byte*, std::uint64_t>>;  // (memory, bytes) in order

  template <class Bits>
  void through_host(KeyBits<Bits> bits, std::uint64_t capacity) {
    const std::vector<Span> runs = cut_runs(count(), capacity);
    scratch_keys_ = host_scratch(count() * key_bytes_);
    if (has_values()) scratch_values_ = host_scratch(count() * value_bytes_);
    progress(0);
    for (const Span& run : runs) {
      sort_run_into_scratch(run);
      progress(run.first + run.count);
    }
    const Ordering<Bits> order{bits, desc_.options.order == SortOrder::descending};
    const std::vector<PartCut> cuts = cut_parts(sample_host_runs(runs, capacity, order), capacity);
    for (const Part& part : locate_parts(cuts, search_host_runs(runs, cuts, order))) {
      write_part_from_host(part, runs);
      progress(count() + part.output.first + part.output.count);
    }
  }

  template <class Bits>
  std::vector<RunSample> sample_host_runs(const std::vector<Span>& runs, std::uint64_t capacity,
                                          const Ordering<Bits>& order) const {
    const auto* keys = reinterpret_cast<const Bits*>(scratch_keys_.get());
    const std::uint64_t stride = sample_stride(capacity, runs.size());
    std::vector<RunSample> samples;
    for (const Span& run : runs) {
      RunSample& sample = samples.emplace_back(RunSample{run.count, stride, {}});
      for (std::uint64_t p = 0; p < run.count; p += stride) sample.keys.push_back(order(keys[run.first + p]));
    }
    return samples;
  }

  // positions[run][boundary], searched in the host copy.
  template <class Bits>
  std::vector<std::vector<std::uint64_t>> search_host_runs(const std::vector<Span>& runs,
                                                           const std::vector<PartCut>& cuts,
                                                           const Ordering<Bits>& order) const {
    const auto* keys = reinterpret_cast<const Bits*>(scratch_keys_.get());
    std::vector<std::vector<std::uint64_t>> positions;
    for (const Span& run : runs) {
      auto& found = positions.emplace_back();
      for (const Boundary& b : boundaries_of(cuts)) {
        found.push_back(position_in_run(b, run.count, [&](std::uint64_t i) { return order(keys[run.first + i]); }));
      }
    }
    return positions;
  }

  void sort_run_into_scratch(const Span& run) {
    std::byte* keys_to = scratch_keys_.get() + run.first * key_bytes_;
    const HostArray keys{shifted(keys_.read, run.first * key_bytes_), detail::write_memory(keys_to),
                         offset_by(keys_.memory_in, run.first * key_bytes_), keys_to};
    HostArray values;
    if (has_values()) {
      std::byte* values_to = scratch_values_.get() + run.first * value_bytes_;
      values = {index_values_ ? HostRead{} : shifted(values_->read, run.first * value_bytes_),
                detail::write_memory(values_to),
                index_values_ ? nullptr : offset_by(values_->memory_in, run.first * value_bytes_), values_to};
    }
    sort_in_core(ctx_, plan_sort(ctx_.info(), desc_of(run.count)), keys, has_values() ? &values : nullptr, index_values_, run.first);
  }

  void write_part_from_host(const Part& part, const std::vector<Span>& runs) {
    const auto pieces = [&](const std::byte* scratch, std::size_t bytes) {
      Pieces out;
      for (std::size_t i = 0; i < runs.size(); ++i) {
        if (part.pieces[i].count) {
          out.emplace_back(scratch + (runs[i].first + part.pieces[i].first) * bytes, part.pieces[i].count * bytes);
        }
      }
      return out;
    };
    const auto key_pieces = pieces(scratch_keys_.get(), key_bytes_);
    const auto value_pieces = has_values() ? pieces(scratch_values_.get(), value_bytes_) : key_pieces;
    if (part.in_order()) {
      if (keys_.write) copy_out(key_pieces, keys_.write, part.output.first * key_bytes_);
      if (has_values() && values_->write) copy_out(value_pieces, values_->write, part.output.first * value_bytes_);
      return;
    }
    const auto gathered = [&](const auto& from, const HostArray& to, std::size_t bytes) {
      HostArray a;
      a.read = gather_read(from);
      if (to.write) {
        a.write = shifted(to.write, part.output.first * bytes);
        a.memory_out = offset_by(to.memory_out, part.output.first * bytes);
      }
      return a;
    };
    const HostArray keys = gathered(key_pieces, keys_, key_bytes_);
    const HostArray values = has_values() ? gathered(value_pieces, *values_, value_bytes_) : HostArray{};
    sort_in_core(ctx_, plan_sort(ctx_.info(), desc_of(part.output.count)), keys, has_values() ? &values : nullptr, false);
  }

  // Reads the concatenation of `pieces`.
  static HostRead gather_read(Pieces pieces) {
    return [pieces = std::move(pieces)](std::uint64_t offset, void* dst, std::uint64_t bytes) {
      auto* to = static_cast<std::byte*>(dst);
      for (const auto& [memory, size] : pieces) {
        if (offset >= size) {
          offset -= size;
          continue;
        }
        const std::uint64_t n = std::min(bytes, size - offset);
        std::memcpy(to, memory + offset, n);
        to += n;
        bytes -= n;
        offset = 0;
        if (!bytes) return;
      }
    };
  }

  // Writes the concatenation of `pieces` at `at`, slices of it on every core.
  void copy_out(const Pieces& pieces, const HostWrite& write,
                std::uint64_t at) {
    std::vector<std::pair<const std::byte*, std::uint64_t>> slices;  // (memory, output offset)
    std::vector<std::uint64_t> sizes;
    for (const auto& [memory, size] : pieces) {
      for (std::uint64_t o = 0; o < size; o += kCopySlice) {
        slices.emplace_back(memory + o, at + o);
        sizes.push_back(std::min(kCopySlice, size - o));
      }
      at += size;
    }
    if (!pool_) pool_ = std::make_unique<detail::WorkerPool>(std::max(1u, std::thread::hardware_concurrency()));
    const unsigned threads = static_cast<unsigned>(std::min<std::size_t>(pool_->size(), slices.size()));
    pool_->run(threads, [&](unsigned t) {
      for (std::size_t i = t; i < slices.size(); i += threads) write(slices[i].second, slices[i].first, sizes[i]);
    });
  }

  struct FreeScratch {
    void operator()(std::byte* memory) const { std::free(memory); }
  };
  using Scratch = std::unique_ptr<std::byte[], FreeScratch>;

  // Host memory for the runs, on transparent huge pages where the system gives them: its first
  // touch costs a page fault a page, which at this size is a large part of the sort's time.
  static Scratch host_scratch(std::uint64_t bytes) {
    constexpr std::uint64_t kHugePage = std::uint64_t{2} << 20;
    const std::uint64_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    auto* memory = static_cast<std::byte*>(std::aligned_alloc(kHugePage, rounded));
    if (!memory) {
      throw Error("cannot allocate " + std::to_string(bytes >> 20) +
                  " MiB of host memory: a sort larger than the device holds keeps its sorted runs in host memory");
    }
    ::madvise(memory, rounded, MADV_HUGEPAGE);  // a hint: without it, ordinary pages
    return Scratch(memory);
  }

  Context& ctx_;
  const SortDesc desc_;
  const HostArray& keys_;
  const HostArray* values_;
  const bool index_values_;
  const std::size_t key_bytes_, value_bytes_;
  Scratch scratch_keys_, scratch_values_;
  std::unique_ptr<detail::WorkerPool> pool_;
};

}  // namespace

void sort_out_of_core(Context& ctx, const SortDesc& desc, const HostArray& keys, const HostArray* values,
                      bool index_values, std::uint64_t capacity) {
  LargeSort sort(ctx, desc, keys, values, index_values);
  if (!sort.sort_on_device(capacity)) sort.sort_through_host(capacity);
}

}  // namespace vkc::sorting
