#include "sort/planner.hpp"

#include <algorithm>
#include <string>

#include "core/device.hpp"
#include "sort/key_types.hpp"

namespace vkc::sorting {
namespace {

SortDesc with_count(SortDesc desc, std::uint64_t count) {
  desc.max_count = count;
  return desc;
}

// The largest n with n * per_element + n * numerator / denominator + fixed <= budget (the bound
// may round n * numerator / denominator up by one byte: that slack is the caller's).
std::uint64_t solve(std::uint64_t budget, std::uint64_t per_element, const TemporaryBound& bound,
                    std::uint64_t fixed) {
  if (budget < fixed) return 0;
  using Wide = unsigned __int128;
  const Wide slope = Wide{per_element} * bound.denominator + bound.numerator;
  if (slope == 0) return UINT32_MAX;
  const Wide n = (Wide{budget - fixed} * bound.denominator) / slope;
  return n > UINT32_MAX ? UINT32_MAX : static_cast<std::uint64_t>(n);
}

}  // namespace

PlannedSort plan_sort(const DeviceInfo& device, const SortDesc& desc) {
  const Algorithm& algorithm = choose(device, desc);
  return {desc, &algorithm, algorithm.plan(device, desc)};
}

PlannedSort plan_radix_sort(const DeviceInfo& device, const SortDesc& desc, const RadixPolicyEdit& edit) {
  return {desc, radix_algorithm(), plan_radix(device, desc, edit)};
}

DeviceBytes device_bytes(const DeviceInfo& device, const Algorithm& algorithm, const SortDesc& desc) {
  const std::uint64_t n = desc.max_count;
  return {device_key_bytes(desc.key_type, n), n * value_bytes(desc.value_type),
          kScratchOffset + (n ? algorithm.temporary_bytes(device, desc) : 0)};
}

DeviceBytes device_bytes(const DeviceInfo& device, const SortDesc& desc) {
  return device_bytes(device, choose(device, desc), desc);
}

// Bound by bound, in increasing counts: the largest count of the bound's range whose line fits,
// where the temporary bytes planned at the previous range's top (which every larger count's plan
// covers too) fit beside it.
std::uint64_t in_core_capacity(const DeviceInfo& device, const SortDesc& desc, std::uint64_t memory_limit) {
  const SortDesc whole = with_count(desc, std::min<std::uint64_t>(desc.max_count, UINT32_MAX));
  const Algorithm& algorithm = choose(device, whole);
  const std::uint64_t per_buffer = detail::largest_buffer_bytes(device);
  const std::uint64_t element = key_bytes(desc.key_type) + value_bytes(desc.value_type);
  std::uint64_t end = std::min<std::uint64_t>(UINT32_MAX, per_buffer / key_bytes(desc.key_type));
  if (desc.value_type != ValueType::none) end = std::min<std::uint64_t>(end, per_buffer / value_bytes(desc.value_type));
  std::uint64_t previous = 0, floor = 0;  // floor: temporary bytes planned at `previous`
  for (const TemporaryBound& bound : algorithm.temporary_bounds(device, whole)) {
    const std::uint64_t top = std::min(bound.up_to, end);
    std::uint64_t n = std::min({top, solve(memory_limit, element, bound, bound.fixed + kScratchOffset),
                                solve(per_buffer, 0, bound, bound.fixed + kScratchOffset)});
    if (floor) n = std::min(n, memory_limit < floor ? 0 : (memory_limit - floor) / element);
    if (n <= previous) return previous;
    if (n < top || top == end) return n;
    previous = top;
    floor = device_bytes(device, algorithm, with_count(whole, top)).temporary;
    if (floor > per_buffer) return previous;
  }
  return previous;
}

SortDesc with_algorithm_chosen(const DeviceInfo& device, SortDesc desc) {
  if (desc.options.algorithm != SortAlgorithm::automatic) return desc;
  desc.options.algorithm = choose(device, with_count(desc, std::min<std::uint64_t>(desc.max_count, UINT32_MAX))).id();
  return desc;
}

SortOptions options_for_argsort(SortOptions options) {
  if (options.algorithm == SortAlgorithm::automatic && radix_algorithm_available()) {
    options.algorithm = SortAlgorithm::radix;  // argsort promises the stable permutation by default
  }
  return options;
}

void check_recordable_count(std::uint64_t count) {
  if (count > UINT32_MAX) {
    throw Error("cannot record a sort of " + std::to_string(count) +
                " elements: the GPU-side count is 32 bits (at most 4294967295)");
  }
}

}  // namespace vkc::sorting
