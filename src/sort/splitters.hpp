// What the sorts split across devices (device_set_sort.cpp) and across MPI ranks (mpi/sort.cpp)
// share: splitters from a sorted sample of the keys' ordered images, the slots they cut the keys
// into, the even ranges of places moved into runs of equal keys, the keys read by rank and
// counted by slot, and the host-side helpers of their partitions (a thread per chunk, element
// copies of a width known at compile time, memcpy on every core).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <thread>
#include <type_traits>
#include <vector>

#include "sort/key_bits.hpp"

namespace vkc::sorting {

/// Slot 2u + 1 holds the keys equal to splitter value u; slot 2u those between values u - 1 and u.
template <class Bits>
struct Splitters {
  std::vector<Bits> values;                // the distinct splitter values, ascending
  std::vector<std::size_t> splitter_value; // each of the parts - 1 splitters' index in `values`

  /// parts - 1 splitters at the quantiles of `sorted_sample` (empty: none).
  template <class Sample>
  static Splitters at_quantiles(const std::vector<Sample>& sorted_sample, std::size_t parts) {
    Splitters s;
    std::vector<Bits> chosen;
    for (std::size_t j = 1; j < parts && !sorted_sample.empty(); ++j) {
      chosen.push_back(static_cast<Bits>(sorted_sample[sorted_sample.size() * j / parts]));
    }
    s.values = chosen;
    s.values.erase(std::unique(s.values.begin(), s.values.end()), s.values.end());
    for (Bits v : chosen) {
      s.splitter_value.push_back(std::size_t(std::lower_bound(s.values.begin(), s.values.end(), v) - s.values.begin()));
    }
    return s;
  }

  std::size_t slots() const { return 2 * values.size() + 1; }

  /// A scan without branches: there are fewer values than parts.
  std::size_t slot(Bits r) const {
    std::size_t below = 0, equal = 0;
    for (Bits v : values) below += v < r, equal |= v == r;
    return 2 * below + equal;
  }

  /// Part j's range of places [bounds[j], bounds[j + 1]) among `total`: the j-th of `parts` even
  /// shares, its end moved into the run of keys equal to its splitter (slot_first[s]: the first
  /// place of slot s, slot_first[slots()] = total), where a place is a place in the sorted output.
  std::vector<std::uint64_t> bounds(std::uint64_t total, std::size_t parts,
                                    const std::vector<std::uint64_t>& slot_first) const {
    std::vector<std::uint64_t> out{0};
    for (std::size_t j = 0; j + 1 < parts; ++j) {
      const std::uint64_t even = total * (j + 1) / parts;
      if (j >= splitter_value.size()) {  // fewer keys than splitters: the rest get nothing
        out.push_back(total);
        continue;
      }
      const std::size_t equal = 2 * splitter_value[j] + 1;
      out.push_back(std::clamp(even, slot_first[equal], slot_first[equal + 1]));
    }
    out.push_back(total);
    return out;
  }
};

/// An array of keys read by rank (KeyBits::rank of the canonical key), in loops that fix the
/// key's kind and the order at compile time, so that they carry none of rank's branches on them.
template <class Bits>
class RankedKeys {
 public:
  RankedKeys(KeyBits<Bits> bits, bool descending, const void* keys)
      : bits_(bits), descending_(descending), keys_(keys) {}

  Bits rank(std::uint64_t i) const { return bits_.rank(bits_.canonical(bits_.load(keys_, i)), descending_); }

  /// f(i, rank of key i) for i in [begin, end), in order.
  template <class F>
  void for_each_rank(std::uint64_t begin, std::uint64_t end, F f) const {
    const auto loop = [&](auto kind, auto descending) {
      KeyBits<Bits> bits = bits_;
      bits.kind = kind;
      for (std::uint64_t i = begin; i < end; ++i) f(i, bits.rank(bits.canonical(bits.load(keys_, i)), descending));
    };
    const auto in_order = [&](auto kind) {
      if (descending_) return loop(kind, std::true_type{});
      loop(kind, std::false_type{});
    };
    switch (bits_.kind) {
      case KeyKind::unsigned_int: return in_order(std::integral_constant<KeyKind, KeyKind::unsigned_int>{});
      case KeyKind::signed_int: return in_order(std::integral_constant<KeyKind, KeyKind::signed_int>{});
      default: return in_order(std::integral_constant<KeyKind, KeyKind::floating>{});
    }
  }

  /// How many of keys [begin, end) fall in each of the splitters' slots: ranks a block at a time,
  /// then, for each splitter value, the keys below it and equal to it, in loops without stores
  /// that the compiler vectorizes (a count per key in memory would chain each key's increment to
  /// the last's).
  std::vector<std::uint64_t> count_slots(const Splitters<Bits>& splitters, std::uint64_t begin,
                                         std::uint64_t end) const {
    constexpr std::uint64_t kBlock = 2048;
    const std::vector<Bits>& values = splitters.values;
    std::vector<std::uint64_t> below(values.size()), equal(values.size());
    std::vector<Bits> ranks(kBlock);
    for (std::uint64_t first = begin; first < end; first += kBlock) {
      const std::uint64_t n = std::min(kBlock, end - first);
      Bits* r = ranks.data();
      for_each_rank(first, first + n, [&](std::uint64_t i, Bits rank) { r[i - first] = rank; });
      for (std::size_t u = 0; u < values.size(); ++u) {
        const Bits v = values[u];
        std::uint64_t lt = 0, eq = 0;
        for (std::uint64_t k = 0; k < n; ++k) lt += r[k] < v, eq += r[k] == v;
        below[u] += lt;
        equal[u] += eq;
      }
    }
    // Slot 2u + 1: equal to value u; slot 2u: above value u - 1 (and its equals), below value u.
    std::vector<std::uint64_t> counts(splitters.slots());
    std::uint64_t under = 0;  // keys at or below the last value passed
    for (std::size_t u = 0; u < values.size(); ++u) {
      counts[2 * u] = below[u] - under;
      counts[2 * u + 1] = equal[u];
      under = below[u] + equal[u];
    }
    counts.back() = (end - begin) - under;
    return counts;
  }

 private:
  KeyBits<Bits> bits_;
  bool descending_;
  const void* keys_;
};

/// Runs f(t) for t in [0, count), f(0) on the calling thread and each other on a thread of its
/// own, and rethrows the first error.
template <class F>
void on_threads(std::size_t count, F f) {
  std::vector<std::exception_ptr> errors(count);
  std::vector<std::thread> threads;
  const auto guarded = [&](std::size_t t) {
    try {
      f(t);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  for (std::size_t t = 1; t < count; ++t) threads.emplace_back(guarded, t);
  if (count) guarded(0);
  for (auto& thread : threads) thread.join();
  for (auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

/// Chunks of at least `least` elements, one per core at most, for `count` elements.
inline std::size_t chunks_for(std::uint64_t count, std::uint64_t least) {
  const std::uint64_t by_size = std::max<std::uint64_t>(1, count / least);
  return std::max<std::size_t>(1, std::min<std::uint64_t>(std::max(1u, std::thread::hardware_concurrency()), by_size));
}

/// f(begin, end) for pieces of [0, bytes) of at least 1 MiB, one per core at most, all at once.
template <class F>
void in_pieces(std::uint64_t bytes, F f) {
  const std::size_t pieces = chunks_for(bytes, std::uint64_t{1} << 20);
  on_threads(pieces, [&](std::size_t t) { f(bytes * t / pieces, bytes * (t + 1) / pieces); });
}

/// memcpy on every core.
inline void copy_in_parallel(const std::byte* from, std::byte* to, std::uint64_t bytes) {
  in_pieces(bytes, [&](std::uint64_t begin, std::uint64_t end) { std::memcpy(to + begin, from + begin, end - begin); });
}

/// f(std::integral_constant<std::size_t, W>) for W = `width` (1, 2, 4 or 8), so that element copies
/// of W bytes compile to one move.
template <class F>
decltype(auto) with_width(std::size_t width, F f) {
  switch (width) {
    case 1: return f(std::integral_constant<std::size_t, 1>{});
    case 2: return f(std::integral_constant<std::size_t, 2>{});
    case 4: return f(std::integral_constant<std::size_t, 4>{});
    default: return f(std::integral_constant<std::size_t, 8>{});
  }
}

}  // namespace vkc::sorting
