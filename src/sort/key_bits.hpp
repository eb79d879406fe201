// Keys as unsigned bits ordered by the order contract (sort.hpp): what the merge of sorted runs
// of large sorts (out_of_core.cpp) and the output checks (bench/verify.cpp) compare.
#pragma once

#include <cstdint>
#include <cstring>
#include <utility>

#include "sort/key_types.hpp"
#include "vkc/sort.hpp"

namespace vkc::sorting {

template <class Bits>
struct KeyBits {
  static constexpr Bits kSign = Bits(Bits{1} << (sizeof(Bits) * 8 - 1));

  KeyKind kind;
  Bits exponent = 0;  ///< a float's exponent field, all ones (infinities and NaNs)
  /// The bits of the ordered image that take part (SortOptions::begin_bit, end_bit).
  Bits range = Bits(~Bits{0});

  static Bits load(const void* keys, std::uint64_t i) {
    Bits bits;
    std::memcpy(&bits, static_cast<const std::byte*>(keys) + i * sizeof(Bits), sizeof(Bits));
    return bits;
  }
  bool is_nan(Bits bits) const { return kind == KeyKind::floating && Bits(bits & ~kSign) > exponent; }
  // The key as the sort returns it: a NaN without its sign bit.
  Bits canonical(Bits bits) const { return is_nan(bits) ? Bits(bits & ~kSign) : bits; }
  // An unsigned number that orders canonical keys as the contract does: the ordered image that
  // SortOptions documents, cut to `range`. Floats map to the usual total order (negatives
  // reversed below positives), which puts -0 before +0 and positive NaNs above +inf by their
  // bits; descending reverses the numbers, whose images fill the same range [image of -inf,
  // image of +inf] either way, so the NaNs stay above them, in the same order.
  Bits rank(Bits bits, bool descending) const { return Bits(image(bits, descending) & range); }
  // The canonical key whose uncut rank is `r`: rank's inverse where `range` is the whole key. A
  // NaN's image has the sign bit set and more than the exponent below it, in both orders.
  Bits unrank(Bits r, bool descending) const {
    if (kind == KeyKind::unsigned_int) return descending ? Bits(~r) : r;
    if (kind == KeyKind::signed_int) return descending ? Bits(~r ^ kSign) : Bits(r ^ kSign);
    if ((r & kSign) && Bits(r & ~kSign) > exponent) return Bits(r & ~kSign);
    const Bits ordered = descending ? Bits(~r) : r;
    return (ordered & kSign) ? Bits(ordered & ~kSign) : Bits(~ordered);
  }

 private:
  Bits image(Bits bits, bool descending) const {
    if (kind == KeyKind::unsigned_int) return descending ? Bits(~bits) : bits;
    if (kind == KeyKind::signed_int) return descending ? Bits(~(bits ^ kSign)) : Bits(bits ^ kSign);
    const Bits ordered = (bits & kSign) ? Bits(~bits) : Bits(bits | kSign);
    return descending && !is_nan(bits) ? Bits(~ordered) : ordered;
  }
};

/// The bits [begin, end) of a `width`-bit word, end clamped to the width (SortOptions' range).
constexpr std::uint64_t bit_range_mask(std::uint32_t begin, std::uint32_t end, std::uint32_t width) {
  if (end > width) end = width;
  if (begin >= end) return 0;
  const std::uint64_t below_end = end >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << end) - 1;
  return below_end & ~((std::uint64_t{1} << begin) - 1);
}

/// The options' bit range as the kernels take it: the bits of the ordered key's low and high
/// 32-bit words that count (all ones for a key's missing high word).
struct RangeWords {
  std::uint32_t low = UINT32_MAX, high = UINT32_MAX;
  bool cuts() const { return low != UINT32_MAX || high != UINT32_MAX; }  // narrower than the key
};
inline RangeWords range_words(KeyType type, const SortOptions& options) {
  const std::uint32_t width = key_bits(type);
  const std::uint64_t mask = bit_range_mask(options.begin_bit, options.end_bit, width);
  return {static_cast<std::uint32_t>(width < 32 ? mask | ~((std::uint64_t{1} << width) - 1) : mask),
          width == 64 ? static_cast<std::uint32_t>(mask >> 32) : UINT32_MAX};
}

/// Calls f(KeyBits<uint8_t ... uint64_t>) for the key type (its row of key_types.hpp), cut to
/// the options' bit range.
template <class F>
auto with_key_bits(KeyType type, const SortOptions& options, F&& f) {
  return with_key_type(type, [&](auto row) {
    using Row = decltype(row);
    using Bits = typename Row::bits;
    const auto range = static_cast<Bits>(bit_range_mask(options.begin_bit, options.end_bit, Row::width));
    return f(KeyBits<Bits>{row.kind, Row::exponent, range});
  });
}

/// with_key_bits with every bit taking part.
template <class F>
auto with_key_bits(KeyType type, F&& f) {
  return with_key_bits(type, SortOptions{}, std::forward<F>(f));
}

}  // namespace vkc::sorting
