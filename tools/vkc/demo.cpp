// vkc demo: one dispatch of the affine kernel over a million words, checked and timed.
#include <chrono>
#include <cstdio>
#include <vector>

#include "commands.hpp"
#include "core/kernels.hpp"
#include "core/recorder.hpp"
#include "vkc/context.hpp"

namespace vkc::cli {

void register_demo(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("demo", "run one checked, timed dispatch (dst = src * 3 + 7)");
  auto n = std::make_shared<std::uint32_t>(1u << 20);
  cmd->add_option("-n,--count", *n, "number of 32-bit words")->check(CLI::Range(1u, 1u << 26));
  cmd->callback([&common, n] {
    Context ctx(ContextOptions{.device = common.device});
    std::vector<std::uint32_t> input(*n);
    for (std::uint32_t i = 0; i < *n; ++i) input[i] = i * 2654435761u;
    Buffer src = ctx.create_buffer(std::uint64_t{*n} * 4);
    Buffer dst = ctx.create_buffer(std::uint64_t{*n} * 4);
    ctx.upload(src, std::span<const std::uint32_t>(input));
    TimestampQueries queries(ctx, 2);
    ctx.run([&](Recorder& r) {
      r.reset_queries(queries.pool(), 0, 2);
      r.write_timestamp(queries.pool(), 0);
      record_affine(ctx, r, src, dst, {*n, 3, 7});
      r.write_timestamp(queries.pool(), 1);
    });
    std::vector<std::uint32_t> out(*n);
    ctx.download(dst, std::span<std::uint32_t>(out));
    for (std::uint32_t i = 0; i < *n; ++i) {
      if (out[i] != input[i] * 3 + 7) throw Error("demo: wrong result at element " + std::to_string(i));
    }
    const double ns = queries.elapsed_ns(0, 1);
    std::printf("demo on %s: %u words, dst = src * 3 + 7, verified; GPU time %.1f us (%.1f GB/s read+write)\n",
                ctx.info().name.c_str(), *n, ns / 1e3, 8.0 * *n / ns);
  });
}

}  // namespace vkc::cli
