// splitmix64, the benchmarks' deterministic generator: the CUDA peers' keys (C++17 under nvcc) and
// the segment offsets of bench/segment_shapes.hpp are drawn from it, one stream per seed on every
// platform, unlike the std:: distributions.
#pragma once

#include <cstdint>

namespace vkc::bench {

/// splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014,
/// with Vigna's constants): adds the golden-ratio increment to `state` and returns a mix of it.
/// Every 64-bit state is valid.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace vkc::bench
