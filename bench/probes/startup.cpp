// Where a short sort's time goes inside one process: creating the Context (instance, device, and
// the pipeline cache file read), the first sort of n random u32 keys (pipeline creation and the
// first dispatch), the same sort again (pipelines built), and destroying the Context (which
// writes the cache file when it changed). Checks both sorts against std::sort. Prints CSV
// (phase,ms,pipelines). Run it twice on one cache directory for a cold and a warm file;
// bench/cli_startup.sh times the whole `vkc sort` process.
//   probe-startup [n=1000] [algorithm=auto|radix|bitonic] [cache_dir|off (default: the user's)]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/state.hpp"
#include "vkc/sort.hpp"

using namespace vkc;

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Sorts a copy of `keys` and throws unless it matches `expected`.
void sort_checked(Context& ctx, std::vector<std::uint32_t> keys, const std::vector<std::uint32_t>& expected,
                  SortAlgorithm algorithm) {
  sort(ctx, std::span(keys), {.algorithm = algorithm});
  if (keys != expected) throw Error("probe-startup: the sort's output differs from std::sort's");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000;
    const std::string algo = argc > 2 ? argv[2] : "auto";
    const SortAlgorithm algorithm = algo == "radix"     ? SortAlgorithm::radix
                                    : algo == "bitonic" ? SortAlgorithm::bitonic
                                                        : SortAlgorithm::automatic;
    std::vector<std::uint32_t> keys(n);
    std::mt19937_64 rng(1);
    for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
    std::vector<std::uint32_t> expected = keys;
    std::sort(expected.begin(), expected.end());

    auto start = std::chrono::steady_clock::now();
    auto ctx = std::make_unique<Context>(ContextOptions{.quiet = true, .pipeline_cache_dir = argc > 3 ? argv[3] : ""});
    const double create = ms_since(start);
    const std::size_t loaded = ctx->state().cache_file.loaded_bytes();
    start = std::chrono::steady_clock::now();
    sort_checked(*ctx, keys, expected, algorithm);
    const double first = ms_since(start);
    const std::size_t pipelines = ctx->state().pipelines.size();
    start = std::chrono::steady_clock::now();
    sort_checked(*ctx, keys, expected, algorithm);
    const double second = ms_since(start);
    const std::string device = ctx->info().name;
    start = std::chrono::steady_clock::now();
    ctx.reset();
    const double destroy = ms_since(start);

    std::printf("phase,ms,pipelines,cache_bytes_loaded,device\n");
    std::printf("create_context,%.2f,,%zu,\"%s\"\n", create, loaded, device.c_str());
    std::printf("first_sort,%.2f,%zu,,\"%s\"\n", first, pipelines, device.c_str());
    std::printf("second_sort,%.2f,,,\"%s\"\n", second, device.c_str());
    std::printf("destroy_context,%.2f,,,\"%s\"\n", destroy, device.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
