// The segment offsets of the segmented-sort benchmarks, after the shapes of CUB's own benchmarks
// (cub/benchmarks/bench/segmented_sort/keys.cu and segmented_radix_sort/keys.cu, whose offsets
// nvbench_helper generates). Integer arithmetic and splitmix64 only, so that the CUB peer
// (bench/peers/cub_sort.cu, C++17 under nvcc) and vkc bench (C++20) draw the same offsets from the
// same shape, size and seed on any machine. Benchmark code, not part of the library.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "splitmix64.hpp"

namespace vkc::bench {

/// The offsets' stream starts at seed ^ kSegmentSeedSalt: the peers draw their keys from splitmix64
/// started at the seed itself, and the sizes should not be drawn from the keys' numbers.
inline constexpr std::uint64_t kSegmentSeedSalt = 0x5E65E65E65E65E65ull;

enum class SegmentKind {
  /// CUB's "small" and "large" benchmarks: sizes uniform in [max/2, max] (integer division),
  /// laid end to end from 0, the last one cut at n. The count is what fits, about n / (0.75 max).
  /// Their axes: max = 2, 4, ..., 256 ("small") and 1024, 4096, ..., 262144 ("large").
  uniform,
  /// CUB's "power" benchmark: `segments` segments whose sizes are a lognormal (sigma 1.2) share of
  /// n; many are empty or tiny, a few are large. Its axes: 2^12, 2^16, 2^20 segments of
  /// 2^22, 2^26, 2^30 keys.
  power,
  /// Rows: n / columns segments of `columns` keys each (n a multiple of columns).
  rows,
};

struct SegmentShape {
  SegmentKind kind = SegmentKind::rows;
  /// uniform: the largest size (at least 2); power: the segment count (at least 1); rows: the
  /// columns (at least 1).
  std::uint64_t parameter = 1;
};

inline const char* to_string(SegmentKind kind) {
  switch (kind) {
    case SegmentKind::uniform: return "uniform";
    case SegmentKind::power: return "power";
    case SegmentKind::rows: break;
  }
  return "rows";
}

/// "uniform:256", "power:65536", "rows:1024": what parse_segment_shape reads.
inline std::string to_string(const SegmentShape& shape) {
  return std::string(to_string(shape.kind)) + ":" + std::to_string(shape.parameter);
}

/// "uniform:MAX", "power:SEGMENTS" or "rows:COLUMNS" (decimal); throws std::invalid_argument.
inline SegmentShape parse_segment_shape(const std::string& text) {
  const std::size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  const std::string number = colon == std::string::npos ? std::string() : text.substr(colon + 1);
  SegmentShape shape;
  bool known = false;
  for (const SegmentKind k : {SegmentKind::uniform, SegmentKind::power, SegmentKind::rows}) {
    if (kind == to_string(k)) shape.kind = k, known = true;
  }
  if (!known) {
    throw std::invalid_argument("segments: expected uniform:MAX, power:SEGMENTS or rows:COLUMNS, got '" + text + "'");
  }
  if (number.empty() || number.size() > 18 || number.find_first_not_of("0123456789") != std::string::npos) {
    throw std::invalid_argument("segments: expected a decimal number (up to 18 digits) after '" + kind + ":', got '" +
                                text + "'");
  }
  shape.parameter = std::stoull(number);
  const std::uint64_t least = shape.kind == SegmentKind::uniform ? 2 : 1;
  if (shape.parameter < least) {
    throw std::invalid_argument("segments: " + kind + " needs at least " + std::to_string(least) + ", got '" + text +
                                "'");
  }
  return shape;
}

// ---- Fixed-point arithmetic: Qk is an unsigned integer over 2^k -------------------------------

/// floor(sqrt(v)), digit by digit in base 4.
inline std::uint64_t isqrt(std::uint64_t v) {
  std::uint64_t root = 0;
  std::uint64_t bit = std::uint64_t{1} << 62;
  while (bit > v) bit >>= 2;
  for (; bit != 0; bit >>= 2) {
    if (v >= root + bit) {
      v -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
  }
  return root;
}

/// -log2(s) in Q32 for s = v / 2^62 in (0, 1): the whole part from v's highest set bit, the
/// fraction bit by bit (square the mantissa in Q30; past 2, the bit is 1 and the mantissa halves).
/// Within 2^-27 of -log2(s).
inline std::uint64_t neg_log2_q32(std::uint64_t v) {
  int top = 61;  // v < 2^62
  while ((v >> top) == 0) --top;
  std::uint64_t mantissa = top >= 30 ? v >> (top - 30) : v << (30 - top);  // Q30, in [1, 2)
  std::uint64_t fraction = 0;                                               // log2(mantissa), Q32
  for (int k = 31; k >= 0; --k) {
    mantissa = (mantissa * mantissa) >> 30;
    if (mantissa >= (std::uint64_t{2} << 30)) {
      mantissa >>= 1;
      fraction |= std::uint64_t{1} << k;
    }
  }
  return (std::uint64_t(62 - top) << 32) - fraction;
}

/// 2^f in Q30 for f = fraction / 2^30 in [0, 1): e^t with t = f ln 2, its Taylor series to
/// t^12 / 12! (a remainder below 2^-40 for t < 0.7) summed by Horner's rule, each product and
/// quotient truncated. Within 2^-27 of 2^f.
inline std::uint64_t exp2_q30(std::uint32_t fraction) {
  constexpr std::uint64_t kOne = std::uint64_t{1} << 30;
  constexpr std::uint64_t kLn2 = 744261118;  // round(ln 2 * 2^30)
  const std::uint64_t t = (std::uint64_t{fraction & (kOne - 1)} * kLn2) >> 30;
  std::uint64_t sum = kOne;
  for (std::uint64_t k = 12; k >= 1; --k) sum = kOne + ((sum * t) >> 30) / k;  // sum < 2^31, t < 2^30
  return sum;
}

/// A lognormal weight 2^11 e^7.2 e^(1.2 z) = 2^(11 + 1.2 (z + 6) / ln 2), in [2^11, 2^32), z a
/// standard normal deviate clamped to [-6, 6] (which moves one draw in 500 million). z comes from
/// Marsaglia's polar method: x, y uniform in [-1, 1) from the high 32 bits of two draws, redrawn
/// until 0 < s = x^2 + y^2 < 1; then z = (x / sqrt(s)) sqrt(-2 ln s), computed here as
/// 1.2 z / ln 2 = 1.2 sqrt(2 / ln 2) (x / sqrt(s)) sqrt(-log2 s).
inline std::uint64_t lognormal_weight(std::uint64_t& state) {
  constexpr std::uint64_t kOne = std::uint64_t{1} << 62;
  constexpr std::uint64_t kScale = 34198213;    // round(1.2 sqrt(2 / ln 2) * 2^24)
  constexpr std::uint64_t kClamp = 2788347608;  // round(6 * 1.2 / ln 2 * 2^28)
  for (;;) {
    const auto x = std::int64_t(std::int32_t(std::uint32_t(splitmix64(state) >> 32)));  // Q31
    const auto y = std::int64_t(std::int32_t(std::uint32_t(splitmix64(state) >> 32)));
    const std::uint64_t s = std::uint64_t(x * x) + std::uint64_t(y * y);  // Q62, at most 2^63
    if (s == 0 || s >= kOne) continue;
    const std::uint64_t ax = std::uint64_t(x < 0 ? -x : x);
    const std::uint64_t cosine = std::min((ax << 30) / isqrt(s), std::uint64_t{1} << 30);  // |x| / sqrt(s), Q30
    const std::uint64_t radius = isqrt(neg_log2_q32(s) << 24);  // sqrt(-log2 s) in Q28: below 2^31
    const std::uint64_t magnitude = std::min((((cosine * radius) >> 30) * kScale) >> 24, kClamp);  // Q28
    const std::uint64_t exponent = x < 0 ? kClamp - magnitude : kClamp + magnitude;  // Q28, in [0, 20.8]
    const std::uint64_t mantissa = exp2_q30(std::uint32_t((exponent & ((std::uint64_t{1} << 28) - 1)) << 2));
    return (mantissa << (exponent >> 28)) >> 19;  // mantissa 2^(whole + 11): in [2^11, 2^32)
  }
}

// ---- The shapes ----------------------------------------------------------------------------------

/// Offsets of the uniform shape: sizes min + floor((max - min + 1) u), min = max / 2, u uniform in
/// [0, 1) from the high 32 bits of a draw, as nvbench_helper maps its uniform doubles to integers;
/// laid end to end until n is reached, the last offset set to n. Returns count + 1 offsets.
inline std::vector<std::uint64_t> uniform_segment_offsets(std::uint64_t n, std::uint64_t max_size,
                                                          std::uint64_t seed) {
  if (max_size < 2 || max_size > (std::uint64_t{1} << 32)) {
    throw std::invalid_argument("segments: uniform needs a largest size in 2..2^32");
  }
  const std::uint64_t min_size = max_size / 2;
  const std::uint64_t span = max_size - min_size + 1;  // at most 2^31 + 1: span * 2^32 < 2^64
  std::uint64_t state = seed ^ kSegmentSeedSalt;
  std::vector<std::uint64_t> offsets{0};
  offsets.reserve(n / (min_size + span / 2) + 2);  // about the count: sizes average (min + max) / 2
  std::uint64_t end = 0;
  while (end < n) {
    end += min_size + ((span * (splitmix64(state) >> 32)) >> 32);
    offsets.push_back(end < n ? end : n);
  }
  return offsets;
}

/// Offsets of the power shape, as nvbench_helper's power-law generator computes them: weights w_i
/// drawn from a lognormal distribution (its sigma 1.2; its mean 3.0 is a common factor that the
/// normalisation cancels), sizes floor(n w_i / sum w), then the shortfall handed out one key each
/// to the first segments. The weights come from lognormal_weight: below 2^32, so n w_i fits 64
/// bits for n below 2^32.
inline std::vector<std::uint64_t> power_law_segment_offsets(std::uint64_t n, std::uint64_t segments,
                                                            std::uint64_t seed) {
  if (segments < 1 || segments > (std::uint64_t{1} << 31)) {
    throw std::invalid_argument("segments: power needs a segment count in 1..2^31");
  }
  if (n >= (std::uint64_t{1} << 32)) throw std::invalid_argument("segments: power needs n below 2^32");
  std::uint64_t state = seed ^ kSegmentSeedSalt;
  std::vector<std::uint64_t> weight(segments);
  std::uint64_t total = 0;  // below 2^32 * 2^31
  for (std::uint64_t& w : weight) total += w = lognormal_weight(state);
  std::vector<std::uint64_t> offsets(segments + 1, 0);
  std::uint64_t placed = 0;
  for (std::uint64_t i = 0; i < segments; ++i) {
    offsets[i + 1] = weight[i] * n / total;  // a size for now
    placed += offsets[i + 1];
  }
  const std::uint64_t shortfall = n - placed;  // below `segments`: each floor loses less than 1
  for (std::uint64_t i = 0; i < shortfall; ++i) offsets[i + 1] += 1;
  for (std::uint64_t i = 0; i < segments; ++i) offsets[i + 1] += offsets[i];
  return offsets;
}

/// Offsets of n / columns rows of `columns` keys.
inline std::vector<std::uint64_t> row_segment_offsets(std::uint64_t n, std::uint64_t columns) {
  if (columns < 1 || n % columns != 0) {
    throw std::invalid_argument("segments: rows:" + std::to_string(columns) + " needs n a multiple of it, got n = " +
                                std::to_string(n));
  }
  std::vector<std::uint64_t> offsets(n / columns + 1);
  for (std::uint64_t i = 0; i < offsets.size(); ++i) offsets[i] = i * columns;
  return offsets;
}

/// The offsets of `shape` over n keys: count + 1 non-decreasing offsets from 0 to n, segment i
/// being [offsets[i], offsets[i + 1]). Rows ignore the seed.
inline std::vector<std::uint64_t> segment_offsets(const SegmentShape& shape, std::uint64_t n, std::uint64_t seed) {
  switch (shape.kind) {
    case SegmentKind::uniform: return uniform_segment_offsets(n, shape.parameter, seed);
    case SegmentKind::power: return power_law_segment_offsets(n, shape.parameter, seed);
    case SegmentKind::rows: break;
  }
  return row_segment_offsets(n, shape.parameter);
}

}  // namespace vkc::bench
