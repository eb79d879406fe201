// State files and views on the host: states survive a .npy round trip bit for bit, malformed
// files are refused, PNG failures throw, and the fitted view frames most bodies.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "io/npy.hpp"
#include "vkc/nbody.hpp"

namespace vkc::test {
namespace {

using namespace vkc::nbody;

// A fresh directory per test, removed afterwards.
class NbodyStateFile : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() / ("vkc_nbody_" + std::string(info->name()) + "_" +
                                                     std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

TEST_F(NbodyStateFile, StateSurvivesNpyRoundTrip) {
  const State s = make_initial_conditions(InitialConditions::collision, 333, 9);
  save_state(dir() / "state.npy", s);
  const io::Array raw = io::read_npy(dir() / "state.npy");
  EXPECT_EQ(raw.shape, (std::vector<std::size_t>{333, 8}));
  const State back = load_state(dir() / "state.npy");
  EXPECT_EQ(back.positions, s.positions);
  EXPECT_EQ(back.velocities, s.velocities);
}

TEST_F(NbodyStateFile, MalformedStateFilesAreRefused) {
  const std::vector<float> rows(4 * 10, 1.0f);
  io::write_npy(dir() / "n4.npy", io::DType::f32, std::as_bytes(std::span(rows)), {10, 4});
  EXPECT_THROW(load_state(dir() / "n4.npy"), io::FormatError);
  const std::vector<double> wide(8 * 5, 1.0);
  io::write_npy(dir() / "f64.npy", io::DType::f64, std::as_bytes(std::span(wide)), {5, 8});
  EXPECT_THROW(load_state(dir() / "f64.npy"), io::FormatError);
  std::vector<float> one(8, 1.0f);
  io::write_npy(dir() / "one.npy", io::DType::f32, std::as_bytes(std::span(one)), {1, 8});
  EXPECT_THROW(load_state(dir() / "one.npy"), io::FormatError);
  std::vector<float> nan(16, 1.0f);
  nan[9] = std::nanf("");
  io::write_npy(dir() / "nan.npy", io::DType::f32, std::as_bytes(std::span(nan)), {2, 8});
  EXPECT_THROW(load_state(dir() / "nan.npy"), io::FormatError);
  EXPECT_THROW(load_state(dir() / "missing.npy"), io::FormatError);
}

TEST_F(NbodyStateFile, UnwritablePngPathThrows) {
  const std::vector<std::uint8_t> rgba(4 * 4, 255);
  EXPECT_THROW(write_png("/nonexistent-dir/frame.png", rgba, 2, 2), io::FormatError);
}

TEST(NbodyView, FitViewFramesMostBodies) {
  const State s = make_initial_conditions(InitialConditions::plummer, 2000, 2);
  const View v = fit_view(s);
  int inside = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    inside += std::abs(s.positions[4 * i] - v.centre_x) < v.extent && std::abs(s.positions[4 * i + 1] - v.centre_y) < v.extent;
  }
  EXPECT_GT(inside, 1800);
}

}  // namespace
}  // namespace vkc::test
