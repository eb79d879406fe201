// vkc sort's segmented forms, sorted in memory through the segmented API: the rows of an N-D
// .npy (as np.sort sorts along the last axis), and the segments that --segments OFFSETS.npy
// bounds in a 1-D array.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "io/atomic_file.hpp"
#include "io/npy.hpp"
#include "vkc/sort.hpp"

namespace vkc::cli {

/// The S + 1 offsets of an offsets file: a 1-D .npy of integers, none negative, none below the
/// one before. Throws Error naming the file and what is wrong.
std::vector<std::uint64_t> read_offsets(const std::filesystem::path& path);

/// Throws Error unless the last offset lies within the `count` keys of `input`.
void check_offsets_fit(std::span<const std::uint64_t> offsets, std::uint64_t count, const std::filesystem::path& path,
                       const std::string& input);

/// What a segmented sort does with the keys it has read.
struct SegmentedSort {
  KeyType type = KeyType::u32;
  std::vector<std::uint64_t> offsets;  ///< --segments; empty: the rows of the keys' shape
  bool argsort = false;                ///< write uint64 indices instead of the keys
  bool global_indices = false;         ///< argsort numbering: positions in the whole array
  bool npy = true;                     ///< the keys came from a .npy (else raw keys go out raw)
};

/// Sorts `keys` as `what` says and writes the result into `out`, which it commits: the sorted
/// keys in their shape (1-D for segments), or the indices as a uint64 .npy of that shape.
void sort_segmented(Context& ctx, const SegmentedSort& what, io::Array& keys, const SortOptions& options,
                    io::AtomicFile& out);

}  // namespace vkc::cli
