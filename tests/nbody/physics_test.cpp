// Physics of the simulation over many steps: Kepler's period, energy conservation without
// drift in a Plummer sphere, momentum conservation, and the initial conditions themselves.
#include <cmath>
#include <numbers>
#include <vector>

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

TEST_F(NbodyPhysics, TwoBodyCircularOrbitHasKeplerPeriod) {
  // Two masses of 1/2 at distance 1 on a circular orbit: omega^2 = G M / a^3 = 1, period 2 pi.
  State s;
  s.positions = {-0.5f, 0, 0, 0.5f, 0.5f, 0, 0, 0.5f};
  s.velocities = {0, -0.5f, 0, 0, 0, 0.5f, 0, 0};
  Config c;
  c.softening = 1e-4f;  // shifts the force by 1.5e-8: far below the 1% asked
  Simulation sim(ctx(), s, c);
  const int steps = 1000;
  const float dt = float(2 * pi / steps);
  sim.step(dt, steps / 2);
  EXPECT_NEAR(std::abs(separation_angle(sim.state())), pi, 0.01 * pi) << "half a period";
  sim.step(dt, steps / 2);
  // After one nominal period the phase error over 2 pi is the period's relative error.
  const State end = sim.state();
  EXPECT_NEAR(separation_angle(end), 0.0, 0.01 * 2 * pi);
  const double r = std::hypot(end.positions[4] - end.positions[0], end.positions[5] - end.positions[1]);
  EXPECT_NEAR(r, 1.0, 0.01) << "the orbit stays circular";
}

TEST_F(NbodyPhysics, PlummerSphereConservesEnergyWithoutDrift) {
  // 4096 bodies, 1000 steps of 1/128 (2.8 crossing times), as the issue asks: the longest GPU
  // test on lavapipe (about 2 minutes per subgroup size on 2 cores), worth it for the physics.
  const std::size_t n = 4096;
  Config c;
  c.softening = 0.02f;
  Simulation sim(ctx(), make_initial_conditions(InitialConditions::plummer, n, 1), c);
  const double e0 = diagnose(sim.state(), c).energy;
  std::vector<double> errors;
  for (int block = 0; block < 10; ++block) {
    sim.step(1.0f / 128, 100);
    errors.push_back((diagnose(sim.state(), c).energy - e0) / std::abs(e0));
  }
  for (double e : errors) EXPECT_LT(std::abs(e), 1e-3);
  // No drift: the least-squares trend over the run is a small part of the allowed error.
  double mt = 0, me = 0, cov = 0, var = 0;
  for (std::size_t k = 0; k < errors.size(); ++k) mt += double(k), me += errors[k];
  mt /= double(errors.size()), me /= double(errors.size());
  for (std::size_t k = 0; k < errors.size(); ++k) cov += (k - mt) * (errors[k] - me), var += (k - mt) * (k - mt);
  EXPECT_LT(std::abs(cov / var * double(errors.size())), 3e-4) << "energy error trend over the run";
}

TEST_F(NbodyPhysics, TotalMomentumIsConservedToRounding) {
  const std::size_t n = 1500;
  Config c;
  c.softening = 0.02f;
  const State s = make_initial_conditions(InitialConditions::collision, n, 3);  // unequal masses
  Simulation sim(ctx(), s, c);
  const int steps = 100;
  const float dt = 1.0f / 256;
  sim.step(dt, steps);
  const Diagnostics d0 = diagnose(s, c), d1 = diagnose(sim.state(), c);
  // Rounding scale: fp32 epsilon times the momentum the forces move, sum m |a| over the run,
  // bounded by the mass times the largest speed change; and the rounding of sum m |v| itself.
  double scale = 0;
  for (std::size_t i = 0; i < n; ++i) scale += s.positions[4 * i + 3] * std::hypot(s.velocities[4 * i], s.velocities[4 * i + 1]);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(d1.momentum[k], d0.momentum[k], 1e-5 * scale) << "component " << k;
  EXPECT_GT(d1.kinetic, 0.5 * d0.kinetic) << "the bodies did move";
}

TEST_F(NbodyPhysics, PlummerSphereIsInVirialEquilibriumInNbodyUnits) {
  Config c;
  c.softening = 1e-3f;
  const Diagnostics d = diagnose(make_initial_conditions(InitialConditions::plummer, 8192, 7), c);
  EXPECT_NEAR(d.mass, 1.0, 1e-5);
  EXPECT_NEAR(d.energy, -0.25, 0.02) << "N-body units: E = -1/4";
  EXPECT_NEAR(2 * d.kinetic / -d.potential, 1.0, 0.05) << "virial ratio";
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(d.momentum[k], 0, 1e-6);
    EXPECT_NEAR(d.centre_of_mass[k], 0, 1e-6);
  }
}

TEST_F(NbodyPhysics, SameSeedSameBodiesOtherSeedOtherBodies) {
  for (auto ic : {InitialConditions::plummer, InitialConditions::cube, InitialConditions::collision}) {
    const State a = make_initial_conditions(ic, 100, 42), b = make_initial_conditions(ic, 100, 42);
    const State other = make_initial_conditions(ic, 100, 43);
    EXPECT_EQ(a.positions, b.positions) << to_string(ic);
    EXPECT_EQ(a.velocities, b.velocities) << to_string(ic);
    EXPECT_NE(a.positions, other.positions) << to_string(ic);
  }
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
