// probe-capi_host: whether a host sort costs the same through libvkcompute.so (the C ABI that the
// Python package calls) as through the static C++ library, in one process with no Python. For
// each size, in turn and in a rotating order: vkc::sort in place on a fresh copy of the input
// (what vkc-bench's host_to_host times), vkc_sort in place on a fresh copy (the C ABI, its own
// context), and vkc_sort_to from the input into a kept array (what vkcompute.sort(a, out=)
// does). Inputs rotate among three random arrays; every output is checked (sorted, and the
// same keys by three sums that a permutation keeps).
// Prints CSV: case,n,inputs,check,runs,median_ms,min_ms.
//   probe-capi_host [--one-input] [--check-at-end] [--only CASE] [log2 sizes, default 20 22 24 26 28]
// --one-input copies one input before every run (as vkc-bench does); --check-at-end checks only
// the last run of each case, so that the runs follow each other with only the copy between them;
// --only times one case alone.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "harness.hpp"
#include "vkc/sort.hpp"
#include "vkc/vkc.h"

using namespace vkc;

namespace {

void check_status(vkc_status status) {
  if (status != VKC_OK) throw Error(std::string("probe-capi_host: ") + vkc_last_error());
}

// Sums that a permutation keeps: with is_sorted, the check that an output is its input sorted
// (std::sort of 2^28 keys would take longer than the sorts measured).
struct Digest {
  std::uint64_t sum = 0, squares = 0, xors = 0;
  bool operator==(const Digest&) const = default;
};

Digest digest(const std::vector<std::uint32_t>& keys) {
  Digest d;
  for (const std::uint64_t key : keys) {
    d.sum += key;
    d.squares += key * key;
    d.xors ^= key * 0x9E3779B97F4A7C15ull;
  }
  return d;
}

struct Case {
  std::function<void(const std::vector<std::uint32_t>&)> prepare;  // untimed
  std::function<const std::vector<std::uint32_t>&(const std::vector<std::uint32_t>&)> sort;
};

struct Pattern {
  int inputs = 3;
  bool check_at_end = false;
  std::string only;  // one case alone, when set
};

void measure(std::uint64_t n, Context& ctx, vkc_context* c_ctx, Pattern pattern) {
  std::mt19937_64 rng(n);
  std::vector<std::vector<std::uint32_t>> inputs(pattern.inputs, std::vector<std::uint32_t>(n));
  std::vector<Digest> expected;
  for (auto& input : inputs) {
    for (auto& key : input) key = static_cast<std::uint32_t>(rng());
    expected.push_back(digest(input));
  }
  std::vector<std::uint32_t> cxx_work(n, 1), c_work(n, 1), c_out(n, 1);
  std::map<std::string, Case> cases;
  cases["cxx_sort_in_place"] = {[&](const auto& in) { cxx_work = in; },
                                [&](const auto&) -> const auto& {
                                  sort(ctx, std::span(cxx_work));
                                  return cxx_work;
                                }};
  cases["c_abi_sort_in_place"] = {[&](const auto& in) { c_work = in; },
                                  [&](const auto&) -> const auto& {
                                    check_status(vkc_sort(c_ctx, VKC_KEY_U32, c_work.data(), n, nullptr));
                                    return c_work;
                                  }};
  cases["c_abi_sort_to_kept"] = {[](const auto&) {},
                                 [&](const auto& in) -> const auto& {
                                   check_status(vkc_sort_to(c_ctx, VKC_KEY_U32, in.data(), c_out.data(), n, nullptr));
                                   return c_out;
                                 }};
  std::vector<std::string> names;
  std::map<std::string, std::vector<double>> ms;
  for (const auto& [name, c] : cases) {
    if (pattern.only.empty() || name == pattern.only) names.push_back(name);
  }
  const int runs = n <= (1u << 24) ? 30 : n <= (1u << 26) ? 15 : 8;
  for (int i = 0; i < runs + 2; ++i) {
    std::rotate(names.begin(), names.begin() + 1, names.end());
    for (const std::string& name : names) {
      const auto& input = inputs[i % pattern.inputs];
      cases[name].prepare(input);
      const auto start = std::chrono::steady_clock::now();
      const auto& out = cases[name].sort(input);
      const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
      if (pattern.check_at_end && i < runs + 1) {
        if (i >= 2) ms[name].push_back(took.count());
        continue;
      }
      if (!std::is_sorted(out.begin(), out.end()) || !(digest(out) == expected[i % pattern.inputs])) {
        throw Error("probe-capi_host: " + name + "'s output is not its input sorted");
      }
      if (i >= 2) ms[name].push_back(took.count());
    }
  }
  for (const auto& [name, times] : ms) {
    const auto summary = bench::summarize(times);
    std::printf("%s,%llu,%d,%s,%d,%.4f,%.4f\n", name.c_str(), static_cast<unsigned long long>(n), pattern.inputs,
                pattern.check_at_end ? "at_end" : "every_run", runs, summary.median_ms,
                *std::min_element(times.begin(), times.end()));
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::vector<std::uint64_t> sizes;
    Pattern pattern;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--one-input") pattern.inputs = 1;
      else if (arg == "--check-at-end") pattern.check_at_end = true;
      else if (arg == "--only" && i + 1 < argc) pattern.only = argv[++i];
      else sizes.push_back(std::uint64_t{1} << std::atoi(argv[i]));
    }
    if (sizes.empty()) sizes = {1u << 20, 1u << 22, 1u << 24, 1u << 26, 1u << 28};
    Context ctx;
    vkc_context* c_ctx = nullptr;
    check_status(vkc_context_create(nullptr, &c_ctx));
    std::printf("# %s\ncase,n,inputs,check,runs,median_ms,min_ms\n", ctx.info().name.c_str());
    for (std::uint64_t n : sizes) measure(n, ctx, c_ctx, pattern);
    vkc_context_destroy(c_ctx);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
