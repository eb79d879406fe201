// Frames: PNGs decode back to images of the right size, lit where the bodies are, with a
// logarithmic tone curve whose white point adapts to the image, so that a Plummer sphere and a
// galaxy collision both show clearly.
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "nbody/image.hpp"
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

  // Renders `s` as the CLI does (a view fitted to the bodies) and reads the PNG back.
  Image frame_of(const State& s, std::uint32_t size) {
    Simulation sim(ctx(), s);
    Renderer renderer(ctx(), size, size);
    const auto path = dir_ / "frame.png";
    write_png(path, renderer.render(sim, fit_view(s)), size, size);
    return decode(path);
  }

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

TEST_F(NbodyFrames, PngShowsBodiesWhereTheyAre) {
  // View [-2, 2]^2 on 64 x 48 pixels: 12 pixels per unit, the centre at pixel (32, 24).
  const State s = bodies_at({{0.0f, 0.0f}, {1.0f, 0.0f}, {-1.0f, 1.0f}, {0.0f, 1.5f}});
  Simulation sim(ctx(), s);
  Renderer renderer(ctx(), 64, 48);
  const View view{.centre_x = 0, .centre_y = 0, .extent = 2, .body_radius = 0};
  const auto path = dir_ / "frame.png";
  write_png(path, renderer.render(sim, view), 64, 48);
  const Image im = decode(path);
  ASSERT_TRUE(im.pixels) << stbi_failure_reason();
  ASSERT_EQ(im.width, 64);
  ASSERT_EQ(im.height, 48);
  const int lit[][2] = {{32, 24}, {44, 24}, {20, 12}, {32, 6}};  // +y is up: row 24 - 12 y
  int lit_pixels = 0;
  for (int y = 0; y < 48; ++y)
    for (int x = 0; x < 64; ++x) lit_pixels += im.brightness(x, y) > 0;
  for (const auto& p : lit) EXPECT_EQ(im.brightness(p[0], p[1]), 255) << "no body at " << p[0] << "," << p[1];
  EXPECT_EQ(lit_pixels, 4) << "only the four bodies' pixels are lit";
  EXPECT_EQ(im.pixels.get()[3], 255) << "opaque";
}

TEST_F(NbodyFrames, BodyRadiusLightsADiscAroundEachBody) {
  // Radius 2 lights the pixels at squared distance up to r (r + 1) = 6: 21 of the 5 x 5 square.
  Simulation sim(ctx(), bodies_at({{0.0f, 0.0f}, {-1.5f, 0.0f}}));
  Renderer renderer(ctx(), 16, 16);
  const auto rgba = renderer.render(sim, {.extent = 2, .body_radius = 2});  // 4 pixels per unit
  auto lit = [&](int x, int y) { return x >= 0 && y >= 0 && x < 16 && y < 16 && rgba[4 * (y * 16 + x) + 2] > 0; };
  int count = 0;
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) count += lit(x, y);
  EXPECT_EQ(count, 2 * 21);
  for (auto [cx, cy] : {std::pair{8, 8}, std::pair{2, 8}}) {
    for (int dy = -3; dy <= 3; ++dy)
      for (int dx = -3; dx <= 3; ++dx) EXPECT_EQ(lit(cx + dx, cy + dy), dx * dx + dy * dy <= 6) << dx << "," << dy;
  }
}

TEST_F(NbodyFrames, ToneCurveIsLogarithmicUpToWhite) {
  // Pixels hit by 1, 2, 4 and 8 bodies with white 4: brightness 0.25 + 0.75 log(k) / log(4),
  // saturating: 0.25, 0.625, 1, 1, which the blue channel carries unscaled: 64, 159, 255, 255.
  const int hits[] = {1, 2, 4, 8};
  std::vector<std::pair<float, float>> xy;
  for (int px = 0; px < 4; ++px)
    for (int k = 0; k < hits[px]; ++k) xy.push_back({float(px) - 1.5f, 0.0f});
  Simulation sim(ctx(), bodies_at(xy));
  Renderer renderer(ctx(), 4, 1);
  // Extent 0.5 on a frame 1 pixel high: 1 pixel per unit, pixel px covers x in [px - 2, px - 1).
  const auto rgba = renderer.render(sim, {.extent = 0.5f, .body_radius = 0, .white = 4});
  const int blue[] = {64, 159, 255, 255};
  for (int px = 0; px < 4; ++px) EXPECT_NEAR(rgba[4 * px + 2], blue[px], 1) << hits[px] << " bodies";
}

TEST_F(NbodyFrames, MoreBodiesInAPixelShineBrighter) {
  Simulation sim(ctx(), bodies_at({{0.5f, 0.5f}, {0.5f, 0.5f}, {0.5f, 0.5f}, {-0.5f, -0.5f}}));
  Renderer renderer(ctx(), 8, 8);
  const auto rgba = renderer.render(sim, {.extent = 1, .body_radius = 0});
  auto at = [&](int x, int y) { return rgba[4 * (y * 8 + x)]; };
  EXPECT_GT(at(6, 2), at(2, 6));
  EXPECT_GT(at(2, 6), 0);
}

TEST_F(NbodyFrames, PlummerSphereFrameIsClearlyVisible) {
  const Image im = frame_of(make_initial_conditions(InitialConditions::plummer, 4096, 1), 512);
  ASSERT_TRUE(im.pixels) << stbi_failure_reason();
  EXPECT_GE(im.lit_fraction(), 0.05);
  EXPECT_GT(im.brightest(), 200);
}

TEST_F(NbodyFrames, GalaxyCollisionFrameIsClearlyVisible) {
  const Image im = frame_of(make_initial_conditions(InitialConditions::collision, 4096, 1), 512);
  ASSERT_TRUE(im.pixels) << stbi_failure_reason();
  EXPECT_GE(im.lit_fraction(), 0.05);
  EXPECT_GT(im.brightest(), 200);
}

TEST_F(NbodyFrames, ExposureAdaptsToTheNumberOfBodies) {
  for (std::size_t n : {256u, 8192u}) {
    const Image im = frame_of(make_initial_conditions(InitialConditions::plummer, n, 3), 256);
    ASSERT_TRUE(im.pixels) << stbi_failure_reason();
    EXPECT_GE(im.lit_fraction(), 0.05) << n << " bodies";
    EXPECT_GT(im.brightest(), 200) << n << " bodies";
  }
}

}  // namespace
}  // namespace vkc::test
