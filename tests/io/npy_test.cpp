// Specification of .npy and raw reading/writing: round trips, NumPy-written headers, every bad input.
#include "io/npy.hpp"

#include "numpy_python.hpp"
#include "scratch_dir.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <thread>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace vkc::io {
namespace {

using test::read_file;
using test::to_bytes;
using test::write_file;

constexpr DType all_dtypes[] = {DType::u32, DType::i32, DType::f32, DType::u64, DType::i64, DType::f64,
                                DType::u8,  DType::i8,  DType::u16, DType::i16, DType::f16};

// An .npy file built by hand, the way NumPy lays it out: magic, version, little-endian header
// length (2 bytes for 1.0, 4 for 2.0/3.0), the dict, spaces and '\n' up to a multiple of 64.
std::string npy_file(int major, std::string_view dict, std::string_view data) {
  const std::size_t prefix = major == 1 ? 10 : 12;
  const std::size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  const std::size_t length = total - prefix;
  std::string file = "\x93NUMPY";
  file += static_cast<char>(major);
  file += '\0';
  for (std::size_t i = 0; i < prefix - 8; ++i) file += static_cast<char>(length >> (8 * i) & 0xff);
  file += dict;
  file += std::string(total - file.size() - 1, ' ') + '\n';
  return file + std::string(data);
}

std::string u32_data(std::initializer_list<std::uint32_t> values) {
  std::string data;
  for (std::uint32_t v : values) {
    for (int i = 0; i < 4; ++i) data += static_cast<char>(v >> (8 * i) & 0xff);
  }
  return data;
}

std::vector<std::byte> pattern(std::size_t n) {
  std::vector<std::byte> bytes(n);
  for (std::size_t i = 0; i < n; ++i) bytes[i] = static_cast<std::byte>((i * 37 + 11) & 0xff);
  return bytes;
}

// Runs f, which must throw FormatError with a one-line message naming file and containing fragment.
template <class F>
void expect_format_error(F&& f, const std::filesystem::path& file, std::string_view fragment) {
  try {
    f();
    ADD_FAILURE() << "no FormatError for " << file;
  } catch (const FormatError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(file.string()), std::string::npos) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

class Npy : public test::ScratchDir {
 protected:
  // Writes contents to a file and expects read_npy to reject it with a message containing fragment.
  void expect_rejected(std::string_view contents, std::string_view fragment) {
    const auto file = path("bad.npy");
    write_file(file, contents);
    expect_format_error([&] { read_npy(file); }, file, fragment);
  }
};

const std::string header_5_u32 = "{'descr': '<u4', 'fortran_order': False, 'shape': (5,), }";

// ---- dtypes ----

TEST(DTypes, NamesRoundTripThroughParse) {
  for (DType dtype : all_dtypes) EXPECT_EQ(parse_dtype(dtype_name(dtype)), dtype);
}

TEST(DTypes, HaveTheDocumentedNamesDescrsAndSizes) {
  EXPECT_EQ(dtype_name(DType::u32), "u32");
  EXPECT_EQ(dtype_name(DType::f64), "f64");
  EXPECT_EQ(npy_descr(DType::u32), "<u4");
  EXPECT_EQ(npy_descr(DType::i32), "<i4");
  EXPECT_EQ(npy_descr(DType::f32), "<f4");
  EXPECT_EQ(npy_descr(DType::u64), "<u8");
  EXPECT_EQ(npy_descr(DType::i64), "<i8");
  EXPECT_EQ(npy_descr(DType::f64), "<f8");
  EXPECT_EQ(npy_descr(DType::u8), "|u1");
  EXPECT_EQ(npy_descr(DType::i8), "|i1");
  EXPECT_EQ(npy_descr(DType::u16), "<u2");
  EXPECT_EQ(npy_descr(DType::i16), "<i2");
  EXPECT_EQ(npy_descr(DType::f16), "<f2");
  EXPECT_EQ(dtype_name(DType::f16), "f16");
  for (DType dtype : all_dtypes) {
    EXPECT_EQ(dtype_size(dtype), static_cast<std::size_t>(npy_descr(dtype)[2] - '0')) << dtype_name(dtype);
  }
}

TEST(DTypes, ParseRejectsOtherNames) {
  EXPECT_EQ(parse_dtype("U32"), std::nullopt);
  EXPECT_EQ(parse_dtype("bf16"), std::nullopt);  // no NumPy dtype: the CLI carries it as u16
  EXPECT_EQ(parse_dtype("f8"), std::nullopt);
  EXPECT_EQ(parse_dtype("<u4"), std::nullopt);
  EXPECT_EQ(parse_dtype(""), std::nullopt);
}

TEST(ArrayCount, IsProductOfShapeAndOneForScalar) {
  EXPECT_EQ((Array{DType::u32, {}, {}}.count()), 1u);
  EXPECT_EQ((Array{DType::u32, {7}, {}}.count()), 7u);
  EXPECT_EQ((Array{DType::u32, {3, 4}, {}}.count()), 12u);
  EXPECT_EQ((Array{DType::u32, {3, 0}, {}}.count()), 0u);
}

// ---- round trips ----

TEST_F(Npy, RoundTripsEveryDtypeIn1DAnd2D) {
  for (DType dtype : all_dtypes) {
    for (const std::vector<std::size_t>& shape : {std::vector<std::size_t>{5}, std::vector<std::size_t>{3, 4}}) {
      const auto file = path("a.npy");
      const auto bytes = pattern(dtype_size(dtype) * Array{dtype, shape, {}}.count());
      write_npy(file, dtype, bytes, shape);
      const Array back = read_npy(file);
      EXPECT_EQ(back.dtype, dtype);
      EXPECT_EQ(back.shape, shape);
      EXPECT_EQ(back.bytes, bytes) << dtype_name(dtype);
    }
  }
}

TEST_F(Npy, RoundTripsZeroElements) {
  for (DType dtype : all_dtypes) {
    for (const std::vector<std::size_t>& shape : {std::vector<std::size_t>{0}, std::vector<std::size_t>{0, 4}}) {
      write_npy(path("e.npy"), dtype, {}, shape);
      const Array back = read_npy(path("e.npy"));
      EXPECT_EQ(back.dtype, dtype);
      EXPECT_EQ(back.shape, shape);
      EXPECT_TRUE(back.bytes.empty());
    }
  }
}

TEST_F(Npy, RoundTripsScalarShape) {
  const double value = -2.5;
  write_npy(path("s.npy"), DType::f64, std::as_bytes(std::span(&value, 1)), {});
  const Array back = read_npy(path("s.npy"));
  EXPECT_TRUE(back.shape.empty());
  double read_value = 0;
  ASSERT_EQ(back.bytes.size(), sizeof read_value);
  std::memcpy(&read_value, back.bytes.data(), sizeof read_value);
  EXPECT_EQ(read_value, value);
}

TEST_F(Npy, WritesVersion1HeaderExactlyAsNumPyDoes) {
  const auto data = to_bytes(u32_data({1, 2, 3, 4, 5}));
  write_npy(path("n.npy"), DType::u32, data, {5});
  EXPECT_EQ(read_file(path("n.npy")), npy_file(1, header_5_u32, u32_data({1, 2, 3, 4, 5})));
}

TEST_F(Npy, WritesHeaderSoDataStartsAt64ByteMultiple) {
  for (std::size_t dims = 0; dims < 40; ++dims) {
    const std::vector<std::size_t> shape(dims, 1);
    write_npy(path("p.npy"), DType::i64, pattern(8), shape);
    const std::string file = read_file(path("p.npy"));
    EXPECT_EQ((file.size() - 8) % 64, 0u) << dims << " dimensions";
    EXPECT_EQ(file[file.size() - 9], '\n');
  }
}

TEST_F(Npy, WritesVersion2WhenHeaderExceeds64KiB) {
  const std::vector<std::size_t> shape(30000, 1);  // "1, " per dimension: ~90 KB of header
  write_npy(path("big.npy"), DType::f32, pattern(4), shape);
  const std::string file = read_file(path("big.npy"));
  EXPECT_EQ(file[6], '\x02');
  EXPECT_EQ(file[7], '\x00');
  EXPECT_EQ((file.size() - 4) % 64, 0u);
  EXPECT_EQ(read_npy(path("big.npy")).shape, shape);
}

TEST_F(Npy, WriteRawThenReadRawRoundTrips) {
  const auto bytes = pattern(24);
  write_raw(path("r.bin"), bytes);
  EXPECT_EQ(read_file(path("r.bin")).size(), 24u);
  const Array back = read_raw(path("r.bin"), DType::u64);
  EXPECT_EQ(back.dtype, DType::u64);
  EXPECT_EQ(back.shape, std::vector<std::size_t>{3});
  EXPECT_EQ(back.bytes, bytes);
}

TEST_F(Npy, ReadsEmptyRawFileAsZeroElements) {
  write_file(path("empty.bin"), "");
  EXPECT_EQ(read_raw(path("empty.bin"), DType::f32).shape, std::vector<std::size_t>{0});
}

TEST_F(Npy, WriteRejectsDataSizeThatDisagreesWithShape) {
  EXPECT_THROW(write_npy(path("x.npy"), DType::u32, pattern(12), {4}), Error);
  EXPECT_TRUE(entries().empty());
}

// ---- headers as NumPy and others write them ----

TEST_F(Npy, ReadsNumPyVersion1Header) {
  write_file(path("v1.npy"), npy_file(1, header_5_u32, u32_data({10, 20, 30, 40, 50})));
  const Array a = read_npy(path("v1.npy"));
  EXPECT_EQ(a.dtype, DType::u32);
  EXPECT_EQ(a.shape, std::vector<std::size_t>{5});
  EXPECT_EQ(a.bytes, to_bytes(u32_data({10, 20, 30, 40, 50})));
}

TEST_F(Npy, ReadsVersion2And3Headers) {
  for (int major : {2, 3}) {
    write_file(path("v.npy"), npy_file(major, header_5_u32, u32_data({1, 2, 3, 4, 5})));
    EXPECT_EQ(read_npy(path("v.npy")).shape, std::vector<std::size_t>{5}) << "version " << major;
  }
}

TEST_F(Npy, ReadsHeaderWithKeysInAnyOrderAndNoTrailingComma) {
  write_file(path("o.npy"), npy_file(1, "{'shape': (2, 2), 'fortran_order': False, 'descr': '<i8'}", std::string(32, 'x')));
  const Array a = read_npy(path("o.npy"));
  EXPECT_EQ(a.dtype, DType::i64);
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 2}));
}

TEST_F(Npy, ReadsHeaderWithOddSpacingAndDoubleQuotes) {
  write_file(path("s.npy"),
             npy_file(1, "{ \"descr\" :\"<f4\" ,'fortran_order':False,'shape':( 3 , ) , }", std::string(12, 'x')));
  EXPECT_EQ(read_npy(path("s.npy")).shape, std::vector<std::size_t>{3});
}

TEST_F(Npy, ReadsShapesOfEveryArity) {
  const std::pair<std::string, std::vector<std::size_t>> cases[] = {
      {"()", {}}, {"(5,)", {5}}, {"(3, 4)", {3, 4}}, {"(2, 1, 3)", {2, 1, 3}}, {"(5L,)", {5}}};
  for (const auto& [text, shape] : cases) {
    const std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': " + text + ", }";
    write_file(path("a.npy"), npy_file(1, dict, std::string(8 * Array{DType::f64, shape, {}}.count(), 'x')));
    EXPECT_EQ(read_npy(path("a.npy")).shape, shape) << text;
  }
}

TEST_F(Npy, ReadsHeaderPaddedTo16BytesAsOldNumPyDid) {
  // NumPy before 1.9 aligned to 16 bytes; the header length field, not the alignment, counts.
  std::string file = std::string("\x93NUMPY\x01\x00\x46\x00", 10) + header_5_u32;
  file += std::string(80 - file.size() - 1, ' ') + '\n';
  write_file(path("old.npy"), file + u32_data({1, 2, 3, 4, 5}));
  EXPECT_EQ(read_npy(path("old.npy")).count(), 5u);
}

TEST_F(Npy, LooksLikeNpyChecksOnlyTheMagic) {
  write_npy(path("a.npy"), DType::u32, {}, {0});
  write_file(path("raw.bin"), "\x93NUMPZ rest");
  write_file(path("short"), "\x93NUM");
  EXPECT_TRUE(looks_like_npy(path("a.npy")));
  EXPECT_FALSE(looks_like_npy(path("raw.bin")));
  EXPECT_FALSE(looks_like_npy(path("short")));
  EXPECT_FALSE(looks_like_npy(path("missing")));
  EXPECT_FALSE(looks_like_npy(dir_));
}

// ---- bad inputs ----

TEST_F(Npy, RejectsMissingFile) {
  expect_format_error([&] { read_npy(path("nope.npy")); }, path("nope.npy"), "cannot open");
  expect_format_error([&] { read_raw(path("nope.bin"), DType::u32); }, path("nope.bin"), "cannot open");
}

TEST_F(Npy, RejectsDirectory) {
  expect_format_error([&] { read_npy(dir_); }, dir_, "not a regular file");
}

// The open() failure's system message reaches the user. A path through a regular file fails
// with ENOTDIR for every user, root included (permission bits do not stop root).
TEST_F(Npy, RejectsAPathThatCannotBeOpenedWithTheSystemReason) {
  write_file(path("file"), "not a directory");
  expect_format_error([&] { read_npy(path("file/in.npy")); }, path("file/in.npy"), "cannot open: Not a directory");
  expect_format_error([&] { read_raw(path("file/in.bin"), DType::u32); }, path("file/in.bin"), "Not a directory");
}

TEST_F(Npy, RejectsUnreadableFileWhenNotRoot) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads files regardless of permissions (see the ENOTDIR test)";
  write_file(path("locked.npy"), npy_file(1, header_5_u32, u32_data({1, 2, 3, 4, 5})));
  std::filesystem::permissions(path("locked.npy"), std::filesystem::perms::none);
  expect_format_error([&] { read_npy(path("locked.npy")); }, path("locked.npy"), "Permission denied");
}

TEST_F(Npy, FormatErrorIsAVkcError) {
  try {
    read_npy(path("nope.npy"));
    ADD_FAILURE() << "no exception";
  } catch (const vkc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("nope.npy"), std::string::npos);
  }
}

TEST_F(Npy, RejectsBadMagic) {
  expect_rejected("PK\x03\x04 this is a zip archive", "not an .npy file");
  expect_rejected("", "not an .npy file");
}

TEST_F(Npy, RejectsTruncatedHeader) {
  expect_rejected("\x93NUMPY\x01", "truncated header");
  expect_rejected(npy_file(1, header_5_u32, "").substr(0, 40), "truncated header");
  expect_rejected(std::string("\x93NUMPY\x02\x00\x10\x00", 10), "truncated header");
}

TEST_F(Npy, RejectsUnsupportedFormatVersion) {
  std::string file = npy_file(1, header_5_u32, u32_data({1, 2, 3, 4, 5}));
  file[6] = '\x04';
  expect_rejected(file, "version 4.0");
}

TEST_F(Npy, RejectsTruncatedData) {
  expect_rejected(npy_file(1, header_5_u32, u32_data({1, 2, 3, 4})), "truncated data");
}

TEST_F(Npy, RejectsDataLongerThanShape) {
  expect_rejected(npy_file(1, header_5_u32, u32_data({1, 2, 3, 4, 5, 6})), "data longer than the header says");
}

TEST_F(Npy, RejectsShapeTooLargeToAddress) {
  expect_rejected(
      npy_file(1, "{'descr': '<u4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", ""),
      "too large");
}

TEST_F(Npy, RejectsBigEndianDtype) {
  expect_rejected(npy_file(1, "{'descr': '>u4', 'fortran_order': False, 'shape': (1,), }", "abcd"),
                  "unsupported dtype '>u4': big-endian");
}

TEST_F(Npy, RejectsObjectDtype) {
  expect_rejected(npy_file(1, "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", "abcdefgh"),
                  "unsupported dtype '|O': object arrays");
}

TEST_F(Npy, ReadsEveryByteOrderSpellingOfOneByteDtypes) {
  for (std::string descr : {"|u1", "<u1", ">u1", "=u1", "u1"}) {
    write_file(path("b.npy"), npy_file(1, "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (3,), }", "abc"));
    EXPECT_EQ(read_npy(path("b.npy")).dtype, DType::u8) << descr;
  }
  write_file(path("i.npy"), npy_file(1, "{'descr': '|i1', 'fortran_order': False, 'shape': (3,), }", "abc"));
  EXPECT_EQ(read_npy(path("i.npy")).dtype, DType::i8);
}

TEST_F(Npy, RejectsBigEndianHalfFloats) {
  expect_rejected(npy_file(1, "{'descr': '>f2', 'fortran_order': False, 'shape': (1,), }", "ab"),
                  "unsupported dtype '>f2': big-endian");
}

TEST_F(Npy, RejectsBoolComplexStringAndVoidDtypes) {
  for (std::string descr : {"|b1", "<c8", "<U5", "|V2"}) {
    expect_rejected(npy_file(1, "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (1,), }", "abcdefgh"),
                    "unsupported dtype '" + descr + "'");
  }
}

TEST_F(Npy, RejectsStructuredDtype) {
  expect_rejected(
      npy_file(1, "{'descr': [('x', '<f4'), ('y', '<f4')], 'fortran_order': False, 'shape': (1,), }", "abcdefgh"),
      "unsupported dtype [('x', '<f4'), ('y', '<f4')]");
}

TEST_F(Npy, RejectsFortranOrder) {
  expect_rejected(npy_file(1, "{'descr': '<u4', 'fortran_order': True, 'shape': (2, 2), }", std::string(16, 'x')),
                  "fortran_order: True");
}

TEST_F(Npy, RejectsMalformedHeaderDict) {
  const std::string bad[] = {
      "{'descr': '<u4', 'fortran_order': False}",                            // no shape
      "{'descr': '<u4', 'fortran_order': False, 'shape': (5,), 'x': 1}",     // unknown key
      "{'descr': '<u4', 'descr': '<u4', 'fortran_order': False, 'shape': (5,)}",  // duplicate key
      "{'descr': '<u4', 'fortran_order': False, 'shape': (5,)",              // unterminated dict
      "{'descr': '<u4, 'fortran_order': False, 'shape': (5,)}",              // broken quote
      "{'descr': '<u4', 'fortran_order': 0, 'shape': (5,)}",                 // not a bool
      "{'descr': '<u4', 'fortran_order': False, 'shape': 5}",                // not a tuple
      "{'descr': '<u4', 'fortran_order': False, 'shape': (-5,)}",            // negative
      "{'descr': '<u4', 'fortran_order': False, 'shape': ('5',)}",           // not an integer
      "{'descr': '<u4', 'fortran_order': False, 'shape': (5,)} junk",        // text after dict
      "['descr', '<u4']",                                                    // not a dict
  };
  for (const std::string& dict : bad) {
    SCOPED_TRACE(dict);
    expect_rejected(npy_file(1, dict, u32_data({1, 2, 3, 4, 5})), "malformed header dict");
  }
}

// The header parser recurses per nesting level; a hostile header must not reach the stack's end.
TEST_F(Npy, RejectsDeeplyNestedHeaderWithoutCrashing) {
  for (std::size_t levels : {33u, 20000u, 32000u}) {
    const std::string dict = "{'descr': '<u4', 'fortran_order': False, 'shape': " + std::string(levels, '(') + "}";
    const auto file = path("nested.npy");
    write_file(file, npy_file(levels > 40000 ? 2 : 1, dict, ""));
    try {
      read_npy(file);
      ADD_FAILURE() << levels << " levels accepted";
    } catch (const FormatError& e) {
      EXPECT_NE(std::string(e.what()).find("nested deeper than 32 levels"), std::string::npos) << e.what();
      EXPECT_LT(std::string(e.what()).size(), 300u) << levels << " levels";
    }
  }
}

TEST_F(Npy, ReadsNestingUpToTheCap) {
  std::string shape = "(1,)";
  for (int level = 1; level < 32; ++level) shape = "(" + shape + ",)";
  expect_rejected(npy_file(1, "{'descr': '<u4', 'fortran_order': False, 'shape': " + shape + "}", ""),
                  "holds a non-integer");  // parsed to the end: the shape's element is a tuple
}

TEST_F(Npy, RejectsHeaderLongerThanTheLimit) {
  std::string file = std::string("\x93NUMPY\x02\x00", 8);
  for (int i = 0; i < 4; ++i) file += static_cast<char>(((16u << 20) >> (8 * i)) & 0xff);
  expect_rejected(file + header_5_u32, "header of 16777216 bytes is longer than the 1048576-byte limit");
}

// A NUL would end the message where C strings are printed; control bytes would break the line.
TEST_F(Npy, QuotesNulAndControlBytesSafely) {
  const std::string dict = std::string("{'descr': '<u\0\n\x1b" "4', 'fortran_order': False, 'shape': (1,), }", 60);
  const auto file = path("nul.npy");
  write_file(file, npy_file(1, dict, "abcd"));
  try {
    read_npy(file);
    ADD_FAILURE() << "accepted";
  } catch (const FormatError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.size(), std::strlen(e.what())) << "a NUL in the message";
    EXPECT_NE(message.find("'<u\\x00\\x0a\\x1b4'"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  expect_rejected(npy_file(1, std::string("{'descr': \0'<u4'}", 17), ""), "unexpected character '\\x00'");
}

TEST_F(Npy, QuotesALongBadValueBriefly) {
  const std::string descr(20000, 'a');
  const auto file = path("long.npy");
  write_file(file, npy_file(1, "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (1,), }", "abcd"));
  try {
    read_npy(file);
    ADD_FAILURE() << "accepted";
  } catch (const FormatError& e) {
    EXPECT_LT(std::string(e.what()).size(), 300u);
    EXPECT_NE(std::string(e.what()).find("aaaa... (20000 bytes)"), std::string::npos) << e.what();
  }
}

// ---- reading in two steps, and from streams ----

TEST_F(Npy, ReaderKnowsTheCountBeforeReadingTheData) {
  write_file(path("a.npy"), npy_file(1, header_5_u32, u32_data({5, 4, 3, 2, 1})));
  ArrayReader npy(path("a.npy"), InputFormat::detect, DType::f64);
  EXPECT_TRUE(npy.is_npy());
  EXPECT_EQ(npy.dtype(), DType::u32);
  EXPECT_EQ(npy.count(), 5u);
  EXPECT_EQ(npy.read().bytes, to_bytes(u32_data({5, 4, 3, 2, 1})));
  write_file(path("a.bin"), u32_data({7, 8, 9}));
  ArrayReader raw(path("a.bin"), InputFormat::detect, DType::u32);
  EXPECT_FALSE(raw.is_npy());
  EXPECT_EQ(raw.count(), 3u);
  EXPECT_EQ(raw.read().bytes, to_bytes(u32_data({7, 8, 9})));
}

TEST_F(Npy, ReaderRefusesMoreThanTheLimitBeforeReading) {
  write_file(path("a.npy"), npy_file(1, header_5_u32, u32_data({5, 4, 3, 2, 1})));
  ArrayReader npy(path("a.npy"), InputFormat::npy);
  expect_format_error([&] { npy.read(16); }, path("a.npy"), "more than the 16 allowed");
}

// A FIFO is read as a stream (as standard input is): no size up front, the end found by reading.
class NpyStream : public test::ScratchDir {
 protected:
  void SetUp() override {
    test::ScratchDir::SetUp();
    std::signal(SIGPIPE, SIG_IGN);  // a reader that stops early must fail the test, not end it
  }
  // Reads `contents` through a FIFO written by another thread.
  template <class F>
  void through_fifo(const std::string& contents, F&& read) {
    const auto fifo = path("fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] { write_file(fifo, contents); });
    try {
      read(fifo);
    } catch (...) {
      writer.join();
      throw;
    }
    writer.join();
  }
};

TEST_F(NpyStream, ReadsNpyAndRawFromAStream) {
  through_fifo(npy_file(1, header_5_u32, u32_data({1, 2, 3, 4, 5})), [&](const auto& fifo) {
    ArrayReader reader(fifo, InputFormat::detect);
    EXPECT_TRUE(reader.is_npy());
    EXPECT_EQ(reader.count(), 5u);
    EXPECT_EQ(reader.read().bytes, to_bytes(u32_data({1, 2, 3, 4, 5})));
  });
  std::filesystem::remove(path("fifo"));
  through_fifo(u32_data({9, 8, 7}), [&](const auto& fifo) {
    ArrayReader reader(fifo, InputFormat::detect, DType::u32);
    EXPECT_FALSE(reader.is_npy());
    EXPECT_EQ(reader.count(), std::nullopt);
    const Array a = reader.read();
    EXPECT_EQ(a.shape, std::vector<std::size_t>{3});
    EXPECT_EQ(a.bytes, to_bytes(u32_data({9, 8, 7})));
  });
}

TEST_F(NpyStream, RejectsStreamDataShorterOrLongerThanTheHeader) {
  through_fifo(npy_file(1, header_5_u32, u32_data({1, 2, 3, 4})), [&](const auto& fifo) {
    expect_format_error([&] { ArrayReader(fifo, InputFormat::npy).read(); }, fifo, "truncated data");
  });
  std::filesystem::remove(path("fifo"));
  through_fifo(npy_file(1, header_5_u32, u32_data({1, 2, 3, 4, 5, 6})), [&](const auto& fifo) {
    expect_format_error([&] { ArrayReader(fifo, InputFormat::npy).read(); }, fifo, "data longer than the header says");
  });
}

TEST_F(NpyStream, ReadsANpyStreamInPiecesAndChecksItsLength) {
  std::vector<std::uint32_t> values(3 << 20);  // 12 MiB: several pieces, the last one short
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::uint32_t>(i * 2654435761u);
  const std::string data(reinterpret_cast<const char*>(values.data()), values.size() * 4);
  const std::string header = npy_header(DType::u32, std::vector<std::size_t>{values.size()});
  through_fifo(header + data, [&](const auto& fifo) {
    ArrayReader reader(fifo, InputFormat::detect);
    std::string got;
    std::size_t pieces = 0;
    reader.read_in_pieces([&](std::span<const std::byte> piece) {
      got.append(reinterpret_cast<const char*>(piece.data()), piece.size());
      ++pieces;
    });
    EXPECT_EQ(got, data);
    EXPECT_GT(pieces, 1u);
    EXPECT_THROW(reader.read_in_pieces([](std::span<const std::byte>) {}), Error);
  });
  std::filesystem::remove(path("fifo"));
  through_fifo(npy_file(1, header_5_u32, u32_data({1, 2, 3, 4, 5, 6})), [&](const auto& fifo) {
    expect_format_error([&] { ArrayReader(fifo, InputFormat::npy).read_in_pieces([](std::span<const std::byte>) {}); },
                        fifo, "data longer than the header says");
  });
  std::filesystem::remove(path("fifo"));
  through_fifo(npy_file(1, header_5_u32, u32_data({1, 2, 3, 4})), [&](const auto& fifo) {
    expect_format_error([&] { ArrayReader(fifo, InputFormat::npy).read_in_pieces([](std::span<const std::byte>) {}); },
                        fifo, "truncated data");
  });
}

TEST_F(NpyStream, RejectsARawStreamPastTheLimit) {
  through_fifo(std::string(4096, 'x'), [&](const auto& fifo) {
    expect_format_error([&] { ArrayReader(fifo, InputFormat::raw, DType::u32).read(1024); }, fifo,
                        "more than the 1024 data bytes allowed");
  });
}

TEST_F(Npy, RejectsRawFileSizeNotMultipleOfTypeSize) {
  write_file(path("odd.bin"), std::string(10, 'x'));
  expect_format_error([&] { read_raw(path("odd.bin"), DType::u32); }, path("odd.bin"),
                      "size 10 bytes is not a multiple of 4, the size of u32");
}

TEST_F(Npy, WriteIntoMissingDirectoryFailsCleanly) {
  const auto file = path("no/such/dir/out.npy");
  expect_format_error([&] { write_npy(file, DType::u32, pattern(4), {1}); }, file, "No such file or directory");
  expect_format_error([&] { write_raw(file, pattern(4)); }, file, "No such file or directory");
  EXPECT_TRUE(entries().empty());
}

// The temporary file cannot be created: ENOTDIR stands for every reason (EACCES, EROFS) and
// fails as root too.
TEST_F(Npy, WriteWhereNoFileCanBeCreatedFailsCleanly) {
  write_file(path("file"), "not a directory");
  expect_format_error([&] { write_raw(path("file/out.bin"), pattern(4)); }, path("file/out.bin"), "Not a directory");
  expect_format_error([&] { write_npy(path("file/out.npy"), DType::u32, pattern(4), {1}); }, path("file/out.npy"),
                      "Not a directory");
  EXPECT_EQ(entries(), std::vector<std::string>{"file"});
}

// ---- cross-check against real NumPy ----

// scripts/deps.sh installs python3-numpy, so a missing NumPy fails the test; VKC_SKIP_NUMPY=1
// skips it explicitly on a machine without it.
TEST_F(Npy, AgreesWithNumPy) {
  const char* skip = std::getenv("VKC_SKIP_NUMPY");
  if (skip && std::string(skip) == "1") GTEST_SKIP() << "VKC_SKIP_NUMPY=1";
  const std::string python = vkc::test::numpy_python();
  ASSERT_FALSE(python.empty()) << "python3 with numpy is needed (scripts/deps.sh installs python3-numpy; "
                                  "VKC_SKIP_NUMPY=1 skips)";
  const std::vector<std::int64_t> values = {-3, 0, 7, 1LL << 40, -1, 5};
  write_npy(path("ours.npy"), DType::i64, std::as_bytes(std::span(values)), {2, 3});
  const std::string script =
      "import numpy as np, sys; d = sys.argv[1]; a = np.load(d + '/ours.npy');"
      "assert a.dtype == np.int64 and a.shape == (2, 3), a;"
      "assert a.tolist() == [[-3, 0, 7], [1 << 40, -1, 5]], a;"
      "np.save(d + '/theirs.npy', np.arange(12, dtype='<f4').reshape(3, 4))";
  ASSERT_EQ(std::system((python + " -c \"" + script + "\" '" + dir_.string() + "'").c_str()), 0);
  const Array theirs = read_npy(path("theirs.npy"));
  EXPECT_EQ(theirs.dtype, DType::f32);
  EXPECT_EQ(theirs.shape, (std::vector<std::size_t>{3, 4}));
  std::vector<float> floats(12);
  ASSERT_EQ(theirs.bytes.size(), 48u);
  std::memcpy(floats.data(), theirs.bytes.data(), 48);
  for (std::size_t i = 0; i < floats.size(); ++i) EXPECT_EQ(floats[i], static_cast<float>(i));
}

// NumPy writes arrays of each narrow dtype (bytes: 0, 1, 2, ...) and reads ours back.
TEST_F(Npy, AgreesWithNumPyOnNarrowDtypes) {
  const char* skip = std::getenv("VKC_SKIP_NUMPY");
  if (skip && std::string(skip) == "1") GTEST_SKIP() << "VKC_SKIP_NUMPY=1";
  const std::string python = vkc::test::numpy_python();
  ASSERT_FALSE(python.empty()) << "python3 with numpy is needed (scripts/deps.sh installs python3-numpy; "
                                  "VKC_SKIP_NUMPY=1 skips)";
  const std::string script =
      "import numpy as np, sys; d = sys.argv[1]\n"
      "for t in ('u1', 'i1', 'u2', 'i2', 'f2'):\n"
      "    np.save(f'{d}/theirs_{t}.npy', np.arange(24, dtype=np.uint8).view(t))\n"
      "    ours = np.load(f'{d}/ours_{t}.npy')\n"
      "    assert ours.dtype == np.dtype(t) and ours.shape == (2, 12 // ours.itemsize), (t, ours)\n"
      "    assert ours.tobytes() == bytes(range(24)), t\n";
  for (const DType dtype : {DType::u8, DType::i8, DType::u16, DType::i16, DType::f16}) {
    std::vector<std::byte> bytes(24);
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::byte>(i);
    write_npy(path("ours_" + std::string(npy_descr(dtype).substr(1)) + ".npy"), dtype, bytes, {2, 12 / dtype_size(dtype)});
  }
  write_file(path("check.py"), script);
  ASSERT_EQ(std::system((python + " '" + path("check.py").string() + "' '" + dir_.string() + "'").c_str()), 0);
  for (const DType dtype : {DType::u8, DType::i8, DType::u16, DType::i16, DType::f16}) {
    const Array theirs = read_npy(path("theirs_" + std::string(npy_descr(dtype).substr(1)) + ".npy"));
    EXPECT_EQ(theirs.dtype, dtype) << dtype_name(dtype);
    EXPECT_EQ(theirs.shape, (std::vector<std::size_t>{24 / dtype_size(dtype)}));
    for (std::size_t i = 0; i < theirs.bytes.size(); ++i) EXPECT_EQ(theirs.bytes[i], static_cast<std::byte>(i));
  }
}

}  // namespace
}  // namespace vkc::io
