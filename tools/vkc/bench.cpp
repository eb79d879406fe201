// vkc bench: the benchmarks are a program of their own, vkc-bench (bench/), built with
// -DVKC_BUILD_BENCH=ON beside vkc, so that vkc carries no benchmark code. `vkc bench ARGS` becomes
// vkc-bench with ARGS: its exit status, stdout and stderr are the command's own.
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


}  // namespace

void register_bench(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("bench", "benchmarks with GPU timestamps: sort, nbody (vkc bench --help)");
  // Everything after `bench`, --help included, is vkc-bench's to parse.
  cmd->prefix_command();
  cmd->fallthrough(false);
  cmd->set_help_flag();
  cmd->callback([cmd, &common] {
    exec_beside("vkc-bench", bench_arguments(common, cmd->remaining()),
                "the benchmarks are not built (configure with -DVKC_BUILD_BENCH=ON)");
  });
}

}  // namespace vkc::cli
