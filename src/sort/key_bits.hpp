// Keys as unsigned bits ordered by the order contract (sort.hpp): what the merge of sorted runs
// of large sorts (out_of_core.cpp) and the output checks (bench/verify.cpp) compare.
#pragma once

#include <cstdint>
#include <cstring>

#include "sort/key_types.hpp"
#include "vkc/sort.hpp"

namespace vkc::sorting {

template <class Bits>
struct KeyBits {
  static constexpr Bits kSign = Bits{1} << (sizeof(Bits) * 8 - 1);
  // The exponent all ones: infinities and NaNs.
  static constexpr Bits kExponent = sizeof(Bits) == 4 ? Bits(0x7F800000u) : Bits(0x7FF0000000000000ull);

  KeyKind kind;

  static Bits load(const void* keys, std::uint64_t i) {
    Bits bits;
    std::memcpy(&bits, static_cast<const std::byte*>(keys) + i * sizeof(Bits), sizeof(Bits));
    return bits;
  }
  bool is_nan(Bits bits) const { return kind == KeyKind::floating && (bits & ~kSign) > kExponent; }
  // The key as the sort returns it: a NaN without its sign bit.
  Bits canonical(Bits bits) const { return is_nan(bits) ? bits & ~kSign : bits; }
  // An unsigned number that orders canonical keys as the contract does. Floats map to the usual
  // total order (negatives reversed below positives), which puts -0 before +0 and positive NaNs
  // above +inf by their bits; descending reverses the numbers, whose images fill the same range
  // [image of -inf, image of +inf] either way, so the NaNs stay above them, in the same order.
  Bits rank(Bits bits, bool descending) const {
    if (kind == KeyKind::unsigned_int) return descending ? ~bits : bits;
    if (kind == KeyKind::signed_int) return descending ? ~(bits ^ kSign) : bits ^ kSign;
    const Bits ordered = (bits & kSign) ? ~bits : bits | kSign;
    return descending && !is_nan(bits) ? ~ordered : ordered;
  }
};

/// Calls f(KeyBits<uint32_t or uint64_t>) for the key type (its row of key_types.hpp).
template <class F>
auto with_key_bits(KeyType type, F&& f) {
  return with_key_type(type, [&](auto row) { return f(KeyBits<typename decltype(row)::bits>{row.kind}); });
}

}  // namespace vkc::sorting
