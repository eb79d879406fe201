// The partition behind the sorts on a DeviceSet (device_set_sort.cpp), for tests and for the
// benchmarks, which time it on its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "vkc/device_set.hpp"
#include "vkc/sort.hpp"

namespace vkc::sorting {

/// The ranges of the partitioned order that a sort of `count` keys gives each of `devices`
/// devices: device d sorts [bounds[d], bounds[d + 1]).
std::vector<std::uint64_t> device_bounds(KeyType type, const SortOptions& options, const void* keys,
                                         std::uint64_t count, std::size_t devices);

/// Partitions the keys as a sort of them on `set` does (every key copied to its place in the host
/// memory its device's range is moved to); `bounds` gets device_bounds'.
void partition_keys(DeviceSet& set, KeyType type, const SortOptions& options, const void* keys, std::uint64_t count,
                    std::vector<std::uint64_t>& bounds);

}  // namespace vkc::sorting
