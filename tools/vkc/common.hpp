// What vkc and vkc-bench (bench/main.cpp) share: the options every command takes, how a command
// line runs (interrupts, errors, exit status), the check of an output before any work, progress
// on stderr, the device list of --devices, and the commit the program was built from.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace vkc::cli {

/// Options every subcommand shares, given before or after the subcommand.
struct Common {
  std::string device;  ///< index or name substring; empty: VKC_DEVICE or the best device
  bool force = false;  ///< replace read-only outputs; run plans that would take very long
  bool quiet = false;  ///< no progress on stderr
};

/// Sets up `app` as a program of subcommands with the options of `common` (--device, --force,
/// -q/--quiet); `command` ("vkc", "vkc bench") names it in the usage error's hint.
void set_up(CLI::App& app, Common& common, const std::string& command);

/// Parses the command line and runs the subcommand chosen. Returns the exit status: 0 success,
/// 1 failure (one line on stderr), 2 usage error (a command line that does not parse). SIGINT
/// and SIGTERM remove the temporary file of any output being written and exit 128 + signal.
int run(CLI::App& app, int argc, char** argv);

/// Refuses, before any work, an output that cannot be written (io::check_output); "" is none.
void check_output_path(const std::string& path, const Common& common);

/// Progress on stderr: on a terminal one line redrawn in place (an empty message clears it),
/// otherwise each non-empty message as a line of its own; nothing with --quiet.
void progress(const std::string& message);

/// The devices a command runs on together: `option` (its --devices), else $VKC_DEVICES; empty
/// means one device (--device).
std::string device_list(const std::string& option);

/// Replaces this process with the program `name` from vkc's own folder, given `args`: its exit
/// status, stdout and stderr become the command's. Throws Error "<missing>" (what to build) when
/// the program is not there, and when it cannot start.
[[noreturn]] void exec_beside(const std::string& name, const std::vector<std::string>& args, const std::string& missing);

/// The commit this program was built from (VKC_COMMIT in the environment overrides it).
std::string build_commit();

}  // namespace vkc::cli
