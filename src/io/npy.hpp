// Reading and writing arrays as NumPy .npy files and as headerless raw files.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "vkc/context.hpp"

namespace vkc::io {

class AtomicFile;

/// The element types vkcompute reads and writes: NumPy's, so every one has a .npy dtype (bfloat16,
/// which has none, travels as u16 bits). All are little-endian on disk.
enum class DType { u32, i32, f32, u64, i64, f64, u8, i8, u16, i16, f16 };

/// Bytes of an element: 1 for u8/i8, 2 for u16/i16/f16, 4 for u32/i32/f32, 8 for u64/i64/f64.
std::size_t dtype_size(DType dtype);

/// "u32", "i32", "f32", "u64", "i64", "f64", "u8", "i8", "u16", "i16", "f16": the names the CLI
/// accepts and prints.
std::string_view dtype_name(DType dtype);

/// Inverse of dtype_name; std::nullopt for any other string (matching is exact and case-sensitive).
std::optional<DType> parse_dtype(std::string_view name);

/// NumPy's descr string: "<u4", "<i4", "<f4", "<u8", "<i8", "<f8", "|u1", "|i1", "<u2", "<i2", "<f2".
std::string_view npy_descr(DType dtype);

/// Every failure of this module to read or write a file: one line, "<path>: <problem>".
/// Covers missing or unreadable files, malformed or unsupported .npy contents, raw files of
/// the wrong size, and outputs that cannot be created, written, synced or renamed. It is a
/// vkc::Error, as every failure of the library is.
class FormatError : public Error {
 public:
  using Error::Error;
};

/// An n-dimensional array held as bytes: little-endian elements in C (row-major) order.
struct Array {
  DType dtype = DType::u32;
  std::vector<std::size_t> shape;  ///< e.g. {n} or {n, 4}; {} is a scalar
  std::vector<std::byte> bytes;    ///< count() * dtype_size(dtype) bytes

  /// Product of shape: 1 for shape {}, 0 when any dimension is 0.
  std::size_t count() const;
};

/// Reads an .npy file of format version 1.0, 2.0 or 3.0 whose dtype is one of those above,
/// in C order. The data is read with one pass straight into Array::bytes, so multi-GiB files
/// cost one allocation and no copies.
/// Throws FormatError for: a missing/unreadable file, bad magic, an unknown format version, a
/// truncated header, a malformed header dict, an unsupported dtype (big-endian, object,
/// structured, or any type but those above), fortran_order True, or data shorter or longer than
/// the shape says.
Array read_npy(const std::filesystem::path& path);

/// How an ArrayReader takes its input: as .npy, as raw data, or as .npy when it starts with the
/// .npy magic and raw data otherwise.
enum class InputFormat { npy, raw, detect };

/// Reads an array in two steps, so that its size can be checked before the data is read:
/// opening reads the .npy header (or sizes a raw file), read() reads the data. The path "-"
/// is standard input; pipes, terminals and devices are read as streams.
class ArrayReader {
 public:
  /// Opens path; raw_type is the element type of raw data. Throws FormatError as read_npy
  /// does for a bad header, or a raw file whose size is not a multiple of the type's.
  ArrayReader(const std::filesystem::path& path, InputFormat format, DType raw_type = DType::u32);
  ~ArrayReader();
  ArrayReader(const ArrayReader&) = delete;
  ArrayReader& operator=(const ArrayReader&) = delete;

  bool is_npy() const { return npy_; }
  DType dtype() const { return array_.dtype; }
  /// The shape from the header, or {n} for a raw file; empty for raw data from a stream.
  const std::vector<std::size_t>& shape() const { return array_.shape; }
  /// Elements to come; nullopt for raw data from a stream, whose end is known only once read.
  std::optional<std::uint64_t> count() const;

  /// Whether read_at serves the data: a regular file whose size the header matched (not a
  /// stream), before read().
  bool seekable() const;
  /// Reads the data's bytes [offset, offset + bytes) (offset 0: the first element) into dst
  /// with pread: several threads may read disjoint ranges at once, and read() is not needed.
  /// Throws FormatError when the file cannot be read or has shrunk.
  void read_at(std::uint64_t offset, void* dst, std::uint64_t bytes) const;

  /// Reads the data, once. Throws FormatError for data shorter or longer than the header
  /// says, and when more than max_bytes would be read.
  Array read(std::uint64_t max_bytes = ~std::uint64_t{0});
  /// Reads the data once, as read() does, but hands it to `consume` in order, a few MiB at a
  /// time, without holding it: for a stream whose length the header gives (count() is known).
  void read_in_pieces(const std::function<void(std::span<const std::byte>)>& consume);

 private:
  struct Input;
  void check_raw_size(std::uint64_t bytes) const;
  void check_stream_ended();

  std::unique_ptr<Input> input_;
  Array array_;  // dtype and shape, without data
  bool npy_ = false;
  std::optional<std::uint64_t> data_bytes_;  // unknown for raw streams
};

/// Reads a headerless file as a 1-D array of dtype. Throws FormatError when the file cannot be
/// read or its size is not a multiple of dtype_size(dtype).
Array read_raw(const std::filesystem::path& path, DType dtype);

/// True when the file starts with the .npy magic "\x93NUMPY". False when it does not, is
/// shorter than the magic, or cannot be opened: it never throws for I/O reasons.
bool looks_like_npy(const std::filesystem::path& path);

/// The .npy header (magic, version, header dict) that write_npy writes for an array of this
/// type and shape, padded with spaces and a newline so that the data starts at a multiple of
/// 64 bytes, as NumPy pads it; format 1.0 when it fits in 65535 bytes, else 2.0.
std::string npy_header(DType dtype, std::span<const std::size_t> shape);

/// Writes data as an .npy file, atomically (see AtomicFile for what each kind of path means): the target is replaced only once
/// the whole file is on disk. The header is padded so the data starts at a multiple of 64
/// bytes, as NumPy does; format 1.0 when the header fits in 65535 bytes, else 2.0.
/// Throws Error when data.size() != product(shape) * dtype_size(dtype), and
/// FormatError when the file cannot be written.
void write_npy(const std::filesystem::path& path, DType dtype, std::span<const std::byte> data,
               std::vector<std::size_t> shape);

/// Writes data as-is, atomically. Throws FormatError when the file cannot be written.
void write_raw(const std::filesystem::path& path, std::span<const std::byte> data);

/// The same into an output opened earlier (so that its checks came before the work), which
/// they commit.
void write_npy(AtomicFile& file, DType dtype, std::span<const std::byte> data, std::vector<std::size_t> shape);
void write_raw(AtomicFile& file, std::span<const std::byte> data);

}  // namespace vkc::io
