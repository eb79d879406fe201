// Saving and loading a simulation state as one (N, 8) f32 .npy file.
#include <cmath>
#include <cstring>
#include <string>

#include "io/npy.hpp"
#include "vkc/nbody.hpp"

namespace vkc::nbody {

void save_state(const std::filesystem::path& path, const State& state) {
  const std::size_t n = state.size();
  std::vector<float> rows(8 * n);
  for (std::size_t i = 0; i < n; ++i) {
    std::memcpy(&rows[8 * i], &state.positions[4 * i], 16);
    std::memcpy(&rows[8 * i + 4], &state.velocities[4 * i], 16);
    rows[8 * i + 7] = 0;
  }
  io::write_npy(path, io::DType::f32, std::as_bytes(std::span(rows)), {n, 8});
}

State load_state(const std::filesystem::path& path) {
  const io::Array a = io::read_npy(path);
  auto fail = [&](const std::string& why) { throw io::FormatError(path.string() + ": " + why); };
  if (a.dtype != io::DType::f32 || a.shape.size() != 2 || a.shape[1] != 8) {
    fail("not an nbody state: expected float32 of shape (N, 8)");
  }
  const std::size_t n = a.shape[0];
  if (n < 2) fail("a state needs at least 2 bodies (got " + std::to_string(n) + ")");
  std::vector<float> rows(8 * n);
  std::memcpy(rows.data(), a.bytes.data(), rows.size() * sizeof(float));
  State s;
  s.positions.resize(4 * n);
  s.velocities.resize(4 * n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < 8; ++c) {
      if (!std::isfinite(rows[8 * i + c])) fail("body " + std::to_string(i) + " has a non-finite value");
    }
    if (rows[8 * i + 3] < 0) fail("body " + std::to_string(i) + " has a negative mass");
    std::memcpy(&s.positions[4 * i], &rows[8 * i], 16);
    std::memcpy(&s.velocities[4 * i], &rows[8 * i + 4], 12);
    s.velocities[4 * i + 3] = 0;
  }
  return s;
}

}  // namespace vkc::nbody
