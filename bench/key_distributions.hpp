// The key distributions that `vkc bench sort` and the CUB peer both draw beyond uniform bits: CUB's
// entropy ladder, floats of [0, 1) and of a normal distribution, a Gaussian-splatting key, and keys
// of only their low bits. Written over the keys' bits (C++17, for nvcc too), so that both programs
// draw the same keys from the same seed.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "splitmix64.hpp"

namespace vkc::bench {

enum class KeyDistKind {
  entropy,   ///< CUB's entropy ladder: `parameter` uniform words ANDed together
  float01,   ///< floats uniform in [0, 1)
  normal,    ///< floats from N(0, 1)
  splat,     ///< u64: a screen tile's id above a positive f32 depth
  low_bits,  ///< integers uniform in [0, 2^parameter)
};

struct KeyDist {
  KeyDistKind kind = KeyDistKind::entropy;
  int parameter = 0;
};

/// A key type as the distributions see it: its width and, for a float, its exponent field (all
/// ones: infinities and NaNs); 0 for an integer.
struct KeyFormat {
  unsigned bytes = 4;
  std::uint64_t exponent = 0;
};

/// The names --dist takes for them (each program names its own uniform, sorted, reverse, few, equal).
inline const char* const kKeyDistNames = "and2, and3, and4, and5, float01, normal, splat, low:B";

/// Bits of a key ANDed over `draws` words are set with probability 2^-draws: entropy per bit
/// 0.811, 0.544, 0.337, 0.201 for 2..5 (CUB's benchmarks' ladder; one draw is uniform, all equal 0).
constexpr int kMinEntropyDraws = 2, kMaxEntropyDraws = 5;

/// The splatting key's screen: 1920 x 1080 pixels in 16 x 16 tiles (8,160 tile ids, 13 bits), and
/// depths uniform in [0.2, 100) in front of the camera.
constexpr std::uint64_t kSplatTiles = 120 * 68;
constexpr float kSplatNear = 0.2f, kSplatFar = 100.0f;

/// The distribution `name` names, or nullopt where it names none of these.
inline std::optional<KeyDist> parse_key_dist(const std::string& name) {
  if (name.size() == 4 && name.compare(0, 3, "and") == 0) {
    const int draws = name[3] - '0';
    if (draws >= kMinEntropyDraws && draws <= kMaxEntropyDraws) return KeyDist{KeyDistKind::entropy, draws};
    return std::nullopt;
  }
  if (name == "float01") return KeyDist{KeyDistKind::float01, 0};
  if (name == "normal") return KeyDist{KeyDistKind::normal, 0};
  if (name == "splat") return KeyDist{KeyDistKind::splat, 0};
  if (name.size() > 4 && name.size() <= 6 && name.compare(0, 4, "low:") == 0) {
    int bits = 0;
    for (std::size_t i = 4; i < name.size(); ++i) {
      if (name[i] < '0' || name[i] > '9') return std::nullopt;
      bits = bits * 10 + (name[i] - '0');
    }
    if (bits >= 1 && bits <= 63) return KeyDist{KeyDistKind::low_bits, bits};
  }
  return std::nullopt;
}

/// Why `dist` cannot draw keys of `format`, or "" where it can.
inline std::string key_dist_refusal(const KeyDist& dist, const KeyFormat& format) {
  const bool is_float = format.exponent != 0;
  switch (dist.kind) {
    case KeyDistKind::entropy:
      return is_float && format.bytes < 4 ? "the entropy ladder takes integer, f32 or f64 keys" : "";
    case KeyDistKind::float01:
    case KeyDistKind::normal: return is_float && format.bytes >= 4 ? "" : "float01 and normal take f32 or f64 keys";
    case KeyDistKind::splat: return !is_float && format.bytes == 8 ? "" : "splat keys are u64 or i64";
    case KeyDistKind::low_bits:
      if (is_float) return "low:B takes integer keys";
      return dist.parameter < int(format.bytes * 8) ? "" : "low:B needs B below the key's width";
  }
  return "unknown distribution";
}

namespace detail {

inline double unit(std::uint64_t& state) { return double(splitmix64(state) >> 11) * 0x1p-53; }

inline std::uint64_t float_bits(double value, unsigned bytes) {
  if (bytes == 8) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, 8);
    return bits;
  }
  const float narrow = float(value);
  std::uint32_t bits;
  std::memcpy(&bits, &narrow, 4);
  return bits;
}

// N(0, 1) by Box and Muller's transform of two uniforms (the first kept away from 0).
inline double normal(std::uint64_t& state) {
  const double u = 1.0 - unit(state), v = unit(state);
  return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v);
}

// Uniform in [0, 1) with as many random bits as the type's mantissa: every k x 2^-24 (or 2^-53)
// equally likely.
inline double float01(std::uint64_t& state, unsigned bytes) {
  return bytes == 8 ? unit(state) : double(splitmix64(state) >> 40) * 0x1p-24;
}

}  // namespace detail

/// One key of `dist` as the low `format.bytes` bytes of the result; key_dist_refusal must be
/// empty for the pair.
inline std::uint64_t draw_key_bits(const KeyDist& dist, const KeyFormat& format, std::uint64_t& state) {
  const std::uint64_t width_mask = format.bytes >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * format.bytes)) - 1;
  switch (dist.kind) {
    case KeyDistKind::entropy:
      while (true) {
        std::uint64_t bits = width_mask;
        for (int d = 0; d < dist.parameter; ++d) bits &= splitmix64(state);
        if (format.exponent == 0 || (bits & format.exponent) != format.exponent) return bits;  // no inf or NaN
      }
    case KeyDistKind::float01: return detail::float_bits(detail::float01(state, format.bytes), format.bytes);
    case KeyDistKind::normal: return detail::float_bits(detail::normal(state), format.bytes);
    case KeyDistKind::splat: {
      const std::uint64_t tile = splitmix64(state) % kSplatTiles;
      const float depth = kSplatNear + float(detail::unit(state)) * (kSplatFar - kSplatNear);
      return (tile << 32) | detail::float_bits(depth < kSplatFar ? depth : kSplatNear, 4);
    }
    case KeyDistKind::low_bits: return splitmix64(state) & ((std::uint64_t{1} << dist.parameter) - 1);
  }
  return 0;
}

}  // namespace vkc::bench
