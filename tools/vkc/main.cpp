// vkc: GPU sorting and N-body simulation on any Vulkan device, from the command line.
#include <cstdio>
#include <exception>
#include <string>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"vkc: sorting and N-body simulation in Vulkan compute shaders, on any Vulkan device"};
  app.require_subcommand(1);
  // A command line that does not parse is bad input like any other: one line on stderr.
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return "vkc: " + std::string(e.what()) + " (vkc --help lists the commands and options)\n";
  });
  vkc::cli::Common common;
  app.add_option("--device", common.device, "device index or name substring (default: $VKC_DEVICE, else the best GPU)");
  vkc::cli::register_info(app, common);
  vkc::cli::register_demo(app, common);
  vkc::cli::register_nbody(app, common);
  vkc::cli::register_sort(app, common);
  CLI::App* bench = app.add_subcommand("bench", "benchmarks with GPU timestamps");
  bench->require_subcommand(1);
  vkc::cli::register_bench_nbody(*bench, common);
  vkc::cli::register_bench_sort(*bench, common);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vkc: %s\n", e.what());
    return 1;
  }
  return 0;
}
