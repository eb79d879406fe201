// Frames and state files: PNGs decode back to images of the right size, lit where the bodies
// are; states survive a .npy round trip and malformed files are refused.
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "io/npy.hpp"
#include "support/gpu_test.hpp"
#include "vkc/nbody.hpp"

namespace vkc::test {
namespace {

using namespace vkc::nbody;

// A fresh directory per test, removed afterwards.
class NbodyFrames : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() / ("vkc_nbody_" + std::string(info->name()) + "_" +
                                                     std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    GpuTest::TearDown();
  }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

// Bodies at the given (x, y) with unit mass, at rest.
State bodies_at(const std::vector<std::pair<float, float>>& xy) {
  State s;
  for (auto [x, y] : xy) {
    s.positions.insert(s.positions.end(), {x, y, 0.0f, 1.0f});
    s.velocities.insert(s.velocities.end(), {0.0f, 0.0f, 0.0f, 0.0f});
  }
  return s;
}

struct Image {
  int width = 0, height = 0;
  std::unique_ptr<unsigned char, void (*)(void*)> pixels{nullptr, stbi_image_free};
  int brightness(int x, int y) const {
    const unsigned char* p = pixels.get() + 4 * (y * width + x);
    return p[0] + p[1] + p[2];
  }
};

Image decode(const std::filesystem::path& path) {
  Image im;
  int channels = 0;
  im.pixels.reset(stbi_load(path.c_str(), &im.width, &im.height, &channels, 4));
  return im;
}

TEST_F(NbodyFrames, PngShowsBodiesWhereTheyAre) {
  // View [-2, 2]^2 on 64 x 48 pixels: 12 pixels per unit, the centre at pixel (32, 24).
  const State s = bodies_at({{0.0f, 0.0f}, {1.0f, 0.0f}, {-1.0f, 1.0f}, {0.0f, 1.5f}});
  Simulation sim(ctx(), s);
  Renderer renderer(ctx(), 64, 48);
  const View view{.centre_x = 0, .centre_y = 0, .extent = 2, .exposure = 0.5f};
  const auto rgba = renderer.render(sim, view);
  const auto path = dir() / "frame.png";
  write_png(path, rgba, 64, 48);
  const Image im = decode(path);
  ASSERT_TRUE(im.pixels) << stbi_failure_reason();
  ASSERT_EQ(im.width, 64);
  ASSERT_EQ(im.height, 48);
  const int lit[][2] = {{32, 24}, {44, 24}, {20, 12}, {32, 6}};  // +y is up: row 24 - 12 y
  int lit_pixels = 0;
  for (int y = 0; y < 48; ++y)
    for (int x = 0; x < 64; ++x) lit_pixels += im.brightness(x, y) > 0;
  for (const auto& p : lit) EXPECT_GT(im.brightness(p[0], p[1]), 100) << "no body at " << p[0] << "," << p[1];
  EXPECT_EQ(lit_pixels, 4) << "only the four bodies' pixels are lit";
  EXPECT_EQ(im.pixels.get()[3], 255) << "opaque";
}

TEST_F(NbodyFrames, MoreBodiesInAPixelShineBrighter) {
  Simulation sim(ctx(), bodies_at({{0.5f, 0.5f}, {0.5f, 0.5f}, {0.5f, 0.5f}, {-0.5f, -0.5f}}));
  Renderer renderer(ctx(), 8, 8);
  const auto rgba = renderer.render(sim, {.extent = 1, .exposure = 0.3f});
  auto at = [&](int x, int y) { return rgba[4 * (y * 8 + x)]; };
  EXPECT_GT(at(6, 2), at(2, 6));
  EXPECT_GT(at(2, 6), 0);
}

TEST_F(NbodyFrames, FitViewFramesMostBodies) {
  const State s = make_initial_conditions(InitialConditions::plummer, 2000, 2);
  const View v = fit_view(s);
  int inside = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    inside += std::abs(s.positions[4 * i] - v.centre_x) < v.extent && std::abs(s.positions[4 * i + 1] - v.centre_y) < v.extent;
  }
  EXPECT_GT(inside, 1800);
}

TEST_F(NbodyFrames, StateSurvivesNpyRoundTrip) {
  const State s = make_initial_conditions(InitialConditions::collision, 333, 9);
  save_state(dir() / "state.npy", s);
  const io::Array raw = io::read_npy(dir() / "state.npy");
  EXPECT_EQ(raw.shape, (std::vector<std::size_t>{333, 8}));
  const State back = load_state(dir() / "state.npy");
  EXPECT_EQ(back.positions, s.positions);
  EXPECT_EQ(back.velocities, s.velocities);
}

TEST_F(NbodyFrames, MalformedStateFilesAreRefused) {
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

TEST_F(NbodyFrames, UnwritablePngPathThrows) {
  const std::vector<std::uint8_t> rgba(4 * 4, 255);
  EXPECT_THROW(write_png("/nonexistent-dir/frame.png", rgba, 2, 2), io::FormatError);
}

}  // namespace
}  // namespace vkc::test
