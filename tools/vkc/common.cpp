#include "common.hpp"

#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <new>
#include <stdexcept>

#include "io/atomic_file.hpp"
#include "vkc_commit.hpp"

namespace vkc::cli {
namespace {

constexpr int kFailure = 1;
constexpr int kUsageError = 2;

bool quiet_progress = false;

// Removes the temporary file of any output being written, then exits 128 + signal, as a shell
// reports a command that a signal ended. Only async-signal-safe calls.
extern "C" void on_interrupt(int signal) {
  io::remove_temporary_files();
  ::_exit(128 + signal);
}

void install_interrupt_handlers() {
  // A file-size limit (ulimit -f) then fails a write with EFBIG, an error like any other,
  // instead of killing the process with its temporary file left behind.
  ::signal(SIGXFSZ, SIG_IGN);
  for (int signal : {SIGINT, SIGTERM}) {
    struct sigaction previous {};
    ::sigaction(signal, nullptr, &previous);
    if (previous.sa_handler == SIG_IGN) continue;  // started with it ignored (nohup, `&`): keep it so
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    ::sigemptyset(&action.sa_mask);
    ::sigaction(signal, &action, nullptr);
  }
}

}  // namespace

void set_up(CLI::App& app, Common& common, const std::string& command) {
  app.require_subcommand(1);
  // Options of the app are accepted after the subcommand too (vkc sort ... --device 1).
  app.fallthrough();
  app.option_defaults()->always_capture_default();
  app.footer("Exit status: 0 success, 1 failure, 2 usage error, 130/143 interrupted (SIGINT/SIGTERM).");
  // A command line that does not parse is bad input like any other: one line on stderr.
  app.failure_message([command](const CLI::App*, const CLI::Error& e) {
    return "vkc: " + std::string(e.what()) + " (" + command + " --help lists the commands and options)\n";
  });
  app.add_option("--device", common.device, "device index or name substring (default: $VKC_DEVICE, else the best GPU)");
  app.add_flag("--force", common.force, "replace read-only outputs, and run plans that would take very long");
  app.add_flag("-q,--quiet", common.quiet, "no progress messages on stderr");
  app.parse_complete_callback([&common] { quiet_progress = common.quiet; });
}

int run(CLI::App& app, int argc, char** argv) {
  install_interrupt_handlers();
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kUsageError;
  } catch (const std::bad_alloc&) {
    // The checks up front should leave nothing to reach these two; the library's own words
    // ("std::bad_alloc", "vector::_M_default_append") would mean nothing to a user.
    std::fprintf(stderr, "vkc: out of host memory\n");
    return kFailure;
  } catch (const std::length_error&) {
    std::fprintf(stderr, "vkc: a size too large for this machine's memory\n");
    return kFailure;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vkc: %s\n", e.what());
    return kFailure;
  }
  return 0;
}

void check_output_path(const std::string& path, const Common& common) {
  if (!path.empty()) io::check_output(path, common.force);
}

void progress(const std::string& message) {
  if (quiet_progress) return;
  if (isatty(STDERR_FILENO)) {
    std::fprintf(stderr, "\r\033[K%s", message.c_str());
    if (message.empty()) std::fputs("\r", stderr);
  } else if (!message.empty()) {
    std::fprintf(stderr, "%s\n", message.c_str());
  }
  std::fflush(stderr);
}

void exec_beside(const std::string& name, const std::vector<std::string>& args, const std::string& missing) {
  const auto path = std::filesystem::read_symlink("/proc/self/exe").parent_path() / name;
  if (!std::filesystem::exists(path)) throw std::runtime_error(missing + ": no " + path.string());
  std::vector<char*> argv{const_cast<char*>(path.c_str())};
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::fflush(nullptr);
  ::execv(path.c_str(), argv.data());
  throw std::runtime_error(path.string() + ": " + std::strerror(errno));
}

std::string device_list(const std::string& option) {
  if (!option.empty()) return option;
  const char* env = std::getenv("VKC_DEVICES");
  return env ? env : "";
}

std::string build_commit() {
  const char* commit = std::getenv("VKC_COMMIT");
  return commit && *commit ? commit : VKC_GIT_COMMIT;
}

}  // namespace vkc::cli
