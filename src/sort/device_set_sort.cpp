// Sorting host arrays on a DeviceSet (sort.hpp): the elements are partitioned by key, through
// host memory, into one contiguous range of the output per device, and each device sorts its
// range with the single-device functions, all at once, one thread each. Each range lies in pinned
// memory that its device's Context keeps (RangeScratch), so that the device's copies read it
// without staging.
//
// The partition: splitters sampled from the keys' ordered images (key_bits.hpp, so the order
// contract, the order and a bit range hold as in one device's sort) cut the keys into slots:
// between two splitter values, or equal to one. Every element then has a place: a slot's elements
// keep their input order, slots follow the key order. For keys equal to a splitter that place is
// exactly their place in the sorted output, so a device's range may begin or end inside such a
// run of equal keys: the ranges come out balanced in elements even when every key is equal, and
// stable, since equal keys share a slot and keep their input order within it.
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/state.hpp"
#include "core/transfer.hpp"
#include "sort/device_set_sort.hpp"
#include "sort/host_sort.hpp"
#include "sort/key_bits.hpp"
#include "sort/key_types.hpp"
#include "sort/splitters.hpp"
#include "vkc/device_set.hpp"
#include "vkc/sort.hpp"

namespace vkc {
namespace {

using sorting::copy_in_parallel;
using sorting::on_threads;
using sorting::with_width;

constexpr std::uint64_t kSamplesPerDevice = 256;
constexpr std::uint64_t kChunkElements = 1u << 16;  // the least a partitioning thread takes

// Each device's range of the partitioned arrays: [bounds[d], bounds[d + 1]).
struct Partition {
  std::vector<std::uint64_t> bounds;
};

// Host bytes left uninitialized, so that the partition's threads touch their pages first, at once,
// rather than one thread zeroing them all before; in huge pages where the system gives them, so
// that there are 512 times fewer first touches.
class HostBytes {
 public:
  explicit HostBytes(std::uint64_t bytes)
      : data_(static_cast<std::byte*>(std::aligned_alloc(kHugePage, round_up(std::max<std::uint64_t>(bytes, 1))))),
        size_(bytes) {
    if (!data_) throw std::bad_alloc();
    ::madvise(data_.get(), round_up(std::max<std::uint64_t>(bytes, 1)), MADV_HUGEPAGE);  // a hint: failure is fine
  }
  std::byte* data() { return data_.get(); }
  std::uint64_t size() const { return size_; }

 private:
  static constexpr std::uint64_t kHugePage = 2u << 20;
  static std::uint64_t round_up(std::uint64_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }
  struct Free {
    void operator()(std::byte* p) const { std::free(p); }
  };
  std::unique_ptr<std::byte, Free> data_;
  std::uint64_t size_;
};

template <class Bits>
class Partitioner {
 public:
  Partitioner(sorting::KeyBits<Bits> bits, bool descending, const void* keys, std::uint64_t count, std::size_t devices)
      : keys_(bits, descending, keys), count_(count), devices_(devices),
        chunks_(sorting::chunks_for(count, kChunkElements)) {}

  // Partitions and returns each device's range: once the ranges are known, movers_for(partition)
  // gives the function that makes each chunk's mover from the chunk's first place in every slot
  // (mover(i, slot) then moves element i, the next of its slot, in the chunk's input order).
  template <class MoversFor>
  Partition run(MoversFor movers_for) {
    choose_splitters();
    count_slots();
    const Partition partition{device_bounds()};
    scatter(movers_for(partition));
    return partition;
  }

  Partition bounds_only() {
    choose_splitters();
    count_slots();
    return Partition{device_bounds()};
  }

 private:
  Bits rank(std::uint64_t i) const { return keys_.rank(i); }
  std::uint64_t chunk_begin(std::size_t c) const { return count_ * c / chunks_; }

  std::size_t slot(Bits r) const { return splitters_.slot(r); }

  // devices - 1 splitters at the quantiles of a sample of evenly spaced keys.
  void choose_splitters() {
    const std::uint64_t samples = std::min<std::uint64_t>(count_, kSamplesPerDevice * devices_);
    std::vector<Bits> sample(samples);
    for (std::uint64_t s = 0; s < samples; ++s) sample[s] = rank(count_ * s / samples);
    std::sort(sample.begin(), sample.end());
    splitters_ = sorting::Splitters<Bits>::at_quantiles(sample, devices_);
  }

  // How many keys of each chunk fall in each slot, then each slot's first place per chunk.
  void count_slots() {
    const std::size_t slots = splitters_.slots();
    offsets_.assign(chunks_, std::vector<std::uint64_t>(slots, 0));
    // Each thread counts into its own vector and stores it once: the chunks' vectors are small
    // neighbours on the heap, and incrementing them in place would bounce their cache lines.
    on_threads(chunks_, [&](std::size_t c) {
      offsets_[c] = keys_.count_slots(splitters_, chunk_begin(c), chunk_begin(c + 1));
    });
    slot_first_.assign(slots + 1, 0);
    std::uint64_t place = 0;
    for (std::size_t s = 0; s < slots; ++s) {
      slot_first_[s] = place;
      for (std::size_t c = 0; c < chunks_; ++c) {
        const std::uint64_t n = offsets_[c][s];
        offsets_[c][s] = place;
        place += n;
      }
    }
    slot_first_[slots] = place;
  }

  std::vector<std::uint64_t> device_bounds() const { return splitters_.bounds(count_, devices_, slot_first_); }

  template <class MakeMover>
  void scatter(MakeMover make_mover) {
    on_threads(chunks_, [&](std::size_t c) {
      auto mover = make_mover(offsets_[c]);
      const std::uint64_t begin = chunk_begin(c), end = chunk_begin(c + 1);
      // The chunk's ends in locals: the moves are 64-bit stores that, to the compiler, could change
      // the members chunk_begin divides, so it would divide again for every key.
      keys_.for_each_rank(begin, end, [&](std::uint64_t i, Bits rank) { mover(i, slot(rank)); });
    });
  }

  sorting::RankedKeys<Bits> keys_;
  std::uint64_t count_;
  std::size_t devices_, chunks_ = 1;
  sorting::Splitters<Bits> splitters_;
  std::vector<std::vector<std::uint64_t>> offsets_;  // [chunk][slot]: the next place
  std::vector<std::uint64_t> slot_first_;
};

// f(partitioner) with the Partitioner of `count` keys of `type` for the devices.
template <class F>
Partition with_partitioner(KeyType type, const SortOptions& options, const void* keys, std::uint64_t count,
                           std::size_t devices, F f) {
  const bool descending = options.order == SortOrder::descending;
  return sorting::with_key_bits(type, options, [&](auto bits) {
    using Bits = std::remove_cv_t<decltype(bits.range)>;
    Partitioner<Bits> partitioner(bits, descending, keys, count, devices);
    return f(partitioner);
  });
}

}  // namespace

namespace sorting {

std::vector<std::uint64_t> device_bounds(KeyType type, const SortOptions& options, const void* keys,
                                         std::uint64_t count, std::size_t devices) {
  return with_partitioner(type, options, keys, count, devices, [](auto& p) { return p.bounds_only(); }).bounds;
}

}  // namespace sorting

namespace {

// Runs f(device, first, count, options) for every device whose range is not empty, all at once:
// the first such device on the calling thread, the others on threads of their own. Progress
// keeps its contract (sort.hpp): the caller's callback runs on the calling thread only, told the
// elements done on every device, and when it throws (a cancellation) the other devices stop at
// their next progress call.
template <class F>
void on_devices(DeviceSet& set, const Partition& p, const SortOptions& options, F f) {
  const std::size_t devices = set.size();
  std::vector<std::atomic<std::uint64_t>> done(devices);
  std::atomic<bool> cancelled{false};
  const auto count_of = [&](std::size_t d) { return p.bounds[d + 1] - p.bounds[d]; };
  const auto device_options = [&](std::size_t d, bool calling_thread) {
    SortOptions o = options;
    if (!options.progress) return o;
    o.progress = [&, d, calling_thread](const SortProgress& progress) {
      if (progress.total) {  // this device's elements done, in 128 bits: counts and bytes pass 2^32
        done[d] = std::uint64_t(static_cast<unsigned __int128>(count_of(d)) * progress.done / progress.total);
      }
      if (!calling_thread) {
        if (cancelled) throw Error("sort: cancelled on another device");
        return;
      }
      std::uint64_t sum = 0;
      for (const auto& each : done) sum += each;
      try {
        options.progress({sum, p.bounds.back()});
      } catch (...) {
        cancelled = true;
        throw;
      }
    };
    return o;
  };
  std::size_t here = 0;
  while (here < devices && count_of(here) == 0) ++here;
  if (here == devices) return;
  if (options.progress) options.progress({0, p.bounds.back()});
  std::vector<std::exception_ptr> errors(devices);
  std::vector<std::thread> threads;
  for (std::size_t d = here + 1; d < devices; ++d) {
    if (count_of(d) == 0) continue;
    threads.emplace_back([&, d] {
      try {
        f(d, p.bounds[d], count_of(d), device_options(d, false));
      } catch (...) {
        errors[d] = std::current_exception();
      }
    });
  }
  try {
    f(here, p.bounds[here], count_of(here), device_options(here, true));
  } catch (...) {
    cancelled = true;
    errors[here] = std::current_exception();
  }
  for (auto& thread : threads) thread.join();
  for (auto& e : errors) {
    if (e) std::rethrow_exception(e);  // the calling thread's first: a cancellation is its
  }
  if (options.progress) options.progress({p.bounds.back(), p.bounds.back()});
}

// Pinned host memory that a device's Context keeps for the ranges the sorts on a DeviceSet move
// to it: the device's copies read and write it directly, without the staging copies that pageable
// memory needs, and its pages stay resident from one call to the next. Grown to a quarter past
// the largest request; Context::release_cached_memory frees it, or, when that comes while a sort
// holds it (the sort's own buffers making room on the device), once the sort lets go.
class RangeScratch final : public detail::Attachment {
 public:
  explicit RangeScratch(Context& ctx) : ctx_(&ctx) {}

  // At least `bytes` of it, held until let_go(); null where the device cannot pin that much.
  std::byte* hold(std::uint64_t bytes) {
    if (memory_.bytes() < bytes) {
      memory_ = {};
      for (const std::uint64_t size : {bytes + bytes / 4, bytes}) {
        try {
          memory_ = ctx_->allocate_pinned(size);
          break;
        } catch (const Error&) {
        }
      }
      if (!memory_) return nullptr;
    }
    held_ = true;
    return static_cast<std::byte*>(memory_.data());
  }
  void let_go() {
    held_ = false;
    if (release_asked_) release_cached_memory();
  }
  void release_cached_memory() override {
    release_asked_ = held_;
    if (!held_) memory_ = {};
  }

 private:
  Context* ctx_;
  PinnedMemory memory_;
  bool held_ = false, release_asked_ = false;
};

// Where the partition moves each device's range: its keys, then its values 16-byte aligned, in the
// device's RangeScratch, or in pageable memory of the call's own where the device cannot pin them.
class RangeMemory {
 public:
  RangeMemory(DeviceSet& set, const Partition& p, std::size_t key_width, std::size_t value_width) {
    for (std::size_t d = 0; d < set.size(); ++d) {
      const std::uint64_t n = p.bounds[d + 1] - p.bounds[d];
      const std::uint64_t value_offset = (n * key_width + 15) / 16 * 16;
      const std::uint64_t bytes = value_offset + n * value_width;
      std::byte* base = nullptr;
      if (n) {
        auto& scratch = detail::attachment<RangeScratch>(set[d]);
        base = scratch.hold(bytes);
        if (base) held_.push_back(&scratch);
        else base = own_.emplace_back(bytes).data();
      }
      keys_.push_back(base);
      values_.push_back(base ? base + value_offset : nullptr);
    }
  }
  RangeMemory(const RangeMemory&) = delete;
  RangeMemory& operator=(const RangeMemory&) = delete;
  ~RangeMemory() {
    for (RangeScratch* scratch : held_) scratch->let_go();
  }
  std::byte* keys(std::size_t d) const { return keys_[d]; }
  std::byte* values(std::size_t d) const { return values_[d]; }

 private:
  std::vector<std::byte*> keys_, values_;
  std::vector<RangeScratch*> held_;
  std::vector<HostBytes> own_;
};

// The device whose range holds place q: a scan without branches, as Splitters::slot (a device
// whose range is empty is passed over).
std::size_t device_of(const std::vector<std::uint64_t>& bounds, std::uint64_t q) {
  std::size_t d = 0;
  for (std::size_t j = 1; j + 1 < bounds.size(); ++j) d += q >= bounds[j];
  return d;
}

// Moves one chunk's elements to their places in RangeMemory: a cursor per slot at the slot's next
// place in the chunk, with its addresses in the device's range. Only a slot of keys equal to a
// splitter can run from one device's range into the next; its cursor moves on there.
template <std::size_t KeyWidth, class Also>
class ChunkMover {
 public:
  ChunkMover(const RangeMemory& memory, const std::vector<std::uint64_t>& bounds, std::size_t value_width,
             const std::byte* keys, const std::vector<std::uint64_t>& first, Also also)
      : memory_(&memory), bounds_(&bounds), value_width_(value_width), keys_(keys), also_(also) {
    for (std::uint64_t place : first) cursors_.push_back({place, place, nullptr, nullptr});  // placed on first use
  }

  void operator()(std::uint64_t i, std::size_t slot) {
    Cursor& c = cursors_[slot];
    if (c.place == c.end) c = cursor_at(c.place);
    std::memcpy(c.key, keys_ + i * KeyWidth, KeyWidth);
    also_(i, c.value);
    c.key += KeyWidth;
    c.value += value_width_;
    ++c.place;
  }

 private:
  struct Cursor {
    std::uint64_t place, end;  // the next place; the end of its device's range
    std::byte *key, *value;
  };
  Cursor cursor_at(std::uint64_t place) const {
    const std::size_t d = device_of(*bounds_, place);
    const std::uint64_t local = place - (*bounds_)[d];
    return {place, (*bounds_)[d + 1], memory_->keys(d) + local * KeyWidth, memory_->values(d) + local * value_width_};
  }

  const RangeMemory* memory_;
  const std::vector<std::uint64_t>* bounds_;
  std::size_t value_width_;
  const std::byte* keys_;
  Also also_;
  std::vector<Cursor> cursors_;
};

// Partitions the keys for the set's devices into `memory` (made once the ranges are known, with
// room for values of `value_width` bytes), each key copied to its place in its device's range;
// also(i, value) moves what goes with key i to `value`, its place among the values.
template <class Also>
Partition move_partitioned(DeviceSet& set, KeyType type, const SortOptions& options, const void* keys,
                           std::uint64_t count, std::size_t value_width, std::optional<RangeMemory>& memory,
                           Also also) {
  const auto* in = static_cast<const std::byte*>(keys);
  return with_width(key_bytes(type), [&](auto width) {
    return with_partitioner(type, options, keys, count, set.size(), [&](auto& partitioner) {
      return partitioner.run([&](const Partition& p) {
        memory.emplace(set, p, width, value_width);
        return [&, &bounds = p.bounds](const std::vector<std::uint64_t>& first) {
          return ChunkMover<width, Also>(*memory, bounds, value_width, in, first, also);
        };
      });
    });
  });
}

// Each device's sorted range, sorted in place in `memory`, copied into `out` (of `width`-byte
// elements); values too where `values_out` is given.
void copy_back(const Partition& p, const RangeMemory& memory, std::size_t width, std::byte* out,
               std::size_t value_width = 0, std::byte* values_out = nullptr) {
  for (std::size_t d = 0; d + 1 < p.bounds.size(); ++d) {
    const std::uint64_t first = p.bounds[d], n = p.bounds[d + 1] - first;
    if (n == 0) continue;
    copy_in_parallel(memory.keys(d), out + first * width, n * width);
    if (values_out) copy_in_parallel(memory.values(d), values_out + first * value_width, n * value_width);
  }
}

void check_arrays(const void* keys, std::uint64_t count, const char* what) {
  if (count && !keys) throw Error(std::string(what) + ": null array for " + std::to_string(count) + " elements");
}

}  // namespace

void sorting::partition_keys(DeviceSet& set, KeyType type, const SortOptions& options, const void* keys,
                             std::uint64_t count, std::vector<std::uint64_t>& bounds) {
  std::optional<RangeMemory> memory;
  bounds = move_partitioned(set, type, options, keys, count, 0, memory, [](std::uint64_t, std::byte*) {}).bounds;
}

void sort_to(DeviceSet& set, KeyType type, const void* keys, void* sorted_keys, std::uint64_t count,
             const SortOptions& options) {
  check_arrays(keys, count, "sort_to");
  check_arrays(sorted_keys, count, "sort_to");
  if (set.size() == 1) return sort_to(set[0], type, keys, sorted_keys, count, options);
  if (count == 0) return;
  const std::size_t width = key_bytes(type);
  std::optional<RangeMemory> memory;
  const Partition p = move_partitioned(set, type, options, keys, count, 0, memory, [](std::uint64_t, std::byte*) {});
  auto* out = static_cast<std::byte*>(sorted_keys);
  // In place, the devices sort their ranges where the partition put them and the keys are written
  // only once every device is done, so that a cancelled or failed sort leaves them as they were.
  const bool in_place = sorted_keys == keys;
  on_devices(set, p, options, [&](std::size_t d, std::uint64_t first, std::uint64_t n, const SortOptions& o) {
    std::byte* range = memory->keys(d);
    if (in_place) return sort(set[d], type, range, n, o);
    sort_to(set[d], type, range, out + first * width, n, o);
  });
  if (in_place) copy_back(p, *memory, width, out);
}

void sort(DeviceSet& set, KeyType type, void* keys, std::uint64_t count, const SortOptions& options) {
  sort_to(set, type, keys, keys, count, options);  // the partition reads every key before any is written
}

void sort_pairs_to(DeviceSet& set, KeyType key_type, const void* keys, void* sorted_keys, ValueType value_type,
                   const void* values, void* sorted_values, std::uint64_t count, const SortOptions& options) {
  for (const void* array : {keys, values, static_cast<const void*>(sorted_keys), static_cast<const void*>(sorted_values)}) {
    check_arrays(array, count, "sort_pairs_to");
  }
  if (value_type == ValueType::none) throw Error("sort_pairs_to: the value type is none");
  if (set.size() == 1) {
    return sort_pairs_to(set[0], key_type, keys, sorted_keys, value_type, values, sorted_values, count, options);
  }
  if (count == 0) return;
  const std::size_t kw = key_bytes(key_type), vw = value_bytes(value_type);
  const auto* value_in = static_cast<const std::byte*>(values);
  std::optional<RangeMemory> memory;
  const Partition p = with_width(vw, [&](auto width) {
    return move_partitioned(set, key_type, options, keys, count, vw, memory,
                            [&](std::uint64_t i, std::byte* value) {
                              std::memcpy(value, value_in + i * width, width);
                            });
  });
  // As sort_to: in place, the arrays are written only once every device is done.
  const bool in_place = sorted_keys == keys || sorted_values == values;
  auto* key_out = static_cast<std::byte*>(sorted_keys);
  auto* value_out = static_cast<std::byte*>(sorted_values);
  on_devices(set, p, options, [&](std::size_t d, std::uint64_t first, std::uint64_t n, const SortOptions& o) {
    std::byte* range_keys = memory->keys(d);
    std::byte* range_values = memory->values(d);
    if (in_place) return sort_pairs(set[d], key_type, range_keys, value_type, range_values, n, o);
    sort_pairs_to(set[d], key_type, range_keys, key_out + first * kw, value_type, range_values,
                  value_out + first * vw, n, o);
  });
  if (in_place) copy_back(p, *memory, kw, key_out, vw, value_out);
}

void sort_pairs(DeviceSet& set, KeyType key_type, void* keys, ValueType value_type, void* values,
                std::uint64_t count, const SortOptions& options) {
  sort_pairs_to(set, key_type, keys, keys, value_type, values, values, count, options);
}

void argsort64_to(DeviceSet& set, KeyType type, const void* keys, std::uint64_t* indices, std::uint64_t count,
                  const SortOptions& options) {
  check_arrays(keys, count, "argsort64_to");
  check_arrays(indices, count, "argsort64_to");
  if (set.size() == 1) return argsort64_to(set[0], type, keys, indices, count, options);
  if (count == 0) return;
  // The stable permutation, as argsort64 on one device gives it: automatic means radix here.
  SortOptions stable = options;
  if (stable.algorithm == SortAlgorithm::automatic) stable.algorithm = SortAlgorithm::radix;
  std::optional<RangeMemory> memory;
  const Partition p = move_partitioned(set, type, options, keys, count, sizeof(std::uint64_t), memory,
                                       [](std::uint64_t i, std::byte* position) {
                                         std::memcpy(position, &i, sizeof i);
                                       });
  // Each device's keys go up with their input positions; only the positions come back.
  on_devices(set, p, stable, [&](std::size_t d, std::uint64_t first, std::uint64_t n, const SortOptions& o) {
    const sorting::HostArray range_keys{detail::read_memory(memory->keys(d)), {}, memory->keys(d), nullptr};
    const sorting::HostArray positions = sorting::copied(memory->values(d), indices + first);
    sorting::sort_host(set[d], {type, ValueType::u64, n, o}, range_keys, &positions, false);
  });
}

std::vector<std::uint64_t> argsort64(DeviceSet& set, KeyType type, const void* keys, std::uint64_t count,
                                     const SortOptions& options) {
  std::vector<std::uint64_t> indices(count);
  argsort64_to(set, type, keys, indices.data(), count, options);
  return indices;
}

}  // namespace vkc
