// The interface every sorting algorithm implements, and the job it records.
//
// A new algorithm is one file here (a class deriving from Algorithm plus a function returning
// its instance), its shaders under shaders/sort/, one row in dispatcher.cpp, and its tests.
// Choosing and planning a sort is planner.hpp's; recording a planned one is record.hpp's.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include <vector>

#include "core/pipeline.hpp"
#include "core/recorder.hpp"
#include "vkc/sort.hpp"

namespace vkc::sorting {

/// PCI vendor ids (DeviceInfo::vendor_id) of the GPUs whose tuning is measured.
constexpr std::uint32_t kVendorNvidia = 0x10DE;
constexpr std::uint32_t kVendorAmd = 0x1002;

/// One sort, as recorded: buffers with their offsets and the sizes known on the host.
struct Job {
  KeyType key_type = KeyType::u32;
  ValueType value_type = ValueType::none;
  SortOrder order = SortOrder::ascending;
  /// Upper bound of the element count: dispatches are sized for it.
  std::uint64_t max_count = 0;
  /// Where the GPU finds the element count (one uint32, <= max_count). Always valid.
  Binding count;
  Binding keys;
  Binding values;  ///< buffer is VK_NULL_HANDLE when value_type is none
  Binding temporary;
  /// SortBuffers::temporary_is_clear: the radix sort's counters there are zero already.
  bool temporary_is_clear = false;

  bool has_values() const { return value_type != ValueType::none; }
  std::uint32_t key_words() const { return key_bytes(key_type) / 4; }
  std::uint32_t value_words() const { return static_cast<std::uint32_t>(value_bytes(value_type) / 4); }
  bool descending() const { return order == SortOrder::descending; }
};

/// The KEY_KIND specialization constant of shaders/common/keys.glsl for a key type.
std::uint32_t key_kind(KeyType type);

/// One sort of up to desc.max_count elements, planned once: it serves both the temporary-size
/// query and the recording.
class SortPlan {
 public:
  virtual ~SortPlan() = default;
  /// Scratch bytes the algorithm needs beyond what the dispatcher reserves for itself: what the
  /// algorithm's temporary_bytes gives for the planned desc.
  virtual std::uint64_t temporary_bytes() const = 0;
  /// Whether every kernel takes min(count word, job.max_count) as the count: then a sort whose
  /// count the host knows binds a word no count exceeds (record.hpp, SortDevice::count_ceiling)
  /// instead of filling the count in, which saves a fill and the barrier after it.
  virtual bool clamps_count() const { return false; }
  /// Records the sort (job.max_count is the planned count). The recorder places barriers
  /// between the algorithm's own commands; everything the job's buffers held before is visible.
  virtual void record(detail::ComputeDevice& ctx, Recorder& r, const Job& job) const = 0;
  /// Records the sorts of several jobs of the planned desc, each with buffers of its own: one
  /// after another here; a plan made of device-wide steps records each step of every job before
  /// the next step of any, so that the device runs the jobs' dispatches of one step together.
  virtual void record_together(detail::ComputeDevice& ctx, Recorder& r, std::span<const Job> jobs) const {
    for (const Job& job : jobs) record(ctx, r, job);
  }
};

/// Temporary bytes bounded by a line over a range of counts: for every n up to `up_to` (and past
/// the previous bound's), temporary_bytes(n) <= n * numerator / denominator + fixed. An
/// algorithm's bounds, in increasing `up_to`, let in_core_capacity solve for the largest count in
/// closed form.
struct TemporaryBound {
  std::uint64_t up_to = 0;
  std::uint64_t numerator = 0, denominator = 1;
  std::uint64_t fixed = 0;
};

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  virtual SortAlgorithm id() const = 0;
  virtual bool stable() const = 0;
  /// Scratch bytes of a sort of up to desc.max_count elements, in closed form (no plan is built).
  virtual std::uint64_t temporary_bytes(const DeviceInfo& device, const SortDesc& desc) const = 0;
  /// temporary_bytes bounded by lines, by ranges of counts that end at UINT32_MAX.
  virtual std::vector<TemporaryBound> temporary_bounds(const DeviceInfo& device, const SortDesc& desc) const = 0;
  virtual std::unique_ptr<SortPlan> plan(const DeviceInfo& device, const SortDesc& desc) const = 0;
};

/// One bound for every count: temporary bytes that do not depend on the count.
std::vector<TemporaryBound> constant_temporary(std::uint64_t bytes);

/// An algorithm whose plan is its temporary bytes and its recording.
class SimpleAlgorithm : public Algorithm {
 public:
  virtual void record(detail::ComputeDevice& ctx, Recorder& r, const Job& job) const = 0;
  std::unique_ptr<SortPlan> plan(const DeviceInfo& device, const SortDesc& desc) const override;
};

/// The algorithm that `options.algorithm` names for a sort of up to `max_count` elements;
/// resolves `automatic` from measurements (see BENCHMARKS.md).
const Algorithm& choose(const DeviceInfo& device, const SortDesc& desc);

/// Whether this build has an implementation of `algorithm` (`automatic` always).
bool available(SortAlgorithm algorithm);

/// Whether this build has a radix sort (argsort prefers it for its stability).
bool radix_algorithm_available();

/// Registered implementations; each lives in its own file.
const Algorithm* bitonic_algorithm();
const Algorithm* bitonic_transpose_algorithm();
const Algorithm* odd_even_algorithm();
const Algorithm* radix_algorithm();

}  // namespace vkc::sorting
