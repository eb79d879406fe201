// odd_even internals that tests look at: the tile size and the merge-split round counter.
#pragma once

#include <cstdint>

#include "vkc/sort.hpp"

namespace vkc::sorting {

/// Elements one workgroup sorts in shared memory (the tile); merge-split blocks are half of it.
std::uint32_t odd_even_tile(const DeviceInfo& device, KeyType key_type);

/// The most merge-split rounds recorded for a sort of `max_count` elements: the number of
/// half-tile blocks minus one (the tile sort is the first round), 0 when one tile holds all.
std::uint64_t odd_even_round_bound(const DeviceInfo& device, KeyType key_type, std::uint64_t max_count);

/// Test hook: the byte offset, in a temporary buffer of sort_temporary_bytes(ctx, desc) bytes,
/// of the uint32 in which an odd_even sort recorded over it leaves the number of merge-split
/// rounds that ran (after the commands complete).
std::uint64_t odd_even_rounds_offset(Context& ctx, const SortDesc& desc);

}  // namespace vkc::sorting
