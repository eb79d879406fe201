// vkc-peer-cub-sort: times cub::DeviceRadixSort and cub::DeviceMergeSort on
// generated keys (optionally with index values) and prints one JSON line per size.
#include "peer_common.cuh"

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/version.cuh>

#include <climits>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <thread>
#include <type_traits>

namespace {

constexpr const char* kProgram = "vkc-peer-cub-sort";

constexpr const char* kUsage =
    "usage: vkc-peer-cub-sort --n N1,N2,... [options]\n"
    "  --algo radix|merge                       cub::DeviceRadixSort or cub::DeviceMergeSort (radix)\n"
    "  --key u32|i32|f32|u64|i64|f64            key type (u32)\n"
    "  --value none|u32|u64                     value type; values are the original indices (none)\n"
    "  --order asc|desc                         sort order (asc)\n"
    "  --dist uniform|sorted|reverse|few|equal  input distribution (uniform)\n"
    "  --n N1,N2,...                            sizes, each 1..2147483647 (required)\n"
    "  --runs R                                 timed runs per size; the median is reported (20)\n"
    "  --warmup W                               untimed runs before them (3)\n"
    "  --seed S                                 generator seed (1)\n"
    "  --sweep-mb M                             after each input copy, untimed, read M MiB of another buffer (0)\n"
    "  --tile WGxITEMS                          radix, u32 keys: CUB's onesweep kernel with this tile\n"
    "                                           (384x12|384x15|384x16|448x18|384x23; default: CUB's own)\n"
    "Prints one JSON object per size on stdout; exits non-zero on an error or a wrong result.\n";

enum class Algo { Radix, Merge };
enum class Order { Ascending, Descending };
enum class Dist { Uniform, Sorted, Reverse, Few, Equal };

struct Config {
  Algo algo = Algo::Radix;
  Order order = Order::Ascending;
  Dist dist = Dist::Uniform;
  std::string algo_name, key_name, value_name, order_name, dist_name;
  std::vector<std::uint64_t> sizes;
  int runs = 20;
  int warmup = 3;
  std::uint64_t seed = 1;
  std::string tile;  // empty: CUB's own onesweep tile; else one of the tiles with_tile names
  int sweep_mb = 0;  // MiB read after each input copy (sweep_read)
};

// Stands for "no values": the keys-only sorts.
struct NoValue {};

template <typename V>
constexpr bool kHasValues = !std::is_same_v<V, NoValue>;

// "a is ordered before b" for the requested order, on host and device.
template <typename K>
struct Ascending {
  __host__ __device__ bool operator()(const K& a, const K& b) const { return a < b; }
};
template <typename K>
struct Descending {
  __host__ __device__ bool operator()(const K& a, const K& b) const { return b < a; }
};

// ---------------------------------------------------------------- input data

template <typename K>
K random_key(peer::SplitMix64& rng) {
  if constexpr (std::is_floating_point_v<K>) {
    return static_cast<K>(-1.0e6 + 2.0e6 * rng.unit());  // uniform in [-1e6, 1e6]
  } else {
    using U = std::make_unsigned_t<K>;
    const U bits = static_cast<U>(rng.next());  // uniform random bits
    K key;
    std::memcpy(&key, &bits, sizeof key);
    return key;
  }
}

template <typename K>
std::vector<K> make_keys(Dist dist, std::size_t n, std::uint64_t seed) {
  peer::SplitMix64 rng(seed);
  std::vector<K> keys(n);
  switch (dist) {
    case Dist::Uniform:
    case Dist::Sorted:
    case Dist::Reverse:
      for (K& k : keys) k = random_key<K>(rng);
      if (dist == Dist::Sorted) std::sort(keys.begin(), keys.end(), Ascending<K>{});
      if (dist == Dist::Reverse) std::sort(keys.begin(), keys.end(), Descending<K>{});
      break;
    case Dist::Few: {
      std::vector<K> pool;
      while (pool.size() < 16) {
        const K k = random_key<K>(rng);
        if (std::find(pool.begin(), pool.end(), k) == pool.end()) pool.push_back(k);
      }
      for (K& k : keys) k = pool[rng.next() % pool.size()];
      break;
    }
    case Dist::Equal:
      std::fill(keys.begin(), keys.end(), random_key<K>(rng));
      break;
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
  if (name == "448x18") return f(TileShape<448, 18>{});
  return f(TileShape<384, 23>{});
}

template <typename K, typename V, int Threads, int Items>
cudaError_t fixed_tile_dispatch(TileShape<Threads, Items>, void* temp, std::size_t& temp_bytes,
                                cub::DoubleBuffer<K>& keys, cub::DoubleBuffer<V>& values, int n, cudaStream_t stream) {
  using OffsetT = cub::detail::choose_offset_t<int>;
  using Hub = FixedTileHub<K, V, OffsetT, Threads, Items>;
  using Dispatch = cub::DispatchRadixSort<cub::SortOrder::Ascending, K, V, OffsetT, cub::detail::identity_decomposer_t, Hub>;
  // is_overwrite_okay: the DoubleBuffer overloads of DeviceRadixSort pass true too.
  return Dispatch::Dispatch(temp, temp_bytes, keys, values, static_cast<OffsetT>(n), 0, int(sizeof(K) * 8), true, stream);
}

// An ascending CUB radix sort with the onesweep tile `tile` names (--tile).
template <typename K, typename V>
cudaError_t fixed_tile_sort(const std::string& tile, void* temp, std::size_t& temp_bytes, cub::DoubleBuffer<K>& keys,
                            cub::DoubleBuffer<V>& values, int n, cudaStream_t stream) {
  return with_tile(tile, [&](auto shape) { return fixed_tile_dispatch(shape, temp, temp_bytes, keys, values, n, stream); });
}

// ---------------------------------------------------------------- the sort call

// Working buffers: radix sort ping-pongs between [0] and [1]; merge sort sorts [0] in place.
template <typename K, typename V>
struct Work {
  K* keys[2] = {nullptr, nullptr};
  V* values[2] = {nullptr, nullptr};
  int current = 0;  // which buffer holds the sorted output after sort()
};

// One CUB sort of work.keys[0] (and work.values[0]). With temp == nullptr it only
// sets temp_bytes, as CUB does.
template <typename K, typename V>
cudaError_t cub_sort(const Config& cfg, void* temp, std::size_t& temp_bytes, Work<K, V>& work, int n,
                     cudaStream_t stream) {
  const bool asc = cfg.order == Order::Ascending;
  if (cfg.algo == Algo::Radix) {
    constexpr int kEndBit = int(sizeof(K) * 8);
    cub::DoubleBuffer<K> keys(work.keys[0], work.keys[1]);
    cudaError_t status;
    if constexpr (std::is_same_v<K, std::uint32_t> && (std::is_same_v<V, std::uint32_t> || !kHasValues<V>)) {
      if (!cfg.tile.empty()) {
        using Values = std::conditional_t<kHasValues<V>, V, cub::NullType>;
        cub::DoubleBuffer<Values> values;
        if constexpr (kHasValues<V>) values = cub::DoubleBuffer<Values>(work.values[0], work.values[1]);
        status = fixed_tile_sort(cfg.tile, temp, temp_bytes, keys, values, n, stream);
        work.current = keys.selector;
        return status;
      }
    }
    if constexpr (kHasValues<V>) {
      cub::DoubleBuffer<V> values(work.values[0], work.values[1]);
      // CUB flips the keys' and the values' selectors together.
      status = asc ? cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys, values, n, 0, kEndBit, stream)
                   : cub::DeviceRadixSort::SortPairsDescending(temp, temp_bytes, keys, values, n, 0, kEndBit, stream);
    } else {
      status = asc ? cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys, n, 0, kEndBit, stream)
                   : cub::DeviceRadixSort::SortKeysDescending(temp, temp_bytes, keys, n, 0, kEndBit, stream);
    }
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

// std::sort on every core: one slice per core sorted on its own thread, then neighbouring runs
// merged, on threads too, until one is left. A serial std::sort of the reference took about 20 s
// at 2^28 keys, per algorithm, most of a device call's time.
template <typename K, typename Before>
void parallel_sort(std::vector<K>& keys, Before before) {
  const std::size_t parts = std::max(1u, std::thread::hardware_concurrency());
  std::vector<typename std::vector<K>::iterator> bound(parts + 1);
  for (std::size_t p = 0; p <= parts; ++p) bound[p] = keys.begin() + keys.size() * p / parts;
  on_threads(parts, [&](std::size_t p) { std::sort(bound[p], bound[p + 1], before); });
  for (std::size_t width = 1; width < parts; width *= 2) {
    on_threads((parts + 2 * width - 1) / (2 * width), [&](std::size_t i) {
      const std::size_t first = 2 * width * i;
      if (first + width >= parts) return;  // an odd run out, merged in a later round
      std::inplace_merge(bound[first], bound[first + width], bound[std::min(first + 2 * width, parts)], before);
    });
  }
}

template <typename K, typename Before>
std::string check_keys_only(const std::vector<K>& input, const std::vector<K>& out, Before before) {
  std::vector<K> expected = input;
  parallel_sort(expected, before);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!(out[i] == expected[i])) return "key at index " + std::to_string(i) + " differs from std::sort";
  }
  return {};
}

// Values are the original indices. Keys in order, every (key, value) an input pair
// and every index used once; for a stable sort, ties also keep index order. For a
// stable sort these together say the output is exactly std::stable_sort's.
template <typename K, typename V, typename Before>
std::string check_pairs(const std::vector<K>& input, const std::vector<K>& keys, const std::vector<V>& values,
                        Before before, bool stable) {
  std::vector<bool> seen(input.size(), false);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::uint64_t index = values[i];
    const std::string at = " at index " + std::to_string(i);
    if (index >= input.size()) return "value out of range" + at;
    if (seen[index]) return "value repeated" + at;
    seen[index] = true;
    if (!(input[index] == keys[i])) return "(key, value) is not an input pair" + at;
    if (i == 0) continue;
    if (before(keys[i], keys[i - 1])) return "keys out of order" + at;
    if (stable && !before(keys[i - 1], keys[i]) && values[i - 1] > values[i]) return "equal keys reordered" + at;
  }
  return {};
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
  const bool radix = cfg.algo == Algo::Radix;

  const std::vector<K> input = make_keys<K>(cfg.dist, count, cfg.seed);
  peer::DeviceBuffer<K> pristine_keys(count), keys0(count), keys1(radix ? count : 0);
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
    values1 = peer::DeviceBuffer<V>(radix ? count : 0);
    peer::upload(pristine_values, indices);
    work.values[0] = values0.get();
    work.values[1] = values1.get();
  }

  std::size_t temp_bytes = 0;
  PEER_CUDA(cub_sort(cfg, nullptr, temp_bytes, work, n, stream));
  peer::DeviceBuffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1));

  peer::DeviceBuffer<uint4> sweep(std::size_t(cfg.sweep_mb) << 16);
  peer::DeviceBuffer<unsigned> sink(1);
  if (cfg.sweep_mb > 0) PEER_CUDA(cudaMemset(sweep.get(), 0, sweep.bytes()));

  peer::EventTimer timer;
  std::vector<float> samples;
  for (int r = 0; r < cfg.warmup + cfg.runs; ++r) {
    // Restore the unsorted input; enqueued before the start event, so not timed.
    PEER_CUDA(cudaMemcpyAsync(work.keys[0], pristine_keys.get(), pristine_keys.bytes(), cudaMemcpyDeviceToDevice,
                              stream));
    if constexpr (kHasValues<V>) {
      PEER_CUDA(cudaMemcpyAsync(work.values[0], pristine_values.get(), pristine_values.bytes(),
                                cudaMemcpyDeviceToDevice, stream));
    }
    if (cfg.sweep_mb > 0) sweep_read<<<1024, 256, 0, stream>>>(sweep.get(), sweep.size(), sink.get());
    timer.start(stream);
    PEER_CUDA(cub_sort(cfg, temp.get(), temp_bytes, work, n, stream));
    timer.stop(stream);
    const float ms = timer.elapsed_ms();
    if (r >= cfg.warmup) samples.push_back(ms);
  }
  PEER_CUDA(cudaStreamSynchronize(stream));
  PEER_CUDA(cudaGetLastError());

  const std::vector<K> out_keys = peer::download(work.keys[work.current], count);
  std::string failure;
  auto verify = [&](auto before) {
    if constexpr (kHasValues<V>) {
      const std::vector<V> out_values = peer::download(work.values[work.current], count);
      failure = check_pairs(input, out_keys, out_values, before, /*stable=*/radix);
    } else {
      failure = check_keys_only(input, out_keys, before);
    }
  };
  if (cfg.order == Order::Ascending) {
    verify(Ascending<K>{});
  } else {
    verify(Descending<K>{});
  }

  const peer::Summary t = peer::summarize(samples);
  std::printf(
      "{\"peer\":\"cub\",\"algorithm\":%s,\"key_type\":%s,\"value_type\":%s,\"order\":%s,\"dist\":%s,"
      "\"n\":%d,\"median_ms\":%s,\"min_ms\":%s,\"runs\":%d,\"verified\":%s,\"device\":%s,"
      "\"cuda_runtime\":%d,\"cub_version\":%d,\"tile\":%s}\n",
      peer::json_string("cub_" + cfg.algo_name).c_str(), peer::json_string(cfg.key_name).c_str(),
      peer::json_string(cfg.value_name).c_str(), peer::json_string(cfg.order_name).c_str(),
      peer::json_string(cfg.dist_name).c_str(), n, peer::json_number(t.median_ms).c_str(),
      peer::json_number(t.min_ms).c_str(), cfg.runs, failure.empty() ? "true" : "false",
      peer::json_string(ctx.device).c_str(), ctx.runtime, int(CUB_VERSION),
      peer::json_string(cfg.tile.empty() ? "cub" : cfg.tile).c_str());
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

Config parse(peer::Args& args) {
  Config cfg;
  cfg.algo_name = args.get("--algo", "radix");
  cfg.algo = choose<Algo>("--algo", cfg.algo_name, {{"radix", Algo::Radix}, {"merge", Algo::Merge}});
  cfg.key_name = args.get("--key", "u32");
  choose<int>("--key", cfg.key_name, {{"u32", 0}, {"i32", 0}, {"f32", 0}, {"u64", 0}, {"i64", 0}, {"f64", 0}});
  cfg.value_name = args.get("--value", "none");
  choose<int>("--value", cfg.value_name, {{"none", 0}, {"u32", 0}, {"u64", 0}});
  cfg.order_name = args.get("--order", "asc");
  cfg.order = choose<Order>("--order", cfg.order_name, {{"asc", Order::Ascending}, {"desc", Order::Descending}});
  cfg.dist_name = args.get("--dist", "uniform");
  cfg.dist = choose<Dist>("--dist", cfg.dist_name,
                          {{"uniform", Dist::Uniform},
                           {"sorted", Dist::Sorted},
                           {"reverse", Dist::Reverse},
                           {"few", Dist::Few},
                           {"equal", Dist::Equal}});
  cfg.sizes = peer::parse_sizes(args.require("--n"), "--n");
  for (const std::uint64_t n : cfg.sizes) {
    if (n > std::uint64_t(INT_MAX)) throw peer::Error("--n: sizes above 2147483647 are not supported");
  }
  cfg.runs = parse_count(args, "--runs", "20", 1);
  cfg.warmup = parse_count(args, "--warmup", "3", 0);
  cfg.seed = peer::parse_u64(args.get("--seed", "1"), "--seed");
  cfg.sweep_mb = parse_count(args, "--sweep-mb", "0", 0);
  cfg.tile = args.get("--tile", "");
  if (!cfg.tile.empty()) {
    choose<int>("--tile", cfg.tile, {{"384x12", 0}, {"384x15", 0}, {"384x16", 0}, {"448x18", 0}, {"384x23", 0}});
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
  return f(double{});
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
