// Times bitonic and bitonic_transpose (u32 keys, ascending) on the current device over sizes
// 2^lo..2^hi, bitonic's candidate tunings at large sizes (pass by pass) and, with PROBE_SWEEP=1,
// tuning sweeps where the targets lie; checks every result against std::sort. The first size also
// gets floor rows (an empty timed region, a one-word copy, the tile kernel with no step).
// GPU time from timestamps around the sort alone; the input is re-copied from a pristine buffer
// before every run, outside the timed region. Median and minimum of `runs` runs after a warm-up.
// An H200 idles its SMs near 345 MHz and drops back there while the CPU compiles a pipeline, so
// the probe keeps the GPU busy for >= 300 ms before each variant's timed runs, and every run's
// command buffer starts with about a millisecond of copies (the "heater", untimed); rows marked
// "no heater" leave those copies out (the heater itself costs a small sort a few microseconds).
//   probe-bitonic [lo_bits=9] [hi_bits=24] [runs=15]
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/kernels.hpp"
#include "core/recorder.hpp"
#include "core/state.hpp"
#include "sort/planner.hpp"
#include "sort/bitonic.hpp"

using namespace vkc;

namespace {

using RecordSort = std::function<void(Context&, Recorder&, const sorting::Job&)>;

struct Variant {
  std::string name;
  RecordSort record;
  std::uint64_t temporary_bytes;
  bool heated = true;   // the heater runs before each timed run (in its command buffer)
  bool sorts = true;    // the output is checked (floor rows do not sort)
  bool barrier_first = false;  // the barrier after the input copy comes before the first timestamp
};

// Untimed copies recorded before each timed sort so that the clocks are up when it starts.
class Heater {
 public:
  explicit Heater(Context& ctx)
      : words_(ctx.info().is_software() ? 1024 : kWords), src_(ctx.create_buffer(words_ * 4)), dst_(ctx.create_buffer(words_ * 4)) {}
  void record(Context& ctx, Recorder& r) const {
    for (int i = 0; i < kCopies; ++i) record_copy(ctx, r, src_.handle(), dst_.handle(), words_);
  }
  // Runs the heater alone until it has kept the GPU busy for `ms` milliseconds.
  void warm_up(Context& ctx, double ms) const {
    TimestampQueries queries(ctx, 2);
    for (double busy = 0; busy < ms;) {
      ctx.run([&](Recorder& r) {
        r.reset_queries(queries.pool(), 0, 2);
        r.write_timestamp(queries.pool(), 0);
        record(ctx, r);
        r.write_timestamp(queries.pool(), 1);
        r.finish_for_host();
      });
      busy += queries.elapsed_ns(0, 1) * 1e-6;
      if (words_ < kWords) break;  // a CPU device has no clocks to lift
    }
  }

 private:
  static constexpr std::uint64_t kWords = std::uint64_t{1} << 24;  // 64 MiB: ~35 us per copy on an H200
  static constexpr int kCopies = 24;
  std::uint64_t words_;
  Buffer src_, dst_;
};

struct Timing {
  double median_us, min_us;
  bool correct;
  std::vector<double> pass_us;  // median of each pass, when the variant records per-pass timestamps
};

// The keys, count and temporary buffers of one sort, and its job.
struct SortBuffers {
  SortBuffers(Context& ctx, std::uint32_t n, std::uint64_t temporary_bytes)
      : keys(ctx.create_buffer(std::uint64_t{n} * 4)),
        count(ctx.create_buffer(4)),
        temporary(ctx.create_buffer(std::max<std::uint64_t>(16, temporary_bytes))) {
    ctx.upload(count, &n, 4);
    job.max_count = n;
    job.count = {count.handle(), Access::read, 0, 4};
    job.keys = {keys.handle(), Access::read_write};
    job.temporary = {temporary.handle(), Access::read_write};
  }
  Buffer keys, count, temporary;
  sorting::Job job;
};

// One warm-up run (it creates the pipelines), >= 300 ms of heater (pipeline creation leaves the
// GPU idle long enough for its clocks to drop), two more warm-up runs, then `runs` timed runs,
// each after the heater and a fresh copy of the input. With `passes` > 0 the variant is a
// bitonic tuning timed pass by pass as well.
Timing time_variant(Context& ctx, const Heater& heater, const Variant& v, const Buffer& pristine,
                    const std::vector<std::uint32_t>& expected, std::uint32_t n, int runs,
                    const sorting::BitonicTuning* per_pass = nullptr) {
  SortBuffers b(ctx, n, v.temporary_bytes);
  const std::size_t passes = per_pass ? sorting::bitonic_plan(*per_pass, n).size() : 0;
  const auto queries_n = static_cast<std::uint32_t>(passes + 2);
  TimestampQueries queries(ctx, queries_n);
  std::vector<double> us;
  std::vector<std::vector<double>> pass_us(passes);
  for (int run = -3; run < runs; ++run) {
    if (run == -2) heater.warm_up(ctx, 300.0);
    ctx.run([&](Recorder& r) {
      if (v.heated) heater.record(ctx, r);
      record_copy(ctx, r, pristine.handle(), b.keys.handle(), n);
      if (v.barrier_first) r.barrier_all();
      r.reset_queries(queries.pool(), 0, queries_n);
      r.write_timestamp(queries.pool(), 0);
      if (per_pass) {
        sorting::record_bitonic(detail::compute_device(ctx), r, b.job, *per_pass, [&](std::size_t i) {
          r.write_timestamp(queries.pool(), static_cast<std::uint32_t>(i + 1));
        });
      } else {
        v.record(ctx, r, b.job);
      }
      r.write_timestamp(queries.pool(), queries_n - 1);
      r.finish_for_host();
    });
    if (run < 0) continue;
    us.push_back(queries.elapsed_ns(0, queries_n - 1) / 1000.0);
    for (std::size_t i = 0; i < passes; ++i) {
      pass_us[i].push_back(queries.elapsed_ns(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1)) / 1000.0);
    }
  }
  std::vector<std::uint32_t> out(n);
  ctx.download(b.keys, std::span<std::uint32_t>(out));
  auto median = [](std::vector<double> x) {
    std::sort(x.begin(), x.end());
    return x[x.size() / 2];
  };
  Timing t{median(us), *std::min_element(us.begin(), us.end()), !v.sorts || out == expected, {}};
  for (const auto& p : pass_us) t.pass_us.push_back(median(p));
  return t;
}

// Per-pass medians summed by kind: the local sort (first pass), the global multi-stride passes,
// and the merges within a tile.
void print_pass_kinds(const sorting::BitonicTuning& tuning, std::uint32_t n, const std::vector<double>& pass_us) {
  const auto plan = sorting::bitonic_plan(tuning, n);
  const std::uint32_t big = tuning.tile_bits() + tuning.sub_bits;
  double global_us = 0, merge_us = 0;
  int globals = 0, merges = 0;
  for (std::size_t i = 1; i < plan.size(); ++i) {
    if (plan[i].c < big) global_us += pass_us[i], ++globals;
    else merge_us += pass_us[i], ++merges;
  }
  std::printf("%10s    passes: local sort %.1f us; %d global %.1f us (%.1f each); %d merges %.1f us (%.1f each)\n", "",
              pass_us[0], globals, global_us, globals ? global_us / globals : 0.0, merges, merge_us,
              merges ? merge_us / merges : 0.0);
}

// The tunings the probe times at a size: the dispatcher's choice first, its sub-tile variants at
// large sizes, and with PROBE_SWEEP a sweep of workgroup size x elements per invocation (x
// sub-tiles at 2^24) where the targets lie.
std::vector<sorting::BitonicTuning> tunings_for(const DeviceInfo& info, std::uint32_t n, int bits) {
  sorting::Job shape;
  shape.max_count = n;
  const sorting::BitonicTuning chosen = sorting::bitonic_tuning(info, shape);
  std::vector<sorting::BitonicTuning> tunings{chosen};
  auto add = [&](sorting::BitonicTuning t) {
    const std::uint64_t shared_bytes = (std::uint64_t{1} << t.tile_bits()) * 33 / 32 * 4;  // u32 keys
    if (t.workgroup_size > info.max_workgroup_invocations || shared_bytes > info.shared_memory_bytes) return;
    for (const auto& u : tunings) {
      if (u.workgroup_size == t.workgroup_size && u.e_bits == t.e_bits && u.sub_bits == t.sub_bits &&
          u.run_bits == t.run_bits) {
        return;
      }
    }
    tunings.push_back(t);
  };
  if (n >= (1u << 20)) {
    for (std::uint32_t sub : {0u, 1u, 2u}) add({chosen.workgroup_size, chosen.e_bits, sub});
    // The former default and the best candidates of a partial sweep at 2^24 (H200, fa35ce9).
    for (sorting::BitonicTuning t : {sorting::BitonicTuning{1024, 3, 1}, {128, 4, 1}, {128, 3, 1}, {256, 4, 1}}) {
      add(t);
    }
  }
  if (!std::getenv("PROBE_SWEEP") || !std::has_single_bit(n)) return tunings;
  if (bits >= 12 && bits <= 13) {
    for (std::uint32_t wg : {128u, 256u, 512u, 1024u}) {  // wg 64 and e1 were never best (fa35ce9)
      for (std::uint32_t e : {2u, 3u, 4u}) add({wg, e, 0});
    }
  }
  if (bits == 24) {
    // Longer runs in global passes (fewer strides per pass, longer DRAM bursts).
    for (sorting::BitonicTuning t : {sorting::BitonicTuning{1024, 3, 1, 7}, {128, 4, 1, 7}, {128, 3, 1, 7},
                                     {256, 4, 1, 7}, {256, 3, 1, 7}, {128, 4, 1, 8}}) {
      add(t);
    }
    for (std::uint32_t wg : {128u, 256u, 512u, 1024u}) {
      for (std::uint32_t e : {2u, 3u, 4u, 5u}) {
        for (std::uint32_t sub : {0u, 1u, 2u}) {
          if ((1u << (e + sub)) <= 64) add({wg, e, sub});  // at most 64 elements in registers
        }
      }
    }
  }
  return tunings;
}

}  // namespace

int main(int argc, char** argv) {
  const int lo = argc > 1 ? std::atoi(argv[1]) : 9;
  const int hi = argc > 2 ? std::atoi(argv[2]) : 24;
  const int runs = argc > 3 ? std::atoi(argv[3]) : 15;
  Context ctx;
  const DeviceInfo& info = ctx.info();
  std::printf("device: %s, driver %s %s, subgroup %u, shared %u B, max invocations %u\n", info.name.c_str(),
              info.driver_name.c_str(), info.driver_info.c_str(), info.subgroup_size, info.shared_memory_bytes,
              info.max_workgroup_invocations);
  std::printf("%10s  %-26s %6s %10s %10s %9s  %s\n", "n", "variant", "passes", "median_us", "min_us", "GB/s/pass",
              "check");
  const Heater heater(ctx);
  heater.warm_up(ctx, 400.0);
  std::vector<Buffer> words;  // the floor rows' one-word copy destinations
  for (int k = 0; k < 4; ++k) words.push_back(ctx.create_buffer(4));
  std::mt19937_64 rng(42);
  bool all_correct = true;
  for (int bits = lo; bits <= hi; ++bits) {
    std::vector<std::uint32_t> sizes{1u << bits};
    if (bits == 20 || bits == 24) sizes.push_back((1u << bits) + 1);  // not a power of two: virtual padding
    for (std::uint32_t n : sizes) {
      std::vector<std::uint32_t> input(n);
      for (auto& k : input) k = static_cast<std::uint32_t>(rng());
      std::vector<std::uint32_t> expected = input;
      std::sort(expected.begin(), expected.end());
      Buffer pristine = ctx.create_buffer(std::uint64_t{n} * 4);
      ctx.upload(pristine, std::span<const std::uint32_t>(input));

      const SortDesc desc{KeyType::u32, ValueType::none, n, {SortAlgorithm::bitonic_transpose}};
      const std::shared_ptr<const sorting::SortPlan> transpose = sorting::plan_sort(info, desc).plan;
      struct Entry {
        Variant variant;
        std::size_t passes;                        // 0 for bitonic_transpose
        const sorting::BitonicTuning* per_pass;  // time pass by pass (large sorts)
      };
      std::vector<Entry> variants;
      const std::vector<sorting::BitonicTuning> tunings = tunings_for(info, n, bits);
      for (const auto& t : tunings) {
        const std::string name = "bitonic wg" + std::to_string(t.workgroup_size) + " e" + std::to_string(t.e_bits) +
                                 " sub" + std::to_string(t.sub_bits) +
                                 (t.run_bits != 5 ? " run" + std::to_string(t.run_bits) : "") +
                                 (&t == &tunings[0] ? " *" : "");
        // Large sorts are timed pass by pass too (a timestamp between passes costs ~nothing there).
        variants.push_back({{name, [t](Context& c, Recorder& r, const sorting::Job& j) {
                               sorting::record_bitonic(detail::compute_device(c), r, j, t);
                             }, 0}, sorting::bitonic_plan(t, n).size(), n >= (1u << 20) ? &t : nullptr});
      }
      if (bits == lo) {
        // Floors: the timed region with nothing in it, and the chosen tuning's tile kernel with no
        // step to perform (plan for one element over n: every invocation loads and stores).
        const sorting::BitonicTuning t = tunings[0];
        variants.push_back({{"floor: timestamps only", [](Context&, Recorder&, const sorting::Job&) {}, 0, true, false},
                            0, nullptr});
        variants.push_back({{"floor: one 1-word copy", [](Context& c, Recorder& r, const sorting::Job& j) {
                               record_copy(c, r, j.count.buffer, j.temporary.buffer, 1);
                             }, 0, true, false}, 0, nullptr});
        auto empty_tile = [t](Context& c, Recorder& r, const sorting::Job& j) {
          sorting::Job one = j;
          one.max_count = 1;
          sorting::record_bitonic(detail::compute_device(c), r, one, t);
        };
        variants.push_back({{"floor: tile kernel, 0 steps", empty_tile, 0, true, false}, 1, nullptr});
        variants.push_back({{"floor: tile 0 steps, barrier1st", empty_tile, 0, true, false, true}, 1, nullptr});
        // A one-word copy that reads the keys the input copy wrote: a barrier inside the region.
        auto copy_keys = [](Context& c, Recorder& r, const sorting::Job& j) {
          record_copy(c, r, j.keys.buffer, j.temporary.buffer, 1);
        };
        variants.push_back({{"floor: 1-word copy of keys", copy_keys, 0, true, false}, 0, nullptr});
        // Four one-word copies: independent (four destination buffers: no barrier, they may
        // overlap) and chained (each reads the buffer the previous one wrote: a barrier between
        // each), so that a dispatch's own cost and a barrier's can be told apart.
        auto four_copies = [&words](bool chained) {
          return [&words, chained](Context& c, Recorder& r, const sorting::Job& j) {
            for (std::size_t k = 0; k < words.size(); ++k) {
              record_copy(c, r, chained && k ? words[k - 1].handle() : j.count.buffer, words[k].handle(), 1);
            }
          };
        };
        variants.push_back({{"floor: 4 independent copies", four_copies(false), 0, true, false, true}, 0, nullptr});
        variants.push_back({{"floor: 4 chained copies", four_copies(true), 0, true, false, true}, 0, nullptr});
        variants.push_back({{"floor: copy keys, barrier1st", copy_keys, 0, true, false, true}, 0, nullptr});
      }
      if (bits <= 13) {
        // Without the heater (clocks were lifted by the previous runs, but no copies ahead).
        const sorting::BitonicTuning t = tunings[0];
        variants.push_back({{"bitonic chosen, no heater", [t](Context& c, Recorder& r, const sorting::Job& j) {
                               sorting::record_bitonic(detail::compute_device(c), r, j, t);
                             }, 0, false, true}, sorting::bitonic_plan(t, n).size(), nullptr});
        // The one-workgroup kernel (small.comp) at several elements per invocation.
        sorting::Job shape_job;
        shape_job.max_count = n;
        for (std::uint32_t e : {2u, 3u, 4u, 5u}) {
          const sorting::SmallBitonic small = sorting::small_bitonic_shape(info, shape_job, e);
          if (!small.log_n || small.e_bits != e) continue;
          auto record = [small](Context& c, Recorder& r, const sorting::Job& j) {
            sorting::record_small_bitonic(detail::compute_device(c), r, j, small);
          };
          const std::string name = "small wg" + std::to_string(small.workgroup_size()) + " e" + std::to_string(e);
          variants.push_back({{name, record, 0}, 1, nullptr});
          variants.push_back({{name + ", barrier1st", record, 0, true, true, true}, 1, nullptr});
          variants.push_back({{name + ", no heater", record, 0, false, true}, 1, nullptr});
        }
        auto chosen = [t](Context& c, Recorder& r, const sorting::Job& j) { sorting::record_bitonic(detail::compute_device(c), r, j, t); };
        variants.push_back({{"bitonic chosen, barrier1st", chosen, 0, true, true, true},
                            sorting::bitonic_plan(t, n).size(), nullptr});
        // Twice in one region (the second sorts sorted keys; the network is data-oblivious): the
        // difference to one sort is what a sort costs inside a longer command stream.
        auto twice = [t](Context& c, Recorder& r, const sorting::Job& j) {
          sorting::record_bitonic(detail::compute_device(c), r, j, t);
          sorting::record_bitonic(detail::compute_device(c), r, j, t);
        };
        variants.push_back({{"bitonic chosen x2, barrier1st", twice, 0, true, true, true},
                            sorting::bitonic_plan(t, n).size(), nullptr});
      }
      if (bits <= 13 || bits == 20 || bits == 24) {
        variants.push_back({{"bitonic_transpose", [transpose](Context& c, Recorder& r, const sorting::Job& j) {
                               transpose->record(detail::compute_device(c), r, j);
                             }, transpose->temporary_bytes()}, 0, nullptr});
      }
      for (const auto& [v, passes, per_pass] : variants) {
        const Timing t = time_variant(ctx, heater, v, pristine, expected, n, runs, per_pass);
        all_correct = all_correct && t.correct;
        const double gbs = passes ? 8.0 * n * passes / (t.median_us * 1e3) : 0.0;
        std::printf("%10u  %-26s %6zu %10.2f %10.2f %9.0f  %s\n", n, v.name.c_str(), passes, t.median_us, t.min_us,
                    gbs, t.correct ? "ok" : "WRONG");
        if (per_pass) print_pass_kinds(*per_pass, n, t.pass_us);
        std::fflush(stdout);
      }
    }
  }
  std::printf(all_correct ? "all results correct\n" : "SOME RESULTS WRONG\n");
  return all_correct ? 0 : 1;
}
