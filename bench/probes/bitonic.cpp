// Times bitonic and bitonic_transpose (u32 keys, ascending) on the current device over sizes
// 2^lo..2^hi, and bitonic's sub-tile tunings at large sizes; checks every result against std::sort.
// GPU time from timestamps around the sort alone; the input is re-copied from a pristine buffer
// before every run, outside the timed region. Median and minimum of `runs` runs after a warm-up.
// An H200 idles its SMs near 345 MHz and a few microseconds of work do not lift the clock, so the
// probe first keeps the GPU busy for >= 300 ms, and every run's command buffer starts with about
// a millisecond of copies (the "heater", untimed) so that the sort is timed at working clocks.
//   probe-bitonic [lo_bits=9] [hi_bits=24] [runs=15]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/kernels.hpp"
#include "core/recorder.hpp"
#include "sort/algorithm.hpp"
#include "sort/bitonic.hpp"

using namespace vkc;

namespace {

using RecordSort = std::function<void(Context&, Recorder&, const sorting::Job&)>;

struct Variant {
  std::string name;
  RecordSort record;
  std::uint64_t temporary_bytes;
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
};

Timing time_variant(Context& ctx, const Heater& heater, const Variant& v, const Buffer& pristine, const std::vector<std::uint32_t>& expected,
                    std::uint32_t n, int runs) {
  Buffer keys = ctx.create_buffer(std::uint64_t{n} * 4);
  Buffer count = ctx.create_buffer(4);
  Buffer temporary = ctx.create_buffer(std::max<std::uint64_t>(16, v.temporary_bytes));
  ctx.upload(count, &n, 4);
  sorting::Job job;
  job.max_count = n;
  job.count = {count.handle(), Access::read, 0, 4};
  job.count_is_exact = true;
  job.keys = {keys.handle(), Access::read_write};
  job.temporary = {temporary.handle(), Access::read_write};
  job.temporary_bytes = v.temporary_bytes;
  TimestampQueries queries(ctx, 2);
  std::vector<double> us;
  for (int run = -3; run < runs; ++run) {  // three warm-up runs (pipeline creation, caches)
    ctx.run([&](Recorder& r) {
      heater.record(ctx, r);
      record_copy(ctx, r, pristine.handle(), keys.handle(), n);
      r.reset_queries(queries.pool(), 0, 2);
      r.write_timestamp(queries.pool(), 0);
      v.record(ctx, r, job);
      r.write_timestamp(queries.pool(), 1);
      r.finish_for_host();
    });
    if (run >= 0) us.push_back(queries.elapsed_ns(0, 1) / 1000.0);
  }
  std::vector<std::uint32_t> out(n);
  ctx.download(keys, std::span<std::uint32_t>(out));
  std::sort(us.begin(), us.end());
  return {us[us.size() / 2], us.front(), out == expected};
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
  std::mt19937_64 rng(42);
  bool all_correct = true;
  for (int bits = lo; bits <= hi; ++bits) {
    std::vector<std::uint32_t> sizes{1u << bits};
    if (bits >= 20) sizes.push_back((1u << bits) + 1);  // not a power of two: virtual padding
    for (std::uint32_t n : sizes) {
      std::vector<std::uint32_t> input(n);
      for (auto& k : input) k = static_cast<std::uint32_t>(rng());
      std::vector<std::uint32_t> expected = input;
      std::sort(expected.begin(), expected.end());
      Buffer pristine = ctx.create_buffer(std::uint64_t{n} * 4);
      ctx.upload(pristine, std::span<const std::uint32_t>(input));

      sorting::Job shape;
      shape.max_count = n;
      const SortDesc desc{KeyType::u32, ValueType::none, n, {SortAlgorithm::bitonic_transpose}};
      const sorting::Algorithm& transpose = sorting::choose(info, desc);
      std::vector<std::pair<Variant, std::size_t>> variants;
      const sorting::BitonicTuning chosen = sorting::bitonic_tuning(info, shape);
      std::vector<sorting::BitonicTuning> tunings{chosen};
      if (n >= (1u << 20)) {
        for (std::uint32_t sub : {0u, 1u, 2u}) {
          sorting::BitonicTuning t = chosen;
          t.sub_bits = sub;
          if (sub != chosen.sub_bits) tunings.push_back(t);
        }
      }
      if (std::getenv("PROBE_SWEEP") && (bits == 12 || bits == 13 || bits == 20 || bits == 24)) {  // workgroup size x elements per invocation, at one shared tile
        for (std::uint32_t wg : {64u, 128u, 256u, 512u, 1024u}) {
          for (std::uint32_t e : {1u, 2u, 3u, 4u}) {
            sorting::BitonicTuning t{wg, e, 0};
            if (t.tile_bits() > chosen.tile_bits() || wg > info.max_workgroup_invocations) continue;
            tunings.push_back(t);
            if (bits <= 13) tunings.push_back({wg, e, 0, false});  // lane bits through shared memory
          }
        }
      }
      for (const auto& t : tunings) {
        const std::string name = "bitonic wg" + std::to_string(t.workgroup_size) + " e" + std::to_string(t.e_bits) +
                                 " sub" + std::to_string(t.sub_bits) + (t.shuffles ? "" : " noshfl") +
                                 (&t == &tunings[0] ? " *" : "");
        const auto passes = sorting::bitonic_plan(t, n).size();
        variants.push_back({{name, [t](Context& c, Recorder& r, const sorting::Job& j) {
                               sorting::record_bitonic(c, r, j, t);
                             }, 0}, passes});
      }
      if (bits <= 24) {
        variants.push_back({{"bitonic_transpose", [&transpose](Context& c, Recorder& r, const sorting::Job& j) {
                               transpose.record(c, r, j);
                             }, transpose.temporary_bytes(info, desc)}, 0});
      }
      for (const auto& [v, passes] : variants) {
        const Timing t = time_variant(ctx, heater, v, pristine, expected, n, runs);
        all_correct = all_correct && t.correct;
        const double gbs = passes ? 8.0 * n * passes / (t.median_us * 1e3) : 0.0;
        std::printf("%10u  %-26s %6zu %10.2f %10.2f %9.0f  %s\n", n, v.name.c_str(), passes, t.median_us, t.min_us,
                    gbs, t.correct ? "ok" : "WRONG");
        std::fflush(stdout);
      }
    }
  }
  std::printf(all_correct ? "all results correct\n" : "SOME RESULTS WRONG\n");
  return all_correct ? 0 : 1;
}
