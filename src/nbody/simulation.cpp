// vkc::nbody::Simulation: the state buffers, the tuning of the force kernel, and the
// kick-drift-kick leapfrog recorded as two dispatches per step.
#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "core/kernels.hpp"
#include "core/pipeline.hpp"
#include "core/recorder.hpp"
#include "vkc/nbody.hpp"

// forces.comp's and kick_drift.comp's specialization-constant ids (macros only).
#include "nbody_layout.h"

namespace vkc::nbody {
namespace {

struct ForcesPush {
  std::uint32_t n;
  float eps2;
  float gravity;
  float half_dt;
};
struct KickDriftPush {
  std::uint32_t n;
  float dt;
  float half_dt;
};

constexpr std::uint32_t kUnroll = 8;  // shaders/nbody/forces.comp: UNROLL

void check_config(const Config& c) {
  if (!std::isfinite(c.gravity) || c.gravity <= 0) throw Error("nbody: G must be finite and > 0");
  if (!std::isfinite(c.softening) || c.softening < 1e-6f) {
    throw Error("nbody: the softening length must be finite and >= 1e-6 (got " +
                std::to_string(c.softening) + ")");
  }
}

void check_state(const State& s) {
  if (s.positions.size() % 4 != 0 || s.positions.size() != s.velocities.size()) {
    throw Error("nbody: positions and velocities must both hold 4 floats per body");
  }
  if (s.size() < 2) throw Error("nbody: a simulation needs at least 2 bodies");
  if (s.size() > (std::uint64_t{1} << 31)) throw Error("nbody: at most 2^31 bodies");
  for (std::size_t i = 0; i < s.positions.size(); ++i) {
    if (!std::isfinite(s.positions[i]) || !std::isfinite(s.velocities[i])) {
      throw Error("nbody: body " + std::to_string(i / 4) + " has a non-finite value");
    }
  }
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s.positions[4 * i + 3] < 0) throw Error("nbody: body " + std::to_string(i) + " has a negative mass");
  }
}

// GPU defaults from a sweep on an H200 at N = 135168 (docs/perf-notes.md#n-body-tile): 256
// invocations, one body each, 1024-body tiles ran at 1.97 T interactions/s, within 1.5% of
// the best shape (4 bodies, 2048-body tiles), which starves at small N (16 workgroups at
// N = 16384). On other devices the same shape, clamped to their limits. lavapipe: smaller
// workgroups (each is one CPU thread's task) with two bodies each.
Simulation::Tuning resolve(const Config& c, const DeviceInfo& info) {
  Simulation::Tuning t{c.workgroup_size, c.bodies_per_invocation, c.tile};
  const std::uint32_t max_wg = std::min(info.max_workgroup_invocations, info.max_workgroup_size[0]);
  if (t.workgroup_size == 0) t.workgroup_size = std::min<std::uint32_t>(info.is_software() ? 64 : 256, max_wg);
  if (t.bodies_per_invocation == 0) t.bodies_per_invocation = info.is_software() ? 2 : 1;
  if (t.tile == 0) t.tile = info.is_software() ? 256 : std::max<std::uint32_t>(t.workgroup_size, 1024);
  // 16 bytes of shared memory per staged body.
  const std::uint32_t max_tile = info.shared_memory_bytes / 16;
  t.tile = std::min(t.tile, max_tile - max_tile % std::lcm(t.workgroup_size, kUnroll));
  const bool ok = t.workgroup_size >= 1 && t.workgroup_size <= max_wg && std::has_single_bit(t.bodies_per_invocation) &&
                  t.bodies_per_invocation <= 8 && t.tile > 0 && t.tile % t.workgroup_size == 0 && t.tile % kUnroll == 0;
  if (!ok) {
    throw Error("nbody: unusable tuning (workgroup " + std::to_string(t.workgroup_size) + ", bodies " +
                std::to_string(t.bodies_per_invocation) + ", tile " + std::to_string(t.tile) + ")");
  }
  return t;
}

}  // namespace

struct Simulation::Impl {
  Context& ctx;
  Config config;
  Tuning tuning;
  std::uint32_t n;
  Buffer pos, vel, acc;
  double time = 0;

  Impl(Context& c, const State& s, const Config& cfg)
      : ctx(c), config(cfg), tuning(resolve(cfg, c.info())), n(static_cast<std::uint32_t>(s.size())),
        pos(c.create_buffer(16ull * n)), vel(c.create_buffer(16ull * n)), acc(c.create_buffer(16ull * n)) {}

  const Pipeline& forces() const {
    std::vector<std::uint32_t> c(NBODY_FORCES_CONSTANTS);
    c[NBODY_SC_WORKGROUP] = tuning.workgroup_size;
    c[NBODY_FORCES_BODIES] = tuning.bodies_per_invocation;
    c[NBODY_FORCES_TILE] = tuning.tile;
    return pipeline(ctx, {.shader = shaders::nbody_forces,
                          .specialization = std::move(c),
                          .bindings = 3,
                          .push_bytes = sizeof(ForcesPush)});
  }
  const Pipeline& kick_drift() const {
    std::vector<std::uint32_t> c(NBODY_STREAMING_CONSTANTS);
    c[NBODY_SC_WORKGROUP] = streaming_workgroup_size(ctx.info());
    return pipeline(ctx, {.shader = shaders::nbody_kick_drift,
                          .specialization = std::move(c),
                          .bindings = 3,
                          .push_bytes = sizeof(KickDriftPush)});
  }

  void record_forces(Recorder& r, float half_dt) const {
    const float eps = config.softening;
    const ForcesPush push{n, eps * eps, config.gravity, half_dt};
    const std::uint64_t per_group = std::uint64_t{tuning.workgroup_size} * tuning.bodies_per_invocation;
    r.dispatch(forces(), {reads(pos), writes(acc), updates(vel)}, push, groups_for(n, per_group));
  }

  void record_kick_drift(Recorder& r, float dt) const {
    const KickDriftPush push{n, dt, 0.5f * dt};
    r.dispatch(kick_drift(), {reads(acc), updates(vel), updates(pos)}, push,
               groups_for(n, streaming_workgroup_size(ctx.info())));
  }

  void upload(const State& s) {
    check_state(s);
    if (s.size() != n) throw Error("nbody: set_state cannot change the number of bodies");
    ctx.upload(pos, s.positions.data(), 16ull * n);
    ctx.upload(vel, s.velocities.data(), 16ull * n);
    ctx.run([&](Recorder& r) { record_forces(r, 0.0f); });
    time = s.time;
  }
};

Simulation::Simulation(Context& ctx, const State& initial, const Config& config) {
  check_config(config);
  check_state(initial);
  impl_ = std::make_unique<Impl>(ctx, initial, config);
  impl_->upload(initial);
}

Simulation::~Simulation() = default;
Simulation::Simulation(Simulation&&) noexcept = default;

void Simulation::record_forces(Recorder& r, float half_dt) const { impl_->record_forces(r, half_dt); }

void Simulation::record_steps(Recorder& r, float dt, std::uint32_t count) const {
  for (std::uint32_t s = 0; s < count; ++s) {
    impl_->record_kick_drift(r, dt);
    impl_->record_forces(r, 0.5f * dt);
  }
}

void Simulation::step(float dt, std::uint32_t count) {
  if (!std::isfinite(dt) || dt <= 0) throw Error("nbody: the time step must be finite and > 0");
  // Submissions of about 1e11 interactions (well under a second on a large GPU), so that no
  // single submission runs long enough to trip a driver's watchdog.
  const double per_step = double(impl_->n) * impl_->n;
  const auto chunk = static_cast<std::uint32_t>(std::clamp(1e11 / per_step, 1.0, 4096.0));
  for (std::uint32_t done = 0; done < count;) {
    const std::uint32_t now = std::min(chunk, count - done);
    impl_->ctx.run([&](Recorder& r) { record_steps(r, dt, now); });
    done += now;
  }
  impl_->time += double(dt) * count;
}

State Simulation::state() const {
  State s;
  s.positions.resize(4ull * impl_->n);
  s.velocities.resize(4ull * impl_->n);
  impl_->ctx.download(impl_->pos, s.positions.data(), 16ull * impl_->n);
  impl_->ctx.download(impl_->vel, s.velocities.data(), 16ull * impl_->n);
  s.time = impl_->time;
  return s;
}

void Simulation::set_state(const State& state) { impl_->upload(state); }
std::size_t Simulation::size() const { return impl_->n; }
double Simulation::time() const { return impl_->time; }
const Config& Simulation::config() const { return impl_->config; }
const Buffer& Simulation::positions() const { return impl_->pos; }
const Buffer& Simulation::velocities() const { return impl_->vel; }
const Buffer& Simulation::accelerations() const { return impl_->acc; }
Simulation::Tuning Simulation::tuning() const { return impl_->tuning; }

}  // namespace vkc::nbody
