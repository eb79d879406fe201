// The table of key types: every fact about a KeyType (its C++ type, name, bytes, 32-bit words,
// the order-preserving map its kernels apply and so whether it has NaNs) comes from here, and
// the kernels' side of them from shaders/common/key_layout.h, which both include. key_bytes,
// value_bytes, to_string(KeyType) (sort.cpp), key_kind (dispatcher.cpp), with_key_bits
// (key_bits.hpp) and the tests read this table. Include it from src/ and tests/ only: it needs
// shaders/common on the include path.
//
// A new KeyType fails to compile until it has a row here (the switch below has no default, and
// the library builds with -Werror=switch), until key_type_of (vkc/sort.hpp) names its C++ type,
// and, if it is wider than KEY_MAX_WORDS, until the kernels take it. Keys of 8 and 16 bits are
// widened on the device into their ordered image, one 32-bit word (narrow_keys.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <type_traits>

#include "key_layout.h"
#include "vkc/sort.hpp"

namespace vkc::sorting {

/// The order-preserving map of a key type's kernels, valued as their KEY_KIND constant.
enum class KeyKind : std::uint32_t {
  unsigned_int = KEY_KIND_UINT,
  signed_int = KEY_KIND_INT,
  floating = KEY_KIND_FLOAT,  ///< IEEE 754: the one kind with NaNs (last in both orders)
};

/// The unsigned integer of `bytes` bytes: the bits that KeyBits (key_bits.hpp) maps.
template <std::size_t bytes>
using UnsignedOf = std::conditional_t<
    bytes == 1, std::uint8_t,
    std::conditional_t<bytes == 2, std::uint16_t, std::conditional_t<bytes == 4, std::uint32_t, std::uint64_t>>>;

/// One row of the table: key type `Id`, stored as the C++ type T, mapped by `Kind`; a float's
/// exponent field (all ones: infinities and NaNs) is `Exponent`.
template <KeyType Id, class T, KeyKind Kind, std::uint64_t Exponent = 0>
struct KeyRow {
  using type = T;
  using bits = UnsignedOf<sizeof(T)>;
  static constexpr KeyType id = Id;
  static constexpr KeyKind kind = Kind;
  static constexpr std::uint32_t bytes = sizeof(T);
  static constexpr std::uint32_t width = bytes * 8;  ///< key_bits(): what end_bit means past it
  /// Narrower than a 32-bit word: packed in memory, and widened on the device to one 32-bit
  /// word, its ordered image, which the algorithms sort (narrow_keys.cpp).
  static constexpr bool narrow = bytes < 4;
  static constexpr std::uint32_t words = narrow ? 1 : bytes / 4;  ///< the KEY_WORDS constant
  static constexpr bool has_nan = Kind == KeyKind::floating;
  static constexpr bits exponent = static_cast<bits>(Exponent);
  static constexpr bits sign = bits(bits{1} << (width - 1));

  static_assert(bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8);
  static_assert(words >= 1 && words <= KEY_MAX_WORDS,
                "the kernels take keys of 1 to KEY_MAX_WORDS whole 32-bit words (key_layout.h)");
  static_assert(key_type_of<T>() == Id, "key_type_of (vkc/sort.hpp) names the same C++ type");
  static_assert((Kind == KeyKind::floating) == (Exponent != 0), "floats, and only floats, name their exponent");
  static_assert(Kind == KeyKind::floating || std::is_signed_v<T> == (Kind == KeyKind::signed_int),
                "the map fits the C++ type");

  std::string_view name;  ///< to_string(KeyType): what the CLI and test names print
};

/// Calls f(KeyRow<...>{name}) with the row of `type`: the table itself.
template <class F>
constexpr decltype(auto) with_key_type(KeyType type, F&& f) {
  using enum KeyType;
  using enum KeyKind;
  switch (type) {
    //                         id    C++ type       map           exponent               name
    case u32:  return f(KeyRow<u32,  std::uint32_t, unsigned_int>                      {"u32"});
    case i32:  return f(KeyRow<i32,  std::int32_t,  signed_int>                        {"i32"});
    case f32:  return f(KeyRow<f32,  float,         floating,     0x7F800000u>         {"f32"});
    case u64:  return f(KeyRow<u64,  std::uint64_t, unsigned_int>                      {"u64"});
    case i64:  return f(KeyRow<i64,  std::int64_t,  signed_int>                        {"i64"});
    case f64:  return f(KeyRow<f64,  double,        floating,     0x7FF0000000000000u> {"f64"});
    case u8:   return f(KeyRow<u8,   std::uint8_t,  unsigned_int>                      {"u8"});
    case i8:   return f(KeyRow<i8,   std::int8_t,   signed_int>                        {"i8"});
    case u16:  return f(KeyRow<u16,  std::uint16_t, unsigned_int>                      {"u16"});
    case i16:  return f(KeyRow<i16,  std::int16_t,  signed_int>                        {"i16"});
    case f16:  return f(KeyRow<f16,  Float16,       floating,     0x7C00u>             {"f16"});
    case bf16: return f(KeyRow<bf16, BFloat16,      floating,     0x7F80u>             {"bf16"});
  }
  throw Error("unknown key type");
}

/// Whether keys of `type` are narrower than a 32-bit word (KeyRow::narrow).
constexpr bool is_narrow(KeyType type) {
  return with_key_type(type, [](auto row) { return row.narrow; });
}

/// Device bytes of `count` keys: whole 32-bit words, as the kernels read them (narrow keys lie
/// packed in them).
inline std::uint64_t device_key_bytes(KeyType type, std::uint64_t count) { return (count * key_bytes(type) + 3) / 4 * 4; }

/// 32-bit words of a key: the KEY_WORDS constant.
constexpr std::uint32_t key_words(KeyType type) {
  return with_key_type(type, [](auto row) { return row.words; });
}

/// Every key type, in the order of the enumeration (for tests that go through them all).
inline constexpr KeyType kKeyTypes[] = {KeyType::u32, KeyType::i32, KeyType::f32, KeyType::u64,
                                        KeyType::i64, KeyType::f64, KeyType::u8,  KeyType::i8,
                                        KeyType::u16, KeyType::i16, KeyType::f16, KeyType::bf16};

/// Whether the table has a row for `Type` (without one, with_key_type throws: no constant).
template <KeyType Type>
concept KeyTypeInTable = requires { typename std::integral_constant<std::uint32_t, key_words(Type)>; };
constexpr bool key_types_listed_in_order() {
  for (std::size_t i = 0; i < std::size(kKeyTypes); ++i) {
    if (kKeyTypes[i] != KeyType(i)) return false;
  }
  return !KeyTypeInTable<KeyType(std::size(kKeyTypes))>;
}
static_assert(key_types_listed_in_order(), "kKeyTypes lists every key type of the table, in order");

/// The key type's map; as a number, the KEY_KIND constant (key_kind in algorithm.hpp).
constexpr KeyKind key_kind_of(KeyType type) {
  return with_key_type(type, [](auto row) { return row.kind; });
}

/// 32-bit words of a value: the VALUE_WORDS constant (0 without values).
constexpr std::uint32_t value_words(ValueType type) {
  switch (type) {
    case ValueType::none: return 0;
    case ValueType::u32: return 1;
    case ValueType::u64: return 2;
  }
  throw Error("unknown value type");
}
static_assert(value_words(ValueType::u64) <= VALUE_MAX_WORDS, "the kernels take values of up to VALUE_MAX_WORDS words");

}  // namespace vkc::sorting
