// Choosing the algorithm: the table of implementations and the `automatic` rule.
#include <algorithm>
#include <string>

#include "sort/algorithm.hpp"
#include "sort/key_types.hpp"
#include "sort/narrow_keys.hpp"

namespace vkc::sorting {
namespace {

const Algorithm* lookup(SortAlgorithm id) {
  switch (id) {
    // Each algorithm's row appears here as its file lands.
    case SortAlgorithm::bitonic: return bitonic_algorithm();
    case SortAlgorithm::bitonic_transpose: return bitonic_transpose_algorithm();
    case SortAlgorithm::odd_even: return odd_even_algorithm();
    case SortAlgorithm::radix: return radix_algorithm();
    case SortAlgorithm::automatic: return nullptr;  // a rule, not an implementation (choose)
  }
  return nullptr;
}

// Up to this many elements `automatic` uses bitonic sort, above it radix sort, per device class:
// NVIDIA's small radix tiles bring its crossover lower than other GPUs'
// (docs/perf-notes.md#the-auto-crossover).
std::uint64_t radix_crossover(const DeviceInfo& device) {
  if (device.is_software()) return 1u << 12;
  return device.vendor_id == kVendorNvidia ? (1u << 13) : (1u << 14);
}

// Whether desc names a bit range narrower than its keys; throws Error for a range that is not one.
bool has_bit_range(const SortDesc& desc) {
  const std::uint32_t width = key_bits(desc.key_type);
  const std::uint32_t begin = desc.options.begin_bit, end = std::min(desc.options.end_bit, width);
  if (begin > end) {
    throw Error("bit range: begin_bit " + std::to_string(begin) + " is past end_bit " + std::to_string(end) +
                " (keys of " + std::to_string(width) + " bits)");
  }
  return begin > 0 || end < width;
}

}  // namespace

std::uint32_t key_kind(KeyType type) { return static_cast<std::uint32_t>(key_kind_of(type)); }

bool available(SortAlgorithm algorithm) {
  return algorithm == SortAlgorithm::automatic || lookup(algorithm) != nullptr;
}

bool radix_algorithm_available() { return lookup(SortAlgorithm::radix) != nullptr; }

namespace {
// An algorithm's plan that asks the algorithm itself.
class SimplePlan final : public SortPlan {
 public:
  SimplePlan(const SimpleAlgorithm& algorithm, std::uint64_t temporary_bytes)
      : algorithm_(algorithm), temporary_bytes_(temporary_bytes) {}
  std::uint64_t temporary_bytes() const override { return temporary_bytes_; }
  void record(detail::ComputeDevice& ctx, Recorder& r, const Job& job) const override {
    algorithm_.record(ctx, r, job);
  }

 private:
  const SimpleAlgorithm& algorithm_;
  std::uint64_t temporary_bytes_;
};
}  // namespace

std::unique_ptr<SortPlan> SimpleAlgorithm::plan(const DeviceInfo& device, const SortDesc& desc) const {
  return std::make_unique<SimplePlan>(*this, temporary_bytes(device, desc));
}

std::vector<TemporaryBound> constant_temporary(std::uint64_t bytes) { return {{UINT32_MAX, 0, 1, bytes}}; }

const Algorithm& choose(const DeviceInfo& device, const SortDesc& desc) {
  SortAlgorithm id = desc.options.algorithm;
  const bool bit_range = has_bit_range(desc);
  if (id == SortAlgorithm::automatic) {
    const bool large = desc.max_count > radix_crossover(device);
    id = (large || bit_range) && lookup(SortAlgorithm::radix) ? SortAlgorithm::radix : SortAlgorithm::bitonic;
  }
  if (bit_range && id != SortAlgorithm::radix) {
    throw Error("a bit range (begin_bit, end_bit) sorts with radix only, not " + std::string(to_string(id)));
  }
  const Algorithm* algorithm = lookup(id);
  if (!algorithm) throw Error("sort algorithm '" + std::string(to_string(id)) + "' is not available in this build");
  // Radix sorts narrow keys as they are kept where the device loads and stores 8 and 16 bits;
  // elsewhere, and for the other algorithms, through 32-bit images (narrow_keys.cpp).
  const bool in_place = id == SortAlgorithm::radix && device.narrow_storage;
  return is_narrow(desc.key_type) && !in_place ? for_narrow_keys(*algorithm) : *algorithm;
}

}  // namespace vkc::sorting
