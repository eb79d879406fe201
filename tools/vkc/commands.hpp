// The subcommands of the vkc tool. Each file registers its own subcommand on the app; the
// callback it installs does the work and throws on failure (main prints one line, exits 1).
#pragma once

#include <CLI/CLI.hpp>

namespace vkc::cli {

/// Options every subcommand shares, given before or after the subcommand.
struct Common {
  std::string device;  ///< index or name substring; empty: VKC_DEVICE or the best device
  bool force = false;  ///< replace read-only outputs; run plans that would take very long
  bool quiet = false;  ///< no progress on stderr
};

/// What `vkc --version` prints: version, commit, the Vulkan loader's version and the device.
std::string version_text(const Common& common);

/// Refuses, before any work, an output that cannot be written (io::check_output); "" is none.
void check_output_path(const std::string& path, const Common& common);

void register_info(CLI::App& app, Common& common);
void register_demo(CLI::App& app, Common& common);
void register_sort(CLI::App& app, Common& common);
void register_bench_sort(CLI::App& bench, Common& common);
void register_nbody(CLI::App& app, Common& common);
void register_bench_nbody(CLI::App& bench, Common& common);

}  // namespace vkc::cli
