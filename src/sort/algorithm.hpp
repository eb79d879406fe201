// The interface every sorting algorithm implements, and the job the dispatcher hands it.
//
// A new algorithm is one file here (a class deriving from Algorithm plus a function returning
// its instance), its shaders under shaders/sort/, one row in dispatcher.cpp, and its tests.
#pragma once

#include <cstdint>
#include <memory>

#include "core/recorder.hpp"
#include "sort/radix_policy.hpp"
#include "vkc/sort.hpp"

namespace vkc::sorting {

/// PCI vendor ids (DeviceInfo::vendor_id) of the GPUs whose tuning is measured.
constexpr std::uint32_t kVendorNvidia = 0x10DE;
constexpr std::uint32_t kVendorAmd = 0x1002;

/// The dispatcher keeps the element count at the start of the temporary buffer; the
/// algorithm's scratch follows at this offset (a multiple of every storage-buffer alignment).
constexpr std::uint64_t kScratchOffset = 256;

/// One sort, as recorded: buffers with their offsets and the sizes known on the host.
struct Job {
  KeyType key_type = KeyType::u32;
  ValueType value_type = ValueType::none;
  SortOrder order = SortOrder::ascending;
  RadixScan radix_scan = RadixScan::automatic;
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
  /// Scratch bytes the algorithm needs beyond what the dispatcher reserves for itself.
  virtual std::uint64_t temporary_bytes() const = 0;
  /// Whether every kernel takes min(count word, job.max_count) as the count: then a sort whose
  /// count the host knows binds a word no count exceeds (ContextState::count_ceiling) instead of
  /// filling the count in, which saves a fill and the barrier after it.
  virtual bool clamps_count() const { return false; }
  /// Records the sort (job.max_count is the planned count). The recorder places barriers
  /// between the algorithm's own commands; everything the job's buffers held before is visible.
  virtual void record(Context& ctx, Recorder& r, const Job& job) const = 0;
};

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  virtual SortAlgorithm id() const = 0;
  virtual bool stable() const = 0;
  /// Plans a sort; `edit` changes the radix sort's policy (tests, probes) and nothing else.
  virtual std::unique_ptr<SortPlan> plan(const DeviceInfo& device, const SortDesc& desc,
                                         const RadixPolicyEdit& edit) const = 0;
};

/// An algorithm whose plan is its temporary bytes and its recording.
class SimpleAlgorithm : public Algorithm {
 public:
  virtual std::uint64_t temporary_bytes(const DeviceInfo& device, const SortDesc& desc) const = 0;
  virtual void record(Context& ctx, Recorder& r, const Job& job) const = 0;
  std::unique_ptr<SortPlan> plan(const DeviceInfo& device, const SortDesc& desc,
                                 const RadixPolicyEdit& edit) const override;
};

/// A sort planned: the algorithm chosen once, and its plan.
struct PlannedSort {
  SortDesc desc;
  const Algorithm* algorithm = nullptr;
  std::unique_ptr<SortPlan> plan;
};

/// Chooses the algorithm for `desc` and plans it.
PlannedSort plan_sort(const DeviceInfo& device, const SortDesc& desc, const RadixPolicyEdit& edit = {});

/// The algorithm that `options.algorithm` names for a sort of up to `max_count` elements;
/// resolves `automatic` from measurements (see BENCHMARKS.md).
const Algorithm& choose(const DeviceInfo& device, const SortDesc& desc);

/// Records a sort of `count` elements (`count` known on the host) into `r`: the one path that
/// record_sort, the convenient API and the benchmarks share.
void record(Context& ctx, Recorder& r, const SortDesc& desc, std::uint64_t count, const SortBuffers& buffers,
            const RadixPolicyEdit& edit = {});

/// record_sort_indirect's path: the count in a buffer, up to desc.max_count.
void record_indirect(Context& ctx, Recorder& r, const SortDesc& desc, BufferRange count, const SortBuffers& buffers,
                     const RadixPolicyEdit& edit = {});

/// Records a planned sort of exactly planned.desc.max_count elements, whose count the host knows.
void record_planned(Context& ctx, Recorder& r, const PlannedSort& planned, const SortBuffers& buffers);

/// sort_temporary_bytes under a radix policy edit.
std::uint64_t temporary_bytes(const DeviceInfo& device, const SortDesc& desc, const RadixPolicyEdit& edit = {});

/// `options` with `automatic` resolved to a stable algorithm: what argsort sorts with.
SortOptions options_for_argsort(SortOptions options);

/// Records values[i] = first + i for i < n (uint32 or, for ValueType::u64, uint64): the initial
/// values of an argsort, or of one run of a larger argsort. A uint32 first + n must fit 32 bits.
void record_iota(Context& ctx, Recorder& r, VkBuffer values, ValueType type, std::uint64_t n,
                 std::uint64_t first = 0);

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
