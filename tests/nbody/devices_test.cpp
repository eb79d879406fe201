// N-body on a DeviceSet (the test's device opened 1 to 4 times): the bodies shared among the
// devices step as on one device, conserve what one device conserves, and keep the one-device
// contract of state, set_state, frames and the record API.
#include <cmath>
#include <vector>

#include "nbody/reference.hpp"
#include "support/device_set_test.hpp"
#include "vkc/nbody.hpp"

namespace vkc::test {
namespace {

using namespace vkc::nbody;

class NbodyDevices : public DeviceSetTest {
 protected:
  static Config config() {
    Config c;
    c.gravity = 1.5f;
    c.softening = 0.05f;
    c.workgroup_size = 32;  // several workgroups per device's share at these sizes
    return c;
  }
};

TEST_F(NbodyDevices, TenStepsOnSeveralDevicesMatchOneDevice) {
  // 1001 bodies: shares that are not multiples of the workgroup; unequal masses.
  const State start = make_initial_conditions(InitialConditions::collision, 1001, 4);
  const float dt = 0.01f;
  Simulation alone(ctx(), start, config());
  alone.step(dt, 10);
  const State want = alone.state();
  auto pos = widen(start.positions), vel = widen(start.velocities);
  reference_steps(pos, vel, 10, dt, config().gravity, config().softening);
  ASSERT_LT(relative_change_error(want.positions, pos, start.positions), 1e-5) << "one device against fp64";
  for (std::size_t copies : {1u, 2u, 3u}) {
    SCOPED_TRACE(std::to_string(copies) + " devices");
    Simulation shared(devices(copies), start, config());
    EXPECT_EQ(shared.devices(), copies);
    // Two calls, so that the exchange also runs across step() boundaries.
    shared.step(dt, 4);
    shared.step(dt, 6);
    const State got = shared.state();
    EXPECT_DOUBLE_EQ(got.time, want.time);
    EXPECT_LT(relative_error(got.positions, widen(want.positions)), 1e-6) << "positions";
    EXPECT_LT(relative_error(got.velocities, widen(want.velocities)), 1e-6) << "velocities";
    // The same terms in the same order: equal to the last bit on one kind of device.
    EXPECT_EQ(got.positions, want.positions);
    EXPECT_EQ(got.velocities, want.velocities);
  }
}

TEST_F(NbodyDevices, PlummerSphereConservesEnergyOnThreeDevices) {
  const std::size_t n = 1024;
  Config c;
  c.softening = 0.02f;
  const State start = make_initial_conditions(InitialConditions::plummer, n, 6);
  Simulation sim(devices(3), start, c);
  const Diagnostics d0 = diagnose(start, c);
  double worst = 0;
  for (int block = 0; block < 4; ++block) {
    sim.step(1.0f / 128, 25);
    worst = std::max(worst, std::abs(diagnose(sim.state(), c).energy - d0.energy) / std::abs(d0.energy));
  }
  // As on one device (physics_test.cpp): the leapfrog's O(dt^2) oscillation, 2e-5 at most. A
  // device stepping on stale positions of the others breaks it by orders of magnitude.
  EXPECT_LT(worst, 2e-5);
  const Diagnostics d1 = diagnose(sim.state(), c);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(d1.momentum[k], d0.momentum[k], 1e-6);
}

TEST_F(NbodyDevices, FewerBodiesThanDevices) {
  State two;
  two.positions = {-0.5f, 0, 0, 0.5f, 0.5f, 0, 0, 0.5f};
  two.velocities = {0, -0.5f, 0, 0, 0, 0.5f, 0, 0};
  Simulation alone(ctx(), two);
  Simulation shared(devices(4), two);
  EXPECT_EQ(shared.devices(), 2u) << "a device beyond the N-th holds no body";
  alone.step(0.01f, 20);
  shared.step(0.01f, 20);
  EXPECT_EQ(shared.state().positions, alone.state().positions);
  EXPECT_EQ(shared.state().velocities, alone.state().velocities);
}

TEST_F(NbodyDevices, SetStateRestartsEveryDevice) {
  const State a = make_initial_conditions(InitialConditions::cube, 300, 1);
  const State b = make_initial_conditions(InitialConditions::plummer, 300, 2);
  Simulation shared(devices(2), a, config());
  shared.step(0.01f, 3);
  shared.set_state(b);
  shared.step(0.01f, 5);
  Simulation alone(ctx(), b, config());
  alone.step(0.01f, 5);
  EXPECT_EQ(shared.state().positions, alone.state().positions);
  EXPECT_EQ(shared.state().velocities, alone.state().velocities);
}

TEST_F(NbodyDevices, FramesOnTheFirstDeviceAndNoRecordApi) {
  const State s = make_initial_conditions(InitialConditions::plummer, 500, 3);
  DeviceSet& set = devices(2);
  Simulation shared(set, s);
  Simulation alone(ctx(), s);
  shared.step(0.01f, 2);
  alone.step(0.01f, 2);
  EXPECT_EQ(&shared.context(), &set[0]);
  Renderer on_first(set[0], 64, 64), here(ctx(), 64, 64);
  const View view = fit_view(s);
  EXPECT_EQ(on_first.render(shared, view), here.render(alone, view));
  Renderer on_second(set[1], 64, 64);
  EXPECT_THROW(on_second.render(shared, view), Error);
  set[0].run([&](Recorder& r) { EXPECT_THROW(shared.record_forces(r, 0.0f), Error); });
}

}  // namespace
}  // namespace vkc::test
