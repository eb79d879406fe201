// The subcommands of the vkc tool. Each file registers its own subcommand on the app; the
// callback it installs does the work and throws on failure (main prints one line, exits 1).
#pragma once

#include "common.hpp"

namespace vkc::cli {

/// What `vkc --version` prints: version, commit, the Vulkan loader's version and the device.
std::string version_text(const Common& common);

void register_info(CLI::App& app, Common& common);
void register_demo(CLI::App& app, Common& common);
void register_sort(CLI::App& app, Common& common);
void register_nbody(CLI::App& app, Common& common);
/// `vkc bench ...`: runs vkc-bench, the benchmarks' own program, beside vkc (bench.cpp).
void register_bench(CLI::App& app, Common& common);

}  // namespace vkc::cli
