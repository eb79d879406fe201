// Independent fp64 references for the N-body tests: direct-sum accelerations and
// kick-drift-kick steps, written from the equations in include/vkc/nbody.hpp.
#pragma once

#include <cmath>
#include <vector>

#include "vkc/nbody.hpp"

namespace vkc::test {

/// a_i = G sum_j m_j (x_j - x_i) / (r^2 + eps^2)^(3/2), 3 doubles per body.
inline std::vector<double> reference_accelerations(const std::vector<double>& pos, double gravity, double eps) {
  const std::size_t n = pos.size() / 4;
  std::vector<double> acc(3 * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      const double d[3] = {pos[4 * j] - pos[4 * i], pos[4 * j + 1] - pos[4 * i + 1], pos[4 * j + 2] - pos[4 * i + 2]};
      const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps * eps;
      const double s = gravity * pos[4 * j + 3] / (r2 * std::sqrt(r2));
      for (int c = 0; c < 3; ++c) acc[3 * i + c] += s * d[c];
    }
  }
  return acc;
}

inline std::vector<double> widen(const std::vector<float>& v) { return {v.begin(), v.end()}; }

/// One leapfrog step in fp64, in place: v += a dt/2; x += v dt; v += a(x) dt/2.
inline void reference_step(std::vector<double>& pos, std::vector<double>& vel, double dt, double gravity, double eps) {
  const std::size_t n = pos.size() / 4;
  auto kick = [&] {
    const auto a = reference_accelerations(pos, gravity, eps);
    for (std::size_t i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) vel[4 * i + c] += 0.5 * dt * a[3 * i + c];
  };
  kick();
  for (std::size_t i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) pos[4 * i + c] += dt * vel[4 * i + c];
  kick();
}

/// `steps` leapfrog steps of reference_step.
inline void reference_steps(std::vector<double>& pos, std::vector<double>& vel, int steps, double dt, double gravity,
                            double eps) {
  for (int s = 0; s < steps; ++s) reference_step(pos, vel, dt, gravity, eps);
}

/// ||(a - start) - (b - start)|| / ||b - start|| over the xyz components of vec4 rows: the error
/// of what a step changed rather than of the whole state, so that a bound on it pins the step
/// itself (a step that does nothing has error 1, however small the change).
inline double relative_change_error(const std::vector<float>& a, const std::vector<double>& b,
                                    const std::vector<float>& start) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size() / 4; ++i) {
    for (int c = 0; c < 3; ++c) {
      const double want = b[4 * i + c] - start[4 * i + c];
      const double d = (double(a[4 * i + c]) - start[4 * i + c]) - want;
      num += d * d;
      den += want * want;
    }
  }
  return std::sqrt(num / den);
}

/// ||a - b|| / ||b|| over the xyz components of vec4 rows (a: floats from the GPU).
inline double relative_error(const std::vector<float>& a, const std::vector<double>& b, std::size_t stride_b = 4) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size() / 4; ++i) {
    for (int c = 0; c < 3; ++c) {
      const double d = a[4 * i + c] - b[stride_b * i + c];
      num += d * d;
      den += b[stride_b * i + c] * b[stride_b * i + c];
    }
  }
  return std::sqrt(num / den);
}

}  // namespace vkc::test
