// diagnose() on a case worked out by hand, and on many bodies against a plain fp64 double loop
// (which checks the parallel split of the potential's sum).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "vkc/nbody.hpp"

namespace vkc::test {
namespace {

using namespace vkc::nbody;

TEST(NbodyDiagnostics, RegularTetrahedronWorkedOutByHand) {
  // Masses 1, 2, 3, 4 on the corners (0,0,0), (6,6,0), (6,0,6), (0,6,6) of a regular
  // tetrahedron: every pair is at r^2 = 72, and with eps = 3 every softened distance is
  // sqrt(72 + 9) = 9 (eps, not eps^2 = 9, must enter: sqrt(72 + 81) is not 9).
  // Velocities (1,0,0), (0,0,1), (0,1,0), (-1,0,0), each of speed 1.
  //   mass       M = 10
  //   kinetic    K = (1 + 2 + 3 + 4) / 2 = 5
  //   potential  W = -G sum_{i<j} m_i m_j / 9 = -2 (2 + 3 + 4 + 6 + 8 + 12) / 9 = -70/9 (G = 2)
  //   energy     E = 5 - 70/9 = -25/9
  //   momentum   P = (1 - 4, 3, 2) = (-3, 3, 2)
  //   L = sum m x cross v: body 1 at the origin adds 0; body 2: 2 (6,6,0) x (0,0,1) = 2 (6,-6,0);
  //       body 3: 3 (6,0,6) x (0,1,0) = 3 (-6,0,6); body 4: 4 (0,6,6) x (-1,0,0) = 4 (0,-6,6);
  //       L = (12 - 18, -12 - 24, 18 + 24) = (-6, -36, 42)
  //   centre of mass (2*6 + 3*6, 2*6 + 4*6, 3*6 + 4*6) / 10 = (3, 3.6, 4.2)
  State s;
  s.positions = {0, 0, 0, 1, 6, 6, 0, 2, 6, 0, 6, 3, 0, 6, 6, 4};
  s.velocities = {1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, -1, 0, 0, 0};
  Config c;
  c.gravity = 2;
  c.softening = 3;
  const Diagnostics d = diagnose(s, c);
  EXPECT_DOUBLE_EQ(d.mass, 10);
  EXPECT_DOUBLE_EQ(d.kinetic, 5);
  EXPECT_NEAR(d.potential, -70.0 / 9, 1e-14);
  EXPECT_NEAR(d.energy, -25.0 / 9, 1e-14);
  EXPECT_EQ(d.momentum, (std::array<double, 3>{-3, 3, 2}));
  EXPECT_EQ(d.angular_momentum, (std::array<double, 3>{-6, -36, 42}));
  EXPECT_DOUBLE_EQ(d.centre_of_mass[0], 3);
  EXPECT_DOUBLE_EQ(d.centre_of_mass[1], 3.6);
  EXPECT_DOUBLE_EQ(d.centre_of_mass[2], 4.2);
}

TEST(NbodyDiagnostics, PotentialOfManyBodiesMatchesAPlainDoubleLoop) {
  // 1000 bodies: the parallel sum runs over blocks of 64 rows, the last one partial.
  const State s = make_initial_conditions(InitialConditions::collision, 1000, 5);
  Config c;
  c.gravity = 1.5f;
  c.softening = 0.05f;
  double want = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      double r2 = double(c.softening) * c.softening;
      for (int k = 0; k < 3; ++k) r2 += std::pow(double(s.positions[4 * i + k]) - s.positions[4 * j + k], 2);
      want -= double(c.gravity) * s.positions[4 * i + 3] * s.positions[4 * j + 3] / std::sqrt(r2);
    }
  }
  EXPECT_NEAR(diagnose(s, c).potential, want, 1e-12 * std::abs(want));
}

}  // namespace
}  // namespace vkc::test

namespace vkc::test {
namespace {

using namespace vkc::nbody;

// The sum of two diagnose_rows parts, field by field, as vkc::mpi::diagnose adds them.
Diagnostics added(Diagnostics a, const Diagnostics& b) {
  a.mass += b.mass;
  a.kinetic += b.kinetic;
  a.potential += b.potential;
  for (int c = 0; c < 3; ++c) {
    a.momentum[c] += b.momentum[c];
    a.angular_momentum[c] += b.angular_momentum[c];
    a.centre_of_mass[c] += b.centre_of_mass[c];
  }
  return a;
}

// Row ranges from row_split cover the bodies once with about equal pair counts, and their parts
// add up to diagnose()'s result (to rounding: other order of the same terms).
TEST(NbodyDiagnostics, RowPartsAddUpToTheWhole) {
  const State s = make_initial_conditions(InitialConditions::plummer, 1001, 3);
  Config c;
  c.gravity = 0.5f;
  c.softening = 0.02f;
  const Diagnostics whole = diagnose(s, c);
  const std::size_t n = s.size();
  for (std::size_t parts : {1, 2, 3, 7}) {
    Diagnostics sum{};
    for (std::size_t k = 0; k < parts; ++k) {
      const std::size_t first = row_split(n, k, parts), last = row_split(n, k + 1, parts);
      ASSERT_LE(first, last);
      const double f = double(first), l = double(last);
      const double pairs = (l - f) * (double(n) - 1) - (l * (l - 1) - f * (f - 1)) / 2;
      EXPECT_NEAR(pairs, double(n) * (n - 1) / 2 / parts, double(n)) << k << " of " << parts;
      sum = added(sum, diagnose_rows(s, c, first, last));
    }
    EXPECT_EQ(row_split(n, 0, parts), 0u);
    EXPECT_EQ(row_split(n, parts, parts), n);
    const Diagnostics got = finish_diagnostics(sum);
    EXPECT_NEAR(got.potential, whole.potential, 1e-12 * std::abs(whole.potential)) << parts;
    EXPECT_NEAR(got.energy, whole.energy, 1e-12 * std::abs(whole.energy)) << parts;
    EXPECT_NEAR(got.mass, whole.mass, 1e-12 * whole.mass);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(got.momentum[k], whole.momentum[k], 1e-12) << parts;
      EXPECT_NEAR(got.angular_momentum[k], whole.angular_momentum[k], 1e-12) << parts;
      EXPECT_NEAR(got.centre_of_mass[k], whole.centre_of_mass[k], 1e-12) << parts;
    }
  }
}

}  // namespace
}  // namespace vkc::test
