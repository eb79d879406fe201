// vkc nbody through files, as a user runs it: a saved state loads back bit for bit, a run
// continued from a saved state equals the uninterrupted run, the bodies shared among --devices
// end where one device leaves them, and --frames writes one decodable PNG per diagnostic, named
// by step, with nothing left of an earlier run's frames.
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run.hpp"
#include "io/npy.hpp"
#include "nbody/image.hpp"
#include "support/gpu_test.hpp"
#include "vkc/nbody.hpp"

namespace vkc::test {
namespace {

namespace fs = std::filesystem;

class NbodyCli : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    dir_ = scratch_dir();
  }
  void TearDown() override {
    fs::remove_all(dir_);
    GpuTest::TearDown();
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // Runs `vkc nbody <args>` on the test context's device (the test environment, validation
  // included, is inherited) and expects it to succeed; run_vkc fails the test on a validation
  // message.
  void nbody(const std::string& args) {
    const Outcome o = run_vkc("nbody " + args + " --quiet", dir_);
    ASSERT_EQ(o.status, 0) << "vkc nbody " << args << ":\n" << o.err;
  }

  std::set<std::string> files() const {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_ / "frames")) names.insert(entry.path().filename().string());
    return names;
  }

  fs::path dir_;
};

// The float32 rows of an (N, 8) state file, with its shape checked.
std::vector<float> state_rows(const std::string& path, std::size_t n) {
  const io::Array a = io::read_npy(path);
  EXPECT_EQ(a.dtype, io::DType::f32);
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{n, 8}));
  std::vector<float> rows(a.bytes.size() / sizeof(float));
  std::memcpy(rows.data(), a.bytes.data(), a.bytes.size());
  return rows;
}

TEST_F(NbodyCli, SavedStateIsWhatTheSimulationComputed) {
  ASSERT_NO_FATAL_FAILURE(nbody("--bodies 300 --seed 4 --steps 10 --every 0 --save '" + path("a.npy") + "'"));
  // The same steps in this process, on the same device with the CLI's physics (eps 0.05, G 1).
  nbody::Config config;
  config.softening = 0.05f;
  nbody::Simulation sim(ctx(), nbody::make_initial_conditions(nbody::InitialConditions::plummer, 300, 4), config);
  sim.step(1.0f / 128, 10);
  const nbody::State want = sim.state();
  const nbody::State got = nbody::load_state(path("a.npy"));
  EXPECT_EQ(got.positions, want.positions);
  EXPECT_EQ(got.velocities, want.velocities);
}

TEST_F(NbodyCli, DevicesShareTheBodiesWithOneDevicesResult) {
  const std::string device = std::to_string(ctx().info().index);
  ASSERT_NO_FATAL_FAILURE(nbody("--bodies 301 --seed 2 --steps 12 --every 6 --save '" + path("one.npy") + "'"));
  ASSERT_NO_FATAL_FAILURE(nbody("--devices " + device + "," + device + "," + device +
                                " --bodies 301 --seed 2 --steps 12 --every 6 --frames '" + path("frames") +
                                "' --save '" + path("three.npy") + "'"));
  EXPECT_EQ(state_rows(path("three.npy"), 301), state_rows(path("one.npy"), 301));
  EXPECT_EQ(files().count("frame_00012.png"), 1u) << "frames rendered on the first device";
}

TEST_F(NbodyCli, LoadingAndSavingAgainKeepsTheStateBitForBit) {
  ASSERT_NO_FATAL_FAILURE(nbody("--bodies 300 --steps 5 --every 0 --save '" + path("a.npy") + "'"));
  ASSERT_NO_FATAL_FAILURE(nbody("--load '" + path("a.npy") + "' --steps 0 --every 0 --save '" + path("b.npy") + "'"));
  const auto a = state_rows(path("a.npy"), 300), b = state_rows(path("b.npy"), 300);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0);
}

TEST_F(NbodyCli, RunContinuedFromASavedStateEqualsTheUninterruptedRun) {
  const std::string common = "--bodies 300 --ic collision --seed 2 --every 0 ";
  ASSERT_NO_FATAL_FAILURE(nbody(common + "--steps 20 --save '" + path("whole.npy") + "'"));
  ASSERT_NO_FATAL_FAILURE(nbody(common + "--steps 12 --save '" + path("first.npy") + "'"));
  ASSERT_NO_FATAL_FAILURE(nbody("--load '" + path("first.npy") + "' --steps 8 --every 0 --save '" + path("rest.npy") + "'"));
  const auto whole = state_rows(path("whole.npy"), 300), first = state_rows(path("first.npy"), 300),
             rest = state_rows(path("rest.npy"), 300);
  ASSERT_EQ(whole.size(), rest.size());
  EXPECT_NE(first, whole) << "the last 8 steps changed the state";
  EXPECT_EQ(std::memcmp(whole.data(), rest.data(), whole.size() * sizeof(float)), 0);
}

TEST_F(NbodyCli, FramesAreDecodablePngsNamedByStep) {
  ASSERT_NO_FATAL_FAILURE(nbody("--bodies 200 --steps 6 --every 3 --frame-size 48 --frames '" + path("frames") + "'"));
  EXPECT_EQ(files(), (std::set<std::string>{"frame_00000.png", "frame_00003.png", "frame_00006.png"}));
  for (const auto& name : files()) {
    const Image im = decode(dir_ / "frames" / name);
    ASSERT_TRUE(im.pixels) << name << ": " << stbi_failure_reason();
    EXPECT_EQ(im.width, 48) << name;
    EXPECT_EQ(im.height, 48) << name;
    EXPECT_GT(im.lit_fraction(), 0.0) << name;
  }
}

TEST_F(NbodyCli, ShorterRunRemovesTheEarlierRunsFramesOnly) {
  const std::string frames = " --frame-size 16 --frames '" + path("frames") + "'";
  ASSERT_NO_FATAL_FAILURE(nbody("--bodies 16 --steps 9 --every 3" + frames));
  ASSERT_EQ(files().size(), 4u);
  std::ofstream(dir_ / "frames" / "notes.txt") << "mine";
  std::ofstream(dir_ / "frames" / "frame_title.png") << "mine";
  ASSERT_NO_FATAL_FAILURE(nbody("--bodies 16 --steps 3 --every 3" + frames));
  EXPECT_EQ(files(), (std::set<std::string>{"frame_00000.png", "frame_00003.png", "frame_title.png", "notes.txt"}));
}

// The picture the issue found almost black: the CLI's defaults (4096 bodies, 512 x 512).
TEST_F(NbodyCli, DefaultFrameOfAPlummerSphereIsClearlyVisible) {
  ASSERT_NO_FATAL_FAILURE(nbody("--steps 0 --frames '" + path("frames") + "'"));
  const Image im = decode(dir_ / "frames" / "frame_00000.png");
  ASSERT_TRUE(im.pixels) << stbi_failure_reason();
  EXPECT_GE(im.lit_fraction(), 0.05);
  EXPECT_GT(im.brightest(), 200);
}

}  // namespace
}  // namespace vkc::test
