// vkc demo: one dispatch of the library's shader copy over a million words, checked and timed
// on the GPU, through the public API only.
#include <cstdio>
#include <vector>

#include "commands.hpp"
#include "vkc/context.hpp"

namespace vkc::cli {

void register_demo(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("demo", "run one checked, timed dispatch (a shader copy, dst = src)");
  auto n = std::make_shared<std::uint32_t>(1u << 20);
  cmd->add_option("-n,--count", *n, "number of 32-bit words")->check(CLI::Range(1u, 1u << 26));
  cmd->callback([&common, n] {
    Context ctx(ContextOptions{.device = common.device});
    std::vector<std::uint32_t> input(*n);
    for (std::uint32_t i = 0; i < *n; ++i) input[i] = i * 2654435761u;
    const std::uint64_t bytes = std::uint64_t{*n} * 4;
    Buffer src = ctx.create_buffer(bytes);
    Buffer dst = ctx.create_buffer(bytes);
    ctx.upload(src, std::span<const std::uint32_t>(input));
    const double ns = ctx.run_timed([&](Recorder& r) { ctx.record_copy(r, src, dst, bytes); });
    std::vector<std::uint32_t> out(*n);
    ctx.download(dst, std::span<std::uint32_t>(out));
    for (std::uint32_t i = 0; i < *n; ++i) {
      if (out[i] != input[i]) throw Error("demo: wrong result at element " + std::to_string(i));
    }
    std::printf("demo on %s: %u words, dst = src by a shader copy, verified; GPU time %.1f us (%.1f GB/s read+write)\n",
                ctx.info().name.c_str(), *n, ns / 1e3, 8.0 * *n / ns);
  });
}

}  // namespace vkc::cli
