// What the sorts split across devices (device_set_sort.cpp) and across MPI ranks (mpi/sort.cpp)
// share: splitters from a sorted sample of the keys' ordered images, the slots they cut the keys
// into, the even ranges of places moved into runs of equal keys, and the host-side helpers of
// their partitions (a thread per chunk, element copies of a width known at compile time).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <thread>
#include <type_traits>
#include <vector>

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
