// Running the vkc executable from a test (run.hpp).
#include "cli/run.hpp"

#include <sys/wait.h>

#include <fstream>
#include <random>
#include <sstream>
#include <vector>

#include "support/gpu_test.hpp"

namespace vkc::test {

namespace {
// Every scratch folder of this test process, removed when it exits (CTest runs one test per
// process), whatever the test's outcome.
struct ScratchFolders {
  std::vector<std::filesystem::path> paths;
  ~ScratchFolders() {
    std::error_code ignored;
    for (const auto& p : paths) std::filesystem::remove_all(p, ignored);
  }
};
ScratchFolders scratch_folders;
}  // namespace

std::filesystem::path scratch_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  auto dir = std::filesystem::temp_directory_path() /
             ("vkc-cli-" + std::string(info->name()) + "-" + std::to_string(std::random_device{}()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  scratch_folders.paths.push_back(dir);
  return dir;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Outcome run_vkc(const std::string& args, const std::filesystem::path& dir, const std::string& env) {
  const auto out = dir / "stdout.txt", err = dir / "stderr.txt";
  // The same device as the test's context, named explicitly: no fallback note on stderr.
  const std::string device = "VKC_DEVICE=" + std::to_string(context().info().index) + " ";
  const std::string command = device + env + "'" VKC_EXECUTABLE "' " + args + " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int raw = std::system(command.c_str());
  Outcome o;
  o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  o.out = slurp(out);
  o.err = slurp(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  // vkc runs with the test's VKC_VALIDATION and prints what the layer reported as it exits.
  if (o.err.find("vkc: validation message") != std::string::npos) ADD_FAILURE() << "vkc " << args << ":\n" << o.err;
  return o;
}

int line_count(const std::string& text) {
  int lines = 0;
  for (char c : text) lines += c == '\n';
  return lines + (!text.empty() && text.back() != '\n');
}

}  // namespace vkc::test
