#include "sort/run_parts.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "vkc/context.hpp"

namespace vkc::sorting {

std::uint64_t sample_stride(std::uint64_t capacity, std::uint64_t runs) {
  // A part's size is bounded from its samples to within one stride a run (cut_parts): strides
  // summing to a 32nd of the capacity waste at most a sixteenth of each part.
  if (runs > capacity) {
    throw Error("cannot merge " + std::to_string(runs) + " sorted runs into parts of " + std::to_string(capacity) +
                " elements: the device takes too few elements at once for an array this long");
  }
  return std::max<std::uint64_t>(1, capacity / (32 * runs));
}

// A run's elements between two boundaries are consecutive, so they hold at least one of its
// samples for every whole stride: a range with k samples of run r holds fewer than
// (k + 1) * stride(r) of its elements. Summed over the runs, that bounds a part from the samples
// alone; the greedy walk below extends each part by the samples of one key at a time while the
// bound stays within the capacity.
std::vector<PartCut> cut_parts(std::span<const RunSample> runs, std::uint64_t capacity) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> samples;  // (key, stride of its run)
  std::uint64_t base = 0;                                         // the bound of a part without samples
  for (const RunSample& run : runs) {
    base += run.stride;
    for (std::uint64_t key : run.keys) samples.emplace_back(key, run.stride);
  }
  if (base > capacity) throw Error("cut_parts: the sampling strides exceed the capacity");
  std::sort(samples.begin(), samples.end());

  std::vector<PartCut> parts;
  Boundary from{Boundary::Kind::start};
  std::uint64_t bound = base;
  for (std::size_t i = 0; i < samples.size();) {
    const std::uint64_t key = samples[i].first;
    std::uint64_t weight = 0;  // what the samples of this key add to the bound
    for (; i < samples.size() && samples[i].first == key; ++i) weight += samples[i].second;
    if (bound + weight <= capacity) {
      bound += weight;
      continue;
    }
    const Boundary before{Boundary::Kind::before, key};
    parts.push_back({from, before});
    from = before;
    bound = base + weight;
    if (bound > capacity) {  // this key alone may be more than a part holds: a part of its own
      const Boundary after{Boundary::Kind::after, key};
      parts.push_back({before, after, true});
      from = after;
      bound = base;
    }
  }
  parts.push_back({from, {Boundary::Kind::end}});
  return parts;
}

}  // namespace vkc::sorting
