// vkc-peer-cub-sort: times cub::DeviceRadixSort and cub::DeviceMergeSort on generated keys
// (optionally with index values), or cub::DeviceSegmentedSort and cub::DeviceSegmentedRadixSort on
// them cut into segments of a benchmark shape (bench/segment_shapes.hpp), and prints one JSON line
// per size.
#include "peer_common.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/version.cuh>

#include <climits>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <numeric>
#include <thread>
#include <type_traits>

#include "../key_distributions.hpp"
#include "../segment_shapes.hpp"

namespace {

constexpr const char* kProgram = "vkc-peer-cub-sort";

constexpr const char* kUsage =
    "usage: vkc-peer-cub-sort --n N1,N2,... [options]\n"
    "  --algo radix|merge|segmented|segmented_radix\n"
    "                                           cub::DeviceRadixSort, cub::DeviceMergeSort,\n"
    "                                           cub::DeviceSegmentedSort::StableSort* or\n"
    "                                           cub::DeviceSegmentedRadixSort (radix); the segmented\n"
    "                                           ones sort u32, i32 and f32 keys only\n"
    "  --segments uniform:MAX|power:S|rows:C    the segments, for the segmented algos (required):\n"
    "                                           CUB's benchmark shapes (sizes uniform in [MAX/2, MAX];\n"
    "                                           S segments of lognormal sizes) or rows of C keys\n"
    "  --key u32|i32|f32|u64|i64|f64|u8|i8|u16|i16|f16|bf16\n"
    "                                           key type (u32); f16 is __half, bf16 __nv_bfloat16\n"
    "  --value none|u32|u64                     value type; values are the original indices (none)\n"
    "  --order asc|desc                         sort order (asc)\n"
    "  --dist uniform|sorted|reverse|few|equal|and2..and5|float01|normal|splat|low:B\n"
    "                                           input distribution (uniform): the entropy ladder\n"
    "                                           (keys ANDed 2-5 times), f32/f64 in [0, 1) or N(0, 1),\n"
    "                                           u64 splatting keys, integers below 2^B\n"
    "                                           (bench/key_distributions.hpp, as vkc bench sort)\n"
    "  --count int|int64|best                   radix: num_items as an int, a std::size_t, or both,\n"
    "                                           the faster call reported (best)\n"
    "  --n N1,N2,...                            sizes, each 1..2147483647 (required)\n"
    "  --runs R                                 timed runs per size; the median is reported (20)\n"
    "  --warmup W                               untimed runs before them (3)\n"
    "  --seed S                                 generator seed, keys and segments (1)\n"
    "  --sweep-mb M                             after each input copy, untimed, read M MiB of another buffer (0)\n"
    "  --bits B:E                               radix, segmented_radix: CUB's begin_bit and end_bit\n"
    "                                           (0:width; E past the key's width means its width)\n"
    "  --tile WGxITEMS                          radix, u32 keys: CUB's onesweep kernel with this tile\n"
    "                                           (384x12|384x15|384x16|384x19|384x20|448x18|512x20|384x23;\n"
    "                                           default: CUB's own), offsets as --count makes them\n"
    "Prints one JSON object per size on stdout; exits non-zero on an error or a wrong result.\n";

enum class Algo { Radix, Merge, Segmented, SegmentedRadix };
enum class Order { Ascending, Descending };
enum class Dist { Uniform, Sorted, Reverse, Few, Equal, Shared };
// The type of num_items: CUB tunes by it (README.md, "The count type").
enum class CountType { Int, Int64 };

struct Config {
  Algo algo = Algo::Radix;
  Order order = Order::Ascending;
  Dist dist = Dist::Uniform;
  vkc::bench::KeyDist shared_dist;  // for Dist::Shared
  std::vector<CountType> count_types = {CountType::Int};
  std::string algo_name, key_name, value_name, order_name, dist_name;
  std::vector<std::uint64_t> sizes;
  // --segments: the shape the segmented algos cut the keys into; "none" for the others.
  std::string segments_name = "none";
  vkc::bench::SegmentShape segments;
  int runs = 20;
  int warmup = 3;
  std::uint64_t seed = 1;
  std::string tile;  // empty: CUB's own onesweep tile; else one of the tiles with_tile names
  int sweep_mb = 0;  // MiB read after each input copy (sweep_read)
  // --bits: CUB's begin_bit and end_bit as given; bit_range() fits them to the key type.
  int begin_bit = 0;
  int end_bit = INT_MAX;
};

// The bits [begin, end) of a key's ordered image that the radix sort sorts by, as passed to CUB.
struct BitRange {
  int begin = 0;
  int end = 0;
};

// Stands for "no values": the keys-only sorts.
struct NoValue {};

template <typename V>
constexpr bool kHasValues = !std::is_same_v<V, NoValue>;

// "a is ordered before b" for the requested order: cub::DeviceMergeSort's comparators.
template <typename K>
struct Ascending {
  __host__ __device__ bool operator()(const K& a, const K& b) const { return a < b; }
};
template <typename K>
struct Descending {
  __host__ __device__ bool operator()(const K& a, const K& b) const { return b < a; }
};

// ---------------------------------------------------------------- key types

// The unsigned integer of a key's size: the bits CUB's radix sort orders.
template <typename K>
using BitsOf = std::conditional_t<
    sizeof(K) == 1, std::uint8_t,
    std::conditional_t<sizeof(K) == 2, std::uint16_t,
                       std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>>>;

template <typename K>
constexpr bool kIsFloatKey =
    std::is_floating_point_v<K> || std::is_same_v<K, __half> || std::is_same_v<K, __nv_bfloat16>;

// A 16-bit float's exponent field: all ones for infinities and NaNs.
template <typename K>
constexpr std::uint16_t kExponent16 = std::is_same_v<K, __half> ? 0x7C00 : 0x7F80;

template <typename K>
constexpr int kKeyWidth = int(sizeof(K) * 8);

template <typename K>
BitsOf<K> bits_of(const K& key) {
  BitsOf<K> bits;
  std::memcpy(&bits, &key, sizeof bits);
  return bits;
}

// The key of the given bits. (void*: __half and __nv_bfloat16 are classes to the compiler, but
// trivially copyable, their bits their only member.)
template <typename K>
K key_of(BitsOf<K> bits) {
  static_assert(std::is_trivially_copyable_v<K>);
  K key;
  std::memcpy(static_cast<void*>(&key), &bits, sizeof key);
  return key;
}

// --bits fitted to K as CUB needs them: end_bit past the width is the width (vkcompute's
// SortOptions reads it so), and a begin_bit past end_bit an empty range.
template <typename K>
BitRange bit_range(const Config& cfg) {
  const int end = std::min(cfg.end_bit, kKeyWidth<K>);
  return {std::min(cfg.begin_bit, end), end};
}

// Where CUB's radix sort puts a key: the number it sorts ascending, stably. These are the
// transformations CUB documents (cub/device/device_radix_sort.cuh): signed keys with the sign bit
// flipped; floats with the sign bit flipped (positive) or every bit flipped (negative), -0.0 as
// +0.0; then, for a descending sort, every bit inverted; only bits [begin_bit, end_bit) of the
// result count. NaNs get no special treatment: they sort by these bits.
template <typename K>
struct CubRank {
  BitRange bits;
  bool descending = false;

  std::uint64_t operator()(const K& key) const {
    using U = BitsOf<K>;
    constexpr U kHigh = U(U{1} << (kKeyWidth<K> - 1));
    U u = bits_of(key);
    if constexpr (kIsFloatKey<K>) {
      if (u == kHigh) u = 0;  // -0.0 sorts as +0.0
      u = (u & kHigh) ? U(~u) : U(u ^ kHigh);
    } else if constexpr (std::is_signed_v<K>) {
      u = U(u ^ kHigh);
    }
    if (descending) u = U(~u);
    const int width = bits.end - bits.begin;
    if (width <= 0) return 0;
    const std::uint64_t mask = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
    return (std::uint64_t(u) >> bits.begin) & mask;
  }
};

// ---------------------------------------------------------------- input data

template <typename K>
K random_key(peer::SplitMix64& rng) {
  if constexpr (std::is_floating_point_v<K>) {
    return static_cast<K>(-1.0e6 + 2.0e6 * rng.unit());  // uniform in [-1e6, 1e6]
  } else if constexpr (kIsFloatKey<K>) {
    // Every finite 16-bit pattern equally likely (both zeros and the subnormals among them):
    // [-1e6, 1e6] is past binary16's range, and uniform bits give every digit its full spread,
    // as the integer keys' do. vkc bench sort draws its 16-bit floats the same way.
    std::uint16_t bits;
    do bits = static_cast<std::uint16_t>(rng.next());
    while ((bits & kExponent16<K>) == kExponent16<K>);
    return key_of<K>(bits);
  } else {
    return key_of<K>(static_cast<BitsOf<K>>(rng.next()));  // uniform random bits
  }
}

// K as bench/key_distributions.hpp sees it: its width and a float's exponent field.
template <typename K>
vkc::bench::KeyFormat key_format() {
  std::uint64_t exponent = 0;
  if constexpr (std::is_same_v<K, float>) exponent = 0x7F800000u;
  if constexpr (std::is_same_v<K, double>) exponent = 0x7FF0000000000000ull;
  if constexpr (kIsFloatKey<K> && sizeof(K) == 2) exponent = kExponent16<K>;
  return {unsigned(sizeof(K)), exponent};
}

template <typename K>
std::vector<K> make_keys(Dist dist, const vkc::bench::KeyDist& shared, const char* dist_name, std::size_t n,
                         std::uint64_t seed) {
  peer::SplitMix64 rng(seed);
  std::vector<K> keys(n);
  switch (dist) {
    case Dist::Uniform:
    case Dist::Sorted:
    case Dist::Reverse: {
      for (K& k : keys) k = random_key<K>(rng);
      // In CUB's order of the whole key (the same as < for the keys drawn here: no NaNs).
      const CubRank<K> rank{{0, kKeyWidth<K>}, dist == Dist::Reverse};
      if (dist != Dist::Uniform) {
        std::sort(keys.begin(), keys.end(), [&](const K& a, const K& b) { return rank(a) < rank(b); });
      }
      break;
    }
    case Dist::Few: {
      std::vector<BitsOf<K>> pool;  // distinct bit patterns (random_key draws no NaNs, so distinct keys)
      while (pool.size() < 16) {
        const BitsOf<K> bits = bits_of(random_key<K>(rng));
        if (std::find(pool.begin(), pool.end(), bits) == pool.end()) pool.push_back(bits);
      }
      for (K& k : keys) k = key_of<K>(pool[rng.next() % pool.size()]);
      break;
    }
    case Dist::Equal:
      std::fill(keys.begin(), keys.end(), random_key<K>(rng));
      break;
    case Dist::Shared: {
      const std::string refusal = vkc::bench::key_dist_refusal(shared, key_format<K>());
      if (!refusal.empty()) throw peer::Error("--dist " + std::string(dist_name) + ": " + refusal);
      std::uint64_t state = seed;
      for (K& k : keys) k = key_of<K>(BitsOf<K>(vkc::bench::draw_key_bits(shared, key_format<K>(), state)));
      break;
    }
  }
  return keys;
}

// ---------------------------------------------------------------- CUB with a tile of our choosing

// CUB's onesweep pass with its tile fixed at Threads x Items, everything else as CUB 3.0 tunes it
// for sm_90. It measures CUB's own kernels under the budget a Vulkan driver leaves one of our
// workgroups: NVIDIA's gives compute 48 KiB of shared memory per SM, two workgroups of 24 KiB,
// where CUB's pair tile (384 x 23) takes 36 KiB (docs/perf-notes.md#shared-memory-budget). The
// policy shadows the chain's
// ActivePolicy and Invoke so that CUB dispatches to it on any device.
template <typename K, typename V, typename OffsetT, int Threads, int Items>
struct FixedTileHub {
  using Base = cub::detail::radix::policy_hub<K, V, OffsetT>;
  struct Policy900 : Base::Policy900 {
    using ActivePolicy = Policy900;
    using OnesweepPolicy =
        cub::AgentRadixSortOnesweepPolicy<Threads, Items, typename Base::DominantT, 1, cub::RADIX_RANK_MATCH_EARLY_COUNTS_ANY,
                                          cub::BLOCK_SCAN_RAKING_MEMOIZE, cub::RADIX_SORT_STORE_DIRECT, 8>;
    template <typename F>
    static cudaError_t Invoke(int, F& op) {
      return op.template Invoke<Policy900>();
    }
  };
  using MaxPolicy = Policy900;
};

template <int Threads, int Items>
struct TileShape {};

// Calls f(TileShape<T, I>{}) for the tile named `name` ("384x16"); parse() accepts only these names.
template <typename F>
cudaError_t with_tile(const std::string& name, F&& f) {
  if (name == "384x12") return f(TileShape<384, 12>{});
  if (name == "384x15") return f(TileShape<384, 15>{});
  if (name == "384x16") return f(TileShape<384, 16>{});
  if (name == "384x19") return f(TileShape<384, 19>{});
  if (name == "384x20") return f(TileShape<384, 20>{});
  if (name == "448x18") return f(TileShape<448, 18>{});
  if (name == "512x20") return f(TileShape<512, 20>{});
  return f(TileShape<384, 23>{});
}

template <typename K, typename V, typename Count, int Threads, int Items>
cudaError_t fixed_tile_dispatch(TileShape<Threads, Items>, void* temp, std::size_t& temp_bytes,
                                cub::DoubleBuffer<K>& keys, cub::DoubleBuffer<V>& values, Count n, BitRange bits,
                                cudaStream_t stream) {
  using OffsetT = cub::detail::choose_offset_t<Count>;
  using Hub = FixedTileHub<K, V, OffsetT, Threads, Items>;
  using Dispatch = cub::DispatchRadixSort<cub::SortOrder::Ascending, K, V, OffsetT, cub::detail::identity_decomposer_t, Hub>;
  // is_overwrite_okay: the DoubleBuffer overloads of DeviceRadixSort pass true too.
  return Dispatch::Dispatch(temp, temp_bytes, keys, values, static_cast<OffsetT>(n), bits.begin, bits.end, true, stream);
}

// An ascending CUB radix sort with the onesweep tile `tile` names (--tile), its offsets chosen
// by the count's type as CUB's own call chooses them.
template <typename K, typename V>
cudaError_t fixed_tile_sort(const std::string& tile, CountType count, void* temp, std::size_t& temp_bytes,
                            cub::DoubleBuffer<K>& keys, cub::DoubleBuffer<V>& values, int n, BitRange bits,
                            cudaStream_t stream) {
  return with_tile(tile, [&](auto shape) {
    return count == CountType::Int64
               ? fixed_tile_dispatch(shape, temp, temp_bytes, keys, values, std::size_t(n), bits, stream)
               : fixed_tile_dispatch(shape, temp, temp_bytes, keys, values, n, bits, stream);
  });
}

// ---------------------------------------------------------------- the sort call

// Working buffers: radix sort ping-pongs between [0] and [1]; merge sort sorts [0] in place; the
// segmented sorts read [0] and write [1].
template <typename K, typename V>
struct Work {
  K* keys[2] = {nullptr, nullptr};
  V* values[2] = {nullptr, nullptr};
  int current = 0;  // which buffer holds the sorted output after sort()
};

// The segments on the device: `count` begin offsets and one more, segment i being
// [offsets[i], offsets[i + 1]) (end offsets = offsets + 1, as CUB's benchmarks pass them).
struct DeviceSegments {
  const int* offsets = nullptr;
  int count = 0;
};

bool is_segmented(Algo algo) { return algo == Algo::Segmented || algo == Algo::SegmentedRadix; }

// The key types the segmented algos are built for (parse() refuses the others): the 32-bit ones,
// which issue 52 measures (i32 keys in CUB's shapes, f32 rows). Built for all twelve, the peer took
// 12.5 minutes of one core to compile instead of 3, about 4 s for each key type, value type, order
// and algorithm; a type added here is a name added to kSegmentedKeyNames.
template <typename K>
constexpr bool kSegmentedKey = sizeof(K) == 4;
constexpr const char* kSegmentedKeyNames[] = {"u32", "i32", "f32"};

// One segmented CUB sort from work.keys[0] (and work.values[0]) into work.keys[1] (values[1]), the
// forms CUB's own benchmarks time (input and output apart, int offsets). cub::DeviceSegmentedSort's
// StableSort* calls run the same dispatch as its Sort* calls in CUB 3.0 (stable either way);
// cub::DeviceSegmentedRadixSort takes an `int` count and --bits.
template <typename K, typename V>
cudaError_t segmented_sort(const Config& cfg, void* temp, std::size_t& temp_bytes, Work<K, V>& work, int n,
                           const DeviceSegments& segments, cudaStream_t stream) {
  const bool asc = cfg.order == Order::Ascending;
  const int* begin = segments.offsets;
  const int* end = segments.offsets + 1;
  const int count = segments.count;
  K* const* keys = work.keys;
  V* const* values = work.values;
  if (cfg.algo == Algo::SegmentedRadix) {
    using Sort = cub::DeviceSegmentedRadixSort;
    const BitRange bits = bit_range<K>(cfg);
    if constexpr (kHasValues<V>) {
      return asc ? Sort::SortPairs(temp, temp_bytes, keys[0], keys[1], values[0], values[1], n, count, begin, end,
                                   bits.begin, bits.end, stream)
                 : Sort::SortPairsDescending(temp, temp_bytes, keys[0], keys[1], values[0], values[1], n, count, begin,
                                             end, bits.begin, bits.end, stream);
    } else {
      return asc ? Sort::SortKeys(temp, temp_bytes, keys[0], keys[1], n, count, begin, end, bits.begin, bits.end,
                                  stream)
                 : Sort::SortKeysDescending(temp, temp_bytes, keys[0], keys[1], n, count, begin, end, bits.begin,
                                            bits.end, stream);
    }
  }
  using Sort = cub::DeviceSegmentedSort;
  if constexpr (kHasValues<V>) {
    return asc ? Sort::StableSortPairs(temp, temp_bytes, keys[0], keys[1], values[0], values[1], n, count, begin, end,
                                       stream)
               : Sort::StableSortPairsDescending(temp, temp_bytes, keys[0], keys[1], values[0], values[1], n, count,
                                                 begin, end, stream);
  } else {
    return asc ? Sort::StableSortKeys(temp, temp_bytes, keys[0], keys[1], n, count, begin, end, stream)
               : Sort::StableSortKeysDescending(temp, temp_bytes, keys[0], keys[1], n, count, begin, end, stream);
  }
}

// One CUB sort of work.keys[0] (and work.values[0]); the segmented algos sort each of `segments`.
// With temp == nullptr it only sets temp_bytes, as CUB does. The radix sort's item count is an
// `int` or a `std::size_t` as `count` says: CUB picks its tuning by the count's type (see
// README.md, "The count type"); the merge sort and the fixed tiles take an `int`,
// cub::DeviceSegmentedSort 64-bit counts only.
template <typename K, typename V>
cudaError_t cub_sort(const Config& cfg, CountType count, void* temp, std::size_t& temp_bytes, Work<K, V>& work, int n,
                     const DeviceSegments& segments, cudaStream_t stream) {
  const bool asc = cfg.order == Order::Ascending;
  if (is_segmented(cfg.algo)) {
    work.current = 1;
    if constexpr (kSegmentedKey<K>) return segmented_sort(cfg, temp, temp_bytes, work, n, segments, stream);
    throw peer::Error("--algo " + cfg.algo_name + ": key type not built");  // parse() refuses it first
  }
  if (cfg.algo == Algo::Radix) {
    const BitRange bits = bit_range<K>(cfg);
    cub::DoubleBuffer<K> keys(work.keys[0], work.keys[1]);
    cudaError_t status;
    if constexpr (std::is_same_v<K, std::uint32_t> && (std::is_same_v<V, std::uint32_t> || !kHasValues<V>)) {
      if (!cfg.tile.empty()) {
        using Values = std::conditional_t<kHasValues<V>, V, cub::NullType>;
        cub::DoubleBuffer<Values> values;
        if constexpr (kHasValues<V>) values = cub::DoubleBuffer<Values>(work.values[0], work.values[1]);
        status = fixed_tile_sort(cfg.tile, count, temp, temp_bytes, keys, values, n, bits, stream);
        work.current = keys.selector;
        return status;
      }
    }
    const auto radix = [&](auto num_items) {
      if constexpr (kHasValues<V>) {
        cub::DoubleBuffer<V> values(work.values[0], work.values[1]);
        // CUB flips the keys' and the values' selectors together.
        return asc ? cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys, values, num_items, bits.begin, bits.end,
                                                     stream)
                   : cub::DeviceRadixSort::SortPairsDescending(temp, temp_bytes, keys, values, num_items, bits.begin,
                                                               bits.end, stream);
      } else {
        return asc ? cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys, num_items, bits.begin, bits.end, stream)
                   : cub::DeviceRadixSort::SortKeysDescending(temp, temp_bytes, keys, num_items, bits.begin, bits.end,
                                                              stream);
      }
    };
    status = count == CountType::Int64 ? radix(std::size_t(n)) : radix(n);
    work.current = keys.selector;
    return status;
  }
  work.current = 0;
  if constexpr (kHasValues<V>) {
    return asc ? cub::DeviceMergeSort::SortPairs(temp, temp_bytes, work.keys[0], work.values[0], n, Ascending<K>{},
                                                 stream)
               : cub::DeviceMergeSort::SortPairs(temp, temp_bytes, work.keys[0], work.values[0], n, Descending<K>{},
                                                 stream);
  } else {
    return asc ? cub::DeviceMergeSort::SortKeys(temp, temp_bytes, work.keys[0], n, Ascending<K>{}, stream)
               : cub::DeviceMergeSort::SortKeys(temp, temp_bytes, work.keys[0], n, Descending<K>{}, stream);
  }
}

// ---------------------------------------------------------------- verification

// Runs f(0) ... f(count - 1), each on a thread of its own.
template <typename F>
void on_threads(std::size_t count, F f) {
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < count; ++i) threads.emplace_back(f, i);
  for (std::thread& t : threads) t.join();
}

// std::stable_sort on every core: one slice per core sorted on its own thread, then neighbouring
// runs merged (std::inplace_merge keeps the first run's elements first among equals, so the whole
// stays stable), on threads too, until one is left. A serial sort of the reference took about 20 s
// at 2^28 keys, per algorithm, most of a device call's time.
template <typename K, typename Before>
void parallel_stable_sort(std::vector<K>& keys, Before before) {
  const std::size_t parts = std::max(1u, std::thread::hardware_concurrency());
  std::vector<typename std::vector<K>::iterator> bound(parts + 1);
  for (std::size_t p = 0; p <= parts; ++p) bound[p] = keys.begin() + keys.size() * p / parts;
  on_threads(parts, [&](std::size_t p) { std::stable_sort(bound[p], bound[p + 1], before); });
  for (std::size_t width = 1; width < parts; width *= 2) {
    on_threads((parts + 2 * width - 1) / (2 * width), [&](std::size_t i) {
      const std::size_t first = 2 * width * i;
      if (first + width >= parts) return;  // an odd run out, merged in a later round
      std::inplace_merge(bound[first], bound[first + width], bound[std::min(first + 2 * width, parts)], before);
    });
  }
}

// A stable counting sort by rank, for ranks of at most kCountingBits bits (8- and 16-bit keys,
// narrow bit ranges): two passes over the keys, where a comparison sort of 2^28 keys takes seconds.
constexpr int kCountingBits = 16;

template <typename K>
std::vector<K> counting_sorted(const std::vector<K>& input, const CubRank<K>& rank) {
  std::vector<std::size_t> start((std::size_t{1} << kCountingBits) + 1, 0);
  for (const K& k : input) ++start[rank(k) + 1];
  for (std::size_t r = 1; r < start.size(); ++r) start[r] += start[r - 1];
  std::vector<K> out(input.size());
  for (const K& k : input) out[start[rank(k)]++] = k;
  return out;
}

// The input as CUB's radix sort must return it: stably sorted by CUB's rank.
template <typename K>
std::vector<K> stable_sorted(const std::vector<K>& input, const CubRank<K>& rank) {
  if (rank.bits.end - rank.bits.begin <= kCountingBits) return counting_sorted(input, rank);
  std::vector<K> out = input;
  parallel_stable_sort(out, [&](const K& a, const K& b) { return rank(a) < rank(b); });
  return out;
}

// Keys alone, out[first, last) against expected[0, last - first): a stable sort (all but merge)
// must return exactly the stable reference, bit for bit (keys equal under the rank, such as -0.0
// and +0.0 or keys that differ outside the bit range, in input order); another (merge) keys of the
// same ranks in the same places.
template <typename K>
std::string compare_keys(const K* expected, const std::vector<K>& out, std::size_t first, std::size_t last,
                         const CubRank<K>& rank, bool stable) {
  for (std::size_t i = first; i < last; ++i) {
    const K& e = expected[i - first];
    const bool same = stable ? bits_of(out[i]) == bits_of(e) : rank(out[i]) == rank(e);
    if (!same) return "key at index " + std::to_string(i) + " differs from std::stable_sort by CUB's order";
  }
  return {};
}

template <typename K>
std::string check_keys_only(const std::vector<K>& input, const std::vector<K>& out, const CubRank<K>& rank,
                            bool stable) {
  const std::vector<K> expected = stable_sorted(input, rank);
  return compare_keys(expected.data(), out, 0, out.size(), rank, stable);
}

// Values are the original indices. Over [first, last) (the whole array, or one segment): keys in
// order, every (key, value) an input pair of that range and every index of it used once; for a
// stable sort, ties also keep index order. For a stable sort these together say the output is
// exactly std::stable_sort's.
template <typename K, typename V>
std::string check_pairs(const std::vector<K>& input, const std::vector<K>& keys, const std::vector<V>& values,
                        std::size_t first, std::size_t last, const CubRank<K>& rank, bool stable) {
  std::vector<bool> seen(last - first, false);
  for (std::size_t i = first; i < last; ++i) {
    const std::uint64_t index = values[i];
    const auto at = [i] { return " at index " + std::to_string(i); };
    if (index < first || index >= last) return "value out of range" + at();
    if (seen[index - first]) return "value repeated" + at();
    seen[index - first] = true;
    if (bits_of(input[index]) != bits_of(keys[i])) return "(key, value) is not an input pair" + at();
    if (i == first) continue;
    if (rank(keys[i]) < rank(keys[i - 1])) return "keys out of order" + at();
    if (stable && rank(keys[i]) == rank(keys[i - 1]) && values[i - 1] > values[i]) return "equal keys reordered" + at();
  }
  return {};
}

// Runs check(first, last) on every segment [offsets[s], offsets[s + 1]), on threads that take one
// slice of the keys each (the segments that begin in it), and returns the first failure in segment
// order, its segment named.
template <typename Check>
std::string check_segments(const std::vector<std::uint64_t>& offsets, Check check) {
  const std::size_t parts = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t count = offsets.size() - 1;
  const std::uint64_t n = offsets.back();
  const auto first_segment_from = [&](std::size_t part) {
    if (part == parts) return count;
    const auto begins = offsets.begin();
    return std::size_t(std::lower_bound(begins, begins + count, n * part / parts) - begins);
  };
  std::vector<std::string> failure(parts);
  on_threads(parts, [&](std::size_t p) {
    const std::size_t end = first_segment_from(p + 1);
    for (std::size_t s = first_segment_from(p); s < end && failure[p].empty(); ++s) {
      const std::string what = check(offsets[s], offsets[s + 1]);
      if (!what.empty()) failure[p] = what + " (segment " + std::to_string(s) + ")";
    }
  });
  for (const std::string& f : failure) {
    if (!f.empty()) return f;
  }
  return {};
}

// Each segment of the keys alone against std::stable_sort of its input by CUB's rank.
template <typename K>
std::string check_segmented_keys(const std::vector<K>& input, const std::vector<K>& out,
                                 const std::vector<std::uint64_t>& offsets, const CubRank<K>& rank) {
  return check_segments(offsets, [&](std::size_t first, std::size_t last) {
    std::vector<K> expected(input.begin() + first, input.begin() + last);
    std::stable_sort(expected.begin(), expected.end(), [&](const K& a, const K& b) { return rank(a) < rank(b); });
    return compare_keys(expected.data(), out, first, last, rank, /*stable=*/true);
  });
}

// ---------------------------------------------------------------- one size

// Reads every word of `vectors` (--sweep-mb): an untimed stream between the input's copy and the
// sort that leaves L2 holding clean lines of another buffer instead of the copy's dirty ones. The
// xor is stored only where it matches a constant, which a zeroed buffer's never does.
__global__ void sweep_read(const uint4* vectors, std::size_t count, unsigned* sink) {
  uint4 acc = make_uint4(0, 0, 0, 0);
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const uint4 v = vectors[i];
    acc.x ^= v.x, acc.y ^= v.y, acc.z ^= v.z, acc.w ^= v.w;
  }
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x9E3779B9u) *sink = acc.x;
}

struct Context {
  std::string device;
  int runtime = 0;
};

template <typename K, typename V>
bool run_size(const Config& cfg, const Context& ctx, int n, cudaStream_t stream) {
  const std::size_t count = static_cast<std::size_t>(n);
  const bool segmented = is_segmented(cfg.algo);
  const bool two_buffers = cfg.algo != Algo::Merge;  // merge sort alone sorts in place
  const bool stable = cfg.algo != Algo::Merge;

  const std::vector<K> input = make_keys<K>(cfg.dist, cfg.shared_dist, cfg.dist_name.c_str(), count, cfg.seed);
  peer::DeviceBuffer<K> pristine_keys(count), keys0(count), keys1(two_buffers ? count : 0);
  peer::upload(pristine_keys, input);
  Work<K, V> work;
  work.keys[0] = keys0.get();
  work.keys[1] = keys1.get();

  using ValueStorage = std::conditional_t<kHasValues<V>, V, char>;
  peer::DeviceBuffer<ValueStorage> pristine_values, values0, values1;
  if constexpr (kHasValues<V>) {
    std::vector<V> indices(count);
    std::iota(indices.begin(), indices.end(), V{0});
    pristine_values = peer::DeviceBuffer<V>(count);
    values0 = peer::DeviceBuffer<V>(count);
    values1 = peer::DeviceBuffer<V>(two_buffers ? count : 0);
    peer::upload(pristine_values, indices);
    work.values[0] = values0.get();
    work.values[1] = values1.get();
  }

  // The segments, written to the device once: one segment of every key for the other algos.
  const std::vector<std::uint64_t> offsets =
      segmented ? vkc::bench::segment_offsets(cfg.segments, count, cfg.seed) : std::vector<std::uint64_t>{0, count};
  peer::DeviceBuffer<int> device_offsets(offsets.size());
  peer::upload(device_offsets, std::vector<int>(offsets.begin(), offsets.end()));  // each at most n
  const DeviceSegments segments{device_offsets.get(), int(offsets.size() - 1)};

  std::size_t temp_bytes = 0;
  for (const CountType c : cfg.count_types) {
    std::size_t bytes = 0;
    PEER_CUDA(cub_sort(cfg, c, nullptr, bytes, work, n, segments, stream));
    temp_bytes = std::max(temp_bytes, bytes);
  }
  peer::DeviceBuffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1));

  peer::DeviceBuffer<uint4> sweep(std::size_t(cfg.sweep_mb) << 16);
  peer::DeviceBuffer<unsigned> sink(1);
  if (cfg.sweep_mb > 0) PEER_CUDA(cudaMemset(sweep.get(), 0, sweep.bytes()));

  // Restores the unsorted input; enqueued before the start event, so not timed.
  const auto restore_input = [&] {
    PEER_CUDA(cudaMemcpyAsync(work.keys[0], pristine_keys.get(), pristine_keys.bytes(), cudaMemcpyDeviceToDevice,
                              stream));
    if constexpr (kHasValues<V>) {
      PEER_CUDA(cudaMemcpyAsync(work.values[0], pristine_values.get(), pristine_values.bytes(),
                                cudaMemcpyDeviceToDevice, stream));
    }
    if (cfg.sweep_mb > 0) sweep_read<<<1024, 256, 0, stream>>>(sweep.get(), sweep.size(), sink.get());
  };

  // The calls (one per count type) take turns run by run, so that drift reaches each alike.
  peer::EventTimer timer;
  std::vector<std::vector<float>> samples(cfg.count_types.size());
  for (int r = 0; r < cfg.warmup + cfg.runs; ++r) {
    for (std::size_t c = 0; c < cfg.count_types.size(); ++c) {
      restore_input();
      timer.start(stream);
      PEER_CUDA(cub_sort(cfg, cfg.count_types[c], temp.get(), temp_bytes, work, n, segments, stream));
      timer.stop(stream);
      const float ms = timer.elapsed_ms();
      if (r >= cfg.warmup) samples[c].push_back(ms);
    }
  }
  PEER_CUDA(cudaStreamSynchronize(stream));
  PEER_CUDA(cudaGetLastError());

  // Merge sort's < orders the keys drawn here (no NaNs) as CUB's rank of the whole key does.
  const BitRange bits = bit_range<K>(cfg);
  const CubRank<K> rank{bits, cfg.order == Order::Descending};
  const auto check_output = [&]() -> std::string {
    const std::vector<K> out_keys = peer::download(work.keys[work.current], count);
    if constexpr (kHasValues<V>) {
      const std::vector<V> out_values = peer::download(work.values[work.current], count);
      return segmented ? check_segments(offsets,
                                        [&](std::size_t first, std::size_t last) {
                                          return check_pairs(input, out_keys, out_values, first, last, rank, stable);
                                        })
                       : check_pairs(input, out_keys, out_values, 0, count, rank, stable);
    } else {
      return segmented ? check_segmented_keys(input, out_keys, offsets, rank)
                       : check_keys_only(input, out_keys, rank, stable);
    }
  };
  // Each call's output is checked, the last timed run's for the last call, one more run for the others.
  std::string failure = check_output();
  for (std::size_t c = 0; c + 1 < cfg.count_types.size() && failure.empty(); ++c) {
    restore_input();
    PEER_CUDA(cub_sort(cfg, cfg.count_types[c], temp.get(), temp_bytes, work, n, segments, stream));
    PEER_CUDA(cudaStreamSynchronize(stream));
    failure = check_output();
  }

  std::vector<peer::Summary> times;
  for (const auto& s : samples) times.push_back(peer::summarize(s));
  std::size_t best = 0;
  for (std::size_t c = 1; c < times.size(); ++c) best = times[c].median_ms < times[best].median_ms ? c : best;
  const peer::Summary t = times[best];
  const auto count_name = [&](CountType c) {
    return cfg.algo == Algo::Segmented ? "int64" : c == CountType::Int64 ? "int64" : "int";
  };
  // Each call's median beside the fastest's, where more than one was timed.
  std::string each;
  for (std::size_t c = 0; c < times.size() && times.size() > 1; ++c) {
    each += std::string(",\"median_ms_") + count_name(cfg.count_types[c]) + "\":" + peer::json_number(times[c].median_ms);
  }
  std::printf(
      "{\"peer\":\"cub\",\"algorithm\":%s,\"key_type\":%s,\"value_type\":%s,\"order\":%s,\"dist\":%s,"
      "\"n\":%d,\"median_ms\":%s,\"min_ms\":%s,\"runs\":%d,\"verified\":%s,\"device\":%s,"
      "\"cuda_runtime\":%d,\"cub_version\":%d,\"tile\":%s,\"begin_bit\":%d,\"end_bit\":%d,\"count_type\":\"%s\"%s,"
      "\"segments\":%s,\"segment_count\":%d}\n",
      peer::json_string("cub_" + cfg.algo_name).c_str(), peer::json_string(cfg.key_name).c_str(),
      peer::json_string(cfg.value_name).c_str(), peer::json_string(cfg.order_name).c_str(),
      peer::json_string(cfg.dist_name).c_str(), n, peer::json_number(t.median_ms).c_str(),
      peer::json_number(t.min_ms).c_str(), cfg.runs, failure.empty() ? "true" : "false",
      peer::json_string(ctx.device).c_str(), ctx.runtime, int(CUB_VERSION),
      peer::json_string(cfg.tile.empty() ? "cub" : cfg.tile).c_str(), bits.begin, bits.end,
      count_name(cfg.count_types[best]), each.c_str(), peer::json_string(cfg.segments_name).c_str(), segments.count);
  std::fflush(stdout);
  if (!failure.empty()) {
    std::fprintf(stderr, "%s: error: wrong result for n=%d: %s\n", kProgram, n, failure.c_str());
  }
  return failure.empty();
}

// ---------------------------------------------------------------- command line

template <typename E>
E choose(const std::string& option, const std::string& value,
         std::initializer_list<std::pair<const char*, E>> choices) {
  std::string names;
  for (const auto& [name, e] : choices) {
    if (value == name) return e;
    names += names.empty() ? name : std::string("|") + name;
  }
  throw peer::Error("option " + option + ": expected " + names + ", got '" + value + "'");
}

int parse_count(peer::Args& args, const char* option, const char* fallback, int minimum) {
  const std::uint64_t value = peer::parse_u64(args.get(option, fallback), option);
  if (value < std::uint64_t(minimum) || value > 1000000) {
    throw peer::Error(std::string("option ") + option + ": must be in " + std::to_string(minimum) + "..1000000");
  }
  return int(value);
}

// --bits B:E (empty: every bit). E is not checked against the key's width: bit_range() clamps it.
void parse_bits(const std::string& text, Config& cfg) {
  if (text.empty()) return;
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) throw peer::Error("--bits: expected BEGIN:END, got '" + text + "'");
  const std::uint64_t begin = peer::parse_u64(text.substr(0, colon), "--bits");
  const std::uint64_t end = peer::parse_u64(text.substr(colon + 1), "--bits");
  if (begin > end || end > std::uint64_t(INT_MAX)) {
    throw peer::Error("--bits: expected BEGIN <= END, got '" + text + "'");
  }
  if (cfg.algo != Algo::Radix && cfg.algo != Algo::SegmentedRadix) {
    throw peer::Error(
        "--bits: only for radix and segmented_radix sorts (cub::DeviceMergeSort and cub::DeviceSegmentedSort have no "
        "bit range)");
  }
  cfg.begin_bit = int(begin);
  cfg.end_bit = int(end);
}

// --segments SHAPE: required by the segmented algos, refused by the others. Every size must fit
// the shape (rows: a multiple of the columns), and the segment count must fit an int.
void parse_segments(const std::string& text, Config& cfg) {
  if (!is_segmented(cfg.algo)) {
    if (!text.empty()) throw peer::Error("--segments: only for --algo segmented or segmented_radix");
    return;
  }
  if (text.empty()) throw peer::Error("--algo " + cfg.algo_name + " needs --segments (see --help)");
  if (std::find(std::begin(kSegmentedKeyNames), std::end(kSegmentedKeyNames), cfg.key_name) ==
      std::end(kSegmentedKeyNames)) {
    throw peer::Error("--algo " + cfg.algo_name + ": keys u32, i32 or f32 (the segmented sorts are built for those)");
  }
  try {
    cfg.segments = vkc::bench::parse_segment_shape(text);
  } catch (const std::invalid_argument& e) {
    throw peer::Error(std::string("--") + e.what());
  }
  cfg.segments_name = vkc::bench::to_string(cfg.segments);
  const std::uint64_t parameter = cfg.segments.parameter;
  if (cfg.segments.kind == vkc::bench::SegmentKind::power && parameter > std::uint64_t(INT_MAX)) {
    throw peer::Error("--segments: at most 2147483647 segments, got " + text);
  }
  for (const std::uint64_t n : cfg.sizes) {
    if (cfg.segments.kind == vkc::bench::SegmentKind::rows && n % parameter != 0) {
      throw peer::Error("--segments " + text + ": every size must be a multiple of the columns, got " +
                        std::to_string(n));
    }
  }
}

// --count int|int64|best: the radix sort's num_items type, or both (the faster reported); the
// other algos take one count type each.
void parse_count_type(const std::string& text, Config& cfg) {
  const int choice = choose<int>("--count", text, {{"int", 0}, {"int64", 1}, {"best", 2}});
  if (cfg.algo != Algo::Radix) {
    if (text != "best") throw peer::Error("--count: only for --algo radix");
    return;
  }
  cfg.count_types = choice == 0   ? std::vector<CountType>{CountType::Int}
                    : choice == 1 ? std::vector<CountType>{CountType::Int64}
                                  : std::vector<CountType>{CountType::Int, CountType::Int64};
}

Config parse(peer::Args& args) {
  Config cfg;
  cfg.algo_name = args.get("--algo", "radix");
  cfg.algo = choose<Algo>("--algo", cfg.algo_name,
                          {{"radix", Algo::Radix},
                           {"merge", Algo::Merge},
                           {"segmented", Algo::Segmented},
                           {"segmented_radix", Algo::SegmentedRadix}});
  cfg.key_name = args.get("--key", "u32");
  choose<int>("--key", cfg.key_name,
              {{"u32", 0}, {"i32", 0}, {"f32", 0}, {"u64", 0}, {"i64", 0}, {"f64", 0}, {"u8", 0}, {"i8", 0}, {"u16", 0},
               {"i16", 0}, {"f16", 0}, {"bf16", 0}});
  cfg.value_name = args.get("--value", "none");
  choose<int>("--value", cfg.value_name, {{"none", 0}, {"u32", 0}, {"u64", 0}});
  cfg.order_name = args.get("--order", "asc");
  cfg.order = choose<Order>("--order", cfg.order_name, {{"asc", Order::Ascending}, {"desc", Order::Descending}});
  cfg.dist_name = args.get("--dist", "uniform");
  if (const auto shared = vkc::bench::parse_key_dist(cfg.dist_name)) {
    cfg.dist = Dist::Shared;
    cfg.shared_dist = *shared;
  } else {
    cfg.dist = choose<Dist>("--dist", cfg.dist_name,
                            {{"uniform", Dist::Uniform},
                             {"sorted", Dist::Sorted},
                             {"reverse", Dist::Reverse},
                             {"few", Dist::Few},
                             {"equal", Dist::Equal}});
  }
  cfg.sizes = peer::parse_sizes(args.require("--n"), "--n");
  for (const std::uint64_t n : cfg.sizes) {
    if (n > std::uint64_t(INT_MAX)) throw peer::Error("--n: sizes above 2147483647 are not supported");
  }
  cfg.runs = parse_count(args, "--runs", "20", 1);
  cfg.warmup = parse_count(args, "--warmup", "3", 0);
  cfg.seed = peer::parse_u64(args.get("--seed", "1"), "--seed");
  cfg.sweep_mb = parse_count(args, "--sweep-mb", "0", 0);
  parse_bits(args.get("--bits", ""), cfg);
  parse_segments(args.get("--segments", ""), cfg);
  parse_count_type(args.get("--count", "best"), cfg);
  cfg.tile = args.get("--tile", "");
  if (!cfg.tile.empty()) {
    choose<int>("--tile", cfg.tile,
                {{"384x12", 0}, {"384x15", 0}, {"384x16", 0}, {"384x19", 0}, {"384x20", 0}, {"448x18", 0}, {"512x20", 0},
                 {"384x23", 0}});
    if (cfg.algo != Algo::Radix || cfg.key_name != "u32" || cfg.value_name == "u64" || cfg.order != Order::Ascending) {
      throw peer::Error("--tile: only for ascending radix sorts of u32 keys, alone or with u32 values");
    }
  }
  args.reject_unknown();
  return cfg;
}

template <typename F>
void with_value_type(const std::string& name, F&& f) {
  if (name == "none") return f(NoValue{});
  if (name == "u32") return f(std::uint32_t{});
  return f(std::uint64_t{});
}

template <typename F>
void with_key_type(const std::string& name, F&& f) {
  if (name == "u32") return f(std::uint32_t{});
  if (name == "i32") return f(std::int32_t{});
  if (name == "f32") return f(float{});
  if (name == "u64") return f(std::uint64_t{});
  if (name == "i64") return f(std::int64_t{});
  if (name == "f64") return f(double{});
  if (name == "u8") return f(std::uint8_t{});
  if (name == "i8") return f(std::int8_t{});
  if (name == "u16") return f(std::uint16_t{});
  if (name == "i16") return f(std::int16_t{});
  if (name == "f16") return f(__half{});
  return f(__nv_bfloat16{});
}

}  // namespace

int main(int argc, char** argv) {
  return peer::guarded_main(kProgram, [&] {
    peer::Args args(argc, argv);
    if (args.printed_help(kUsage)) return 0;
    const Config cfg = parse(args);

    PEER_CUDA(cudaSetDevice(0));
    const Context ctx{peer::device_name(0), peer::runtime_version()};
    peer::Stream stream;

    bool all_ok = true;
    with_key_type(cfg.key_name, [&](auto key) {
      with_value_type(cfg.value_name, [&](auto value) {
        using K = decltype(key);
        using V = decltype(value);
        for (const std::uint64_t n : cfg.sizes) all_ok = run_size<K, V>(cfg, ctx, int(n), stream.get()) && all_ok;
      });
    });
    return all_ok ? 0 : 1;
  });
}
