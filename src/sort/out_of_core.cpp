// Host arrays larger than the device takes at once (host_sort.hpp): a stable partition on the
// host by the keys' leading bits into ranges of at most `capacity` elements, each then sorted on
// the device. The partition reads the input twice (a histogram, then the scatter) and more only
// for buckets too large to sort at once, which a histogram of their next bits splits.
#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/transfer.hpp"
#include "core/worker_pool.hpp"
#include "sort/algorithm.hpp"
#include "sort/host_sort.hpp"
#include "sort/key_bits.hpp"

namespace vkc::sorting {
namespace {

constexpr unsigned kDigitBits = 16;
constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
constexpr std::uint64_t kBlockElements = std::uint64_t{1} << 16;  // what a thread reads at a time

// One level of the partition: a bucket per value of the key's bits [shift, shift + 16). Each
// bucket is a group of the partition, or is split by a node of the next 16 bits.
struct Node {
  unsigned shift = 0;
  std::vector<std::int64_t> entry = std::vector<std::int64_t>(kBuckets, 0);  // >= 0: group; < 0: ~child node
  std::vector<std::uint64_t> totals = std::vector<std::uint64_t>(kBuckets, 0);
  std::vector<std::uint64_t> thread_counts;  // [thread][bucket]: the threads' ranges counted apart
  bool counted = false;
};

// A range of the sorted output: its elements are those of its buckets, in input order after the
// scatter. `equal_keys`: one bucket of the last 16 bits, too large to sort at once, and already
// in its final order (equal keys, in input order).
struct Group {
  std::uint64_t first = 0, count = 0;
  bool equal_keys = false;
};

// `automatic` resolved for the whole array, so that every part is sorted as the array would
// be in memory (a part small enough for bitonic must not lose the stability radix gives).
SortDesc with_algorithm_chosen(Context& ctx, SortDesc desc) {
  if (desc.options.algorithm != SortAlgorithm::automatic) return desc;
  SortDesc whole = desc;
  whole.max_count = std::min<std::uint64_t>(desc.max_count, UINT32_MAX);
  desc.options.algorithm = choose(ctx.info(), whole).id();
  return desc;
}

// A key's place in the sort's order as an unsigned integer: the sort gives keys in the unsigned
// order of these bits.
template <class Bits>
struct Ordering {
  KeyBits<Bits> bits;
  bool descending = false;
  Bits operator()(Bits key) const { return bits.rank(bits.canonical(key), descending); }
};

class Partition {
 public:
  Partition(Context& ctx, const SortDesc& desc, const HostArray& keys, const HostArray* values, bool index_values,
            std::uint64_t capacity)
      : ctx_(ctx),
        desc_(with_algorithm_chosen(ctx, desc)),
        keys_(keys),
        values_(values),
        index_values_(index_values),
        capacity_(capacity),
        pool_(std::max(1u, std::thread::hardware_concurrency())),
        threads_(pool_.size()),
        key_bytes_(key_bytes(desc.key_type)),
        value_bytes_(value_bytes(desc.value_type)) {}

  void run() {
    with_key_bits(desc_.key_type, [&](auto bits) { run_with(bits); });
  }

 private:
  template <class Bits>
  void run_with(KeyBits<Bits> bits) {
    const Ordering<Bits> order{bits, desc_.options.order == SortOrder::descending};
    const std::uint64_t n = desc_.max_count;
    report_progress(desc_, 0, 3 * n);
    nodes_.push_back(Node{.shift = sizeof(Bits) * 8 - kDigitBits});
    for (bool more = true; more;) {
      count<Bits>(order);
      more = split_large_buckets();
    }
    report_progress(desc_, n, 3 * n);
    assign_groups(0);
    scatter<Bits>(order);
    report_progress(desc_, 2 * n, 3 * n);
    sort_groups();
  }

  std::uint64_t first_of_thread(unsigned t) const { return desc_.max_count * t / threads_; }

  // Views the bytes [first, first + bytes) of an input array: straight from memory where it is
  // memory, else read into `buffer`.
  static const std::byte* view(const HostArray& array, std::uint64_t first, std::uint64_t bytes,
                               std::vector<std::byte>& buffer) {
    if (array.memory_in) return static_cast<const std::byte*>(array.memory_in) + first;
    buffer.resize(bytes);
    array.read(first, buffer.data(), bytes);
    return buffer.data();
  }

  // Runs block(thread, first element, keys) over every thread's range, a block at a time.
  template <class Bits, class F>
  void for_each_block(F&& block) {
    pool_.run(threads_, [&](unsigned t) {
      std::vector<std::byte> buffer;
      for (std::uint64_t first = first_of_thread(t); first < first_of_thread(t + 1); first += kBlockElements) {
        const std::uint64_t n = std::min(kBlockElements, first_of_thread(t + 1) - first);
        const auto* keys = reinterpret_cast<const Bits*>(view(keys_, first * sizeof(Bits), n * sizeof(Bits), buffer));
        block(t, first, std::span<const Bits>(keys, n));
      }
    });
  }

  // Counts the keys of every node not yet counted, per thread and bucket.
  template <class Bits>
  void count(const Ordering<Bits>& order) {
    for (Node& node : nodes_) {
      if (!node.counted) node.thread_counts.assign(threads_ * kBuckets, 0);
    }
    for_each_block<Bits>([&](unsigned t, std::uint64_t, std::span<const Bits> keys) {
      for (Bits key : keys) {
        const Bits bits = order(key);
        for (Node* node = &nodes_[0];;) {
          const std::size_t bucket = (bits >> node->shift) & (kBuckets - 1);
          if (!node->counted) {
            ++node->thread_counts[t * kBuckets + bucket];
            break;
          }
          if (node->entry[bucket] >= 0) break;
          node = &nodes_[~node->entry[bucket]];
        }
      }
    });
    for (Node& node : nodes_) {
      if (node.counted) continue;
      for (unsigned t = 0; t < threads_; ++t) {
        for (std::size_t b = 0; b < kBuckets; ++b) node.totals[b] += node.thread_counts[t * kBuckets + b];
      }
      node.counted = true;
    }
  }

  // Gives every bucket larger than the capacity that has bits left below it a node of the next
  // bits; true when it made one (they need counting).
  bool split_large_buckets() {
    bool made = false;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      for (std::size_t b = 0; b < kBuckets; ++b) {
        if (nodes_[i].totals[b] <= capacity_ || nodes_[i].shift == 0 || nodes_[i].entry[b] < 0) continue;
        const unsigned shift = nodes_[i].shift - kDigitBits;
        nodes_[i].entry[b] = ~static_cast<std::int64_t>(nodes_.size());
        nodes_.push_back(Node{.shift = shift});
        made = true;
      }
    }
    return made;
  }

  // Groups consecutive buckets, in key order, into ranges of at most the capacity.
  void assign_groups(std::size_t node_index) {
    for (std::size_t b = 0; b < kBuckets; ++b) {
      const std::int64_t entry = nodes_[node_index].entry[b];
      if (entry < 0) {
        assign_groups(static_cast<std::size_t>(~entry));
        continue;
      }
      const std::uint64_t n = nodes_[node_index].totals[b];
      if (groups_.empty() || groups_.back().equal_keys || groups_.back().count + n > capacity_) {
        groups_.push_back({groups_.empty() ? 0 : groups_.back().first + groups_.back().count, 0, n > capacity_});
      }
      groups_.back().count += n;
      nodes_[node_index].entry[b] = static_cast<std::int64_t>(groups_.size() - 1);
    }
  }

  // Where each thread's first element of each group goes: its group's start plus what the
  // threads before it put there, so that the scatter keeps the input order within a group.
  std::vector<std::uint64_t> thread_cursors() const {
    std::vector<std::uint64_t> counts(threads_ * groups_.size(), 0);
    for (const Node& node : nodes_) {
      for (std::size_t b = 0; b < kBuckets; ++b) {
        if (node.entry[b] < 0) continue;
        for (unsigned t = 0; t < threads_; ++t) {
          counts[t * groups_.size() + node.entry[b]] += node.thread_counts[t * kBuckets + b];
        }
      }
    }
    std::vector<std::uint64_t> cursors(threads_ * groups_.size());
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      std::uint64_t at = groups_[g].first;
      for (unsigned t = 0; t < threads_; ++t) {
        cursors[t * groups_.size() + g] = at;
        at += counts[t * groups_.size() + g];
      }
    }
    return cursors;
  }

  template <class Bits>
  std::int64_t group_of(Bits bits) const {
    for (const Node* node = &nodes_[0];;) {
      const std::int64_t entry = node->entry[(bits >> node->shift) & (kBuckets - 1)];
      if (entry >= 0) return entry;
      node = &nodes_[~entry];
    }
  }

  // Moves every element (and its value, or its index) to its group's next place in the scratch.
  template <class Bits>
  void scatter(const Ordering<Bits>& order) {
    const std::uint64_t n = desc_.max_count;
    scratch_keys_ = host_scratch(n * key_bytes_);
    if (value_bytes_) scratch_values_ = host_scratch(n * value_bytes_);
    std::vector<std::uint64_t> cursors = thread_cursors();
    auto* keys_out = reinterpret_cast<Bits*>(scratch_keys_.get());
    std::byte* values_out = scratch_values_.get();
    std::vector<std::vector<std::uint64_t>> thread_cursor(threads_);  // apart: no cache line shared
    for (unsigned t = 0; t < threads_; ++t) {
      thread_cursor[t].assign(cursors.begin() + t * groups_.size(), cursors.begin() + (t + 1) * groups_.size());
    }
    for_each_block<Bits>([&](unsigned t, std::uint64_t first, std::span<const Bits> keys) {
      std::uint64_t* cursor = thread_cursor[t].data();
      std::vector<std::byte> value_buffer;
      const std::byte* values = values_ && !index_values_
                                    ? view(*values_, first * value_bytes_, keys.size() * value_bytes_, value_buffer)
                                    : nullptr;
      for (std::size_t i = 0; i < keys.size(); ++i) {
        const std::uint64_t to = cursor[group_of(order(keys[i]))]++;
        keys_out[to] = keys[i];
        if (values) {
          std::memcpy(values_out + to * value_bytes_, values + i * value_bytes_, value_bytes_);
        } else if (index_values_) {
          write_index(values_out + to * value_bytes_, first + i);
        }
      }
    });
  }

  static std::unique_ptr<std::byte[]> host_scratch(std::uint64_t bytes) {
    try {
      return std::make_unique_for_overwrite<std::byte[]>(bytes);
    } catch (const std::bad_alloc&) {
      throw Error("cannot allocate " + std::to_string(bytes >> 20) +
                  " MiB of host memory: a sort larger than the device holds a host copy of its arrays");
    }
  }

  void write_index(std::byte* to, std::uint64_t index) const {
    if (value_bytes_ == 4) {
      const auto narrow = static_cast<std::uint32_t>(index);
      std::memcpy(to, &narrow, 4);
    } else {
      std::memcpy(to, &index, 8);
    }
  }

  // The part [first, first + count) of the scratch, read from it and written to the output.
  HostArray part(const std::byte* scratch, std::size_t bytes, const HostWrite& write, void* memory_out,
                 std::uint64_t first) const {
    HostArray a;
    a.memory_in = scratch + first * bytes;
    a.read = detail::read_memory(scratch + first * bytes);
    if (write) {
      a.write = [write, at = first * bytes](std::uint64_t offset, const void* src, std::uint64_t n) {
        write(at + offset, src, n);
      };
      if (memory_out) a.memory_out = static_cast<std::byte*>(memory_out) + first * bytes;
    }
    return a;
  }

  void sort_groups() {
    const std::uint64_t n = desc_.max_count;
    for (const Group& g : groups_) {
      sort_group(g);
      report_progress(desc_, 2 * n + g.first + g.count, 3 * n);
    }
  }

  void sort_group(const Group& g) {
    if (g.count == 0) return;
    const HostArray keys = part(scratch_keys_.get(), key_bytes_, keys_.write, keys_.memory_out, g.first);
    const HostArray values =
        values_ ? part(scratch_values_.get(), value_bytes_, values_->write, values_->memory_out, g.first) : HostArray{};
    if (g.equal_keys) {
      if (keys.write) keys.write(0, keys.memory_in, g.count * key_bytes_);
      if (values_) values.write(0, values.memory_in, g.count * value_bytes_);
      return;
    }
    SortDesc desc = desc_;
    desc.max_count = g.count;
    desc.options.progress = nullptr;
    sort_in_core(ctx_, desc, keys, values_ ? &values : nullptr, false);
  }

  Context& ctx_;
  const SortDesc desc_;
  const HostArray& keys_;
  const HostArray* values_;
  const bool index_values_;
  const std::uint64_t capacity_;
  detail::WorkerPool pool_;  // every core: the partition is host work, memory-bound
  const unsigned threads_;
  const std::size_t key_bytes_, value_bytes_;
  std::vector<Node> nodes_;
  std::vector<Group> groups_;
  std::unique_ptr<std::byte[]> scratch_keys_, scratch_values_;
};

}  // namespace

void sort_out_of_core(Context& ctx, const SortDesc& desc, const HostArray& keys, const HostArray* values,
                      bool index_values, std::uint64_t capacity) {
  Partition(ctx, desc, keys, values, index_values, capacity).run();
}

}  // namespace vkc::sorting
