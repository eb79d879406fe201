// vkc: GPU sorting and N-body simulation on any Vulkan device, from the command line.
//
// Exit status: 0 success, 1 failure (one line on stderr), 2 usage error (a command line that
// does not parse), 128 + N when signal N (SIGINT, SIGTERM) ended it.
#include <csignal>
#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>

#include <unistd.h>

#include "commands.hpp"
#include "harness.hpp"
#include "io/atomic_file.hpp"

namespace {

constexpr int kFailure = 1;
constexpr int kUsageError = 2;

// Removes the temporary file of any output being written, then exits 128 + signal, as a shell
// reports a command that a signal ended. Only async-signal-safe calls.
extern "C" void on_interrupt(int signal) {
  vkc::io::remove_temporary_files();
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

int main(int argc, char** argv) {
  install_interrupt_handlers();
  CLI::App app{"vkc: sorting and N-body simulation in Vulkan compute shaders, on any Vulkan device"};
  app.require_subcommand(1);
  // Options of the app are accepted after the subcommand too (vkc sort ... --device 1).
  app.fallthrough();
  app.option_defaults()->always_capture_default();
  app.footer("Exit status: 0 success, 1 failure, 2 usage error, 130/143 interrupted (SIGINT/SIGTERM).");
  // A command line that does not parse is bad input like any other: one line on stderr.
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return "vkc: " + std::string(e.what()) + " (vkc --help lists the commands and options)\n";
  });
  vkc::cli::Common common;
  app.add_option("--device", common.device, "device index or name substring (default: $VKC_DEVICE, else the best GPU)");
  app.add_flag("--force", common.force, "replace read-only outputs, and run plans that would take very long");
  app.add_flag("-q,--quiet", common.quiet, "no progress messages on stderr");
  app.set_version_flag("--version", [&common] { return vkc::cli::version_text(common); },
                       "print the version, commit, Vulkan loader and device, and exit");
  vkc::cli::register_info(app, common);
  vkc::cli::register_demo(app, common);
  vkc::cli::register_nbody(app, common);
  vkc::cli::register_sort(app, common);
  CLI::App* bench = app.add_subcommand("bench", "benchmarks with GPU timestamps");
  bench->require_subcommand(1);
  vkc::cli::register_bench_nbody(*bench, common);
  vkc::cli::register_bench_sort(*bench, common);
  app.parse_complete_callback([&common] { vkc::bench::set_quiet(common.quiet); });
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
