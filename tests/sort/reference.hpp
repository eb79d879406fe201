// Test data and the independent reference for sorting tests: keys drawn per distribution, the
// order contract written directly as a comparator (no bit tricks), and checks of the results.
#pragma once

#include <gtest/gtest.h>

#include <ostream>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "vkc/sort.hpp"

namespace vkc {
// How test messages print 16-bit float keys: their bits.
inline std::ostream& operator<<(std::ostream& out, Float16 key) { return out << "f16 0x" << std::hex << key.bits << std::dec; }
inline std::ostream& operator<<(std::ostream& out, BFloat16 key) { return out << "bf16 0x" << std::hex << key.bits << std::dec; }
}  // namespace vkc

namespace vkc::test {

enum class Dist { uniform, sorted, reverse, few, equal, nearly_sorted, special };
inline const char* dist_name(Dist d) {
  static const char* names[] = {"uniform", "sorted", "reverse", "few", "equal", "nearly_sorted", "special"};
  return names[static_cast<int>(d)];
}

/// The 16-bit float keys, which C++20 has no arithmetic for: the tests read them as doubles.
template <class T>
constexpr bool kHalfFloat = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;
template <class T>
constexpr bool kFloatKey = std::is_floating_point_v<T> || kHalfFloat<T>;

/// A 16-bit float's value, decoded field by field (sign, exponent, mantissa) with ldexp: the
/// tests' own reading of the format, not the library's maps. Exact, as every such value is a double.
template <class T>
double decoded(T key) {
  constexpr int mantissa_bits = std::is_same_v<T, Float16> ? 10 : 7;
  constexpr int exponent_bits = 15 - mantissa_bits;
  constexpr int bias = (1 << (exponent_bits - 1)) - 1;
  const int exponent = (key.bits >> mantissa_bits) & ((1 << exponent_bits) - 1);
  const int mantissa = key.bits & ((1 << mantissa_bits) - 1);
  double magnitude;
  if (exponent == (1 << exponent_bits) - 1) {
    magnitude = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else if (exponent == 0) {
    magnitude = std::ldexp(mantissa, 1 - bias - mantissa_bits);  // subnormal
  } else {
    magnitude = std::ldexp(mantissa + (1 << mantissa_bits), exponent - bias - mantissa_bits);
  }
  return (key.bits >> 15) ? -magnitude : magnitude;
}

/// A float key as the double the contract compares (integers are compared as they are).
template <class T>
auto compared(T key) {
  if constexpr (kHalfFloat<T>) return decoded(key);
  else return key;
}

/// The order contract as a strict weak order: NaN last in both orders, -0 before +0 ascending.
template <class T>
bool contract_less(T key_a, T key_b, SortOrder order) {
  const auto a = compared(key_a), b = compared(key_b);
  if constexpr (kFloatKey<T>) {
    if (std::isnan(a) || std::isnan(b)) return !std::isnan(a) && std::isnan(b);
    if (a == b) {  // only +0 and -0 differ among equal floats
      const bool neg_a = std::signbit(a), neg_b = std::signbit(b);
      return order == SortOrder::ascending ? (neg_a && !neg_b) : (!neg_a && neg_b);
    }
  }
  return order == SortOrder::ascending ? a < b : b < a;
}

template <class T>
T random_key(std::mt19937_64& rng) {
  if constexpr (kHalfFloat<T>) {  // any bits but a NaN's (NaN payloads are tested on their own)
    for (;;) {
      const T key{static_cast<std::uint16_t>(rng())};
      if (!std::isnan(decoded(key))) return key;
    }
  } else if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<double> d(-1e6, 1e6);
    return static_cast<T>(d(rng));
  } else {
    return static_cast<T>(rng());
  }
}

/// Values that stress the contract: extremes, both zeros, infinities and NaNs of both signs.
template <class T>
std::vector<T> special_keys() {
  if constexpr (kHalfFloat<T>) {
    // 0, -0, +inf, -inf, NaN, -NaN, the largest, the lowest, the least subnormal of each sign, 1, -1
    const bool f16 = std::is_same_v<T, Float16>;
    const std::uint16_t inf = f16 ? 0x7C00 : 0x7F80, one = f16 ? 0x3C00 : 0x3F80;
    const std::uint16_t bits[] = {0, 0x8000, inf, std::uint16_t(inf | 0x8000), std::uint16_t(inf | 1),
                                  std::uint16_t(inf | 0x8001), std::uint16_t(inf - 1), std::uint16_t((inf - 1) | 0x8000),
                                  1, 0x8001, one, std::uint16_t(one | 0x8000)};
    std::vector<T> keys;
    for (std::uint16_t b : bits) keys.push_back(T{b});
    return keys;
  } else if constexpr (std::is_floating_point_v<T>) {
    const T nan = std::numeric_limits<T>::quiet_NaN();
    return {T(0), -T(0), std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(), nan, -nan,
            std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest(), std::numeric_limits<T>::denorm_min(),
            -std::numeric_limits<T>::denorm_min(), T(1), T(-1)};
  } else {
    return {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0), T(1), static_cast<T>(-1),
            static_cast<T>(std::numeric_limits<T>::max() / 2)};
  }
}

template <class T>
std::vector<T> make_keys(std::size_t n, Dist dist, std::mt19937_64& rng) {
  std::vector<T> keys(n);
  const auto specials = special_keys<T>();
  const T few[] = {random_key<T>(rng), random_key<T>(rng), random_key<T>(rng), random_key<T>(rng)};
  for (std::size_t i = 0; i < n; ++i) {
    switch (dist) {
      case Dist::few: keys[i] = few[rng() % 4]; break;
      case Dist::equal: keys[i] = few[0]; break;
      case Dist::special: keys[i] = (rng() % 2) ? specials[rng() % specials.size()] : random_key<T>(rng); break;
      default: keys[i] = random_key<T>(rng);
    }
  }
  auto asc = [](T a, T b) { return contract_less(a, b, SortOrder::ascending); };
  if (dist == Dist::sorted || dist == Dist::nearly_sorted) std::sort(keys.begin(), keys.end(), asc);
  if (dist == Dist::reverse) std::sort(keys.rbegin(), keys.rend(), asc);
  if (dist == Dist::nearly_sorted && n > 1) {
    for (std::size_t s = 0; s < std::max<std::size_t>(1, n / 100); ++s) std::swap(keys[rng() % n], keys[rng() % n]);
  }
  return keys;
}

/// What the GPU returns for a key: NaNs keep their payload but lose their sign bit.
template <class T>
T as_returned(T key) {
  if constexpr (kHalfFloat<T>) {
    if (std::isnan(decoded(key))) return T{static_cast<std::uint16_t>(key.bits & 0x7FFF)};
  } else if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(key)) return std::copysign(key, T(1));
  }
  return key;
}

template <class T>
bool same_key(T a, T b) {
  if constexpr (kHalfFloat<T>) {
    if (std::isnan(decoded(a)) || std::isnan(decoded(b))) return std::isnan(decoded(a)) && std::isnan(decoded(b)) && !(b.bits >> 15);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) && !std::signbit(b);
  }
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// The expected keys: std::stable_sort under the contract.
template <class T>
std::vector<T> reference_sort(std::vector<T> keys, SortOrder order) {
  std::stable_sort(keys.begin(), keys.end(), [&](T a, T b) { return contract_less(a, b, order); });
  return keys;
}

/// The stable permutation under the contract.
template <class T>
std::vector<std::uint32_t> reference_argsort(const std::vector<T>& keys, SortOrder order) {
  std::vector<std::uint32_t> index(keys.size());
  std::iota(index.begin(), index.end(), 0u);
  std::stable_sort(index.begin(), index.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return contract_less(keys[a], keys[b], order); });
  return index;
}

/// Checks that `actual` is the contract's order of `input` (NaN payloads aside).
template <class T>
::testing::AssertionResult keys_sorted(const std::vector<T>& input, const std::vector<T>& actual, SortOrder order) {
  const auto expected = reference_sort(input, order);
  if (actual.size() != expected.size()) return ::testing::AssertionFailure() << "length changed";
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (!same_key(expected[i], actual[i])) {
      return ::testing::AssertionFailure() << "first difference at " << i << " of " << expected.size() << ": expected "
                                           << expected[i] << ", got " << actual[i];
    }
  }
  return ::testing::AssertionSuccess();
}

/// The value a pairs test gives element `i`: every word of it names the element (the low word
/// i ^ 0x5A5A5A5A; the high word of a 64-bit value i times an odd constant, a bijection), so a
/// word that moves without the rest of its value, or with another element's key, shows.
template <class V>
V value_for(std::uint32_t i) {
  static_assert(sizeof(V) == 4 || sizeof(V) == 8);
  const std::uint64_t low = i ^ 0x5A5A5A5Au;
  if constexpr (sizeof(V) == 4) return static_cast<V>(low);
  else return static_cast<V>(low | std::uint64_t{(i * 0x9E3779B1u) ^ 0xC3C3C3C3u} << 32);
}

/// The element a value_for value names (read from its low word alone).
template <class V>
std::uint32_t element_of(V value) {
  return static_cast<std::uint32_t>(value) ^ 0x5A5A5A5Au;
}

/// Checks that `perm` is a permutation that puts `input` in the contract's order; with
/// `stable`, that it is exactly the stable one.
template <class T>
::testing::AssertionResult permutation_sorts(const std::vector<T>& input, const std::vector<std::uint32_t>& perm,
                                             SortOrder order, bool stable) {
  const std::size_t n = input.size();
  if (perm.size() != n) return ::testing::AssertionFailure() << "permutation has the wrong length";
  std::vector<bool> seen(n);
  for (std::uint32_t p : perm) {
    if (p >= n || seen[p]) return ::testing::AssertionFailure() << "not a permutation (index " << p << ")";
    seen[p] = true;
  }
  for (std::size_t i = 1; i < n; ++i) {
    if (contract_less(input[perm[i]], input[perm[i - 1]], order)) {
      return ::testing::AssertionFailure() << "out of order at " << i;
    }
  }
  if (stable && perm != reference_argsort(input, order)) {
    return ::testing::AssertionFailure() << "sorted, but equal keys left their input order";
  }
  return ::testing::AssertionSuccess();
}

/// Checks sorted pairs whole: the keys in the contract's order, each value (every word of it)
/// one that value_for gave an input element, that element's key beside it, and the values a
/// sorting permutation of the input, the stable one with `stable`.
template <class T, class V>
::testing::AssertionResult pairs_sorted(const std::vector<T>& input, const std::vector<T>& keys,
                                        const std::vector<V>& values, SortOrder order, bool stable) {
  if (auto sorted = keys_sorted(input, keys, order); !sorted) return sorted;
  if (values.size() != input.size()) return ::testing::AssertionFailure() << "values changed length";
  std::vector<std::uint32_t> perm(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    perm[i] = element_of(values[i]);
    if (perm[i] >= input.size() || values[i] != value_for<V>(perm[i])) {
      std::ostringstream hex;
      hex << std::hex << static_cast<std::uint64_t>(values[i]);
      return ::testing::AssertionFailure() << "the value at " << i << " is corrupted or torn: 0x" << hex.str();
    }
    if (!same_key(as_returned(input[perm[i]]), keys[i])) {
      return ::testing::AssertionFailure() << "the value at " << i << " left its key (element " << perm[i] << ")";
    }
  }
  return permutation_sorts(input, perm, order, stable);
}

}  // namespace vkc::test
