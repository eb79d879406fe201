// probe-odd_even: GPU time of odd_even (and bitonic, where this build has it) on 32-bit keys by
// size and by how sorted the input is, to say where odd_even's early exits make it the better
// choice. Each run re-copies a pristine input outside the timed region; median of 15 runs after
// 3 warm-ups; the last run's output is checked against std::sort.
//
//   probe-odd_even [max_n]   prints one CSV row per (algorithm, distribution, n)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/kernels.hpp"
#include "core/recorder.hpp"
#include "vkc/sort.hpp"

namespace {

using namespace vkc;

enum class Input { sorted, local, nearly, uniform, reversed };
const char* name(Input d) {
  static const char* names[] = {"sorted", "local8", "swaps1pct", "uniform", "reversed"};
  return names[static_cast<int>(d)];
}

// local8: every key at most 8 places from its sorted position; swaps1pct: n/100 random pairs swapped.
std::vector<std::uint32_t> make_input(std::size_t n, Input d, std::mt19937& rng) {
  std::vector<std::uint32_t> keys(n);
  for (auto& k : keys) k = rng();
  if (d == Input::uniform) return keys;
  std::sort(keys.begin(), keys.end());
  if (d == Input::reversed) std::reverse(keys.begin(), keys.end());
  if (d == Input::local) {
    for (std::size_t b = 0; b + 8 <= n; b += 8) std::shuffle(keys.begin() + b, keys.begin() + b + 8, rng);
  }
  if (d == Input::nearly) {
    for (std::size_t s = 0; s < std::max<std::size_t>(1, n / 100); ++s) std::swap(keys[rng() % n], keys[rng() % n]);
  }
  return keys;
}

struct Result {
  double median_us = 0;
  bool correct = false;
};

Result time_sort(Context& ctx, SortAlgorithm algorithm, const std::vector<std::uint32_t>& input) {
  const std::size_t n = input.size();
  const SortDesc desc{KeyType::u32, ValueType::none, n, {algorithm}};
  Buffer pristine = ctx.create_buffer(n * 4);
  Buffer keys = ctx.create_buffer(n * 4);
  Buffer temporary = ctx.create_buffer(sort_temporary_bytes(ctx, desc));
  ctx.upload(pristine, std::span<const std::uint32_t>(input));
  TimestampQueries queries(ctx, 2);
  std::vector<double> us;
  for (int run = 0; run < 18; ++run) {
    ctx.run([&](Recorder& r) {
      r.reset_queries(queries.pool(), 0, 2);
      record_copy(ctx, r, pristine.handle(), keys.handle(), n);
      r.barrier_all();
      r.write_timestamp(queries.pool(), 0);
      record_sort(ctx, r.commands(), desc, n, {{keys.handle()}, {}, {temporary.handle()}});
      r.write_timestamp(queries.pool(), 1);
      r.barrier_all();
    });
    if (run >= 3) us.push_back(queries.elapsed_ns(0, 1) / 1000.0);
  }
  std::sort(us.begin(), us.end());
  std::vector<std::uint32_t> out(n), expected = input;
  ctx.download(keys, std::span<std::uint32_t>(out));
  std::sort(expected.begin(), expected.end());
  return {us[us.size() / 2], out == expected};
}

bool has(Context& ctx, SortAlgorithm algorithm) {
  try {
    sort_temporary_bytes(ctx, {KeyType::u32, ValueType::none, 16, {algorithm}});
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t max_n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (1u << 20);
  Context ctx;
  std::printf("# %s, driver %s\n", ctx.info().name.c_str(), ctx.info().driver_info.c_str());
  std::printf("algorithm,input,n,median_us,Mkeys_per_s,correct\n");
  std::mt19937 rng(12345);
  bool all_correct = true;
  for (SortAlgorithm algorithm : {SortAlgorithm::odd_even, SortAlgorithm::bitonic}) {
    if (!has(ctx, algorithm)) continue;
    for (Input d : {Input::sorted, Input::local, Input::nearly, Input::uniform, Input::reversed}) {
      for (std::size_t n = 1024; n <= max_n; n *= 4) {
        // Random and reversed inputs cost odd_even O(n^2 / B): measured up to 256 Ki only.
        if (algorithm == SortAlgorithm::odd_even && (d == Input::uniform || d == Input::reversed) && n > (1u << 18)) continue;
        const Result r = time_sort(ctx, algorithm, make_input(n, d, rng));
        all_correct = all_correct && r.correct;
        std::printf("%s,%s,%zu,%.1f,%.1f,%s\n", std::string(to_string(algorithm)).c_str(), name(d), n, r.median_us,
                    n / r.median_us, r.correct ? "yes" : "NO");
        std::fflush(stdout);
      }
    }
  }
  return all_correct ? 0 : 1;
}
