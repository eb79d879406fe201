// vkc::nbody::Simulation: the state buffers, the tuning of the force kernel, and the
// kick-drift-kick leapfrog recorded as two dispatches per step, on one device or shared among
// several that exchange positions through host memory after every drift.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>

#include "core/kernels.hpp"
#include "core/pipeline.hpp"
#include "core/recorder.hpp"
#include "core/worker_pool.hpp"
#include "vkc/device_set.hpp"
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
  std::uint32_t first;
  std::uint32_t rows;
};
struct KickDriftPush {
  std::uint32_t rows;
  float dt;
  float half_dt;
  std::uint32_t first;
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

// One device's share of the bodies: it holds every position, and the velocities and accelerations
// of its rows [first, first + rows).
struct Shard {
  Context& ctx;
  Simulation::Tuning tuning;
  std::uint32_t first, rows;
  Buffer pos, vel, acc;

  Shard(Context& c, const Config& config, std::uint32_t n, std::uint32_t first_row, std::uint32_t row_count)
      : ctx(c), tuning(resolve(config, c.info())), first(first_row), rows(row_count), pos(c.create_buffer(16ull * n)),
        vel(c.create_buffer(16ull * rows)), acc(c.create_buffer(16ull * rows)) {}

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

  void record_forces(Recorder& r, const Config& config, std::uint32_t n, float half_dt) const {
    const float eps = config.softening;
    const ForcesPush push{n, eps * eps, config.gravity, half_dt, first, rows};
    const std::uint64_t per_group = std::uint64_t{tuning.workgroup_size} * tuning.bodies_per_invocation;
    r.dispatch(forces(), {reads(pos), writes(acc), updates(vel)}, push, groups_for(rows, per_group));
  }

  void record_kick_drift(Recorder& r, float dt) const {
    const KickDriftPush push{rows, dt, 0.5f * dt, first};
    r.dispatch(kick_drift(), {reads(acc), updates(vel), updates(pos)}, push,
               groups_for(rows, streaming_workgroup_size(ctx.info())));
  }

  // The positions of the bodies that other devices move, from `all` (vec4 per body).
  void upload_others(const float* all, std::uint32_t n) {
    if (first) ctx.upload(pos, all, 16ull * first);
    const std::uint64_t end = std::uint64_t{first} + rows;
    if (end < n) ctx.upload(pos, all + 4 * end, 16 * (n - end), 16 * end);
  }
  void download_own(float* all) { ctx.download(pos, all + 4ull * first, 16ull * rows, 16ull * first); }
};

// The bodies' rows shared among `devices` contexts in equal contiguous ranges, none empty.
std::vector<Shard> make_shards(const std::vector<Context*>& devices, const Config& config, std::uint32_t n) {
  const std::uint64_t count = std::min<std::uint64_t>(devices.size(), n);
  std::vector<Shard> shards;
  shards.reserve(count);
  for (std::uint64_t d = 0; d < count; ++d) {
    const auto first = static_cast<std::uint32_t>(n * d / count), end = static_cast<std::uint32_t>(n * (d + 1) / count);
    shards.emplace_back(*devices[d], config, n, first, end - first);
  }
  return shards;
}

std::vector<Context*> contexts_of(DeviceSet& set) {
  std::vector<Context*> all;
  for (std::size_t d = 0; d < set.size(); ++d) all.push_back(&set[d]);
  return all;
}

}  // namespace

struct Simulation::Impl {
  Config config;
  std::uint32_t n;
  std::vector<Shard> shards;
  // Several devices: a thread each, and the host copies of every position they exchange, two so
  // that a device may write a step's while another still reads the step before's.
  std::unique_ptr<detail::WorkerPool> threads;
  std::array<std::vector<float>, 2> exchange;
  // Other processes move the bodies outside the shards: they hand over their positions here.
  std::function<void(float*)> between_processes;
  double time = 0;

  Impl(const std::vector<Context*>& devices, const State& s, const Config& cfg)
      : config(cfg), n(static_cast<std::uint32_t>(s.size())), shards(make_shards(devices, cfg, n)) {
    if (shards.size() > 1) {
      threads = std::make_unique<detail::WorkerPool>(static_cast<unsigned>(shards.size()));
      for (auto& e : exchange) e.resize(4ull * n);
    }
  }

  Impl(Context& ctx, const State& s, const Config& cfg, const Simulation::Share& share)
      : config(cfg), n(static_cast<std::uint32_t>(s.size())), between_processes(share.exchange) {
    shards.emplace_back(ctx, cfg, n, share.first, share.count);
    for (auto& e : exchange) e.resize(4ull * n);
  }

  bool alone() const { return shards.size() == 1 && !between_processes; }

  // After a drift: the shards' positions in `all`, then the other processes'.
  void hand_over(float* all) {
    if (between_processes) between_processes(all);
  }

  template <class F>
  void on_shards(F f) {
    if (!threads) return f(shards.front());
    threads->run(static_cast<unsigned>(shards.size()), [&](unsigned d) { f(shards[d]); });
  }

  void upload(const State& s) {
    check_state(s);
    if (s.size() != n) throw Error("nbody: set_state cannot change the number of bodies");
    on_shards([&](Shard& shard) {
      shard.ctx.upload(shard.pos, s.positions.data(), 16ull * n);
      shard.ctx.upload(shard.vel, s.velocities.data() + 4ull * shard.first, 16ull * shard.rows);
      shard.ctx.run([&](Recorder& r) { shard.record_forces(r, config, n, 0.0f); });
    });
    time = s.time;
  }

  // One device: `count` steps in submissions of about 1e11 interactions (well under a second on a
  // large GPU), so that no single submission runs long enough to trip a driver's watchdog.
  void step_alone(float dt, std::uint32_t count) {
    Shard& shard = shards.front();
    const double per_step = double(n) * n;
    const auto chunk = static_cast<std::uint32_t>(std::clamp(1e11 / per_step, 1.0, 4096.0));
    for (std::uint32_t done = 0; done < count;) {
      const std::uint32_t now = std::min(chunk, count - done);
      shard.ctx.run([&](Recorder& r) { record_steps(r, dt, now); });
      done += now;
    }
  }

  // `count` leapfrog steps of the one device, into `r`.
  void record_steps(Recorder& r, float dt, std::uint32_t count) const {
    for (std::uint32_t k = 0; k < count; ++k) {
      shards.front().record_kick_drift(r, dt);
      shards.front().record_forces(r, config, n, 0.5f * dt);
    }
  }

  // Several devices, or processes: each drifts its rows and hands their positions to the others
  // through host memory before any computes forces, one submission per device per step.
  void step_together(float dt, std::uint32_t count) {
    on_shards([&](Shard& shard) {
      shard.ctx.run([&](Recorder& r) { shard.record_kick_drift(r, dt); });
      shard.download_own(exchange[0].data());
    });
    hand_over(exchange[0].data());
    for (std::uint32_t k = 0; k < count; ++k) {
      const bool last = k + 1 == count;
      const float* drifted = exchange[k % 2].data();
      float* next = exchange[(k + 1) % 2].data();
      on_shards([&](Shard& shard) {
        shard.upload_others(drifted, n);
        shard.ctx.run([&](Recorder& r) {
          shard.record_forces(r, config, n, 0.5f * dt);
          if (!last) shard.record_kick_drift(r, dt);
        });
        if (!last) shard.download_own(next);
      });
      if (!last) hand_over(next);
    }
  }
};

Simulation::Simulation(Context& ctx, const State& initial, const Config& config) {
  check_config(config);
  check_state(initial);
  impl_ = std::make_unique<Impl>(std::vector<Context*>{&ctx}, initial, config);
  impl_->upload(initial);
}

Simulation::Simulation(DeviceSet& devices, const State& initial, const Config& config) {
  check_config(config);
  check_state(initial);
  if (devices.size() == 0) throw Error("nbody: the device set is empty");
  impl_ = std::make_unique<Impl>(contexts_of(devices), initial, config);
  impl_->upload(initial);
}

Simulation::Simulation(Context& ctx, const State& initial, const Config& config, Share share) {
  check_config(config);
  check_state(initial);
  if (share.count == 0 || std::uint64_t{share.first} + share.count > initial.size() || !share.exchange) {
    throw Error("nbody: a share needs bodies inside the state and an exchange");
  }
  impl_ = std::make_unique<Impl>(ctx, initial, config, share);
  impl_->upload(initial);
}

Simulation::~Simulation() = default;
Simulation::Simulation(Simulation&&) noexcept = default;

void Simulation::record_forces(Recorder& r, float half_dt) const {
  check_one_device("record_forces");
  impl_->shards.front().record_forces(r, impl_->config, impl_->n, half_dt);
}

void Simulation::record_steps(Recorder& r, float dt, std::uint32_t count) const {
  check_one_device("record_steps");
  impl_->record_steps(r, dt, count);
}

void Simulation::check_one_device(const char* function) const {
  if (!impl_->alone()) {
    throw Error(std::string("nbody: ") + function + " records one device's work; this simulation is shared among " +
                (impl_->between_processes ? "processes" : std::to_string(impl_->shards.size()) + " devices"));
  }
}

void Simulation::step(float dt, std::uint32_t count) {
  if (!std::isfinite(dt) || dt <= 0) throw Error("nbody: the time step must be finite and > 0");
  if (count == 0) return;
  if (impl_->alone()) {
    impl_->step_alone(dt, count);
  } else {
    impl_->step_together(dt, count);
  }
  impl_->time += double(dt) * count;
}

State Simulation::state() const {
  State s;
  const std::uint32_t n = impl_->n;
  s.positions.resize(4ull * n);
  s.velocities.resize(4ull * n);
  // Every device holds every position after a step; each holds its own rows' velocities.
  const Shard& front = impl_->shards.front();
  front.ctx.download(front.pos, s.positions.data(), 16ull * n);
  for (const Shard& shard : impl_->shards) {
    shard.ctx.download(shard.vel, s.velocities.data() + 4ull * shard.first, 16ull * shard.rows);
  }
  s.time = impl_->time;
  return s;
}

void Simulation::set_state(const State& state) { impl_->upload(state); }
std::size_t Simulation::size() const { return impl_->n; }
std::size_t Simulation::devices() const { return impl_->shards.size(); }
double Simulation::time() const { return impl_->time; }
const Config& Simulation::config() const { return impl_->config; }
Context& Simulation::context() const { return impl_->shards.front().ctx; }
const Buffer& Simulation::positions() const { return impl_->shards.front().pos; }
const Buffer& Simulation::velocities() const { return impl_->shards.front().vel; }
const Buffer& Simulation::accelerations() const { return impl_->shards.front().acc; }
Simulation::Tuning Simulation::tuning() const { return impl_->shards.front().tuning; }

}  // namespace vkc::nbody
