// Where a short sort's time goes inside one process: creating the Context (instance, device, and
// the pipeline cache file read), the first sort of n random u32 keys (pipeline creation and the
// first dispatch), the same sort again (pipelines built), and destroying the Context (which
// writes the cache file when it changed). Checks both sorts against std::sort. Prints CSV
// (phase,ms,pipelines). Run it twice on one cache directory for a cold and a warm file;
// bench/cli_startup.sh times the whole `vkc sort` process.
//   probe-startup [n=1000] [algorithm=auto|radix|bitonic] [cache_dir|off (default: the user's)] [driver|exit]
// `driver` first times the bare driver calls a Context makes (instance, device list, a device with
// one queue, their destruction); `exit` ends the process after the second sort without destroying
// the Context, so that timing the whole process shows what the teardown costs at exit.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

#include "core/check.hpp"
#include "core/loader.hpp"
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

// The driver's own share of creating and destroying a Context, without vkc around it.
void time_driver_calls() {
  auto start = std::chrono::steady_clock::now();
  vk::load_loader();
  const double loader = ms_since(start);
  start = std::chrono::steady_clock::now();
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  vkc::check(vk::vkCreateInstance(&info, nullptr, &instance), "vkCreateInstance");
  vk::load_instance(instance);
  const double create_instance = ms_since(start);
  start = std::chrono::steady_clock::now();
  std::uint32_t count = 1;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  const VkResult listed = vk::vkEnumeratePhysicalDevices(instance, &count, &physical);
  if (listed != VK_SUCCESS && listed != VK_INCOMPLETE) vkc::check(listed, "vkEnumeratePhysicalDevices");
  const double enumerate = ms_since(start);
  start = std::chrono::steady_clock::now();
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo create{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  create.queueCreateInfoCount = 1;
  create.pQueueCreateInfos = &queue;
  VkDevice device = VK_NULL_HANDLE;
  vkc::check(vk::vkCreateDevice(physical, &create, nullptr, &device), "vkCreateDevice");
  const double create_device = ms_since(start);
  start = std::chrono::steady_clock::now();
  vk::vkDestroyDevice(device, nullptr);
  const double destroy_device = ms_since(start);
  start = std::chrono::steady_clock::now();
  vk::vkDestroyInstance(instance, nullptr);
  const double destroy_instance = ms_since(start);
  std::printf("driver_phase,ms\n");
  std::printf("load_loader,%.2f\ncreate_instance,%.2f\nenumerate_devices,%.2f\ncreate_device,%.2f\n", loader,
              create_instance, enumerate, create_device);
  std::printf("destroy_device,%.2f\ndestroy_instance,%.2f\n", destroy_device, destroy_instance);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000;
    const std::string algo = argc > 2 ? argv[2] : "auto";
    const SortAlgorithm algorithm = algo == "radix"     ? SortAlgorithm::radix
                                    : algo == "bitonic" ? SortAlgorithm::bitonic
                                                        : SortAlgorithm::automatic;
    const std::string mode = argc > 4 ? argv[4] : "";
    if (mode == "driver") time_driver_calls();
    std::vector<std::uint32_t> keys(n);
    std::mt19937_64 rng(1);
    for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
    std::vector<std::uint32_t> expected = keys;
    std::sort(expected.begin(), expected.end());

    auto start = std::chrono::steady_clock::now();
    auto ctx = std::make_unique<Context>(ContextOptions{.quiet = true, .pipeline_cache_dir = argc > 3 ? argv[3] : ""});
    const double create = ms_since(start);
    const std::size_t loaded = detail::state_of(*ctx).cache_file.loaded_bytes();
    start = std::chrono::steady_clock::now();
    sort_checked(*ctx, keys, expected, algorithm);
    const double first = ms_since(start);
    const std::size_t pipelines = detail::compute_device(*ctx).pipelines.size();
    start = std::chrono::steady_clock::now();
    sort_checked(*ctx, keys, expected, algorithm);
    const double second = ms_since(start);
    const std::string device = ctx->info().name;
    if (mode == "exit") {
      std::printf("first_sort,%.2f\nsecond_sort,%.2f\n", first, second);
      std::fflush(stdout);
      _exit(0);
    }
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
