// Segmented sorts on the device: every segment of an array sorted on its own, by kernels chosen
// per segment length on the GPU (shaders/sort/segments/): segments of up to one tile in shared
// memory (tile.comp, a size class per power of two), longer ones by a workgroup each (radix.comp).
#pragma once

#include <cstdint>

#include "core/pipeline.hpp"
#include "core/recorder.hpp"
#include "sort/record.hpp"
#include "vkc/sort.hpp"

namespace vkc::sorting {

/// What a segmented sort writes (segments_layout.h's SEG_OUTPUT_*).
enum class SegmentedOutput : std::uint32_t { keys = 0, pairs = 1, local_indices = 2, global_indices = 3 };

/// One segmented sort, as recorded. Rows: `segments` rows of `columns` elements from 0, no
/// offsets. Else segment i is [begins[i], ends[i]) (uint32 each), as bound.
struct SegmentedJob {
  KeyType key_type = KeyType::u32;
  /// The values' type (pairs) or the indices' (argsort); none for keys alone.
  ValueType value_type = ValueType::none;
  SortOrder order = SortOrder::ascending;
  SegmentedOutput output = SegmentedOutput::keys;
  std::uint32_t count = 0;  ///< elements of the array
  std::uint32_t segments = 0;
  bool rows = false;
  std::uint32_t columns = 0;
  Binding keys, values, begins, ends;
  /// Offsets only: where the GPU finds the segment count (a uint32 <= segments); no buffer: the
  /// count is `segments`.
  Binding segment_count;
  /// segmented_temporary_bytes of it; every byte may be written.
  Binding temporary;
  /// Added to every global index (SegmentedOutput::global_indices).
  std::uint64_t index_base = 0;
};

/// Bytes of temporary storage that `job` needs (its bindings unused).
std::uint64_t segmented_temporary_bytes(const DeviceInfo& device, const SegmentedJob& job);

/// The longest segment the tile kernel sorts (longer ones take a workgroup each through the
/// temporary buffer).
std::uint32_t segmented_tile_elements(const DeviceInfo& device, KeyType key_type, SegmentedOutput output);

/// Rows longer than this (on a GPU) are sorted by the whole-array radix sort, many rows' sorts
/// recorded together, whose device-wide passes beat one workgroup's, where their offsets suit the
/// device's alignment.
std::uint64_t segmented_long_row(const DeviceInfo& device);

/// Whether record_segmented sorts the job's rows so (rows past segmented_long_row whose byte
/// offsets are multiples of the storage offset alignment).
bool segmented_rows_by_whole_sorts(const DeviceInfo& device, const SegmentedJob& job);

/// Records the sort. The job's buffers' earlier writes are the recorder's to order.
void record_segmented(const SortDevice& target, Recorder& r, const SegmentedJob& job);

}  // namespace vkc::sorting
