// vkc-mpi: `vkc sort --mpi` and `vkc nbody --mpi` under mpirun, one rank per GPU. Every rank
// reads its slice of the input (.npy or raw), the ranks sort together (vkc::mpi::sort: sample,
// exchange, sort on each rank's GPU), and every rank writes its range of the sorted order into
// one temporary file at its offset, which rank 0 renames into place once every rank has written:
// the output appears whole or not at all. Files are read and written with pread and pwrite from
// several threads per rank (the page cache's speed; MPI-IO's one stream read 1.1 GB/s on the H200
// host), on a file system every rank sees. A failure on any rank ends every rank with status 1 and the
// message of the first rank that failed, on stderr, from rank 0.
//
//   mpirun -np R vkc-mpi sort INPUT -o OUTPUT [--type T] [--order asc|desc] [--algo A]
//          [--verbose] [--json]
//
// The n-body simulation: every rank makes (or loads) the same bodies and moves its share of them
// on its GPU, the positions all-gathered after every drift (vkc::mpi::simulation); the
// diagnostics' O(N^2) potential is shared among the ranks (vkc::mpi::diagnose); rank 0 prints
// them, renders the frames and saves the state.
//
//   mpirun -np R vkc-mpi nbody [--bodies N] [--steps S] [--dt DT] [--ic IC] [--seed K]
//          [--every K] [--eps E] [-G G] [--load FILE] [--save FILE] [--frames DIR] [--json]
//          [--no-diagnostics]
#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <exception>
#include <thread>
#include <chrono>
#include <climits>
#include <cmath>
#include <memory>
#include <optional>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/npy.hpp"
#include "vkc/mpi.hpp"
#include "vkc/nbody.hpp"

namespace {

using namespace vkc;

struct Args {
  std::string input, output, type, order = "asc", algorithm = "auto";
  bool verbose = false, json = false, force = false;
};

int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

int size_of(MPI_Comm comm) {
  int n = 1;
  MPI_Comm_size(comm, &n);
  return n;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

KeyType parse_key_type(const std::string& name) {
  for (int t = 0; t <= static_cast<int>(KeyType::bf16); ++t) {
    if (to_string(static_cast<KeyType>(t)) == name) return static_cast<KeyType>(t);
  }
  throw Error("--type " + name + ": not a key type (u32 i32 f32 u64 i64 f64 u8 i8 u16 i16 f16 bf16)");
}

// The key type of the file: --type, else the .npy's dtype.
KeyType key_type(const Args& a, const io::ArrayReader& reader) {
  if (!a.type.empty()) return parse_key_type(a.type);
  return parse_key_type(std::string(io::dtype_name(reader.dtype())));
}

// f(offset, bytes) over [0, bytes) in pieces of 64 MiB, on several threads at once: the page cache
// and the disk take parallel reads and writes faster than one stream.
template <class F>
void in_parallel_pieces(std::uint64_t bytes, F f) {
  constexpr std::uint64_t kPiece = std::uint64_t{64} << 20;
  const std::uint64_t pieces = (bytes + kPiece - 1) / kPiece;
  const unsigned threads = static_cast<unsigned>(std::min<std::uint64_t>(8, pieces));
  std::atomic<std::uint64_t> next{0};
  std::vector<std::exception_ptr> errors(threads);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      try {
        for (std::uint64_t p; (p = next++) < pieces;) f(p * kPiece, std::min(kPiece, bytes - p * kPiece));
      } catch (...) {
        errors[t] = std::current_exception();
      }
    });
  }
  for (auto& thread : pool) thread.join();
  for (auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}


struct Input {
  KeyType type = KeyType::u32;
  io::DType dtype = io::DType::u32;  // the file's
  std::uint64_t total = 0, first = 0, count = 0, data_offset = 0;
  mpi::Bytes keys;  // not zeroed: the reading threads' writes are its pages' first touches
  bool npy = false;
};

// This rank's slice of the input: [total * r / R, total * (r + 1) / R).
Input read_slice(MPI_Comm comm, const Args& a) {
  Input in;
  if (!a.type.empty()) parse_key_type(a.type);  // a bad name, before the file is opened
  const auto raw_type = a.type.empty() || a.type == "bf16" ? io::DType::u16 : *io::parse_dtype(a.type);
  const io::ArrayReader reader(a.input, io::InputFormat::detect, raw_type);
  in.dtype = reader.dtype();
  in.npy = reader.is_npy();
  if (!in.npy && a.type.empty()) throw Error(a.input + ": a raw file needs --type");
  if (reader.shape().size() != 1) throw Error(a.input + ": --mpi sorts 1-D arrays");
  in.type = key_type(a, reader);
  in.total = *reader.count();
  const std::size_t width = key_bytes(in.type);
  in.data_offset = std::filesystem::file_size(a.input) - in.total * width;
  const int r = rank_of(comm), ranks = size_of(comm);
  in.first = in.total * r / ranks;
  in.count = in.total * (r + 1) / ranks - in.first;
  in.keys.resize(in.count * width);
  in_parallel_pieces(in.keys.size(), [&](std::uint64_t done, std::uint64_t bytes) {
    reader.read_at(in.first * width + done, in.keys.data() + done, bytes);
  });
  return in;
}

// A temporary file beside the output, made by rank 0; its name on every rank.
std::string temporary_beside(MPI_Comm comm, const std::string& output) {
  std::string name;
  if (rank_of(comm) == 0) {
    const auto target = std::filesystem::absolute(output);
    std::string pattern = (target.parent_path() / ("." + target.filename().string() + ".vkc-mpi-XXXXXX")).string();
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) throw Error(output + ": cannot create a temporary file beside it");
    ::close(fd);
    name = pattern;
  }
  int length = static_cast<int>(name.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  name.resize(length);
  MPI_Bcast(name.data(), length, MPI_CHAR, 0, comm);
  return name;
}

// Writes the header (rank 0) and each rank's range at its offset into `path`, and waits for the disk.
void write_slices(MPI_Comm comm, const std::string& path, const std::string& header, const mpi::SortedSlice& s,
                  std::size_t width) {
  const int fd = ::open(path.c_str(), O_WRONLY);
  if (fd < 0) throw Error(path + ": cannot open the temporary output: " + std::strerror(errno));
  const auto write_at = [&](std::uint64_t offset, const void* data, std::uint64_t bytes) {
    for (std::uint64_t done = 0; done < bytes;) {
      const ssize_t n = ::pwrite(fd, static_cast<const std::byte*>(data) + done, bytes - done, off_t(offset + done));
      if (n <= 0) throw Error(path + ": cannot write: " + std::strerror(errno));
      done += std::uint64_t(n);
    }
  };
  try {
    if (rank_of(comm) == 0) write_at(0, header.data(), header.size());
    in_parallel_pieces(s.keys.size(), [&](std::uint64_t done, std::uint64_t bytes) {
      write_at(header.size() + s.offset * width + done, s.keys.data() + done, bytes);
    });
    if (::fsync(fd) != 0) throw Error(path + ": cannot write to the disk: " + std::strerror(errno));
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

// The largest of every rank's value (on rank 0).
double slowest(MPI_Comm comm, double ms) {
  double out = ms;
  MPI_Reduce(&ms, &out, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  return out;
}

void report(MPI_Comm comm, const Args& a, const Input& in, const mpi::Phases& p, double read_ms, double write_ms,
            double total_ms) {
  const std::vector<std::pair<const char*, double>> phases = {
      {"read", slowest(comm, read_ms)},          {"sample", slowest(comm, p.sample_ms)},
      {"partition", slowest(comm, p.partition_ms)}, {"exchange", slowest(comm, p.exchange_ms)},
      {"local_sort", slowest(comm, p.local_sort_ms)}, {"write", slowest(comm, write_ms)},
      {"total", slowest(comm, total_ms)}};
  if (rank_of(comm) != 0) return;
  if (a.json) {
    nlohmann::ordered_json j{{"ranks", size_of(comm)}, {"elements", in.total}, {"key_type", to_string(in.type)}};
    for (const auto& [name, ms] : phases) j[std::string(name) + "_ms"] = ms;
    std::printf("%s\n", j.dump().c_str());
  }
  if (a.verbose) {
    std::fprintf(stderr, "vkc sort --mpi: %llu %s keys on %d ranks; slowest rank's ms:",
                 static_cast<unsigned long long>(in.total), std::string(to_string(in.type)).c_str(), size_of(comm));
    for (const auto& [name, ms] : phases) std::fprintf(stderr, " %s %.1f", name, ms);
    std::fprintf(stderr, "\n");
  }
}

void run_sort(MPI_Comm comm, const Args& a) {
  const auto start = std::chrono::steady_clock::now();
  Input in;
  std::unique_ptr<Context> ctx;
  mpi::agree(comm, [&]() -> std::exception_ptr {
    try {
      if (std::filesystem::exists(a.output) && std::filesystem::equivalent(a.input, a.output)) {
        throw Error(a.output + ": is the input file; vkc never modifies its input");
      }
      if (std::filesystem::exists(a.output) && !a.force && ::access(a.output.c_str(), W_OK) != 0) {
        throw Error(a.output + ": exists and is not writable (--force replaces it)");
      }
      in = read_slice(comm, a);
      ctx = std::make_unique<Context>(ContextOptions{.device = mpi::local_device(comm), .quiet = true});
      return nullptr;
    } catch (...) {
      return std::current_exception();
    }
  }());
  const double read_ms = ms_since(start);
  SortOptions options;
  options.order = a.order == "desc" ? SortOrder::descending : SortOrder::ascending;
  options.algorithm = parse_algorithm(a.algorithm);
  const mpi::SortedSlice sorted = mpi::sort(comm, *ctx, in.type, in.keys.data(), in.count, options);
  in.keys = {};
  const auto write_start = std::chrono::steady_clock::now();
  const std::string temporary = temporary_beside(comm, a.output);
  const std::size_t width = key_bytes(in.type);
  const std::vector<std::size_t> shape{in.total};
  const std::string header = in.npy ? io::npy_header(in.dtype, shape) : std::string();
  std::exception_ptr failure;
  try {
    write_slices(comm, temporary, header, sorted, width);
  } catch (...) {
    failure = std::current_exception();
  }
  try {
    mpi::agree(comm, failure);
  } catch (...) {
    if (rank_of(comm) == 0) std::filesystem::remove(temporary);
    throw;
  }
  if (rank_of(comm) == 0) std::filesystem::rename(temporary, a.output);
  MPI_Barrier(comm);  // the output is in place when any rank returns
  report(comm, a, in, sorted.phases, read_ms, ms_since(write_start), ms_since(start));
}

struct NbodyArgs {
  std::int64_t bodies = 4096;
  std::uint32_t steps = 1000, every = 100, frame_size = 512;
  double dt = 1.0 / 128;
  std::string ic = "plummer", load, save, frames;
  std::uint64_t seed = 1;
  float eps = 0.05f, gravity = 1.0f;
  bool json = false, no_diagnostics = false;
};

// One checkpoint's line: the step, the wall-clock milliseconds per step since the last one (none at
// step 0), and the diagnostics where there are some.
void print_checkpoint(std::uint32_t step, double time, std::optional<double> step_ms, const nbody::Diagnostics* d,
                      bool json, double& e0) {
  if (d && step == 0) e0 = d->energy;
  const double rel = d ? (e0 != 0 ? (d->energy - e0) / std::abs(e0) : d->energy) : 0;
  if (json) {
    nlohmann::ordered_json j{{"step", step}, {"time", time}};
    j["step_ms"] = step_ms ? nlohmann::ordered_json(*step_ms) : nlohmann::ordered_json(nullptr);
    if (d) {
      j.update({{"energy", d->energy}, {"rel_energy_error", rel}, {"momentum", d->momentum},
                {"angular_momentum", d->angular_momentum}});
    }
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("step %7u  t %9.4f", step, time);
    if (d) std::printf("  E %+.9e  dE/E0 %+.3e", d->energy, rel);
    if (step_ms) std::printf("  %.3f ms/step", *step_ms);
    std::printf("\n");
  }
  std::fflush(stdout);
}

void run_nbody(MPI_Comm comm, const NbodyArgs& a) {
  const bool root = rank_of(comm) == 0;
  nbody::State initial;
  std::unique_ptr<Context> ctx;
  mpi::agree(comm, [&]() -> std::exception_ptr {
    try {
      if (!std::isfinite(a.dt) || !(a.dt > 0)) throw Error("the time step --dt must be finite and > 0");
      initial = a.load.empty() ? nbody::make_initial_conditions(nbody::parse_initial_conditions(a.ic),
                                                                std::size_t(std::max<std::int64_t>(a.bodies, 0)), a.seed)
                               : nbody::load_state(a.load);
      if (root && !a.frames.empty()) std::filesystem::create_directories(a.frames);
      ctx = std::make_unique<Context>(ContextOptions{.device = mpi::local_device(comm), .quiet = true});
      return nullptr;
    } catch (...) {
      return std::current_exception();
    }
  }());
  nbody::Config config;
  config.softening = a.eps;
  config.gravity = a.gravity;
  nbody::Simulation sim = mpi::simulation(comm, *ctx, initial, config);
  std::optional<nbody::Renderer> renderer;
  const nbody::View view = nbody::fit_view(initial);
  if (root && !a.frames.empty()) renderer.emplace(*ctx, a.frame_size, a.frame_size);
  double e0 = 0;
  const auto checkpoint = [&](std::uint32_t step, std::optional<double> step_ms) {
    if (a.no_diagnostics && !renderer) {
      if (root) print_checkpoint(step, sim.time(), step_ms, nullptr, a.json, e0);
      return;
    }
    const nbody::State s = mpi::gather_state(comm, sim);
    std::optional<nbody::Diagnostics> d;
    if (!a.no_diagnostics) d = mpi::diagnose(comm, s, config);  // the potential's rows shared
    if (!root) return;
    print_checkpoint(step, s.time, step_ms, d ? &*d : nullptr, a.json, e0);
    if (renderer) {
      char name[32];
      std::snprintf(name, sizeof name, "frame_%05u.png", step);
      nbody::write_png(std::filesystem::path(a.frames) / name, renderer->render(sim, view), a.frame_size, a.frame_size);
    }
  };
  checkpoint(0, std::nullopt);
  const std::uint32_t every = a.every ? a.every : std::max<std::uint32_t>(a.steps, 1);
  for (std::uint32_t done = 0; done < a.steps;) {
    const std::uint32_t now = std::min(every, a.steps - done);
    MPI_Barrier(comm);  // every rank starts the steps' clock together
    const auto start = std::chrono::steady_clock::now();
    sim.step(static_cast<float>(a.dt), now);
    const double ms = ms_since(start);
    done += now;
    checkpoint(done, ms / now);
  }
  const nbody::State end = mpi::gather_state(comm, sim);
  std::exception_ptr failure;
  try {
    if (root && !a.save.empty()) nbody::save_state(a.save, end);
  } catch (...) {
    failure = std::current_exception();
  }
  mpi::agree(comm, failure);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  CLI::App app{"vkc-mpi: the distributed sort of `vkc sort --mpi`, under mpirun"};
  app.require_subcommand(1);
  Args a;
  auto* sort = app.add_subcommand("sort", "sort one .npy or raw file across the ranks into one output file");
  sort->add_option("INPUT", a.input, "the keys: a 1-D .npy file, or raw with --type")->required();
  sort->add_option("-o,--output", a.output, "the sorted keys, in the input's format")->required();
  sort->add_option("--type", a.type, "key type (u32 i32 f32 u64 i64 f64 u8 i8 u16 i16 f16 bf16); needed for raw files");
  sort->add_option("--order", a.order, "asc or desc")->check(CLI::IsMember({"asc", "desc"}));
  sort->add_option("--algo", a.algorithm, "each rank's local sort: auto, radix, bitonic, bitonic_transpose, odd_even");
  sort->add_flag("-v,--verbose", a.verbose, "the slowest rank's time per phase on stderr");
  sort->add_flag("--json", a.json, "the same as one JSON object on stdout");
  sort->add_flag("-f,--force", a.force, "replace a read-only output");
  NbodyArgs n;
  auto* nbody = app.add_subcommand("nbody", "an n-body simulation whose bodies the ranks share");
  nbody->add_option("-n,--bodies", n.bodies, "number of bodies (ignored with --load)");
  nbody->add_option("--steps", n.steps, "leapfrog steps");
  nbody->add_option("--dt", n.dt, "time step");
  nbody->add_option("--ic", n.ic, "initial conditions")->check(CLI::IsMember({"plummer", "cube", "collision"}));
  nbody->add_option("--every", n.every, "diagnostics (and a frame) every K steps; 0: start and end");
  nbody->add_option("--seed", n.seed, "seed of the initial conditions");
  nbody->add_option("--eps", n.eps, "Plummer softening length");
  nbody->add_option("-G,--gravity", n.gravity, "gravitational constant");
  nbody->add_option("--load", n.load, "start from a state saved by --save");
  nbody->add_option("-o,--save", n.save, "save the final state as an (N, 8) float32 .npy (rank 0)");
  nbody->add_option("--frames", n.frames, "PNG frames frame_<step>.png into this folder (rank 0)");
  nbody->add_option("--frame-size", n.frame_size, "frame width and height")->check(CLI::Range(16u, 8192u));
  nbody->add_flag("--json", n.json, "one JSON object per diagnostic line");
  nbody->add_flag("--no-diagnostics", n.no_diagnostics,
                  "skip the diagnostics (their potential sums N^2/2 fp64 terms on the CPUs): checkpoints print the "
                  "step, the time and the milliseconds per step");
  int status = 0;
  try {
    app.parse(argc, argv);
    if (sort->parsed()) run_sort(MPI_COMM_WORLD, a);
    if (nbody->parsed()) run_nbody(MPI_COMM_WORLD, n);
  } catch (const CLI::ParseError& e) {
    const int code = rank_of(MPI_COMM_WORLD) == 0 ? app.exit(e) : e.get_exit_code();
    status = code ? 2 : 0;
  } catch (const std::exception& e) {
    if (rank_of(MPI_COMM_WORLD) == 0) std::fprintf(stderr, "vkc: %s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
