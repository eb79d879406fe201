// vkc::nbody: direct (all-pairs) gravitational N-body simulation on a Vulkan device.
//
// The state lives on the GPU: positions as vec4 (x, y, z, mass) and velocities as vec4
// (vx, vy, vz, 0), both fp32. Simulation::step() advances it with the kick-drift-kick leapfrog
// (second order, symplectic, time-reversible; no damping):
//     v += a(x) dt/2;   x += v dt;   v += a(x) dt/2
// where a is the Plummer-softened acceleration
//     a_i = G sum_j m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2)
// computed exactly over all pairs (O(N^2) per step). The matching potential energy, which
// diagnose() uses, is
//     W = -G sum_{i<j} m_i m_j / sqrt(|x_j - x_i|^2 + eps^2)
// with the same eps, so that the leapfrog conserves K + W up to its O(dt^2) oscillation.
//
// Units: N-body (Henon) units by default: G = 1, total mass 1, and the initial conditions
// are scaled so that the virial radius is 1 (a Plummer sphere's crossing time is then
// 2*sqrt(2) and its total energy -1/4). Nothing but G is fixed by the library: any
// consistent units work when Config::gravity says so.
//
// Speed is reported as interactions per second (N^2 per force evaluation) and GFLOP/s at
// 20 flops per interaction, the GPU Gems 3 chapter 31 convention (see docs/nbody.md).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "vkc/context.hpp"
#include "vkc/device_set.hpp"

namespace vkc {
class Recorder;
}

namespace vkc::nbody {

/// Physics and tuning of a Simulation. Every field has a sensible default.
struct Config {
  /// Gravitational constant G. 1 in N-body units. Must be finite and > 0.
  float gravity = 1.0f;
  /// Plummer softening length eps: r^2 + eps^2 replaces r^2 in both the force and the
  /// potential. Must be finite and at least 1e-6 (the kernel needs eps^2 > 0 in fp32 so that a
  /// body's interaction with itself and with the zero-mass padding is exactly zero, with no
  /// branch). 0.01 by default, the GPU Gems value; collisionless runs often take a few times
  /// the mean interparticle spacing, about N^(-1/3) in N-body units.
  float softening = 0.01f;
  /// Invocations per workgroup of the force kernel. 0: chosen from the device (256 on GPUs,
  /// measured on an H200, clamped to maxComputeWorkGroupInvocations; see
  /// docs/perf-notes.md#n-body-tile; 64 on CPU implementations).
  std::uint32_t workgroup_size = 0;
  /// Bodies each invocation accumulates, so that every body read from shared memory serves
  /// this many interactions. 0: chosen from the device (1 on GPUs, 2 on CPUs). 1, 2, 4 or 8.
  std::uint32_t bodies_per_invocation = 0;
  /// Bodies staged in shared memory per tile, a multiple of workgroup_size and of 8.
  /// 0: 1024 on GPUs, 256 on CPUs, clamped to the shared memory (16 bytes per body).
  std::uint32_t tile = 0;
};

/// A snapshot of the state on the host, in the GPU layout: body i is
/// positions[4i .. 4i+3] = (x, y, z, m) and velocities[4i .. 4i+3] = (vx, vy, vz, 0).
struct State {
  std::vector<float> positions;
  std::vector<float> velocities;
  double time = 0;  ///< simulation time (not stored by save_state: loads start at 0)

  std::size_t size() const { return positions.size() / 4; }
};

/// The initial conditions the library generates, all in N-body units (G = 1, total mass 1),
/// centred on the origin with zero total momentum. The same (n, seed) gives the same bodies.
enum class InitialConditions {
  /// A Plummer sphere in virial equilibrium (Aarseth, Henon & Wielen 1974), equal masses,
  /// scale length 3pi/16 so that the virial radius is 1; radii cut at 22.8 scale lengths
  /// (99.9% of the mass).
  plummer,
  /// Equal masses uniform in the cube [-1, 1]^3, at rest: a cold collapse.
  cube,
  /// Two disk galaxies on a collision course: each a central mass holding a third of the
  /// galaxy's mass and an exponential disk (scale 0.25, from 0.1 to 1.2) on circular orbits; the
  /// galaxies start 4 apart, approach at 0.5 with an impact parameter of 1, one disk tilted
  /// by 60 degrees. Needs n >= 4.
  collision,
};

/// "plummer", "cube", "collision".
std::string_view to_string(InitialConditions ic);
/// Throws vkc::Error for any other name.
InitialConditions parse_initial_conditions(std::string_view name);

/// n bodies of the given kind, reproducible from seed. Throws vkc::Error for n < 2
/// (n < 4 for collision).
State make_initial_conditions(InitialConditions ic, std::size_t n, std::uint64_t seed);

/// Saves positions and velocities as one .npy file of shape (N, 8), dtype <f4, one row per
/// body: x, y, z, m, vx, vy, vz, 0. Written atomically; throws vkc::Error on failure.
void save_state(const std::filesystem::path& path, const State& state);
/// Loads what save_state wrote (time 0). Throws vkc::Error for an unreadable or
/// malformed file, and for one that is not f32 (N, 8) with N >= 2 and finite values and
/// masses >= 0.
State load_state(const std::filesystem::path& path);

/// Conserved quantities of a state, computed in fp64 on the CPU.
struct Diagnostics {
  double mass = 0;
  double kinetic = 0;    ///< sum m v^2 / 2
  double potential = 0;  ///< -G sum_{i<j} m_i m_j / sqrt(r^2 + eps^2): O(N^2), parallel (TBB)
  double energy = 0;     ///< kinetic + potential
  std::array<double, 3> momentum{};          ///< sum m v
  std::array<double, 3> angular_momentum{};  ///< sum m x cross v
  std::array<double, 3> centre_of_mass{};    ///< sum m x / M
};

/// Diagnostics of `state` with the softening and G of `config`. The potential costs N^2/2
/// pair terms in fp64 (roughly 2e8 per second per core): about 0.2 s for N = 32k and 40 s for
/// N = 512k on 16 cores.
Diagnostics diagnose(const State& state, const Config& config);

/// What bodies [first, last) add to diagnose()'s sums: their mass, kinetic energy and momenta,
/// centre_of_mass as the sum of m x (not yet divided by the mass), and the potential's pair
/// terms (i, j) with i in [first, last) and j > i; energy is unset. Parts of row ranges that cover
/// the bodies once add up, summed field by field, to what finish_diagnostics turns into
/// diagnose()'s result, so that several processes can share the O(N^2) work (vkc::mpi::diagnose).
Diagnostics diagnose_rows(const State& state, const Config& config, std::size_t first, std::size_t last);

/// The diagnostics from the sum of diagnose_rows parts: the centre of mass divided by the mass,
/// energy = kinetic + potential.
Diagnostics finish_diagnostics(Diagnostics sum);

/// Where part `part` of `parts` starts, for row ranges [row_split(n, k, parts), row_split(n, k + 1,
/// parts)) that give each part about the same count of the potential's pair terms (early rows
/// hold more: row i has n - 1 - i).
std::size_t row_split(std::size_t n, std::size_t part, std::size_t parts);

/// A simulation whose state is on the GPU of `ctx`, or shared among the devices of a DeviceSet,
/// which must outlive it.
class Simulation {
 public:
  /// Uploads `initial` (at least 2 bodies; finite; masses >= 0) and computes the first
  /// accelerations. Throws vkc::Error for a bad state or config (its message says which), and for
  /// device failures.
  Simulation(Context& ctx, const State& initial, const Config& config = {});
  /// The bodies shared among the devices of `devices`: each device holds every position, and
  /// computes the forces on and moves one contiguous range of the bodies (equal shares, so that
  /// devices of one kind finish together; a device beyond the N-th gets none). After each drift
  /// the devices exchange their ranges' positions through host memory, one submission per device
  /// per step. Every body's pull sums the same terms in the same order as on one device, so
  /// devices of one kind give one device's result bit for bit. A set of one device runs as the
  /// constructor above.
  Simulation(DeviceSet& devices, const State& initial, const Config& config = {});

  /// One process's part of a simulation shared among processes (vkc::mpi::nbody builds on it).
  struct Share {
    std::uint32_t first = 0, count = 0;  ///< the bodies this process moves: [first, first + count)
    /// Called after every drift with every body's position (vec4 per body) in host memory, this
    /// share's current: it must fill in the others' (an all-gather). Called the same number of
    /// times in every process, in step.
    std::function<void(float* positions)> exchange;
  };
  /// The bodies `share` names moved on `ctx`, the rest by the other processes of the exchange.
  /// state() then holds every position and this share's velocities (the others' are 0).
  Simulation(Context& ctx, const State& initial, const Config& config, Share share);
  ~Simulation();
  Simulation(Simulation&&) noexcept;
  Simulation& operator=(Simulation&&) = delete;

  /// Advances `count` leapfrog steps of `dt` in one submission, and waits for them.
  /// Throws vkc::Error when dt is not finite or not positive.
  void step(float dt, std::uint32_t count = 1);

  /// Downloads the state (with the current time).
  State state() const;
  /// Replaces the state (the number of bodies must stay) and recomputes the accelerations.
  void set_state(const State& state);

  std::size_t size() const;
  /// The devices that hold bodies: 1 on a Context, min(devices, N) on a DeviceSet.
  std::size_t devices() const;
  double time() const;
  const Config& config() const;

  // For benchmarks and the renderer: the first device's Context and GPU buffers (vec4 per body;
  // positions of every body, velocities and accelerations of the first device's range, which
  // is every body on one device) and the record API.
  Context& context() const;
  const Buffer& positions() const;
  const Buffer& velocities() const;
  const Buffer& accelerations() const;
  /// Records one force evaluation (N^2 interactions) into `r`: writes the accelerations from
  /// the positions and adds half_dt times them to the velocities (0: velocities untouched).
  /// One device only: throws Error when the bodies are shared among several.
  void record_forces(Recorder& r, float half_dt) const;
  /// Records `count` leapfrog steps; the accelerations must be those of the positions.
  /// One device only, as record_forces.
  void record_steps(Recorder& r, float dt, std::uint32_t count) const;

  /// The tuning the force kernel runs with (on the first device), after defaults were resolved.
  struct Tuning {
    std::uint32_t workgroup_size, bodies_per_invocation, tile;
  };
  Tuning tuning() const;

 private:
  void check_one_device(const char* function) const;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// What a frame shows: an orthographic view along -z of the square
/// [cx - extent, cx + extent] x [cy - extent, cy + extent].
struct View {
  float centre_x = 0, centre_y = 0;
  float extent = 2;
  /// Each body lights the pixels within this radius (in pixels) of its own: a small disc, so
  /// that a few thousand bodies still fill a large frame. -1: chosen from the frame and the
  /// bodies, floor(sqrt(pixels / N) / 4) capped at 8 (2 for 4096 bodies on 512 x 512; 0, one
  /// pixel per body, from N = pixels / 16).
  int body_radius = -1;
  /// The count of bodies on a pixel that shows as full white. A pixel lit by k bodies, 1 <= k
  /// <= white, gets brightness 0.25 + 0.75 log(k) / log(white) (a log scale, so that a dense
  /// core and a sparse halo both show); more saturate. 0: the 99th percentile of the lit
  /// pixels' counts, so that the exposure adapts to each image.
  float white = 0;
};

/// Headless renderer: bodies splatted into a width x height image of counts on the GPU with
/// atomic adds, then tone-mapped by a second shader into RGBA8 (after the host picked the
/// white point from the counts when View::white is 0).
class Renderer {
 public:
  Renderer(Context& ctx, std::uint32_t width, std::uint32_t height);
  ~Renderer();
  Renderer(Renderer&&) noexcept;
  Renderer& operator=(Renderer&&) = delete;

  /// Renders the simulation's current positions; returns width*height*4 bytes, row 0 at top.
  /// The renderer's Context must be the simulation's (its first device's). Throws Error when not.
  std::vector<std::uint8_t> render(const Simulation& sim, const View& view);
  std::uint32_t width() const;
  std::uint32_t height() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// A view that frames most of the bodies: centred on the centre of mass, extent 1.5 times the
/// 90th percentile of the projected distance from it.
View fit_view(const State& state);

/// Writes RGBA8 pixels as a PNG file, atomically. Throws vkc::Error when it cannot.
void write_png(const std::filesystem::path& path, const std::vector<std::uint8_t>& rgba, std::uint32_t width,
               std::uint32_t height);

}  // namespace vkc::nbody
