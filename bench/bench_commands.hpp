// The subcommands of vkc-bench (`vkc bench sort`, `vkc bench nbody`). Each file registers its own
// on the app; the callback it installs does the work and throws on failure (one line, exit 1).
#pragma once

#include "common.hpp"

namespace vkc::cli {

void register_bench_sort(CLI::App& bench, Common& common);
void register_bench_nbody(CLI::App& bench, Common& common);
void register_bench_segments(CLI::App& bench, Common& common);

}  // namespace vkc::cli
