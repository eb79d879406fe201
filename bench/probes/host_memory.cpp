// probe-host_memory: the host's memory bandwidth as the host sorts use it. memcpy between two
// buffers of BYTES (default 1 GiB, pages touched first), split among 1, 2, 4, ... threads up to
// the machine's cores, and a read-only pass (a sum) the same way; median of 9 after one warm-up.
// Prints the bytes moved per second: a copy moves each byte twice (read and write).
//   probe-host_memory [BYTES]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "harness.hpp"

namespace {

template <class F>
void on_threads(unsigned threads, F f) {
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(f, t);
  f(0u);
  for (auto& thread : pool) thread.join();
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t bytes = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (1ull << 30);
  const std::uint64_t words = bytes / 8;
  std::vector<std::uint64_t> from(words, 1), to(words, 0);  // zero-filled: every page touched
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::printf("threads,copy_ms,copy_traffic_gb_s,read_ms,read_gb_s\n");
  for (unsigned threads = 1;; threads = std::min(threads * 2, cores)) {
    const auto slice = [&](unsigned t) { return std::pair{words * t / threads, words * (t + 1) / threads}; };
    const double copy_ms = vkc::bench::time_wall(9, [&] {
      on_threads(threads, [&](unsigned t) {
        const auto [begin, end] = slice(t);
        std::memcpy(to.data() + begin, from.data() + begin, (end - begin) * 8);
      });
    }).median_ms;
    std::vector<std::uint64_t> sums(threads);
    const double read_ms = vkc::bench::time_wall(9, [&] {
      on_threads(threads, [&](unsigned t) {
        const auto [begin, end] = slice(t);
        std::uint64_t sum = 0;
        for (std::uint64_t i = begin; i < end; ++i) sum += from[i];
        sums[t] = sum;
      });
    }).median_ms;
    std::uint64_t total = 0;
    for (std::uint64_t s : sums) total += s;
    if (total != words) return std::fprintf(stderr, "probe-host_memory: the read pass summed wrong\n"), 1;
    std::printf("%u,%.3f,%.2f,%.3f,%.2f\n", threads, copy_ms, 2.0 * words * 8 / copy_ms / 1e6, read_ms,
                double(words) * 8 / read_ms / 1e6);
    std::fflush(stdout);
    if (threads == cores) break;
  }
}
