// vkc sort's segmented forms: offsets files read and checked, keys sorted by rows or segments.
#include "sort_segments.hpp"

#include <cstring>
#include <numeric>
#include <type_traits>

namespace vkc::cli {
namespace {

// The elements of an integer array as offsets; a negative one throws.
template <class T>
std::vector<std::uint64_t> widened(const io::Array& array, const std::string& name) {
  std::vector<std::uint64_t> offsets(array.count());
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    T value;
    std::memcpy(&value, array.bytes.data() + i * sizeof(T), sizeof(T));
    if constexpr (std::is_signed_v<T>) {
      if (value < 0) {
        throw Error(name + ": offset " + std::to_string(i) + " is " + std::to_string(value) + ", below 0");
      }
    }
    offsets[i] = static_cast<std::uint64_t>(value);
  }
  return offsets;
}

std::vector<std::uint64_t> offsets_of(const io::Array& array, const std::string& name) {
  switch (array.dtype) {
    case io::DType::u8: return widened<std::uint8_t>(array, name);
    case io::DType::i8: return widened<std::int8_t>(array, name);
    case io::DType::u16: return widened<std::uint16_t>(array, name);
    case io::DType::i16: return widened<std::int16_t>(array, name);
    case io::DType::u32: return widened<std::uint32_t>(array, name);
    case io::DType::i32: return widened<std::int32_t>(array, name);
    case io::DType::u64: return widened<std::uint64_t>(array, name);
    case io::DType::i64: return widened<std::int64_t>(array, name);
    case io::DType::f16:
    case io::DType::f32:
    case io::DType::f64: break;
  }
  throw Error(name + ": offsets must be integers, not " + std::string(io::dtype_name(array.dtype)));
}

// Row-major rows along the last axis of `shape`.
Segments rows_of(const std::vector<std::size_t>& shape) {
  const std::uint64_t columns = shape.back();
  const std::uint64_t rows = std::accumulate(shape.begin(), shape.end() - 1, std::uint64_t{1}, std::multiplies<>());
  return Segments::rows(rows, columns);
}

}  // namespace

std::vector<std::uint64_t> read_offsets(const std::filesystem::path& path) {
  const io::Array array = io::read_npy(path);
  const std::string name = path.string();
  if (array.shape.size() != 1) {
    throw Error(name + ": offsets must be a one-dimensional array, not one of " + std::to_string(array.shape.size()) +
                " dimensions");
  }
  std::vector<std::uint64_t> offsets = offsets_of(array, name);
  if (offsets.empty()) throw Error(name + ": holds no offsets (S + 1 offsets bound S segments)");
  for (std::size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i] < offsets[i - 1]) {
      throw Error(name + ": offsets decrease at " + std::to_string(i) + " (" + std::to_string(offsets[i]) + " after " +
                  std::to_string(offsets[i - 1]) + ")");
    }
  }
  return offsets;
}

void check_offsets_fit(std::span<const std::uint64_t> offsets, std::uint64_t count, const std::filesystem::path& path,
                       const std::string& input) {
  if (offsets.back() > count) {
    throw Error(path.string() + ": offset " + std::to_string(offsets.size() - 1) + " is " +
                std::to_string(offsets.back()) + ", past the " + std::to_string(count) + " keys of " + input);
  }
}

void sort_segmented(Context& ctx, const SegmentedSort& what, io::Array& keys, const SortOptions& options,
                    io::AtomicFile& out) {
  const std::uint64_t n = keys.count();
  const bool rows = what.offsets.empty();
  const Segments segments = rows ? rows_of(keys.shape) : Segments::offsets(what.offsets);
  const std::vector<std::size_t> shape = rows ? keys.shape : std::vector<std::size_t>{keys.count()};
  if (what.argsort) {
    // Positions outside every segment are not written: 0 (local) or their own (global).
    std::vector<std::uint64_t> indices(n, 0);
    if (what.global_indices) std::iota(indices.begin(), indices.end(), std::uint64_t{0});
    const auto numbering = what.global_indices ? SegmentIndices::global : SegmentIndices::local;
    if (n) argsort_segments(ctx, what.type, keys.bytes.data(), n, segments, ValueType::u64, indices.data(), numbering, options);
    io::write_npy(out, io::DType::u64, std::as_bytes(std::span(indices)), shape);
    return;
  }
  if (n) sort_segments(ctx, what.type, keys.bytes.data(), n, segments, options);
  if (what.npy) {
    io::write_npy(out, keys.dtype, keys.bytes, shape);
  } else {
    io::write_raw(out, keys.bytes);
  }
}

}  // namespace vkc::cli
