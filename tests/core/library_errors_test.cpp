// Every failure the library reports is a vkc::Error (context.hpp's promise), bad arguments to
// the n-body simulation included: one catch clause serves a program.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "support/gpu_test.hpp"
#include "vkc/nbody.hpp"

namespace {

using vkc::nbody::Config;
using vkc::nbody::InitialConditions;
using vkc::nbody::Simulation;

class LibraryErrors : public vkc::test::GpuTest {
 protected:
  vkc::nbody::State four_bodies() { return vkc::nbody::make_initial_conditions(InitialConditions::cube, 4, 0); }
};

TEST_F(LibraryErrors, NbodyRefusesANonPositiveGravityWithAVkcError) {
  Config config;
  config.gravity = 0.0f;
  EXPECT_THROW(Simulation(ctx(), four_bodies(), config), vkc::Error);
}

TEST_F(LibraryErrors, NbodyRefusesASofteningBelowItsFloorWithAVkcError) {
  Config config;
  config.softening = std::numeric_limits<float>::quiet_NaN();
  EXPECT_THROW(Simulation(ctx(), four_bodies(), config), vkc::Error);
}

TEST_F(LibraryErrors, NbodyRefusesAnUnusableTuningWithAVkcError) {
  Config config;
  config.bodies_per_invocation = 3;  // not 1, 2, 4 or 8
  EXPECT_THROW(Simulation(ctx(), four_bodies(), config), vkc::Error);
}

TEST(LibraryErrorsOnTheHost, UnknownInitialConditionsAreAVkcError) {
  EXPECT_THROW(vkc::nbody::parse_initial_conditions("spiral"), vkc::Error);
}

}  // namespace
