// Specification of the table of key types (src/sort/key_types.hpp) as the public functions and
// the kernels' constants see it, against the types' facts written out here independently.
#include "sort/key_types.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "sort/algorithm.hpp"
#include "sort/key_bits.hpp"

namespace vkc::test {
namespace {

struct Expected {
  KeyType type;
  const char* name;
  std::size_t bytes;
  std::uint32_t kind;  // the kernels' KEY_KIND (shaders/common/key_layout.h)
  std::uint64_t exponent = 0;  // floats: the exponent field, all ones
};

constexpr Expected kExpected[] = {
    {KeyType::u32, "u32", 4, KEY_KIND_UINT},
    {KeyType::i32, "i32", 4, KEY_KIND_INT},
    {KeyType::f32, "f32", 4, KEY_KIND_FLOAT, 0xFFull << 23},
    {KeyType::u64, "u64", 8, KEY_KIND_UINT},
    {KeyType::i64, "i64", 8, KEY_KIND_INT},
    {KeyType::f64, "f64", 8, KEY_KIND_FLOAT, 0x7FFull << 52},
    {KeyType::u8, "u8", 1, KEY_KIND_UINT},
    {KeyType::i8, "i8", 1, KEY_KIND_INT},
    {KeyType::u16, "u16", 2, KEY_KIND_UINT},
    {KeyType::i16, "i16", 2, KEY_KIND_INT},
    {KeyType::f16, "f16", 2, KEY_KIND_FLOAT, 0x1Full << 10},  // IEEE binary16: 5 exponent bits, 10 mantissa bits
    {KeyType::bf16, "bf16", 2, KEY_KIND_FLOAT, 0xFFull << 7}, // bfloat16: 8 exponent bits, 7 mantissa bits
};

TEST(KeyTypes, EachHasItsNameWidthAndKernelKind) {
  ASSERT_EQ(std::size(sorting::kKeyTypes), std::size(kExpected));
  for (const Expected& e : kExpected) {
    EXPECT_EQ(to_string(e.type), e.name);
    EXPECT_EQ(key_bytes(e.type), e.bytes) << e.name;
    EXPECT_EQ(key_bits(e.type), e.bytes * 8) << e.name;
    // Keys of less than a word are sorted as one word each, their ordered images.
    EXPECT_EQ(sorting::key_words(e.type) * 4, std::max<std::size_t>(e.bytes, 4)) << e.name;
    EXPECT_EQ(sorting::is_narrow(e.type), e.bytes < 4) << e.name;
    EXPECT_EQ(sorting::key_kind(e.type), e.kind) << e.name;
    sorting::with_key_type(e.type, [&](auto row) { EXPECT_EQ(row.exponent, e.exponent) << e.name; });
  }
}

TEST(KeyTypes, EachIsStoredAsTheCppTypeThatNamesIt) {
  std::set<std::string> names;
  for (KeyType type : sorting::kKeyTypes) {
    sorting::with_key_type(type, [&](auto row) {
      using T = typename decltype(row)::type;
      EXPECT_EQ(key_type_of<T>(), type) << row.name;
      EXPECT_EQ(sizeof(T), key_bytes(type)) << row.name;
      constexpr bool half_float = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;
      EXPECT_EQ(row.has_nan, std::is_floating_point_v<T> || half_float) << row.name;
    });
    EXPECT_TRUE(names.insert(std::string(to_string(type))).second) << to_string(type) << " twice";
  }
}

TEST(KeyTypes, ValuesAreNoneOrOneOrTwoWords) {
  EXPECT_EQ(value_bytes(ValueType::none), 0u);
  EXPECT_EQ(value_bytes(ValueType::u32), 4u);
  EXPECT_EQ(value_bytes(ValueType::u64), 8u);
}

// An enumerator the table lacks (a KeyType from outside, through a cast) has no width: no
// function guesses one.
TEST(KeyTypes, AnUnknownKeyTypeIsAnError) {
  const KeyType unknown = static_cast<KeyType>(99);
  EXPECT_THROW(key_bytes(unknown), Error);
  EXPECT_THROW(to_string(unknown), Error);
  EXPECT_THROW(sorting::key_kind(unknown), Error);
  EXPECT_THROW(value_bytes(static_cast<ValueType>(99)), Error);
}

}  // namespace
}  // namespace vkc::test

namespace vkc::test {
namespace {

// KeyBits::unrank undoes rank for every canonical 8- and 16-bit key in both orders: the segmented
// sorts' narrow keys travel through their ranks and back.
template <class Bits>
void expect_unrank_inverts_rank(KeyType type) {
  SCOPED_TRACE(std::string(to_string(type)));
  const auto bits = sorting::with_key_bits(type, SortOptions{}, [](auto b) {
    if constexpr (std::is_same_v<decltype(b), sorting::KeyBits<Bits>>) return b;
    else return sorting::KeyBits<Bits>{};
  });
  for (bool descending : {false, true}) {
    std::set<Bits> ranks;
    for (std::uint32_t k = 0; k <= Bits(~Bits{0}); ++k) {
      const Bits key = bits.canonical(Bits(k));
      const Bits rank = bits.rank(key, descending);
      ASSERT_EQ(bits.unrank(rank, descending), key) << std::hex << "key 0x" << k << (descending ? " descending" : "");
      ranks.insert(rank);
    }
    // Distinct canonical keys have distinct ranks: only the negative NaNs (one per nonzero
    // mantissa) fold into the positive ones.
    const std::size_t negative_nans = bits.kind == sorting::KeyKind::floating ? Bits(~bits.kSign & ~bits.exponent) : 0;
    EXPECT_EQ(ranks.size(), std::size_t(Bits(~Bits{0})) + 1 - negative_nans);
  }
}

TEST(KeyBits, UnrankInvertsRankForEveryNarrowKey) {
  expect_unrank_inverts_rank<std::uint8_t>(KeyType::u8);
  expect_unrank_inverts_rank<std::uint8_t>(KeyType::i8);
  expect_unrank_inverts_rank<std::uint16_t>(KeyType::u16);
  expect_unrank_inverts_rank<std::uint16_t>(KeyType::i16);
  expect_unrank_inverts_rank<std::uint16_t>(KeyType::f16);
  expect_unrank_inverts_rank<std::uint16_t>(KeyType::bf16);
}

}  // namespace
}  // namespace vkc::test
