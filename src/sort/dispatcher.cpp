// Choosing the algorithm: the table of implementations and the `automatic` rule.
#include <string>

#include "sort/algorithm.hpp"

namespace vkc::sorting {
namespace {

const Algorithm* lookup(SortAlgorithm id) {
  switch (id) {
    // Each algorithm's row appears here as its file lands.
    case SortAlgorithm::bitonic: return bitonic_algorithm();
    case SortAlgorithm::bitonic_transpose: return bitonic_transpose_algorithm();
    case SortAlgorithm::odd_even: return odd_even_algorithm();
    case SortAlgorithm::radix: return radix_algorithm();
    default: return nullptr;
  }
}

// Below this many elements `automatic` uses bitonic sort, above it radix sort. Measured per
// device class; see BENCHMARKS.md and docs/perf-notes.md.
std::uint64_t radix_crossover(const DeviceInfo& device) {
  return device.is_software() ? (1u << 12) : (1u << 14);
}

}  // namespace

std::uint32_t key_kind(KeyType type) {
  switch (type) {
    case KeyType::i32:
    case KeyType::i64: return 1;
    case KeyType::f32:
    case KeyType::f64: return 2;
    default: return 0;
  }
}

bool available(SortAlgorithm algorithm) {
  return algorithm == SortAlgorithm::automatic || lookup(algorithm) != nullptr;
}

bool radix_algorithm_available() { return lookup(SortAlgorithm::radix) != nullptr; }

const Algorithm& choose(const DeviceInfo& device, const SortDesc& desc) {
  SortAlgorithm id = desc.options.algorithm;
  if (id == SortAlgorithm::automatic) {
    const bool large = desc.max_count > radix_crossover(device);
    id = large && lookup(SortAlgorithm::radix) ? SortAlgorithm::radix : SortAlgorithm::bitonic;
  }
  const Algorithm* algorithm = lookup(id);
  if (!algorithm) throw Error("sort algorithm '" + std::string(to_string(id)) + "' is not available in this build");
  return *algorithm;
}

}  // namespace vkc::sorting
