// probe-host-path: where a host sort's time goes. For each size, the wall time of an upload,
// a download and an empty submission through the transfer engine, on the transfer queue and on
// the compute queue, with the engine's default lanes and chunks (median of 15, after warm-up).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/state.hpp"
#include "core/transfer.hpp"
#include "harness.hpp"
#include "vkc/context.hpp"

using namespace vkc;

namespace {

template <class F>
double median_ms(F&& f) {
  std::vector<double> ms;
  for (int i = -3; i < 15; ++i) {
    const auto start = std::chrono::steady_clock::now();
    f();
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    if (i >= 0) ms.push_back(took.count());
  }
  return bench::summarize(ms).median_ms;
}

void measure(Context& ctx, detail::TimelineQueue& queue, const char* name, unsigned lanes, std::uint64_t chunk) {
  detail::TransferEngine engine(detail::compute_device(ctx).device, queue, lanes, chunk);
  for (std::uint64_t n : {1ull << 10, 1ull << 20, 1ull << 24, 1ull << 26}) {
    const std::uint64_t bytes = n * 4;
    std::vector<std::uint32_t> host(n, 1), back(n);
    Buffer device = ctx.create_buffer(bytes);
    const detail::UploadPart up{detail::read_memory(host.data()), device.handle(), 0, bytes};
    const detail::DownloadPart down{device.handle(), 0, bytes, detail::write_memory(back.data())};
    const double up_ms = median_ms([&] { queue.wait(engine.upload({&up, 1})); });
    const double down_ms = median_ms([&] { engine.download({&down, 1}, {}); });
    const double run_ms = median_ms([&] { ctx.run([](Recorder&) {}); });
    std::printf("%s,%u,%llu,%llu,%.4f,%.4f,%.4f,%.2f,%.2f\n", name, lanes, (unsigned long long)chunk,
                (unsigned long long)n, up_ms, down_ms, run_ms, bytes / up_ms / 1e6, bytes / down_ms / 1e6);
  }
}

}  // namespace

int main() {
  Context ctx;
  std::printf("# %s\nqueue,lanes,chunk,n,upload_ms,download_ms,empty_run_ms,up_GBps,down_GBps\n", ctx.info().name.c_str());
  detail::ContextState& s = detail::state_of(ctx);
  for (unsigned lanes : {1u, 8u, 16u}) {
    measure(ctx, s.transfer_queue(), s.transfer_only ? "transfer" : "compute(shared)", lanes, 4 << 20);
    if (s.transfer_only) measure(ctx, *s.compute, "compute", lanes, 4 << 20);
  }
  return 0;
}
