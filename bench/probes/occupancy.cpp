// How many workgroups the device keeps resident at once as a function of the shared memory each
// declares and its size, for a kernel of few registers (bench/shaders/occupancy.comp). Answers
// whether the radix scatter's "24 KiB line" on NVIDIA (docs/perf-notes.md) is the SM's shared
// memory plan at run time or the compiler's register plan: if a light kernel with 36 KiB keeps
// two workgroups per SM, the line is the compiler's. Also lists the device's extensions.
// Launches workgroups_per_sm x SMs workgroups (SMs from VK_NV_shader_sm_builtins, else 1).
//   probe-occupancy [workgroups_per_sm=12] [spins=200000]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/device_info.hpp"
#include "core/kernels.hpp"
#include "core/loader.hpp"
#include "core/state.hpp"
#include "vkc_bench_shader_names.hpp"

using namespace vkc;

namespace {

void list_extensions(const Context& ctx) {
  std::uint32_t count = 0;
  vk::vkEnumerateDeviceExtensionProperties(ctx.physical_device(), nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vk::vkEnumerateDeviceExtensionProperties(ctx.physical_device(), nullptr, &count, extensions.data());
  std::printf("# %u device extensions:", count);
  for (const auto& e : extensions) std::printf(" %s", e.extensionName);
  std::printf("\n");
}

// The device's SM count where it reports one (VK_NV_shader_sm_builtins), else 1: the table's
// per_SM column is then the whole device's count.
std::uint32_t multiprocessors(const Context& ctx) {
  VkPhysicalDevice physical = ctx.physical_device();
  if (!detail::has_extension(physical, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) return 1;
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &sm};
  vk::vkGetPhysicalDeviceProperties2(physical, &properties);
  return sm.shaderSMCount ? sm.shaderSMCount : 1;
}

struct Row {
  std::uint32_t peak;
  double ms;
};

Row measure(Context& ctx, const Buffer& counters, std::uint32_t workgroup, std::uint32_t shared_words,
            std::uint32_t groups, std::uint32_t spins) {
  const Pipeline& p = pipeline(ctx, {.shader = shaders::bench_occupancy, .specialization = {workgroup, shared_words},
                                     .bindings = 1, .push_bytes = 4});
  TimestampQueries queries(ctx, 2);
  const std::uint32_t zero[3] = {0, 0, 0};
  ctx.upload(counters, zero, sizeof zero);
  ctx.run([&](Recorder& r) {
    r.reset_queries(queries.pool(), 0, 2);
    r.write_timestamp(queries.pool(), 0);
    const Binding bindings[] = {{counters.handle(), Access::read_write}};
    r.dispatch(p, bindings, &spins, sizeof spins, groups);
    r.write_timestamp(queries.pool(), 1);
    r.finish_for_host();
  });
  std::uint32_t result[3] = {};
  ctx.download(counters, result, sizeof result);
  if (result[0] != 0) std::fprintf(stderr, "probe-occupancy: %u workgroups never left\n", result[0]);
  return {result[1], queries.elapsed_ns(0, 1) / 1e6};
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint32_t per_sm = argc > 1 ? std::atoi(argv[1]) : 12;
  const std::uint32_t spins = argc > 2 ? std::atoi(argv[2]) : 200000;
  try {
    Context ctx;
    const DeviceInfo& info = ctx.info();
    std::printf("# %s, driver %s, subgroup %u, shared %u B\n", info.name.c_str(), info.driver_info.c_str(),
                info.subgroup_size, info.shared_memory_bytes);
    list_extensions(ctx);
    const std::uint32_t sms = multiprocessors(ctx);
    std::printf("# %u SMs (1: not reported; per_SM is then the device's count)\n", sms);
    Buffer counters = ctx.create_buffer(16);
    std::printf("%9s %10s %8s %10s %8s\n", "workgroup", "shared_KiB", "peak", "per_SM", "ms");
    const double kib[] = {4, 12, 16, 20, 23, 24, 24.5, 25, 28, 31.5, 32, 36, 40, 44, 47.5};
    for (std::uint32_t workgroup : {256u, 384u, 448u, 512u}) {
      for (double k : kib) {
        const std::uint32_t words = static_cast<std::uint32_t>(k * 256);
        if (words * 4 > info.shared_memory_bytes) continue;
        const Row row = measure(ctx, counters, workgroup, words, sms * per_sm, spins);
        std::printf("%9u %10.1f %8u %10.2f %8.3f\n", workgroup, k, row.peak, row.peak / double(sms), row.ms);
      }
    }
    const auto messages = ctx.take_validation_messages();  // VKC_VALIDATION=1 records them
    for (const auto& m : messages) std::fprintf(stderr, "probe-occupancy: validation: %s\n", m.c_str());
    if (!messages.empty()) return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "probe-occupancy: %s\n", e.what());
    return 1;
  }
  return 0;
}
