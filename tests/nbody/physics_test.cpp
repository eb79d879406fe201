// Physics of the simulation over many steps: Kepler's period, energy conservation without
// drift in a Plummer sphere, and the conservation of momentum and angular momentum.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

#include "nbody/reference.hpp"
#include "support/gpu_test.hpp"
#include "vkc/nbody.hpp"

namespace vkc::test {
namespace {

using namespace vkc::nbody;
using std::numbers::pi;

class NbodyPhysics : public GpuTest {};

double separation_angle(const State& s) {
  return std::atan2(s.positions[5] - s.positions[1], s.positions[4] - s.positions[0]);
}

// Sum over bodies of m |v|: the scale of the momentum that fp32 rounding can move.
double momentum_scale(const State& s) {
  double scale = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const float* v = &s.velocities[4 * i];
    scale += s.positions[4 * i + 3] * std::hypot(v[0], v[1], v[2]);
  }
  return scale;
}

// Sum over bodies of m |x| |v|: the scale of the angular momentum that rounding can move.
double angular_momentum_scale(const State& s) {
  double scale = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const float* x = &s.positions[4 * i];
    const float* v = &s.velocities[4 * i];
    scale += x[3] * std::hypot(x[0], x[1], x[2]) * std::hypot(v[0], v[1], v[2]);
  }
  return scale;
}

// Sum over bodies of m |v1 - v0|: the momentum the forces moved between the bodies.
double momentum_exchanged(const State& a, const State& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const float* v = &a.velocities[4 * i];
    const float* w = &b.velocities[4 * i];
    sum += a.positions[4 * i + 3] * std::hypot(w[0] - v[0], w[1] - v[1], w[2] - v[2]);
  }
  return sum;
}

// Root mean square distance of the bodies from where they started.
double rms_displacement(const State& a, const State& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (int c = 0; c < 3; ++c) sum += std::pow(double(a.positions[4 * i + c]) - b.positions[4 * i + c], 2);
  }
  return std::sqrt(sum / double(a.size()));
}

double largest_change(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return std::max({std::abs(a[0] - b[0]), std::abs(a[1] - b[1]), std::abs(a[2] - b[2])});
}

TEST_F(NbodyPhysics, TwoBodyCircularOrbitHasKeplerPeriod) {
  // Two masses of 1/2 at distance 1 on a circular orbit: omega^2 = G M / a^3 = 1, period 2 pi.
  State s;
  s.positions = {-0.5f, 0, 0, 0.5f, 0.5f, 0, 0, 0.5f};
  s.velocities = {0, -0.5f, 0, 0, 0, 0.5f, 0, 0};
  Config c;
  c.softening = 1e-4f;  // shifts the force by 1.5e-8 relative, below what the bounds can see
  Simulation sim(ctx(), s, c);
  const int steps = 1000;
  const float dt = float(2 * pi / steps);
  sim.step(dt, steps / 2);
  const double half = std::abs(separation_angle(sim.state()));
  sim.step(dt, steps / 2);
  const State end = sim.state();
  // After one nominal period the phase error is 2 pi times the period's relative error, which
  // for the leapfrog is O((omega dt)^2): the fp64 leapfrog lags by 8.3e-5 here, fp32 adds about
  // 5e-6. A first-order integrator or a missing half kick errs by 1e-2 and more.
  auto pos = widen(s.positions), vel = widen(s.velocities);
  reference_steps(pos, vel, steps, dt, 1.0, c.softening);
  const double fp64_phase = std::atan2(pos[5] - pos[1], pos[4] - pos[0]);
  EXPECT_NEAR(half, pi, 1.5e-4) << "half a period";
  EXPECT_NEAR(separation_angle(end), 0.0, 2.5e-4) << "one period";
  EXPECT_NEAR(separation_angle(end), fp64_phase, 2e-5) << "the fp64 leapfrog's phase";
  // The leapfrog keeps a circular two-body orbit circular (fp64: to 1e-14); fp32 moves it 2e-6.
  const double r = std::hypot(end.positions[4] - end.positions[0], end.positions[5] - end.positions[1]);
  EXPECT_NEAR(r, 1.0, 1e-5) << "the orbit stays circular";
}

TEST_F(NbodyPhysics, PlummerSphereConservesEnergyWithoutDrift) {
  // 4096 bodies, 1000 steps of 1/128 (2.8 crossing times), as the issue asks: the longest GPU
  // test on lavapipe (half a minute to 2 minutes on 2 shared cores), worth it for the physics.
  const std::size_t n = 4096;
  Config c;
  c.softening = 0.02f;
  const State start = make_initial_conditions(InitialConditions::plummer, n, 1);
  Simulation sim(ctx(), start, c);
  const Diagnostics d0 = diagnose(start, c);
  std::vector<double> errors;
  for (int block = 0; block < 10; ++block) {
    sim.step(1.0f / 128, 100);
    errors.push_back((diagnose(sim.state(), c).energy - d0.energy) / std::abs(d0.energy));
  }
  // The leapfrog's energy error oscillates at O(dt^2) without growing (5e-6 at worst here).
  for (double e : errors) EXPECT_LT(std::abs(e), 2e-5);
  // No drift: the least-squares trend over the run (4e-6 here) is within the oscillation.
  double mt = 0, me = 0, cov = 0, var = 0;
  for (std::size_t k = 0; k < errors.size(); ++k) mt += double(k), me += errors[k];
  mt /= double(errors.size()), me /= double(errors.size());
  for (std::size_t k = 0; k < errors.size(); ++k) cov += (k - mt) * (errors[k] - me), var += (k - mt) * (k - mt);
  EXPECT_LT(std::abs(cov / var * double(errors.size())), 2e-5) << "energy error trend over the run";
  // The bodies did move (by 1.8 virial radii, rms), and the forces, being central and paired,
  // kept the momentum and the angular momentum to rounding (3e-8 of their scales here).
  const State end = sim.state();
  const Diagnostics d1 = diagnose(end, c);
  EXPECT_GT(rms_displacement(end, start), 1.0) << "the bodies moved";
  EXPECT_LT(largest_change(d1.momentum, d0.momentum), 1e-7 * momentum_scale(start));
  EXPECT_LT(largest_change(d1.angular_momentum, d0.angular_momentum), 1e-7 * angular_momentum_scale(start));
}

TEST_F(NbodyPhysics, MomentumAndAngularMomentumAreConservedToRounding) {
  const std::size_t n = 1500;
  Config c;
  c.softening = 0.02f;
  const State s = make_initial_conditions(InitialConditions::collision, n, 3);  // unequal masses
  Simulation sim(ctx(), s, c);
  sim.step(1.0f / 256, 100);
  const State end = sim.state();
  const Diagnostics d0 = diagnose(s, c), d1 = diagnose(end, c);
  // Conservation is worth checking only where the forces moved momentum between the bodies:
  // here as much as all the bodies carry.
  EXPECT_GT(momentum_exchanged(s, end), 0.5 * momentum_scale(s)) << "the forces moved momentum";
  // Measured: 4e-8 and 5e-9 of the scales; Euler's O(dt^2) torque changes L by far more.
  EXPECT_LT(largest_change(d1.momentum, d0.momentum), 1.5e-7 * momentum_scale(s));
  EXPECT_LT(largest_change(d1.angular_momentum, d0.angular_momentum), 2e-8 * angular_momentum_scale(s));
}

TEST_F(NbodyPhysics, RejectsBadStatesAndSteps) {
  EXPECT_THROW(make_initial_conditions(InitialConditions::cube, 1, 0), vkc::Error);
  State one;
  one.positions = {0, 0, 0, 1};
  one.velocities = {0, 0, 0, 0};
  EXPECT_THROW(Simulation(ctx(), one), vkc::Error);
  State nan = make_initial_conditions(InitialConditions::cube, 4, 0);
  nan.positions[5] = std::nanf("");
  EXPECT_THROW(Simulation(ctx(), nan), vkc::Error);
  Simulation sim(ctx(), make_initial_conditions(InitialConditions::cube, 4, 0));
  EXPECT_THROW(sim.step(0.0f), vkc::Error);
  EXPECT_THROW(sim.step(-0.1f), vkc::Error);
  EXPECT_THROW(sim.step(std::nanf("")), vkc::Error);
  EXPECT_THROW(sim.step(INFINITY), vkc::Error);
}

}  // namespace
}  // namespace vkc::test
