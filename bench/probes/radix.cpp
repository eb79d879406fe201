// probe-radix: GPU time of the radix sort for u32 keys, u32 keys + u32 values, u64 keys and f64 keys, with
// both scan paths, at several sizes. Case u64lo sorts u64 keys below 2^32: their four high passes
// are skipped, so four passes run, each moving 8-byte elements stored whole, which is what u32
// pairs kept interleaved between passes would cost. Cases keyshi and pairshi sort u32 keys (alone,
// with values) whose low 16 bits are zero: passes 0 and 1 are skipped and pass 2 is the first to run
// (so that steps=N can time a first pass whose digit is not digit 0). Each run re-copies a
// pristine input outside the timed region, with a shader copy (VKC_PROBE_ENGINE_RESTORE=1: with
// vkCmdCopyBuffer); the median of the runs (after warm-up) is reported, and the last run's output
// is verified.
//
//   probe-radix [--sizes 20,24,26,28] [--runs 15] [--cases keys,pairs,keyshi,pairshi,u64,u64lo,f64]
//               [--scans lookback,rts,auto] [--policy SETTING,...]
// --policy edits the device class's radix policy (src/sort/radix_policy.hpp), e.g.
//   --policy tile=512x16x2,packed=0,tickets=1,window=2,spin=1,ballots=4,full_tiles=0,wide_keys=planar,
//            pairs_from=1,hist_items=16,hist_vectors=0,hist_groups=512,steps=0
// (steps=N records the histogram and the first N passes only: the output is then wrong).
// Sizes are log2 counts, or log2+extra for counts past a power of two (27+1: 2^27 + 1 elements).
// Prints one table row per case: kind scan n  G keys/s  ms  verified.
// VKC_PROBE_CLEAR=1 zero-fills the temporary buffer once and sorts with temporary_is_clear (no
// clearing fill in the timed region); VKC_PROBE_INDIRECT=1 sorts with record_sort_indirect, its
// count in a buffer written once (no count fill either); VKC_PROBE_BENCH_ORDER=1 creates the
// buffers in the order `vkc bench sort` does (pristine keys, keys, pristine values, values,
// temporary), where the probe otherwise creates the temporary buffer before the values.
// VKC_PROBE_SWEEP=MIB follows each copy of the input, untimed, with the histogram alone of a radix
// sort of MIB MiB of other keys: a read-only stream that leaves L2 holding clean lines of another
// buffer, so that the timed sort starts without the copy's dirty lines in L2.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/kernels.hpp"
#include "core/recorder.hpp"
#include "core/state.hpp"
#include "sort/planner.hpp"
#include "sort/record.hpp"
#include "sort/workspace.hpp"
#include "vkc/sort.hpp"

using namespace vkc;

namespace {

struct Case {
  std::string name;
  KeyType key;
  ValueType value;
};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parts;
}

bool has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// Random key words: 32-bit keys take one word, 64-bit keys two (uniform bits).
std::vector<std::uint32_t> random_words(std::uint64_t words, std::uint64_t seed) {
  std::vector<std::uint32_t> out(words);
  std::mt19937_64 rng(seed);
  for (std::uint64_t i = 0; i + 1 < words; i += 2) {
    const std::uint64_t r = rng();
    out[i] = static_cast<std::uint32_t>(r);
    out[i + 1] = static_cast<std::uint32_t>(r >> 32);
  }
  if (words % 2) out[words - 1] = static_cast<std::uint32_t>(rng());
  return out;
}

// Doubles uniform in (-2^40, 2^40), as word pairs: finite, so that the output's bits are the
// input's (the sort rewrites NaNs in canonical form).
std::vector<std::uint32_t> random_doubles(std::uint64_t n, std::uint64_t seed) {
  std::vector<std::uint32_t> out(2 * n);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(-0x1p40, 0x1p40);
  for (std::uint64_t i = 0; i < n; ++i) {
    const double d = dist(rng);
    std::memcpy(&out[2 * i], &d, 8);
  }
  return out;
}

// Sorted, and the same multiset as the input (sum and xor of keys; for pairs, each value is the
// input index of its key).
bool verify(const Case& c, std::uint64_t n, const std::vector<std::uint32_t>& input, const std::vector<std::uint32_t>& keys,
            const std::vector<std::uint32_t>& values) {
  const std::uint32_t kw = static_cast<std::uint32_t>(key_bytes(c.key) / 4);
  auto key_at = [&](const std::vector<std::uint32_t>& w, std::uint64_t i) {
    return kw == 1 ? std::uint64_t{w[i]} : (std::uint64_t{w[2 * i + 1]} << 32) | w[2 * i];
  };
  auto less = [&](std::uint64_t a, std::uint64_t b) {
    return c.key == KeyType::f64 ? std::bit_cast<double>(a) < std::bit_cast<double>(b) : a < b;
  };
  std::uint64_t sum_in = 0, sum_out = 0, xor_in = 0, xor_out = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t k = key_at(keys, i), in = key_at(input, i);
    if (i > 0 && less(k, key_at(keys, i - 1))) return false;
    sum_in += in, xor_in ^= in * 0x9E3779B97F4A7C15ull, sum_out += k, xor_out ^= k * 0x9E3779B97F4A7C15ull;
  }
  if (sum_in != sum_out || xor_in != xor_out) return false;
  if (c.value == ValueType::none) return true;
  std::vector<bool> seen(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint32_t v = values[i];
    if (v >= n || seen[v] || key_at(input, v) != key_at(keys, i)) return false;
    seen[v] = true;
  }
  return true;
}

bool env_on(const char* name) {
  const char* value = std::getenv(name);
  return value && *value == '1';
}

struct Result {
  double median_ms = 0;
  bool verified = false;
};

// VKC_PROBE_SWEEP's read: a radix sort's histogram (its policy records no pass) over keys of its
// own, kept apart from the timed sort's buffers.
class Sweep {
 public:
  Sweep(Context& ctx, std::uint64_t mib) : n_(mib << 18) {
    if (n_ == 0) return;
    desc_ = SortDesc{KeyType::u32, ValueType::none, n_, {}};
    desc_.options.algorithm = SortAlgorithm::radix;
    keys_ = ctx.create_buffer(n_ * 4);
    temporary_ = ctx.create_buffer(sort_temporary_bytes(ctx, desc_));
    ctx.run([&](Recorder& r) {
      r.fill_buffer(keys_.handle(), 0, VK_WHOLE_SIZE, 0);
      r.fill_buffer(temporary_.handle(), 0, VK_WHOLE_SIZE, 0);
    });
  }

  void record(Context& ctx, Recorder& r) const {
    if (n_ == 0) return;
    const auto histogram_only = [](sorting::RadixPolicy& p) { p.passes_recorded = 0; };
    sorting::record_planned(sorting::sort_device(ctx), r, sorting::plan_radix_sort(ctx.info(), desc_, histogram_only),
                            SortBuffers{{keys_.handle()}, {}, {temporary_.handle()}});
  }

 private:
  std::uint64_t n_;
  SortDesc desc_;
  Buffer keys_, temporary_;
};

Result measure(Context& ctx, const Case& c, RadixScan scan, std::uint64_t n, int runs,
               const sorting::RadixPolicyEdit& edit) {
  const std::uint32_t kw = static_cast<std::uint32_t>(key_bytes(c.key) / 4);
  SortDesc desc{c.key, c.value, n, {}};
  desc.options.algorithm = SortAlgorithm::radix;
  desc.options.radix_scan = scan;
  auto input = c.key == KeyType::f64 ? random_doubles(n, n * 31 + 3) : random_words(n * kw, n * 31 + kw);
  if (c.name == "keyshi" || c.name == "pairshi") {
    for (auto& w : input) w &= 0xFFFF0000u;
  }
  if (c.name == "u64lo") {
    for (std::uint64_t i = 0; i < n; ++i) input[2 * i + 1] = 0;
  }
  const bool kept_clear = env_on("VKC_PROBE_CLEAR");
  const bool indirect = env_on("VKC_PROBE_INDIRECT");
  const bool bench_order = env_on("VKC_PROBE_BENCH_ORDER");
  const bool engine_restore = env_on("VKC_PROBE_ENGINE_RESTORE");
  Buffer pristine = ctx.create_buffer(n * kw * 4);
  Buffer keys = ctx.create_buffer(n * kw * 4);
  Buffer values, pristine_values, temporary;
  const sorting::PlannedSort planned = sorting::plan_radix_sort(ctx.info(), desc, edit);
  if (!bench_order) temporary = ctx.create_buffer(planned.temporary_bytes());
  if (c.value != ValueType::none) {
    if (bench_order) pristine_values = ctx.create_buffer(n * 4);
    values = ctx.create_buffer(n * 4);
    if (!bench_order) pristine_values = ctx.create_buffer(n * 4);
    ctx.run([&](Recorder& r) { sorting::record_iota(detail::compute_device(ctx), r, pristine_values.handle(), ValueType::u32, n); });
  }
  if (bench_order) temporary = ctx.create_buffer(planned.temporary_bytes());
  ctx.upload(pristine, input.data(), n * kw * 4);
  if (kept_clear) ctx.run([&](Recorder& r) { r.fill_buffer(temporary.handle(), 0, VK_WHOLE_SIZE, 0); });
  Buffer count = ctx.create_buffer(4);
  const std::uint32_t count32 = static_cast<std::uint32_t>(n);
  ctx.upload(count, &count32, 4);
  SortBuffers buffers{{keys.handle()}, {values.handle()}, {temporary.handle()}};
  buffers.temporary_is_clear = kept_clear;
  const char* sweep_mib = std::getenv("VKC_PROBE_SWEEP");
  const Sweep sweep(ctx, sweep_mib ? std::strtoull(sweep_mib, nullptr, 10) : 0);
  // Warm-up: at least 3 runs and 300 ms of GPU work, so that the clocks have left idle (an H200
  // idles its SMs near 345 MHz) before the timed runs.
  TimestampQueries queries(ctx, 2);
  std::vector<double> ms;
  double warm_ms = 0;
  int warmup = 0;
  for (int run = 0; run < warmup + runs || warmup < 3; ++run) {
    ctx.run([&](Recorder& r) {
      if (engine_restore) {
        r.copy_buffer(pristine.handle(), keys.handle(), VkBufferCopy{0, 0, n * kw * 4});
        if (values) r.copy_buffer(pristine_values.handle(), values.handle(), VkBufferCopy{0, 0, n * 4});
      } else {
        record_copy(ctx, r, pristine.handle(), keys.handle(), n * kw);
        if (values) record_copy(ctx, r, pristine_values.handle(), values.handle(), n);
      }
      sweep.record(ctx, r);
      r.reset_queries(queries.pool(), 0, 2);
      r.barrier_all();  // the caller's side of the barrier contract, outside the timed region
      r.write_timestamp(queries.pool(), 0);
      if (indirect) {
        sorting::record_planned_indirect(sorting::sort_device(ctx), r, planned, {count.handle()}, buffers);
      } else {
        sorting::record_planned(sorting::sort_device(ctx), r, planned, buffers);
      }
      r.write_timestamp(queries.pool(), 1);
      r.barrier_all();  // the sort's writes, which another recorder made when indirect
      r.finish_for_host();
    });
    const double elapsed = queries.elapsed_ns(0, 1) * 1e-6;
    if (warmup == run && (run < 3 || warm_ms < 300)) {
      warm_ms += elapsed;
      warmup = run + 1;
    } else {
      ms.push_back(elapsed);
    }
  }
  std::sort(ms.begin(), ms.end());
  std::vector<std::uint32_t> out(n * kw), out_values;
  ctx.download(keys, out.data(), n * kw * 4);
  if (values) {
    out_values.resize(n);
    ctx.download(values, out_values.data(), n * 4);
  }
  return {ms[ms.size() / 2], verify(c, n, input, out, out_values)};
}

// The --policy settings, applied to the device class's policy of each sort.
sorting::RadixPolicyEdit parse_policy(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> settings;
  for (const std::string& item : split(text)) {
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) throw Error("--policy: not NAME=VALUE: " + item);
    settings.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  const auto number = [](const std::string& name, const std::string& value) {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(value.c_str(), &end, 10);
    if (value.empty() || *end) throw Error("--policy: " + name + " is not a number: " + value);
    return n;
  };
  for (const auto& [name, value] : settings) {  // every name checked before any sort
    static const char* known[] = {"tile", "packed", "tickets", "window", "spin", "ballots", "full_tiles", "wide_keys",
                                  "pairs_from", "hist_items", "hist_vectors", "hist_groups", "steps"};
    if (std::find(std::begin(known), std::end(known), name) == std::end(known)) throw Error("--policy: unknown " + name);
    if (name == "tile") {
      unsigned w = 0, i = 0, r = 1;
      if (std::sscanf(value.c_str(), "%ux%ux%u", &w, &i, &r) < 2) throw Error("--policy: tile=WGxITEMS[xROUNDS]: " + value);
    } else if (name == "wide_keys") {
      if (value != "planar" && value != "interleaved") throw Error("--policy: wide_keys=planar|interleaved: " + value);
    } else {
      number(name, value);
    }
  }
  return [settings, number](sorting::RadixPolicy& p) {
    for (const auto& [name, value] : settings) {
      if (name == "tile") {
        unsigned w = 0, i = 0, r = 1;
        std::sscanf(value.c_str(), "%ux%ux%u", &w, &i, &r);
        p.tile = {w, i, r};
      } else if (name == "wide_keys") {
        p.wide_keys = value == "planar" ? sorting::WideKeyLayout::planar : sorting::WideKeyLayout::interleaved;
      } else {
        const auto n = number(name, value);
        if (name == "packed") p.packed_ranks = n != 0;
        if (name == "tickets") p.tickets = n != 0;
        if (name == "window") p.lookback_window = static_cast<std::uint32_t>(n);
        if (name == "spin") p.lookback_spins = n != 0;
        if (name == "ballots") p.ballot_words = static_cast<std::uint32_t>(n);
        if (name == "full_tiles") p.full_tile_scatter = n != 0;
        if (name == "pairs_from") p.interleaved_pairs_from = n;
        if (name == "hist_items") p.histogram.items = static_cast<std::uint32_t>(n);
        if (name == "hist_vectors") p.histogram.vector_loads = n != 0;
        if (name == "hist_groups") p.histogram.groups = p.histogram.large_groups = n;
        if (name == "steps") p.passes_recorded = static_cast<std::uint32_t>(n);
      }
    }
  };
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> sizes = {"20", "24", "26", "28"}, cases = {"keys", "pairs", "u64"},
                           scans = {"lookback", "rts"};
  int runs = 15;
  std::string policy;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--sizes") sizes = split(value);
    else if (flag == "--runs") runs = std::atoi(value.c_str());
    else if (flag == "--cases") cases = split(value);
    else if (flag == "--scans") scans = split(value);
    else if (flag == "--policy") policy = value;
    else {
      std::fprintf(stderr,
                   "usage: probe-radix [--sizes 20,24] [--runs 15] [--cases keys,pairs,keyshi,pairshi,u64,u64lo,f64] "
                   "[--scans lookback,rts,auto] [--policy NAME=VALUE,...]\n");
      return 2;
    }
  }
  try {
    const sorting::RadixPolicyEdit edit = policy.empty() ? sorting::RadixPolicyEdit{} : parse_policy(policy);
    Context ctx;
    const DeviceInfo& info = ctx.info();
    std::printf("# %s, driver %s, subgroup %u, shared %u B\n", info.name.c_str(), info.driver_info.c_str(),
                info.subgroup_size, info.shared_memory_bytes);
    std::printf("%-6s %-9s %6s %10s %9s %s\n", "case", "scan", "log2n", "Gkeys/s", "ms", "verified");
    const Case all[] = {{"keys", KeyType::u32, ValueType::none},
                        {"pairs", KeyType::u32, ValueType::u32},
                        {"keyshi", KeyType::u32, ValueType::none},
                        {"pairshi", KeyType::u32, ValueType::u32},
                        {"u64", KeyType::u64, ValueType::none},
                        {"u64lo", KeyType::u64, ValueType::none},
                        {"f64", KeyType::f64, ValueType::none}};
    bool ok = true;
    for (const Case& c : all) {
      if (!has(cases, c.name)) continue;
      for (const std::string& s : scans) {
        const RadixScan scan = s == "rts"    ? RadixScan::reduce_then_scan
                               : s == "auto" ? RadixScan::automatic
                                             : RadixScan::lookback;
        for (const std::string& size : sizes) {
          const std::size_t plus = size.find('+');
          const std::uint64_t n = (1ull << std::atoi(size.c_str())) +
                                  (plus == std::string::npos ? 0 : std::strtoull(size.c_str() + plus + 1, nullptr, 10));
          const Result r = measure(ctx, c, scan, n, runs, edit);
          std::printf("%-6s %-9s %6s %10.2f %9.3f %s\n", c.name.c_str(), s.c_str(), size.c_str(),
                      n / (r.median_ms * 1e6), r.median_ms, r.verified ? "yes" : "NO");
          std::fflush(stdout);
          ok = ok && r.verified;
        }
      }
    }
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "probe-radix: %s\n", e.what());
    return 1;
  }
}
