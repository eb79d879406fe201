// vkc nbody: runs an N-body simulation on the GPU, printing fp64 diagnostics every K steps
// (text, or JSON lines with --json), optionally rendering PNG frames (joined into an MP4 when
// ffmpeg exists) and saving the final state as .npy.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "io/npy.hpp"
#include "vkc/device_set.hpp"
#include "vkc/nbody.hpp"

namespace vkc::cli {
namespace {

struct NbodyArgs {
  std::int64_t bodies = 4096;  // signed, so that --bodies -5 is refused rather than wrapped
  std::uint32_t steps = 1000;
  double dt = 1.0 / 128;
  std::string ic = "plummer";
  std::uint32_t every = 100;
  std::uint64_t seed = 1;
  float eps = 0.05f;  // resolves the dense disks of --ic collision at the default dt
  float gravity = 1.0f;
  std::string frames;
  std::uint32_t frame_size = 512;
  bool json = false;
  bool no_diagnostics = false;
  std::string save;
  std::string load;
  std::string devices;  // --devices LIST, or empty: $VKC_DEVICES, else one device
  bool mpi = false;     // one rank of `mpirun ... vkc nbody --mpi`: vkc-mpi simulates
};

// Host bytes per body: the initial state, the simulation's copy, a saved state and a frame's
// share, with room to spare.
constexpr std::uint64_t kHostBytesPerBody = 256;
// Device bytes per body: positions, velocities and accelerations (vec4 each).
constexpr std::uint64_t kDeviceBytesPerBody = 48;

std::uint64_t host_memory_bytes() {
  return std::uint64_t(::sysconf(_SC_PHYS_PAGES)) * std::uint64_t(::sysconf(_SC_PAGESIZE));
}

// Everything the arguments alone can tell, before any file is read or any memory is taken.
void check(const NbodyArgs& a, const Common& common) {
  // The step is applied in fp32: a value that is not a finite positive float is no step.
  const float dt = static_cast<float>(a.dt);
  if (!std::isfinite(a.dt) || !std::isfinite(dt) || !(dt > 0)) {
    throw std::runtime_error("the time step --dt must be a finite float > 0 (got " + std::to_string(a.dt) + ")");
  }
  if (!std::isfinite(a.eps) || a.eps < 0) throw std::runtime_error("--eps must be finite and >= 0");
  if (!std::isfinite(a.gravity)) throw std::runtime_error("--gravity must be finite");
  // --load's body count, from its header, before its data is read (load_state checks the rest).
  std::uint64_t bodies = std::uint64_t(std::max<std::int64_t>(a.bodies, 0));
  if (!a.load.empty()) {
    const auto shape = io::ArrayReader(a.load, io::InputFormat::npy).shape();
    bodies = shape.empty() ? 0 : shape[0];
  }
  if (a.load.empty() && a.bodies < 2) {
    throw std::runtime_error("a simulation needs at least 2 bodies (--bodies " + std::to_string(a.bodies) + ")");
  }
  const std::uint64_t limit = std::min<std::uint64_t>(host_memory_bytes() / kHostBytesPerBody, INT32_MAX);
  if (bodies > limit) {
    throw std::runtime_error((a.load.empty() ? "--bodies " : a.load + ": ") + std::to_string(bodies) +
                             " bodies, more than this machine can hold (" + std::to_string(limit) + " at most)");
  }
  std::error_code ec;
  if (!a.load.empty() && !a.save.empty() && std::filesystem::equivalent(a.load, a.save, ec)) {
    throw std::runtime_error(a.save + ": is the --load file; vkc never modifies its input");
  }
  if (a.save == "-") throw std::runtime_error("--save -: standard output carries the diagnostics; name a file");
  check_output_path(a.save, common);
}

// The device must hold the bodies: one buffer of vec4 per body, and three in its memory (each
// device of several holds every position and its share of the rest: no more than one alone).
void check_device(const Context& ctx, std::size_t bodies) {
  const DeviceInfo& d = ctx.info();
  if (16ull * bodies > d.max_storage_buffer_range ||
      (d.device_local_bytes() && kDeviceBytesPerBody * bodies > d.device_local_bytes())) {
    throw Error(std::to_string(bodies) + " bodies do not fit on " + d.name + " (" +
                std::to_string(d.max_storage_buffer_range >> 20) + " MiB per buffer, " +
                std::to_string(d.device_local_bytes() >> 20) + " MiB of memory)");
  }
}

// frame_<step>.png, the step zero-padded to the digits of the last step (at least 5), so that
// the names sort in step order.
std::string frame_name(std::uint32_t step, std::uint32_t last_step) {
  const int digits = std::max(5, int(std::to_string(last_step).size()));
  char name[32];
  std::snprintf(name, sizeof name, "frame_%0*u.png", digits, step);
  return name;
}

// What frame_name writes, and the movie made of such frames.
bool is_frame_output(const std::string& name) {
  static const std::regex frame(R"(frame_[0-9]+\.png)");
  return name == "nbody.mp4" || std::regex_match(name, frame);
}

// Creates the frames folder and proves it writable now, not after the first hour of simulation.
// Removes the frames (and movie) an earlier run left there, so that a shorter run leaves no
// stale frames behind; other files in the folder are left alone.
void prepare_frames(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create the frames folder " + dir.string() + ": " + ec.message());
  if (::access(dir.c_str(), W_OK) != 0) throw std::runtime_error("the frames folder " + dir.string() + " is not writable");
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!is_frame_output(entry.path().filename().string())) continue;
    if (!std::filesystem::remove(entry.path(), ec) && ec) {
      throw std::runtime_error("cannot remove the earlier frame " + entry.path().string() + ": " + ec.message());
    }
  }
  if (ec) throw std::runtime_error("cannot list the frames folder " + dir.string() + ": " + ec.message());
}

// Joins frame_<step>.png (in step order) into nbody.mp4 when ffmpeg is on PATH; says so on stderr when not.
void make_movie(const std::filesystem::path& dir) {
  if (std::system("command -v ffmpeg >/dev/null 2>&1") != 0) {
    std::fprintf(stderr, "vkc nbody: ffmpeg not found: frames left as PNG files in %s\n", dir.c_str());
    return;
  }
  const std::string cmd = "ffmpeg -y -loglevel error -framerate 30 -pattern_type glob -i '" + (dir / "frame_[0-9]*.png").string() +
                          "' -pix_fmt yuv420p -vf 'pad=ceil(iw/2)*2:ceil(ih/2)*2' '" + (dir / "nbody.mp4").string() + "'";
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("ffmpeg failed to make " + (dir / "nbody.mp4").string());
  std::fprintf(stderr, "vkc nbody: wrote %s\n", (dir / "nbody.mp4").c_str());
}

// Progress on stderr: a bar on a terminal, otherwise a line at every tenth of the run; nothing
// with --quiet.
class Progress {
 public:
  Progress(std::uint32_t total, bool quiet) : total_(total), quiet_(quiet), bar_(::isatty(STDERR_FILENO) != 0) {}
  void show(std::uint32_t done) {
    if (quiet_ || total_ == 0) return;
    if (!bar_) {
      const auto tenth = std::uint32_t(std::uint64_t(done) * 10 / total_);
      if (tenth > shown_) std::fprintf(stderr, "vkc nbody: step %u/%u (%u%%)\n", done, total_, tenth * 10);
      shown_ = tenth;
      return;
    }
    const int width = 40, filled = int(std::lround(double(width) * done / total_));
    std::fprintf(stderr, "\r[%s%s] %3d%% step %u/%u", std::string(filled, '#').c_str(),
                 std::string(width - filled, '.').c_str(), int(100.0 * done / total_), done, total_);
    if (done == total_) std::fprintf(stderr, "\n");
    std::fflush(stderr);
  }
  void clear() const {
    if (bar_ && !quiet_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  std::uint32_t total_;
  bool quiet_;
  bool bar_;
  std::uint32_t shown_ = 0;
};

// Prints each checkpoint: the step, the wall-clock milliseconds per step since the last one (none at
// step 0) and, unless they are off, the diagnostics.
class Reporter {
 public:
  Reporter(const nbody::Config& config, bool json, bool diagnostics)
      : config_(config), json_(json), diagnostics_(diagnostics) {}

  void report(std::uint32_t step, const nbody::Simulation& sim, std::optional<double> step_ms) {
    nlohmann::ordered_json j{{"step", step}, {"time", sim.time()}};
    j["step_ms"] = step_ms ? nlohmann::ordered_json(*step_ms) : nlohmann::ordered_json(nullptr);
    std::string text = format("step %7u  t %9.4f", step, sim.time());
    if (diagnostics_) {
      const nbody::Diagnostics d = nbody::diagnose(sim.state(), config_);
      if (!e0_) e0_ = d.energy;
      const double rel = *e0_ != 0 ? (d.energy - *e0_) / std::abs(*e0_) : d.energy;
      j.update({{"energy", d.energy},
                {"rel_energy_error", rel},
                {"kinetic", d.kinetic},
                {"potential", d.potential},
                {"momentum", d.momentum},
                {"angular_momentum", d.angular_momentum},
                {"centre_of_mass", d.centre_of_mass}});
      text += format("  E %+.9e  dE/E0 %+.3e  |P| %.3e  L (%+.4e %+.4e %+.4e)  com (%+.2e %+.2e %+.2e)", d.energy, rel,
                     std::hypot(d.momentum[0], d.momentum[1], d.momentum[2]), d.angular_momentum[0],
                     d.angular_momentum[1], d.angular_momentum[2], d.centre_of_mass[0], d.centre_of_mass[1],
                     d.centre_of_mass[2]);
    }
    if (step_ms) text += format("  %.3f ms/step", *step_ms);
    std::printf("%s\n", json_ ? j.dump().c_str() : text.c_str());
    std::fflush(stdout);
  }

 private:
  template <class... Args>
  static std::string format(const char* f, Args... args) {
    char line[512];
    std::snprintf(line, sizeof line, f, args...);
    return line;
  }

  nbody::Config config_;
  bool json_, diagnostics_;
  std::optional<double> e0_;
};

// A number as text that reads back as the same double.
std::string exact(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// --mpi: this rank becomes `vkc-mpi nbody` (tools/vkc-mpi), built beside vkc, with the options it
// takes; --devices is refused.
[[noreturn]] void run_mpi_nbody(const NbodyArgs& a) {
  if (!a.devices.empty()) throw Error("--mpi: each rank uses its host's GPU by its local rank; no --devices");
  std::vector<std::string> rest = {"nbody", "--bodies", std::to_string(a.bodies), "--steps", std::to_string(a.steps),
                                   "--dt", exact(a.dt), "--ic", a.ic, "--every", std::to_string(a.every),
                                   "--seed", std::to_string(a.seed), "--eps", exact(a.eps),
                                   "--gravity", exact(a.gravity), "--frame-size", std::to_string(a.frame_size)};
  for (const auto& [flag, value] : {std::pair{"--load", a.load}, {"--save", a.save}, {"--frames", a.frames}}) {
    if (!value.empty()) rest.insert(rest.end(), {flag, value});
  }
  if (a.json) rest.push_back("--json");
  if (a.no_diagnostics) rest.push_back("--no-diagnostics");
  exec_beside("vkc-mpi", rest, "--mpi: vkc was built without MPI");
}

void run_nbody(const NbodyArgs& a, const Common& common) {
  check(a, common);
  if (a.mpi) run_mpi_nbody(a);
  if (!a.frames.empty()) prepare_frames(a.frames);
  // One device (--device), or several that share the bodies (--devices): a DeviceSet of one then.
  const std::string list = device_list(a.devices);
  DeviceSet devices(list.empty() ? std::string_view(common.device) : std::string_view(list));
  const auto check_devices = [&](std::size_t bodies) {
    for (std::size_t d = 0; d < devices.size(); ++d) check_device(devices[d], bodies);
  };
  if (a.load.empty()) check_devices(std::size_t(a.bodies));
  nbody::State initial = a.load.empty() ? nbody::make_initial_conditions(nbody::parse_initial_conditions(a.ic),
                                                                         std::size_t(a.bodies), a.seed)
                                        : nbody::load_state(a.load);
  if (!a.load.empty()) check_devices(initial.size());
  nbody::Config config;
  config.softening = a.eps;
  config.gravity = a.gravity;
  nbody::Simulation sim(devices, initial, config);
  const auto t = sim.tuning();
  const std::string where = sim.devices() == 1 ? sim.context().info().name
                                               : std::to_string(sim.devices()) + " devices (" + list + ")";
  std::fprintf(stderr, "vkc nbody: %zu bodies (%s) on %s, eps %g, G %g; force kernel: workgroup %u, %u bodies/invocation, tile %u\n",
               sim.size(), a.load.empty() ? a.ic.c_str() : a.load.c_str(), where.c_str(), double(a.eps),
               double(a.gravity), t.workgroup_size, t.bodies_per_invocation, t.tile);
  if (sim.size() > 65536 && !a.no_diagnostics) {
    std::fprintf(stderr, "vkc nbody: note: each diagnostic sums N^2/2 = %.2g fp64 pair terms on the CPU\n",
                 0.5 * double(sim.size()) * double(sim.size()));
  }

  Reporter reporter(config, a.json, !a.no_diagnostics);
  std::optional<nbody::Renderer> renderer;
  nbody::View view;
  if (!a.frames.empty()) {
    renderer.emplace(sim.context(), a.frame_size, a.frame_size);
    view = nbody::fit_view(initial);
  }
  auto checkpoint = [&](std::uint32_t step, std::optional<double> step_ms) {
    reporter.report(step, sim, step_ms);
    if (renderer) {
      nbody::write_png(std::filesystem::path(a.frames) / frame_name(step, a.steps), renderer->render(sim, view),
                       a.frame_size, a.frame_size);
    }
  };

  Progress progress(a.steps, common.quiet);
  checkpoint(0, std::nullopt);
  const std::uint32_t every = a.every ? a.every : a.steps;
  const std::uint32_t slice = std::max<std::uint32_t>(1, std::min(every, a.steps / 100));  // progress granularity
  for (std::uint32_t done = 0; done < a.steps;) {
    const std::uint32_t until = std::min(a.steps, (done / every + 1) * every), from = done;
    const auto start = std::chrono::steady_clock::now();
    while (done < until) {
      const std::uint32_t now = std::min(slice, until - done);
      sim.step(static_cast<float>(a.dt), now);
      done += now;
      progress.show(done);
    }
    progress.clear();
    checkpoint(done, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() /
                         (done - from));
  }
  if (!a.save.empty()) nbody::save_state(a.save, sim.state());
  if (renderer) make_movie(a.frames);
}

}  // namespace

void register_nbody(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("nbody", "simulate N bodies under softened gravity (kick-drift-kick leapfrog, fp32 on the GPU)");
  auto a = std::make_shared<NbodyArgs>();
  cmd->add_option("-n,--bodies", a->bodies, "number of bodies, 2 or more (ignored with --load)")->capture_default_str();
  cmd->add_option("--steps", a->steps, "leapfrog steps")->capture_default_str();
  cmd->add_option("--dt", a->dt, "time step (N-body units)")->capture_default_str();
  cmd->add_option("--ic", a->ic, "initial conditions")
      ->check(CLI::IsMember({"plummer", "cube", "collision"}))
      ->capture_default_str();
  cmd->add_option("--every", a->every, "diagnostics (and a frame) every K steps; 0: at the start and end only")
      ->capture_default_str();
  cmd->add_option("--seed", a->seed, "seed of the initial conditions")->capture_default_str();
  cmd->add_option("--eps", a->eps, "Plummer softening length (force and potential)")->capture_default_str();
  cmd->add_option("-G,--gravity", a->gravity, "gravitational constant")->capture_default_str();
  cmd->add_option("--frames", a->frames, "write PNG frames frame_<step>.png (and nbody.mp4 when ffmpeg exists) into this folder, first removing those an earlier run left there");
  cmd->add_option("--frame-size", a->frame_size, "frame width and height in pixels")
      ->check(CLI::Range(16u, 8192u))
      ->capture_default_str();
  cmd->add_flag("--json", a->json, "one JSON object per diagnostic line on stdout");
  cmd->add_flag("--no-diagnostics", a->no_diagnostics,
                "skip the diagnostics (their potential sums N^2/2 fp64 terms on the CPU): checkpoints print the "
                "step, the time and the milliseconds per step");
  cmd->add_option("-o,--save", a->save,
                  "save the final state as an (N, 8) float32 .npy file (checked before the run)");
  cmd->add_option("--load", a->load, "start from a state saved by --save");
  cmd->add_flag("--mpi", a->mpi,
                "one rank of `mpirun -np R vkc nbody --mpi`: the ranks share the bodies, each on its host's GPU by "
                "its local rank; rank 0 prints, renders and saves");
  cmd->add_option("--devices", a->devices,
                  "share the bodies among several devices: all (every GPU of the best kind) or a list of indices or "
                  "names, a device may repeat (0,1; 0,0); each computes the forces on its share and they exchange "
                  "positions every step (default: $VKC_DEVICES, else one device, --device)")
      ->type_name("LIST");
  cmd->callback([&common, a] { run_nbody(*a, common); });
}

}  // namespace vkc::cli
