// Sorts a few keys with the radix sort through the installed vkc::sort and checks them against
// std::sort: exit 0 only when they match.
#include <vkc/sort.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  try {
    vkc::ContextOptions options;
    options.quiet = true;
    vkc::Context ctx(options);
    std::vector<std::uint32_t> keys = {9, 3, 7, 1, 4294967295u, 0, 3, 12, 5, 8};
    std::vector<std::uint32_t> expected = keys;
    std::sort(expected.begin(), expected.end());
    vkc::sort(ctx, std::span(keys), {vkc::SortAlgorithm::radix});
    if (keys != expected) {
      std::fprintf(stderr, "sort_consumer: keys not sorted\n");
      return 1;
    }
    std::printf("sort_consumer: sorted %zu keys on %s\n", keys.size(), ctx.info().name.c_str());
    return 0;
  } catch (const vkc::Error& e) {
    std::fprintf(stderr, "sort_consumer: %s\n", e.what());
    return 1;
  }
}
