// The subcommands of the vkc tool. Each file registers its own subcommand on the app; the
// callback it installs does the work and throws on failure (main prints one line, exits 1).
#pragma once

#include <CLI/CLI.hpp>

namespace vkc::cli {

/// Options every subcommand shares: --device.
struct Common {
  std::string device;  ///< index or name substring; empty: VKC_DEVICE or the best device
};

void register_info(CLI::App& app, Common& common);
void register_demo(CLI::App& app, Common& common);
void register_sort(CLI::App& app, Common& common);
void register_bench_sort(CLI::App& bench, Common& common);
void register_nbody(CLI::App& app, Common& common);
void register_bench_nbody(CLI::App& bench, Common& common);

}  // namespace vkc::cli
