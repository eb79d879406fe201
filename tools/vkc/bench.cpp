// vkc bench: the benchmarks are a program of their own, vkc-bench (bench/), built with
// -DVKC_BUILD_BENCH=ON beside vkc, so that vkc carries no benchmark code. `vkc bench ARGS` becomes
// vkc-bench with ARGS: its exit status, stdout and stderr are the command's own.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "commands.hpp"
#include "vkc/context.hpp"

namespace vkc::cli {
namespace {

// The arguments for vkc-bench: the options vkc took before `bench` (vkc --device 1 bench sort),
// then the rest of the command line as it was given.
std::vector<std::string> bench_arguments(const Common& common, const std::vector<std::string>& rest) {
  std::vector<std::string> args;
  if (!common.device.empty()) args.insert(args.end(), {"--device", common.device});
  if (common.force) args.push_back("--force");
  if (common.quiet) args.push_back("--quiet");
  args.insert(args.end(), rest.begin(), rest.end());
  return args;
}

[[noreturn]] void run_bench(const std::vector<std::string>& args) {
  const auto path = std::filesystem::read_symlink("/proc/self/exe").parent_path() / "vkc-bench";
  if (!std::filesystem::exists(path)) {
    throw Error("the benchmarks are not built: no " + path.string() + " (configure with -DVKC_BUILD_BENCH=ON)");
  }
  std::vector<char*> argv{const_cast<char*>(path.c_str())};
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::fflush(nullptr);
  ::execv(path.c_str(), argv.data());
  throw Error(path.string() + ": " + std::strerror(errno));
}

}  // namespace

void register_bench(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("bench", "benchmarks with GPU timestamps: sort, nbody (vkc bench --help)");
  // Everything after `bench`, --help included, is vkc-bench's to parse.
  cmd->prefix_command();
  cmd->fallthrough(false);
  cmd->set_help_flag();
  cmd->callback([cmd, &common] { run_bench(bench_arguments(common, cmd->remaining())); });
}

}  // namespace vkc::cli
