// vkc: GPU sorting and N-body simulation on any Vulkan device, from the command line.
//
// Exit status: 0 success, 1 failure (one line on stderr), 2 usage error (a command line that
// does not parse), 128 + N when signal N (SIGINT, SIGTERM) ended it.
#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"vkc: sorting and N-body simulation in Vulkan compute shaders, on any Vulkan device"};
  vkc::cli::Common common;
  vkc::cli::set_up(app, common, "vkc");
  app.set_version_flag("--version", [&common] { return vkc::cli::version_text(common); },
                       "print the version, commit, Vulkan loader and device, and exit");
  vkc::cli::register_info(app, common);
  vkc::cli::register_demo(app, common);
  vkc::cli::register_nbody(app, common);
  vkc::cli::register_sort(app, common);
  vkc::cli::register_bench(app, common);
  return vkc::cli::run(app, argc, argv);
}
