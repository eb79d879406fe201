// The n-body simulation shared among MPI ranks (vkc/mpi.hpp): after 10 steps every rank's gathered
// state equals one process's simulation of the same bodies, and the energy holds as on one device.
#include <mpi.h>

#include <cmath>
#include <string>

#include "nbody/reference.hpp"
#include "support/gpu_test.hpp"
#include "vkc/mpi.hpp"

namespace vkc::test {
namespace {

using namespace vkc::nbody;

class MpiNbody : public GpuTest {};

TEST_F(MpiNbody, TenStepsAsOneProcess) {
  const State start = make_initial_conditions(InitialConditions::collision, 1003, 5);
  Config c;
  c.softening = 0.05f;
  c.workgroup_size = 32;
  Simulation alone(ctx(), start, c);
  alone.step(0.01f, 10);
  const State want = alone.state();
  Simulation shared = mpi::simulation(MPI_COMM_WORLD, ctx(), start, c);
  shared.step(0.01f, 3);
  shared.step(0.01f, 7);
  const State got = mpi::gather_state(MPI_COMM_WORLD, shared);
  EXPECT_LT(relative_error(got.positions, widen(want.positions)), 1e-6);
  EXPECT_LT(relative_error(got.velocities, widen(want.velocities)), 1e-6);
  EXPECT_EQ(got.positions, want.positions) << "the same sums in the same order";
  EXPECT_EQ(got.velocities, want.velocities);
  EXPECT_NE(got.positions, start.positions) << "the bodies moved";
}

TEST_F(MpiNbody, EnergyHoldsAcrossRanks) {
  Config c;
  c.softening = 0.02f;
  const State start = make_initial_conditions(InitialConditions::plummer, 800, 2);
  Simulation sim = mpi::simulation(MPI_COMM_WORLD, ctx(), start, c);
  sim.step(1.0f / 128, 50);
  const double e0 = diagnose(start, c).energy, e1 = diagnose(mpi::gather_state(MPI_COMM_WORLD, sim), c).energy;
  EXPECT_LT(std::abs(e1 - e0) / std::abs(e0), 2e-5);
}

// The diagnostics with the potential's rows shared among the ranks equal one process's to
// rounding, on every rank.
TEST_F(MpiNbody, DiagnosticsSharedAmongRanksEqualOneProcess) {
  Config c;
  c.softening = 0.03f;
  const State s = make_initial_conditions(InitialConditions::plummer, 1500, 4);
  const Diagnostics want = diagnose(s, c), got = mpi::diagnose(MPI_COMM_WORLD, s, c);
  EXPECT_NEAR(got.energy, want.energy, 1e-12 * std::abs(want.energy));
  EXPECT_NEAR(got.potential, want.potential, 1e-12 * std::abs(want.potential));
  EXPECT_NEAR(got.mass, want.mass, 1e-12 * want.mass);
  EXPECT_NEAR(got.kinetic, want.kinetic, 1e-12 * want.kinetic);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(got.angular_momentum[k], want.angular_momentum[k], 1e-12);
}

TEST_F(MpiNbody, FewerBodiesThanRanksFailOnEveryRank) {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks < 3) GTEST_SKIP() << "needs 3 ranks or more";
  State two;
  two.positions = {-0.5f, 0, 0, 0.5f, 0.5f, 0, 0, 0.5f};
  two.velocities = {0, -0.5f, 0, 0, 0, 0.5f, 0, 0};
  EXPECT_THROW(mpi::simulation(MPI_COMM_WORLD, ctx(), two), Error);
}

}  // namespace
}  // namespace vkc::test
