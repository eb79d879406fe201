// Initial conditions in N-body units: a Plummer sphere, a uniform cube, two colliding disks.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>

#include "vkc/nbody.hpp"

namespace vkc::nbody {
namespace {

using std::numbers::pi;

// Uniform in [0, 1) from the top 53 bits: the same numbers from the same seed everywhere
// (std::uniform_real_distribution's algorithm is left to the library).
struct Uniform {
  std::mt19937_64 engine;
  explicit Uniform(std::uint64_t seed) : engine(seed) {}
  double operator()() { return double(engine() >> 11) * 0x1.0p-53; }
  double in(double lo, double hi) { return lo + (hi - lo) * (*this)(); }
};

struct Vec3 {
  double x = 0, y = 0, z = 0;
};

Vec3 scaled(Vec3 v, double s) { return {v.x * s, v.y * s, v.z * s}; }

// A point uniform on the unit sphere.
Vec3 direction(Uniform& u) {
  const double z = u.in(-1, 1);
  const double phi = u.in(0, 2 * pi);
  const double rho = std::sqrt(1 - z * z);
  return {rho * std::cos(phi), rho * std::sin(phi), z};
}

void set_body(State& s, std::size_t i, Vec3 x, Vec3 v, double m) {
  float* p = &s.positions[4 * i];
  float* w = &s.velocities[4 * i];
  p[0] = float(x.x), p[1] = float(x.y), p[2] = float(x.z), p[3] = float(m);
  w[0] = float(v.x), w[1] = float(v.y), w[2] = float(v.z), w[3] = 0;
}

State empty(std::size_t n) {
  State s;
  s.positions.assign(4 * n, 0.0f);
  s.velocities.assign(4 * n, 0.0f);
  return s;
}

// Moves the state into its centre-of-mass frame (position and velocity).
void centre(State& s) {
  double m = 0, x[3] = {}, v[3] = {};
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double mi = s.positions[4 * i + 3];
    m += mi;
    for (int d = 0; d < 3; ++d) x[d] += mi * s.positions[4 * i + d], v[d] += mi * s.velocities[4 * i + d];
  }
  for (std::size_t i = 0; i < s.size(); ++i) {
    for (int d = 0; d < 3; ++d) {
      s.positions[4 * i + d] = float(s.positions[4 * i + d] - x[d] / m);
      s.velocities[4 * i + d] = float(s.velocities[4 * i + d] - v[d] / m);
    }
  }
}

// Aarseth, Henon & Wielen (1974): radius from the inverted cumulative mass, speed by rejection
// from the isotropic distribution function, in units where the scale length is 1, then scaled
// to the virial radius 1 (scale length 3pi/16).
State plummer(std::size_t n, Uniform& u) {
  State s = empty(n);
  const double length = 3 * pi / 16, speed = 1 / std::sqrt(length);
  for (std::size_t i = 0; i < n; ++i) {
    const double mass_fraction = u.in(1e-10, 0.999);  // cut at 99.9% of the mass
    const double r = 1 / std::sqrt(std::pow(mass_fraction, -2.0 / 3.0) - 1);
    double q, g;
    do {
      q = u();
      g = u.in(0, 0.1);
    } while (g > q * q * std::pow(1 - q * q, 3.5));
    const double v = q * std::sqrt(2.0) * std::pow(1 + r * r, -0.25);
    set_body(s, i, scaled(direction(u), r * length), scaled(direction(u), v * speed), 1.0 / n);
  }
  return s;
}

State cube(std::size_t n, Uniform& u) {
  State s = empty(n);
  for (std::size_t i = 0; i < n; ++i) set_body(s, i, {u.in(-1, 1), u.in(-1, 1), u.in(-1, 1)}, {}, 1.0 / n);
  return s;
}

struct Galaxy {
  Vec3 centre, velocity;
  double tilt;  // radians, about the x axis
};

// One disk galaxy of `count` bodies and mass `mass` into bodies [first, first + count): a
// central mass of a third and an exponential disk on circular orbits around the mass inside.
void add_disk(State& s, std::size_t first, std::size_t count, double mass, const Galaxy& g, Uniform& u) {
  const double scale = 0.25, cut = 1.2, thickness = 0.02;
  const double centre_mass = mass / 3, star = (mass - centre_mass) / double(count - 1);
  std::vector<double> radii(count - 1);
  for (double& r : radii) {
    do r = -scale * std::log((1 - u()) * (1 - u()));  // surface density ~ exp(-R/scale)
    while (r > cut || r < 0.1);  // inner orbits resolved by dt ~ 1/128
  }
  std::sort(radii.begin(), radii.end());  // so the mass inside radii[k] is k stars
  const double c = std::cos(g.tilt), sn = std::sin(g.tilt);
  auto place = [&](Vec3 p) { return Vec3{p.x, p.y * c - p.z * sn, p.y * sn + p.z * c}; };
  set_body(s, first, g.centre, g.velocity, centre_mass);
  for (std::size_t k = 0; k < radii.size(); ++k) {
    const double r = radii[k], phi = u.in(0, 2 * pi);
    const double v = std::sqrt((centre_mass + star * double(k)) / r);
    const Vec3 x = place({r * std::cos(phi), r * std::sin(phi), u.in(-thickness, thickness)});
    const Vec3 w = place({-v * std::sin(phi), v * std::cos(phi), 0});
    set_body(s, first + 1 + k, {g.centre.x + x.x, g.centre.y + x.y, g.centre.z + x.z},
             {g.velocity.x + w.x, g.velocity.y + w.y, g.velocity.z + w.z}, star);
  }
}

State collision(std::size_t n, Uniform& u) {
  State s = empty(n);
  const std::size_t half = n / 2;
  add_disk(s, 0, half, 0.5, {{-2, -0.5, 0}, {0.25, 0, 0}, 0}, u);
  add_disk(s, half, n - half, 0.5, {{2, 0.5, 0}, {-0.25, 0, 0}, pi / 3}, u);
  return s;
}

}  // namespace

std::string_view to_string(InitialConditions ic) {
  switch (ic) {
    case InitialConditions::plummer: return "plummer";
    case InitialConditions::cube: return "cube";
    case InitialConditions::collision: return "collision";
  }
  return "?";
}

InitialConditions parse_initial_conditions(std::string_view name) {
  for (auto ic : {InitialConditions::plummer, InitialConditions::cube, InitialConditions::collision}) {
    if (name == to_string(ic)) return ic;
  }
  throw Error("unknown initial conditions '" + std::string(name) + "' (plummer, cube, collision)");
}

State make_initial_conditions(InitialConditions ic, std::size_t n, std::uint64_t seed) {
  const std::size_t least = ic == InitialConditions::collision ? 4 : 2;
  if (n < least) {
    throw Error(std::string(to_string(ic)) + " initial conditions need at least " +
                std::to_string(least) + " bodies (got " + std::to_string(n) + ")");
  }
  Uniform u(seed);
  State s = ic == InitialConditions::plummer ? plummer(n, u) : ic == InitialConditions::cube ? cube(n, u) : collision(n, u);
  centre(s);
  return s;
}

}  // namespace vkc::nbody
