// Conserved quantities in fp64 on the CPU; the O(N^2) potential is split over cores by TBB.
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "vkc/nbody.hpp"

namespace vkc::nbody {
namespace {

// -sum_{i<j} m_i m_j / sqrt(r^2 + eps^2) over rows i in [first, last), without G. Rows are
// summed in a fixed tree (parallel_deterministic_reduce with a fixed grain), so the result does
// not depend on the number of threads.
double softened_potential(const State& s, double eps2, std::size_t first, std::size_t last) {
  const float* p = s.positions.data();
  const std::size_t n = s.size();
  auto rows = [&](const tbb::blocked_range<std::size_t>& range, double sum) {
    for (std::size_t i = range.begin(); i < range.end(); ++i) {
      const double xi = p[4 * i], yi = p[4 * i + 1], zi = p[4 * i + 2];
      double row = 0;
      for (std::size_t j = i + 1; j < n; ++j) {
        const double dx = p[4 * j] - xi, dy = p[4 * j + 1] - yi, dz = p[4 * j + 2] - zi;
        row += p[4 * j + 3] / std::sqrt(dx * dx + dy * dy + dz * dz + eps2);
      }
      sum -= p[4 * i + 3] * row;
    }
    return sum;
  };
  return tbb::parallel_deterministic_reduce(tbb::blocked_range<std::size_t>(first, last, 64), 0.0, rows, std::plus<>());
}

std::array<double, 3> cross(const double a[3], const double b[3]) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

}  // namespace

Diagnostics diagnose_rows(const State& s, const Config& config, std::size_t first, std::size_t last) {
  last = std::min(last, s.size());
  first = std::min(first, last);
  Diagnostics d;
  for (std::size_t i = first; i < last; ++i) {
    const double m = s.positions[4 * i + 3];
    const double x[3] = {s.positions[4 * i], s.positions[4 * i + 1], s.positions[4 * i + 2]};
    const double v[3] = {s.velocities[4 * i], s.velocities[4 * i + 1], s.velocities[4 * i + 2]};
    d.mass += m;
    d.kinetic += 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    const auto l = cross(x, v);
    for (int c = 0; c < 3; ++c) {
      d.momentum[c] += m * v[c];
      d.angular_momentum[c] += m * l[c];
      d.centre_of_mass[c] += m * x[c];
    }
  }
  const double eps = config.softening;
  d.potential = double(config.gravity) * softened_potential(s, eps * eps, first, last);
  return d;
}

Diagnostics finish_diagnostics(Diagnostics d) {
  for (double& c : d.centre_of_mass) c = d.mass > 0 ? c / d.mass : 0;
  d.energy = d.kinetic + d.potential;
  return d;
}

Diagnostics diagnose(const State& s, const Config& config) {
  return finish_diagnostics(diagnose_rows(s, config, 0, s.size()));
}

// Rows [0, k) hold k (n - 1) - k (k - 1) / 2 pair terms: the least k whose share reaches part / parts
// of all n (n - 1) / 2.
std::size_t row_split(std::size_t n, std::size_t part, std::size_t parts) {
  if (parts == 0 || part >= parts) return n;
  const long double total = static_cast<long double>(n) * (n - 1) / 2;
  const long double wanted = total * part / parts;
  const auto pairs_before = [&](long double k) { return k * (n - 1) - k * (k - 1) / 2; };
  std::size_t low = 0, high = n;
  while (low < high) {
    const std::size_t mid = low + (high - low) / 2;
    if (pairs_before(mid) < wanted) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
}

}  // namespace vkc::nbody
