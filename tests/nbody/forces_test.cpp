// The force kernel and the leapfrog step against the fp64 references of reference.hpp, for
// every kernel shape (bodies per invocation, workgroup and tile sizes) at sizes that are not
// multiples of the tile, up to past two of the GPUs' default 1024-body tiles.
#include <vector>

#include "nbody/reference.hpp"
#include "support/gpu_test.hpp"
#include "vkc/nbody.hpp"

namespace vkc::test {
namespace {

using nbody::Config;
using nbody::Simulation;
using nbody::State;

struct Shape {
  std::uint32_t workgroup, bodies, tile;
};

class NbodyForces : public GpuTest, public ::testing::WithParamInterface<Shape> {
 protected:
  Config config() const {
    Config c;
    c.gravity = 1.5f;  // not 1, so that a forgotten G shows
    c.softening = 0.05f;
    c.workgroup_size = GetParam().workgroup;
    c.bodies_per_invocation = GetParam().bodies;
    c.tile = GetParam().tile;
    return c;
  }
};

std::vector<float> download(Context& ctx, const Buffer& b, std::size_t n) {
  std::vector<float> v(4 * n);
  ctx.download(b, v.data(), 16 * n);
  return v;
}

TEST_P(NbodyForces, AccelerationsMatchFp64DirectSum) {
  // 1025 and 2100: one body past the GPUs' 1024-body tile, and past two tiles with a partial third.
  for (std::size_t n : {4u, 37u, 1000u, 1025u, 2100u}) {
    const State s = nbody::make_initial_conditions(nbody::InitialConditions::collision, n, 11 + n);
    Simulation sim(ctx(), s, config());
    const auto want = reference_accelerations(widen(s.positions), config().gravity, config().softening);
    const auto got = download(ctx(), sim.accelerations(), n);
    // fp32 sums of n terms: 1e-6 at n = 2100 (lavapipe); a dropped tile or a wrong softening errs by 1e-3 and more.
    EXPECT_LT(relative_error(got, want, 3), 3e-6) << "n=" << n;
  }
}

TEST_P(NbodyForces, OneStepMatchesFp64Leapfrog) {
  const std::size_t n = 1000;  // not a multiple of any tile
  const State s = nbody::make_initial_conditions(nbody::InitialConditions::plummer, n, 5);
  Simulation sim(ctx(), s, config());
  const float dt = 0.01f;
  sim.step(dt);
  auto pos = widen(s.positions), vel = widen(s.velocities);
  reference_step(pos, vel, dt, config().gravity, config().softening);
  const State out = sim.state();
  // Errors relative to the step's own change (5e-6 and 2e-6 on lavapipe), so that Euler's
  // missing a dt^2 / 2 (5e-3 of the displacement) or a missing half kick shows.
  EXPECT_LT(relative_change_error(out.positions, pos, s.positions), 2e-5) << "displacements";
  EXPECT_LT(relative_change_error(out.velocities, vel, s.velocities), 1e-5) << "velocity changes";
  EXPECT_DOUBLE_EQ(sim.time(), double(dt));
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(out.positions[4 * i + 3], s.positions[4 * i + 3]) << "mass changed";
}

TEST_P(NbodyForces, TenStepsFollowFp64Leapfrog) {
  const std::size_t n = 1025;
  const State s = nbody::make_initial_conditions(nbody::InitialConditions::plummer, n, 8);
  Simulation sim(ctx(), s, config());
  const float dt = 0.01f;
  const int steps = 10;
  sim.step(dt, steps);
  auto pos = widen(s.positions), vel = widen(s.velocities);
  reference_steps(pos, vel, steps, dt, config().gravity, config().softening);
  const State out = sim.state();
  EXPECT_LT(relative_change_error(out.positions, pos, s.positions), 1e-5) << "displacements";
  EXPECT_LT(relative_change_error(out.velocities, vel, s.velocities), 5e-6) << "velocity changes";
}

INSTANTIATE_TEST_SUITE_P(Shapes, NbodyForces,
                         ::testing::Values(Shape{0, 0, 0}, Shape{32, 1, 32}, Shape{64, 2, 128}, Shape{16, 4, 48},
                                           Shape{128, 8, 256}, Shape{256, 1, 1024}),
                         [](const auto& info) {
                           const Shape& p = info.param;
                           return "wg" + std::to_string(p.workgroup) + "_b" + std::to_string(p.bodies) + "_t" +
                                  std::to_string(p.tile);
                         });

}  // namespace
}  // namespace vkc::test
