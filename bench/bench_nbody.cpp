// vkc bench nbody: all-pairs force evaluation speed in interactions per second (and GFLOP/s
// at 20 flops per interaction, GPU Gems 3 ch. 31) from GPU timestamps, median of runs, each
// result checked against an fp64 direct sum on sampled bodies; optionally beside the CUDA peer,
// and the leapfrog step on --devices beside one device (wall clock, exchange included).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_commands.hpp"
#include "harness.hpp"
#include "peers.hpp"
#include "vkc/device_set.hpp"
#include "vkc/nbody.hpp"

namespace vkc::cli {
namespace {

constexpr double kFlopsPerInteraction = 20;  // the GPU Gems 3 convention
constexpr double kTolerance = 1e-3;          // fp32 sums of up to 2^20 terms against fp64

struct BenchArgs {
  std::size_t min_n = 16384;
  std::size_t max_n = 1048576;
  std::vector<std::size_t> sizes;  // overrides the doubling sequence
  int runs = 10;
  int warmup = 2;
  float eps = 0.01f;  // the peer's default
  std::string csv;
  bool peers = false;
  std::string devices;  // --devices LIST: the step on them beside one device's
  nbody::Config tuning;
};

std::vector<std::size_t> sizes_of(const BenchArgs& a) {
  if (!a.sizes.empty()) return a.sizes;
  if (a.min_n < 2 || a.max_n < a.min_n) throw std::runtime_error("bench nbody: need 2 <= --min-n <= --max-n");
  std::vector<std::size_t> sizes;
  for (std::size_t n = a.min_n; n <= a.max_n; n *= 2) sizes.push_back(n);
  return sizes;
}

// ||a - a_ref|| / ||a_ref|| over 64 bodies spread through the array, a_ref summed in fp64.
double sampled_error(const nbody::Simulation& sim, Context& ctx, const nbody::State& s) {
  const std::size_t n = s.size();
  std::vector<float> acc(4 * n);
  ctx.download(sim.accelerations(), acc.data(), 16 * n);
  const double eps2 = double(sim.config().softening) * sim.config().softening;
  double num = 0, den = 0;
  for (std::size_t k = 0; k < 64; ++k) {
    const std::size_t i = (k * 2654435761u) % n;
    double ref[3] = {};
    for (std::size_t j = 0; j < n; ++j) {
      double d[3];
      for (int c = 0; c < 3; ++c) d[c] = double(s.positions[4 * j + c]) - s.positions[4 * i + c];
      const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2;
      const double w = s.positions[4 * j + 3] / (r2 * std::sqrt(r2));
      for (int c = 0; c < 3; ++c) ref[c] += w * d[c];
    }
    for (int c = 0; c < 3; ++c) {
      const double diff = acc[4 * i + c] - double(sim.config().gravity) * ref[c];
      num += diff * diff, den += ref[c] * ref[c];
    }
  }
  return std::sqrt(num / den);
}

struct PeerResult {
  double median_ms = -1, interactions_per_s = -1;
};

// Runs bench/peers' vkc-peer-nbody once for all sizes (see bench/peers/README.md).
std::map<std::size_t, PeerResult> run_gems_peer(const std::vector<std::size_t>& sizes, const BenchArgs& a) {
  std::string list;
  for (std::size_t n : sizes) list += (list.empty() ? "" : ",") + std::to_string(n);
  const std::string command = peer_path("vkc-peer-nbody").string() + " --n " + list + " --runs " +
                              std::to_string(a.runs) + " --eps " + std::to_string(a.eps);
  std::map<std::size_t, PeerResult> out;
  for (const std::string& line : run_peer(command)) {
    const auto j = nlohmann::json::parse(line);
    if (!j.value("verified", false)) throw Error("the GPU Gems peer did not verify its result at n=" + j["n"].dump());
    out[j["n"].get<std::size_t>()] = {j.value("median_ms", -1.0), j.value("interactions_per_s", -1.0)};
  }
  return out;
}

// Median wall-clock milliseconds of one leapfrog step (every submission and exchange included).
double step_ms(nbody::Simulation& sim, const BenchArgs& a) {
  const float dt = 1e-4f;  // small, so that the bodies stay where the force pass was timed
  for (int w = 0; w < a.warmup; ++w) sim.step(dt);
  return bench::time_wall(a.runs, [&] { sim.step(dt); }).median_ms;
}

struct SharedStep {
  double alone_ms = -1, together_ms = -1;
};

// The step on one device and on `set`, the same number of times from the same state; their states
// must then agree (to the bit on one kind of device; 1e-6 allows devices of different kinds).
SharedStep time_shared_step(Context& ctx, DeviceSet& set, const nbody::State& s, const nbody::Config& config,
                            const BenchArgs& a) {
  nbody::Simulation alone(ctx, s, config), together(set, s, config);
  SharedStep out{step_ms(alone, a), step_ms(together, a)};
  const nbody::State want = alone.state(), got = together.state();
  double num = 0, den = 0;
  for (std::size_t i = 0; i < want.positions.size(); ++i) {
    num += std::pow(double(got.positions[i]) - want.positions[i], 2), den += std::pow(double(want.positions[i]), 2);
  }
  if (!(std::sqrt(num / den) < 1e-6)) {
    throw std::runtime_error("bench nbody: the step on " + std::to_string(set.size()) +
                             " devices left other positions than one device at N = " + std::to_string(s.size()));
  }
  return out;
}

void run_bench(const BenchArgs& a, const Common& common) {
  const auto sizes = sizes_of(a);
  for (std::size_t n : sizes) {
    if (n < 2 || n > INT32_MAX) throw std::runtime_error("bench nbody: body counts must be 2 to 2^31 - 1, not " + std::to_string(n));
  }
  check_output_path(a.csv, common);
  Context ctx(ContextOptions{.device = common.device});
  std::vector<std::string> columns = {"N", "median ms", "G interactions/s", "GFLOP/s", "rel. error"};
  if (a.peers) columns.insert(columns.end(), {"peer G interactions/s", "vkc / peer"});
  std::unique_ptr<DeviceSet> set;
  if (!a.devices.empty()) {
    set = std::make_unique<DeviceSet>(a.devices, ContextOptions{.quiet = true});
    const std::string d = std::to_string(set->size());
    columns.insert(columns.end(), {"step ms, 1 device", "step ms, " + d + " devices", "G interactions/s, " + d + " devices",
                                   "speedup"});
  }
  bench::Table table(columns);
  const auto peer = a.peers ? run_gems_peer(sizes, a) : std::map<std::size_t, PeerResult>{};
  nbody::Config config = a.tuning;
  config.softening = a.eps;
  for (std::size_t n : sizes) {
    progress("bench nbody: N = " + std::to_string(n));
    const nbody::State s = nbody::make_initial_conditions(nbody::InitialConditions::plummer, n, n);
    nbody::Simulation sim(ctx, s, config);
    // The force pass reads the positions and only writes the accelerations (half_dt 0), so every
    // run sees the same input and needs no fresh copy.
    const bench::Stats t = bench::time_gpu(ctx, a.warmup, a.runs, nullptr, [&](Recorder& r) { sim.record_forces(r, 0.0f); });
    const double err = sampled_error(sim, ctx, s);
    if (!(err < kTolerance)) {
      throw std::runtime_error("bench nbody: wrong accelerations at N = " + std::to_string(n) + " (relative error " +
                               std::to_string(err) + ")");
    }
    const double rate = double(n) * double(n) / (t.median_ms * 1e-3);
    std::vector<std::string> row = {std::to_string(n), bench::significant(t.median_ms), bench::significant(rate * 1e-9),
                                    bench::significant(rate * kFlopsPerInteraction * 1e-9),
                                    bench::significant(err * 1e6, 3) + "e-6"};
    if (a.peers) {
      const auto it = peer.find(n);
      const double p = it == peer.end() ? -1 : it->second.interactions_per_s;
      row.insert(row.end(), {bench::significant(p * 1e-9), p > 0 ? bench::significant(rate / p) : ""});
    }
    if (set) {
      progress("bench nbody: N = " + std::to_string(n) + " on " + std::to_string(set->size()) + " devices");
      const SharedStep t = time_shared_step(ctx, *set, s, config, a);
      row.insert(row.end(), {bench::significant(t.alone_ms), bench::significant(t.together_ms),
                             bench::significant(double(n) * double(n) / (t.together_ms * 1e-3) * 1e-9),
                             bench::significant(t.alone_ms / t.together_ms)});
    }
    table.add_row(row);
  }
  const auto t = nbody::Simulation(ctx, nbody::make_initial_conditions(nbody::InitialConditions::plummer, 2, 0), config).tuning();
  std::printf("vkc bench nbody on %s: all-pairs forces, fp32, eps %g; workgroup %u, %u bodies/invocation, tile %u; "
              "median of %d runs (GPU timestamps)\n\n",
              ctx.info().name.c_str(), double(a.eps), t.workgroup_size, t.bodies_per_invocation, t.tile, a.runs);
  table.print_markdown(stdout);
  if (!a.csv.empty()) table.write_csv(a.csv, bench::run_info(ctx));
}

}  // namespace

void register_bench_nbody(CLI::App& bench, Common& common) {
  auto* cmd = bench.add_subcommand("nbody", "all-pairs N-body force speed: interactions/s and GFLOP/s (20 flops each)");
  auto a = std::make_shared<BenchArgs>();
  cmd->add_option("--min-n", a->min_n, "smallest body count (sizes double up to --max-n)")->capture_default_str();
  cmd->add_option("--max-n", a->max_n, "largest body count")->capture_default_str();
  cmd->add_option("--n", a->sizes, "explicit body counts instead (e.g. --n 135168,262144)")->delimiter(',');
  cmd->add_option("--runs", a->runs, "timed runs per size; the median is reported")->check(CLI::Range(1, 1000))->capture_default_str();
  cmd->add_option("--warmup", a->warmup, "untimed runs first")->check(CLI::Range(0, 100))->capture_default_str();
  cmd->add_option("--eps", a->eps, "softening length")->capture_default_str();
  cmd->add_option("--csv", a->csv, "also write the table as CSV (with device, driver, commit, date)");
  cmd->add_flag("--peers", a->peers, "add the CUDA peer vkc-peer-nbody (GPU Gems 3 kernel) and our ratio");
  cmd->add_option("--devices", a->devices,
                  "also time the leapfrog step with the bodies shared among these devices (all, or a list such as "
                  "0,1), beside one device's step, wall clock")
      ->type_name("LIST");
  cmd->add_option("--workgroup", a->tuning.workgroup_size, "force kernel workgroup size (0: device default)");
  cmd->add_option("--bodies-per-invocation", a->tuning.bodies_per_invocation, "bodies per invocation (0: default)");
  cmd->add_option("--tile", a->tuning.tile, "bodies per shared-memory tile (0: default)");
  cmd->callback([&common, a] { run_bench(*a, common); });
}

}  // namespace vkc::cli
