// Sorting arrays that live on the host: in one go on the device where they fit (host_sort.cpp),
// else in runs that it takes, merged by parts (out_of_core.cpp).
#pragma once

#include <cstdint>

#include "sort/planner.hpp"
#include "vkc/sort.hpp"

namespace vkc::sorting {

/// One array of a host sort: where it comes from and where it goes. `memory_in` and `memory_out`
/// are set when it is plain memory, which the imported path may pin instead of staging.
struct HostArray {
  HostRead read;    // empty: made on the device (argsort's indices)
  HostWrite write;  // empty: not wanted back (argsort's keys)
  const void* memory_in = nullptr;
  void* memory_out = nullptr;
};

HostArray in_place(void* data);
/// An array read from `from` and written, sorted, to `to` (which may be `from`).
HostArray copied(const void* from, void* to);

/// The most elements of `desc`'s types that sort_in_core takes (planner.hpp's in_core_capacity
/// under the Context's device memory limit).
std::uint64_t in_core_capacity(Context& ctx, const SortDesc& desc);

/// Sorts planned.desc.max_count (<= in_core_capacity) elements on the device in one go: uploads
/// keys (and values, or numbers them on the device when `index_values`: argsort), sorts, hands
/// back what is wanted. The indices of `index_values` start at `index_base`.
void sort_in_core(Context& ctx, const PlannedSort& planned, const HostArray& keys, const HostArray* values,
                  bool index_values, std::uint64_t index_base = 0);

/// Sorts more elements than sort_in_core takes (desc.options.algorithm resolved: no `automatic`) (`capacity`, in_core_capacity): sorts runs of the
/// array, then cuts their merged order into parts that are gathered and sorted again, stably
/// where the algorithm is. The runs stay on the device where they all fit its memory limit, else
/// they wait in host memory. With `index_values`, the values are the keys' indices (argsort).
void sort_out_of_core(Context& ctx, const SortDesc& desc, const HostArray& keys, const HostArray* values,
                      bool index_values, std::uint64_t capacity);

/// Calls desc.options.progress, where there is one.
void report_progress(const SortDesc& desc, std::uint64_t done, std::uint64_t total);

/// The one entry of every host sort: in core where the count fits, else out of core.
void sort_host(Context& ctx, const SortDesc& desc, const HostArray& keys, const HostArray* values, bool index_values);

}  // namespace vkc::sorting
