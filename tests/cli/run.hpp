// Running the vkc executable from a test: exit status, stdout and stderr, in a scratch folder.
#pragma once

#include <filesystem>
#include <string>

namespace vkc::test {

struct Outcome {
  int status = -1;  ///< exit status, or -1 when the process did not exit normally
  std::string out;
  std::string err;
};

/// Runs `vkc <args>` through the shell on the test context's device, with `env` prefixed
/// (e.g. "VAR=1 "), capturing both streams into files of `dir`.
Outcome run_vkc(const std::string& args, const std::filesystem::path& dir, const std::string& env = "");

/// A fresh empty folder for one test, removed when the test process exits.
std::filesystem::path scratch_dir();

/// The whole content of a file ("" when it cannot be read).
std::string slurp(const std::filesystem::path& p);

/// Lines of `text` (without the trailing newline).
int line_count(const std::string& text);

}  // namespace vkc::test
