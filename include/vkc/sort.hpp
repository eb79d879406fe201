// vkc sorting: sort, sort_pairs and argsort on any Vulkan device, and the low-level API that
// records a sort into an engine's own command buffer.
//
// ## The order contract (every algorithm, both orders)
// - Integers order by value.
// - Floats order by value, with -0.0 before +0.0 when ascending (after it when descending),
//   and every NaN last in both orders, as NumPy does. A NaN key keeps its payload bits but
//   comes out with its sign bit cleared. NaNs order among themselves by those bits (ascending
//   in both orders), and equal NaNs are equal keys; NumPy keeps all NaNs in input order, so an
//   argsort over NaNs of different payloads may differ from NumPy's there.
// - Descending is the exact reverse of ascending for distinct keys; NaNs stay last.
// - sort_pairs keeps every key with its own value.
//
// ## Stability
// `radix` and `odd_even` are stable: equal keys keep their input order (in both orders), so
// argsort through them gives the stable permutation. `bitonic` and `bitonic_transpose` are not
// stable: equal keys may come out in any order (their values with them).
//
// ## radix: passes the keys make trivial
// The radix sort counts every 8-bit digit of every key in one read first, and a pass whose
// digit all keys share moves nothing and dispatches no workgroups: u32 keys below 2^16 take two
// passes, u64 keys below 2^32 four, keys that are all equal none. On GPUs, 64-bit keys one of
// whose 32-bit words is the same in every key (u64 keys below 2^32, i64 keys in [-2^31, 0)) also
// move only their other word between the first pass and the last, half a whole key's bytes. The
// GPU decides, in the recorded API too. Where an odd number of passes would run, one of the
// skipped passes copies the keys instead (a read and a write at copy speed), so the result ends
// in the caller's buffer.
// 8-bit keys sorted alone (no values, no bit range) take no pass where the device has 8- and
// 16-bit storage (DeviceInfo::narrow_storage): the digit counts are the output, written into the
// caller's buffer, so the keys are read once and written once.
// No bit range is needed for keys whose high bits are zero; SortOptions::begin_bit and end_bit
// sort by part of a key that is not.
//
// ## odd_even: cost, and when to choose it
// Each workgroup sorts a tile of B elements in shared memory by odd-even transposition (B fills
// shared memory on a GPU: 6142 32-bit or 4094 64-bit keys in 48 KiB; 512 on a CPU device), then
// rounds of merge-split between neighbouring B/2-element blocks follow, one dispatch each, up
// to 2n/B - 1 of them: O(n^2 / B) work for random input, and a recorded command buffer that
// holds two dispatches per possible round. Both stages stop as soon as a pass changes nothing
// (decided on the GPU), so input that is sorted, or whose keys lie within a block of their
// place, costs about one read of the keys plus the empty rounds. Choose it for nearly sorted
// arrays, small ones especially; a random tile needs up to B phases, each a workgroup barrier,
// so for random input radix or bitonic is far faster (BENCHMARKS.md).
//
// ## Sizes
// The convenient API sorts any count that fits in host memory (64-bit counts). Where the
// arrays fit the device at once (every buffer within maxStorageBufferRange, 4 GiB on NVIDIA and
// 128 MiB on lavapipe; all of them within ContextOptions::device_memory_limit; at most 2^32 - 1
// elements), they are sorted there in one go. Larger ones are sorted in runs that fit, with the
// algorithm `automatic` picks for the whole array, and merged: parts of the runs' merged order
// that fit are gathered and sorted again, so the result is the same, stability included. The
// runs stay on the device where they all fit within the device memory limit; else the call holds
// a host copy of the arrays meanwhile. `radix` needs about (key bytes + value bytes + 1) bytes of
// temporary device storage per element. The low-level API records sorts of up to 2^32 - 1
// elements (the GPU-side count is a uint32) within one buffer each. No algorithm pads to a power of two.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "vkc/context.hpp"

namespace vkc {

enum class SortAlgorithm {
  automatic,          ///< bitonic for small arrays, radix above a measured crossover
  bitonic,            ///< subgroup shuffles + shared memory + multi-stride global passes; O(n log^2 n)
  bitonic_transpose,  ///< the DirectX SDK's ComputeShaderSort11 method, kept as a reference
  odd_even,           ///< block odd-even merge-split; O(n^2 / B): small or nearly sorted arrays only
  radix,              ///< LSD radix sort, 8-bit digits, Onesweep-style; O(n)
};

enum class SortOrder { ascending, descending };

/// How radix sort computes each digit's global offsets.
enum class RadixScan {
  automatic,         ///< chained scan where the device is known to let workgroups wait on each other
                     ///< (NVIDIA's and AMD's discrete GPUs, up to 2^30 - 1 keys), reduce-then-scan elsewhere
  lookback,          ///< single-pass chained scan with decoupled look-back (needs forward progress)
  reduce_then_scan,  ///< upsweep, scan, downsweep: no workgroup ever waits for another
};

/// Key types. The 8- and 16-bit ones are stored packed (two or four to a 32-bit word) in host
/// arrays and device buffers alike; f16 is IEEE 754 binary16, bf16 the upper half of a binary32
/// (both as their bits: Float16, BFloat16). Appended in this order, so that their numbers (the C
/// ABI's vkc_key_type) never change.
enum class KeyType { u32, i32, f32, u64, i64, f64, u8, i8, u16, i16, f16, bf16 };
enum class ValueType { none, u32, u64 };

/// The bits of an IEEE 754 binary16 key (KeyType::f16), for key_type_of and typed spans.
struct Float16 {
  std::uint16_t bits;
};
/// The bits of a bfloat16 key (KeyType::bf16): a binary32's upper 16 bits.
struct BFloat16 {
  std::uint16_t bits;
};
/// How far a host sort has come: `done` of `total` units of work. A sort that the device takes
/// at once counts its elements once; a larger one counts each element twice (sorted in its run,
/// sorted in its part).
struct SortProgress {
  std::uint64_t done = 0;
  std::uint64_t total = 0;
};

struct SortOptions {
  /// Which algorithm sorts; `automatic` picks by size and device (see BENCHMARKS.md).
  SortAlgorithm algorithm = SortAlgorithm::automatic;
  /// ascending or descending (see the order contract above).
  SortOrder order = SortOrder::ascending;
  /// radix only: how digit offsets are scanned.
  RadixScan radix_scan = RadixScan::automatic;
  /// A bit range, as CUB's begin_bit and end_bit: keys order by the bits [begin_bit, end_bit) of
  /// their ordered image alone, the unsigned word whose ascending order is the contract's order
  /// (for unsigned keys the key itself; for signed keys the key with its sign bit flipped; for
  /// floats the sign bit flipped for positives and every bit for negatives, a NaN as its
  /// positive pattern with the sign bit set, so above +inf; for descending, every bit of that
  /// inverted except a NaN's). Equal under the range, keys keep their input order with a stable
  /// algorithm. Only radix sorts by a range (`automatic` then picks it; another algorithm throws
  /// Error), and only the digits that overlap it: a narrower range is fewer passes. end_bit at or
  /// past the key's width (the default) means its width; begin_bit == end_bit sorts nothing.
  std::uint32_t begin_bit = 0;
  std::uint32_t end_bit = UINT32_MAX;
  /// The host functions (sort, sort_pairs, argsort and their streamed forms) call it on the
  /// calling thread as they advance, at their start and end at least; record_sort never does.
  std::function<void(const SortProgress&)> progress;
};

std::string_view to_string(SortAlgorithm algorithm);
std::string_view to_string(KeyType type);
/// Parses "auto", "bitonic", "bitonic_transpose", "odd_even", "radix"; throws Error otherwise.
SortAlgorithm parse_algorithm(std::string_view name);
std::size_t key_bytes(KeyType type);
/// Bits of a key type: what end_bit means when it is past them.
std::uint32_t key_bits(KeyType type);
std::size_t value_bytes(ValueType type);

template <class T>
constexpr KeyType key_type_of() {
  if constexpr (std::is_same_v<T, std::uint32_t>) return KeyType::u32;
  else if constexpr (std::is_same_v<T, std::int32_t>) return KeyType::i32;
  else if constexpr (std::is_same_v<T, float>) return KeyType::f32;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return KeyType::u64;
  else if constexpr (std::is_same_v<T, std::int64_t>) return KeyType::i64;
  else if constexpr (std::is_same_v<T, double>) return KeyType::f64;
  else if constexpr (std::is_same_v<T, std::uint8_t>) return KeyType::u8;
  else if constexpr (std::is_same_v<T, std::int8_t>) return KeyType::i8;
  else if constexpr (std::is_same_v<T, std::uint16_t>) return KeyType::u16;
  else if constexpr (std::is_same_v<T, std::int16_t>) return KeyType::i16;
  else if constexpr (std::is_same_v<T, Float16>) return KeyType::f16;
  else if constexpr (std::is_same_v<T, BFloat16>) return KeyType::bf16;
  else static_assert(!sizeof(T), "keys are (u)int8/16/32/64_t, Float16, BFloat16, float or double");
}

template <class V>
constexpr ValueType value_type_of() {
  static_assert(sizeof(V) == 4 || sizeof(V) == 8, "values are 32- or 64-bit");
  static_assert(std::is_trivially_copyable_v<V>, "values are copied as bytes");
  return sizeof(V) == 4 ? ValueType::u32 : ValueType::u64;
}

// ---------------------------------------------------------------------------------------------
// The convenient API: host arrays in, sorted host arrays out (upload, sort, download).
//
// The Context keeps the device buffers and pinned staging buffers of these calls for the next
// one (Context::release_cached_memory frees them), and moves host data in chunks that several
// threads copy while the device moves the previous ones, or imports the caller's memory where
// ContextOptions::host_transfer asks for it. Every call returns when its results are in host
// memory; the arrays must not be touched by other threads meanwhile.

/// Sorts keys in place on the GPU, keys-only, by the order contract.
void sort(Context& ctx, KeyType type, void* keys, std::uint64_t count, const SortOptions& options = {});

/// Sorts keys and reorders values with them.
void sort_pairs(Context& ctx, KeyType key_type, void* keys, ValueType value_type, void* values, std::uint64_t count,
                const SortOptions& options = {});

/// Sorts `keys` into `sorted_keys`, leaving `keys` as it was (it is only read): the keys go to
/// the device from one array and come back into the other, so the copy costs no extra pass. The
/// arrays may be the same (then it is sort()), and must not overlap otherwise.
void sort_to(Context& ctx, KeyType type, const void* keys, void* sorted_keys, std::uint64_t count,
             const SortOptions& options = {});

/// sort_pairs from `keys` and `values` into `sorted_keys` and `sorted_values`, as sort_to.
void sort_pairs_to(Context& ctx, KeyType key_type, const void* keys, void* sorted_keys, ValueType value_type,
                   const void* values, void* sorted_values, std::uint64_t count, const SortOptions& options = {});

/// The permutation that sorts keys: keys[result[0]], keys[result[1]], ... is sorted. With a
/// stable algorithm (radix, odd_even; `automatic` picks radix here) it is the stable permutation.
/// 32-bit indices: throws Error when count exceeds 2^32 - 1 (argsort64 numbers any count).
std::vector<std::uint32_t> argsort(Context& ctx, KeyType type, const void* keys, std::uint64_t count,
                                   const SortOptions& options = {});

/// argsort with 64-bit indices, for any count.
std::vector<std::uint64_t> argsort64(Context& ctx, KeyType type, const void* keys, std::uint64_t count,
                                     const SortOptions& options = {});

/// argsort into the caller's array of `count` indices (count at most 2^32 - 1).
void argsort_to(Context& ctx, KeyType type, const void* keys, std::uint32_t* indices, std::uint64_t count,
                const SortOptions& options = {});

/// argsort64 into the caller's array of `count` indices.
void argsort64_to(Context& ctx, KeyType type, const void* keys, std::uint64_t* indices, std::uint64_t count,
                  const SortOptions& options = {});

/// Sorts the `count` keys that `keys_in` supplies and hands them, sorted, to `keys_out`, for
/// arrays that are not in memory (HostRead, HostWrite in context.hpp). Every byte is read before
/// any is written.
void sort_streamed(Context& ctx, KeyType type, const HostRead& keys_in, const HostWrite& keys_out, std::uint64_t count,
                   const SortOptions& options = {});

/// sort_pairs for arrays that are not in memory, as sort_streamed.
void sort_pairs_streamed(Context& ctx, KeyType key_type, const HostRead& keys_in, const HostWrite& keys_out,
                         ValueType value_type, const HostRead& values_in, const HostWrite& values_out,
                         std::uint64_t count, const SortOptions& options = {});

/// argsort for keys that are not in memory: the permutation goes to `indices_out` as uint32
/// indices (4 bytes each; offsets count bytes of that array); count at most 2^32 - 1.
void argsort_streamed(Context& ctx, KeyType type, const HostRead& keys_in, const HostWrite& indices_out,
                      std::uint64_t count, const SortOptions& options = {});

/// argsort_streamed with uint64 indices (8 bytes each), for any count.
void argsort64_streamed(Context& ctx, KeyType type, const HostRead& keys_in, const HostWrite& indices_out,
                        std::uint64_t count, const SortOptions& options = {});

template <class T>
void sort(Context& ctx, std::span<T> keys, const SortOptions& options = {}) {
  sort(ctx, key_type_of<T>(), keys.data(), keys.size(), options);
}

template <class K, class V>
void sort_pairs(Context& ctx, std::span<K> keys, std::span<V> values, const SortOptions& options = {}) {
  if (keys.size() != values.size()) throw Error("sort_pairs: keys and values differ in length");
  sort_pairs(ctx, key_type_of<K>(), keys.data(), value_type_of<V>(), values.data(), keys.size(), options);
}

template <class T>
std::vector<std::uint32_t> argsort(Context& ctx, std::span<const T> keys, const SortOptions& options = {}) {
  return argsort(ctx, key_type_of<T>(), keys.data(), keys.size(), options);
}

template <class T>
std::vector<std::uint64_t> argsort64(Context& ctx, std::span<const T> keys, const SortOptions& options = {}) {
  return argsort64(ctx, key_type_of<T>(), keys.data(), keys.size(), options);
}

// ---------------------------------------------------------------------------------------------
// Several devices (DeviceSet, device_set.hpp). The elements are split by key into one contiguous
// range of the output per device, balanced in elements: splitters sampled from the keys, and keys
// equal to a splitter divided by input position, so that even all-equal keys split evenly. Each
// device sorts its range with the functions above, all at once, and the results land in place.
// The same contract, stability (where the algorithm is stable), sizes and progress (the
// callback on the calling thread, counting every device's elements; when it throws, every device
// stops) as on one device. The partition passes over the keys twice on the host (a read that
// counts, then a read and a write of every array into host memory that each device pinned and
// keeps between calls, which its copies read directly); an in-place sort copies the result back
// once every device is done, so that a cancelled or failed sort leaves the arrays as they were.
// Where one GPU's host-to-host sort already takes all of the host's memory bandwidth, as on the
// machines measured so far (BENCHMARKS.md, "Several devices"), a set sorts host arrays more
// slowly than one device; it sorts arrays larger than one device holds. One device in the set:
// the single-device function.

class DeviceSet;

/// sort() over the devices of `devices`.
void sort(DeviceSet& devices, KeyType type, void* keys, std::uint64_t count, const SortOptions& options = {});

/// sort_to() over the devices of `devices` (the arrays may be the same, as for sort_to).
void sort_to(DeviceSet& devices, KeyType type, const void* keys, void* sorted_keys, std::uint64_t count,
             const SortOptions& options = {});

/// sort_pairs() over the devices of `devices`.
void sort_pairs(DeviceSet& devices, KeyType key_type, void* keys, ValueType value_type, void* values,
                std::uint64_t count, const SortOptions& options = {});

/// sort_pairs_to() over the devices of `devices`.
void sort_pairs_to(DeviceSet& devices, KeyType key_type, const void* keys, void* sorted_keys, ValueType value_type,
                   const void* values, void* sorted_values, std::uint64_t count, const SortOptions& options = {});

/// argsort64() over the devices of `devices`: the stable permutation (`automatic` means radix).
std::vector<std::uint64_t> argsort64(DeviceSet& devices, KeyType type, const void* keys, std::uint64_t count,
                                     const SortOptions& options = {});

/// argsort64_to() over the devices of `devices`.
void argsort64_to(DeviceSet& devices, KeyType type, const void* keys, std::uint64_t* indices, std::uint64_t count,
                  const SortOptions& options = {});

// ---------------------------------------------------------------------------------------------
// Segmented sorts: many independent pieces of one host array, each sorted on its own (every
// row of a matrix: np.sort(a, axis=-1); or CUB's DeviceSegmentedSort's begin/end offsets).
//
// Segments may be empty, need not cover the array (elements outside every segment are neither
// read for ordering nor written) and must not overlap; offsets past the count, an end before its
// begin or overlapping segments throw Error before anything is sorted. Segmented sorts are
// stable in both orders and follow the order contract; they choose their own kernels by segment
// length on the GPU (SortOptions::algorithm must be `automatic` or `radix`, and bit ranges are
// not taken yet). Every key type; values are 32- or 64-bit.

/// The pieces of an array that a segmented sort sorts.
class Segments {
 public:
  /// rows x columns elements, row-major: segment r is [r * columns, (r + 1) * columns).
  static Segments rows(std::uint64_t rows, std::uint64_t columns);
  /// CUB's shape: segment i is [begins[i], ends[i]). The spans are read during the call only.
  static Segments ranges(std::span<const std::uint64_t> begins, std::span<const std::uint64_t> ends);
  /// Consecutive segments: segment i is [offsets[i], offsets[i + 1]) (offsets.size() - 1 of them).
  static Segments offsets(std::span<const std::uint64_t> offsets);

  std::uint64_t size() const { return rows_ ? rows_ : begins_.size(); }
  std::uint64_t begin(std::uint64_t i) const { return rows_ ? i * columns_ : begins_[i]; }
  std::uint64_t end(std::uint64_t i) const { return rows_ ? (i + 1) * columns_ : ends_[i]; }
  /// Whether every segment has the same length and they lie back to back from 0.
  bool are_rows() const { return rows_ != 0 || begins_.empty(); }
  std::uint64_t columns() const { return columns_; }

 private:
  std::uint64_t rows_ = 0, columns_ = 0;
  std::span<const std::uint64_t> begins_, ends_;
};

/// Which numbers a segmented argsort gives: positions within each segment (0 for its first
/// element: NumPy's argsort along an axis), or positions in the whole array.
enum class SegmentIndices { local, global };

/// Sorts each segment of keys[0, count) in place.
void sort_segments(Context& ctx, KeyType type, void* keys, std::uint64_t count, const Segments& segments,
                   const SortOptions& options = {});

/// Sorts each segment's keys and reorders its values with them.
void sort_segments_pairs(Context& ctx, KeyType key_type, void* keys, ValueType value_type, void* values,
                         std::uint64_t count, const Segments& segments, const SortOptions& options = {});

/// The stable permutation of each segment: for segment [b, e), indices[b .. e) are its keys'
/// positions in sorted order (local: 0 .. e - b; global: b .. e). Indices at positions outside
/// every segment are not written. `indices` holds `count` entries of `index_type` (u32 or u64;
/// u32 global indices need count <= 2^32 - 1).
void argsort_segments(Context& ctx, KeyType type, const void* keys, std::uint64_t count, const Segments& segments,
                      ValueType index_type, void* indices, SegmentIndices numbering = SegmentIndices::local,
                      const SortOptions& options = {});

// ---------------------------------------------------------------------------------------------
// The low-level API: record a sort into your own command buffer over your own buffers.
//
// Barrier contract. Before the recorded sort, the caller makes every earlier write to the keys,
// values and count buffers available and visible to VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT (and,
// for the count buffer, VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT) with SHADER_READ | SHADER_WRITE
// access (INDIRECT_COMMAND_READ for the count), and orders earlier reads of them before it.
// The sort writes the keys and values buffers (and the temporary buffer) from compute shaders
// and transfer commands; after it, the caller records a barrier from
// VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT with SHADER_WRITE |
// TRANSFER_WRITE access to whatever stage reads the results next. Between those, the sort places
// its own barriers. The temporary buffer must not be used by anything else until the sort's
// commands have completed.
//
// Buffer usage: keys, values and the count need VK_BUFFER_USAGE_STORAGE_BUFFER_BIT; the
// temporary buffer needs STORAGE_BUFFER, INDIRECT_BUFFER (some algorithms size their dispatches
// on the GPU) and TRANSFER_DST (it is cleared with fills).

struct SortDesc {
  KeyType key_type = KeyType::u32;
  ValueType value_type = ValueType::none;
  /// The most elements a recorded sort may see: the count itself for record_sort, the upper
  /// bound of the GPU-side count for record_sort_indirect.
  std::uint64_t max_count = 0;
  SortOptions options;
};

struct BufferRange {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;  ///< a multiple of the device's minStorageBufferOffsetAlignment
};

struct SortBuffers {
  /// max_count keys, sorted in place. 8- and 16-bit keys lie packed, and the buffer must hold
  /// whole 32-bit words from the offset: max_count * key bytes rounded up to a multiple of 4
  /// (the bytes past the last key keep their contents).
  BufferRange keys;
  BufferRange values;     ///< max_count values when value_type is not none
  BufferRange temporary;  ///< sort_temporary_bytes() bytes of scratch
  /// For the radix sort, which keeps counters in the temporary buffer that must start at zero:
  /// true when they are, that is, when the buffer (at this offset) was zero-filled and only radix
  /// sorts, of any key type, order and count, wrote it since: each leaves the counters at zero.
  /// (bitonic, what `automatic` picks for small counts, does not touch the buffer;
  /// bitonic_transpose and odd_even write it.) The radix sort then skips its own clearing fill, one
  /// barrier and dependent step fewer (about 5 us on an H100). Other algorithms ignore the flag.
  /// Set wrongly, the sort finds counts that do not add up and leaves the keys as they were (it
  /// runs no pass), and so may the radix sorts after it until the buffer is zero-filled.
  bool temporary_is_clear = false;
};

/// What the temporary buffer of a sort must be: at least `size` bytes, bound at an offset that
/// is a multiple of `alignment`, created with every bit of `usage`.
struct SortStorageRequirements {
  VkDeviceSize size = 0;
  VkDeviceSize alignment = 0;
  VkBufferUsageFlags usage = 0;
};

/// A segmented sort recorded into your command buffer (keys of 32 or 64 bits; the host API
/// takes 8- and 16-bit ones). Segments are rows (`columns` > 0: `segments` rows of that length
/// from element 0) or begin/end offsets in buffers (uint32 element indices, `segments` of each;
/// they must lie within `count`, end at or after their begin and not overlap: offsets that break
/// this give unspecified order within the segments they touch, and writes only inside [0, count)).
/// Stable; what it writes, as the host API (argsort indices go to `values`).
struct SegmentedSortDesc {
  KeyType key_type = KeyType::u32;
  /// The values' type (pairs), or the indices' type (argsort: u32 or u64); none for keys alone.
  ValueType value_type = ValueType::none;
  SortOrder order = SortOrder::ascending;
  /// Argsort: the indices written into `values` instead of sorting keys and values.
  bool argsort = false;
  SegmentIndices numbering = SegmentIndices::local;
  std::uint32_t count = 0;
  std::uint32_t segments = 0;
  std::uint32_t columns = 0;
};

struct SegmentedSortBuffers {
  BufferRange keys;
  BufferRange values;  ///< VK_NULL_HANDLE for keys alone
  BufferRange begins;  ///< offsets only
  BufferRange ends;    ///< offsets only
  BufferRange temporary;
  /// Offsets only, optional: a uint32 read on the GPU when the commands run, the number of
  /// segments (begins[0 .. n), ends[0 .. n)) to sort, at most desc.segments, which sizes the work.
  /// VK_NULL_HANDLE: desc.segments is the count.
  BufferRange segment_count;
};

struct SorterAccess;  // the library's own access to a Sorter's internals

struct SorterCreateInfo {
  /// An engine's instance (apiVersion 1.2 or later), one of its physical devices, and a device
  /// created on it with at least device_requirements(instance, physical_device) enabled (any
  /// queues). vkc never destroys them; they must outlive the Sorter.
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  /// The engine's own vkGetInstanceProcAddr, through which vkc binds every Vulkan function it
  /// calls (then vkc never opens a loader itself); null: vkc opens libvulkan.so.1.
  PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
  /// Passed to every vkCreateComputePipelines; optional.
  VkPipelineCache pipeline_cache = VK_NULL_HANDLE;
  /// Sorts whose pipelines are created with the Sorter (see Sorter::prepare).
  std::vector<SortDesc> prepare;
};

/// Sorts recorded into an engine's command buffers, on an engine's device, with no queue and no
/// submission of its own (as vk_radix_sort's and Fuchsia's radix_sort_vk's sorters): for frames
/// in which nothing may compile or wait. It creates nothing on the device but pipelines and one
/// 4-byte constant buffer (written through a mapping where the device has host-visible
/// device-local memory). Given the engine's vkGetInstanceProcAddr, it reads no environment
/// variable. Move-only; not thread-safe: record from one thread at a time. Destroy it only after
/// the GPU has finished every command buffer into which it recorded. A pipeline that prepare()
/// did not make is compiled when first recorded (pipelines_compiled() counts them all).
class Sorter {
 public:
  explicit Sorter(const SorterCreateInfo& info);
  ~Sorter();
  Sorter(Sorter&&) noexcept;
  Sorter& operator=(Sorter&&) noexcept;
  Sorter(const Sorter&) = delete;
  Sorter& operator=(const Sorter&) = delete;

  const DeviceInfo& info() const;

  /// Creates every pipeline that sorts described by `desc` (its key, value, order, algorithm and
  /// radix scan, any count up to desc.max_count, direct or indirect) may record, so that recording
  /// them compiles nothing.
  void prepare(const SortDesc& desc);

  /// The temporary buffer a sort described by `desc` needs.
  SortStorageRequirements temporary_requirements(const SortDesc& desc) const;

  /// Records a sort of `count` (<= desc.max_count) elements into `commands`, under the barrier
  /// contract above.
  void record_sort(VkCommandBuffer commands, const SortDesc& desc, std::uint64_t count,
                   const SortBuffers& buffers);

  /// Records a sort whose element count is the uint32 at `count` (read on the GPU when the
  /// commands run; it must be <= desc.max_count). Work is sized for max_count.
  void record_sort_indirect(VkCommandBuffer commands, const SortDesc& desc, BufferRange count,
                            const SortBuffers& buffers);

  /// The temporary buffer a segmented sort described by `desc` needs (the same usage flags).
  SortStorageRequirements temporary_requirements(const SegmentedSortDesc& desc) const;

  /// Records a segmented sort into `commands`, under the barrier contract above (the offsets
  /// buffers are read like the count buffer of record_sort).
  void record_segmented_sort(VkCommandBuffer commands, const SegmentedSortDesc& desc,
                             const SegmentedSortBuffers& buffers);

  /// Pipelines compiled since creation, prepared ones included.
  std::size_t pipelines_compiled() const;

 private:
  friend struct SorterAccess;
  struct State;
  Sorter();
  std::unique_ptr<State> state_;
};

/// Bytes of temporary storage a sort described by `desc` needs (at least 16).
std::uint64_t sort_temporary_bytes(Context& ctx, const SortDesc& desc);

/// Records a sort of `count` (<= desc.max_count) elements into `commands`, through the Context's
/// own Sorter (the Context(AdoptedDevice) path: an engine that also wants the convenient API).
void record_sort(Context& ctx, VkCommandBuffer commands, const SortDesc& desc, std::uint64_t count,
                 const SortBuffers& buffers);

/// Records a sort whose element count is the uint32 at `count` (read on the GPU when the
/// commands run; it must be <= desc.max_count). Work is sized for max_count.
void record_sort_indirect(Context& ctx, VkCommandBuffer commands, const SortDesc& desc, BufferRange count,
                          const SortBuffers& buffers);

/// The Context's own Sorter, for prepare() and pipelines_compiled(); it lives as long as the Context.
Sorter& sorter(Context& ctx);

}  // namespace vkc
