// Cutting sorted runs into the parts of their merged order. A large sort (out_of_core.cpp) sorts
// its array in runs the device takes at once; samples of every run then give key boundaries
// such that the elements between two of them, gathered from all the runs, fit the device again.
// Host arithmetic over ordered keys (key_bits.hpp): the unsigned order the sort gives.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace vkc::sorting {

/// A place in the merged order of sorted runs, found the same way in every run: its start, its
/// end, or before the first key ordered at or past `key` (`after`: past it).
struct Boundary {
  enum class Kind : std::uint8_t { start, before, after, end };
  Kind kind = Kind::start;
  std::uint64_t key = 0;  // ordered bits, for before and after
  bool operator==(const Boundary&) const = default;
};

/// Every stride-th ordered key of one sorted run, from its first: positions 0, stride, 2 stride...
struct RunSample {
  std::uint64_t count = 0;  // the run's length
  std::uint64_t stride = 1;
  std::vector<std::uint64_t> keys;
};

/// The sampling stride for `runs` runs cut into parts of at most `capacity`: fine enough that
/// every part can be filled to within a sixteenth of the capacity, coarse enough to keep the
/// samples few (about 32 runs^2). Throws Error where `capacity` is too small for that many runs.
std::uint64_t sample_stride(std::uint64_t capacity, std::uint64_t runs);

/// A part of the merged order: the elements between two boundaries, in run order. `equal_keys`:
/// all one key, so already in their final (input) order however many they are.
struct PartCut {
  Boundary from, to;
  bool equal_keys = false;
};

/// Cuts the merged order of the sampled runs into consecutive parts of at most `capacity`
/// elements each, except equal_keys parts (one key more frequent than the capacity). Some parts
/// may hold no element. Needs the strides' sum within the capacity (sample_stride's promise).
std::vector<PartCut> cut_parts(std::span<const RunSample> runs, std::uint64_t capacity);

/// Where `b` falls in a sorted run of `count` elements whose i-th ordered key is key_at(i).
template <class KeyAt>
std::uint64_t position_in_run(const Boundary& b, std::uint64_t count, KeyAt&& key_at) {
  if (b.kind == Boundary::Kind::start) return 0;
  if (b.kind == Boundary::Kind::end) return count;
  std::uint64_t lo = 0, hi = count;  // the position is in [lo, hi]
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    const std::uint64_t key = key_at(mid);
    const bool before_it = b.kind == Boundary::Kind::before ? key < b.key : key <= b.key;
    (before_it ? lo : hi) = before_it ? mid + 1 : mid;
  }
  return lo;
}

}  // namespace vkc::sorting
