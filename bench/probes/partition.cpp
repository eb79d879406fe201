// probe-partition: the host partition that a sort on a DeviceSet begins with, alone: u32 keys,
// uniform, into the set's pinned ranges (sorting::partition_keys), median of 9 after one warm-up.
//   probe-partition DEVICES [LOG2N...]   (DEVICES as --devices takes it: "0,1", "0,0")
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "harness.hpp"
#include "sort/device_set_sort.hpp"
#include "vkc/device_set.hpp"

using namespace vkc;

int main(int argc, char** argv) {
  if (argc < 2) return std::fprintf(stderr, "usage: probe-partition DEVICES [LOG2N...]\n"), 2;
  ContextOptions quiet;
  quiet.quiet = true;
  DeviceSet set(argv[1], quiet);
  std::vector<int> sizes;
  for (int i = 2; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {24};
  std::printf("devices,n,partition_ms,gb_per_s_of_keys\n");
  for (int log2n : sizes) {
    const std::uint64_t n = std::uint64_t(1) << log2n;
    std::vector<std::uint32_t> keys(n);
    std::mt19937_64 rng(log2n);
    for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
    std::vector<std::uint64_t> bounds;
    const double median = bench::time_wall(9, [&] {
      sorting::partition_keys(set, KeyType::u32, {}, keys.data(), n, bounds);
      if (bounds.back() != n) throw Error("probe-partition: keys lost");
    }).median_ms;
    std::printf("%zu,%llu,%.3f,%.2f\n", set.size(), (unsigned long long)n, median, n * 4.0 / median / 1e6);
  }
}
