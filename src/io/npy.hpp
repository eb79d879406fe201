// Reading and writing arrays as NumPy .npy files and as headerless raw files.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace vkc::io {

/// The element types vkcompute reads and writes. All are little-endian on disk.
enum class DType { u32, i32, f32, u64, i64, f64 };

/// 4 for u32/i32/f32, 8 for u64/i64/f64.
std::size_t dtype_size(DType dtype);

/// "u32", "i32", "f32", "u64", "i64", "f64": the names the CLI accepts and prints.
std::string_view dtype_name(DType dtype);

/// Inverse of dtype_name; std::nullopt for any other string (matching is exact and case-sensitive).
std::optional<DType> parse_dtype(std::string_view name);

/// NumPy's descr string: "<u4", "<i4", "<f4", "<u8", "<i8", "<f8".
std::string_view npy_descr(DType dtype);

/// Every failure of this module to read or write a file: one line, "<path>: <problem>".
/// Covers missing or unreadable files, malformed or unsupported .npy contents, raw files of
/// the wrong size, and outputs that cannot be created, written, synced or renamed.
class FormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An n-dimensional array held as bytes: little-endian elements in C (row-major) order.
struct Array {
  DType dtype = DType::u32;
  std::vector<std::size_t> shape;  ///< e.g. {n} or {n, 4}; {} is a scalar
  std::vector<std::byte> bytes;    ///< count() * dtype_size(dtype) bytes

  /// Product of shape: 1 for shape {}, 0 when any dimension is 0.
  std::size_t count() const;
};

/// Reads an .npy file of format version 1.0, 2.0 or 3.0 whose dtype is one of the six above,
/// in C order. The data is read with one pass straight into Array::bytes, so multi-GiB files
/// cost one allocation and no copies.
/// Throws FormatError for: a missing/unreadable file, bad magic, an unknown format version, a
/// truncated header, a malformed header dict, an unsupported dtype (big-endian, object,
/// structured, or any type but the six), fortran_order True, or data shorter or longer than
/// the shape says.
Array read_npy(const std::filesystem::path& path);

/// Reads a headerless file as a 1-D array of dtype. Throws FormatError when the file cannot be
/// read or its size is not a multiple of dtype_size(dtype).
Array read_raw(const std::filesystem::path& path, DType dtype);

/// True when the file starts with the .npy magic "\x93NUMPY". False when it does not, is
/// shorter than the magic, or cannot be opened: it never throws for I/O reasons.
bool looks_like_npy(const std::filesystem::path& path);

/// Writes data as an .npy file, atomically (see AtomicFile): the target is replaced only once
/// the whole file is on disk. The header is padded so the data starts at a multiple of 64
/// bytes, as NumPy does; format 1.0 when the header fits in 65535 bytes, else 2.0.
/// Throws std::invalid_argument when data.size() != product(shape) * dtype_size(dtype), and
/// FormatError when the file cannot be written.
void write_npy(const std::filesystem::path& path, DType dtype, std::span<const std::byte> data,
               std::vector<std::size_t> shape);

/// Writes data as-is, atomically. Throws FormatError when the file cannot be written.
void write_raw(const std::filesystem::path& path, std::span<const std::byte> data);

}  // namespace vkc::io
