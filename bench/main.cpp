// vkc-bench: the benchmarks with GPU timestamps, run as `vkc bench sort|nbody ...` (vkc finds this
// program beside itself, tools/vkc/bench.cpp) or directly. A program of its own, so that vkc
// carries no benchmark code. Exit status as vkc's: 0 success, 1 failure (one line on stderr),
// 2 usage error, 128 + N when signal N (SIGINT, SIGTERM) ended it.
#include "bench_commands.hpp"
#include "common.hpp"

int main(int argc, char** argv) {
  CLI::App app{"vkc bench: benchmarks with GPU timestamps", "vkc bench"};
  vkc::cli::Common common;
  vkc::cli::set_up(app, common, "vkc bench");
  vkc::cli::register_bench_nbody(app, common);
  vkc::cli::register_bench_segments(app, common);
  vkc::cli::register_bench_sort(app, common);
  return vkc::cli::run(app, argc, argv);
}
