// Specification of cutting sorted runs into parts (src/sort/run_parts.hpp), against the merged
// order computed directly: the parts follow one another in key order, cover every element once,
// hold at most the capacity each unless they are one key, and are nearly full where keys vary.
#include "sort/run_parts.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "support/gpu_test.hpp"

namespace vkc::test {
namespace {

using sorting::Boundary;
using sorting::PartCut;
using sorting::RunSample;

using Runs = std::vector<std::vector<std::uint64_t>>;

std::vector<RunSample> sample(const Runs& runs, std::uint64_t capacity) {
  const std::uint64_t stride = sorting::sample_stride(capacity, runs.size());
  std::vector<RunSample> samples;
  for (const auto& run : runs) {
    RunSample& s = samples.emplace_back(RunSample{run.size(), stride, {}});
    for (std::uint64_t i = 0; i < run.size(); i += stride) s.keys.push_back(run[i]);
  }
  return samples;
}

std::uint64_t position(const Boundary& b, const std::vector<std::uint64_t>& run) {
  return sorting::position_in_run(b, run.size(), [&](std::uint64_t i) { return run[i]; });
}

// Cuts `runs` and checks every promise; returns the elements of the fullest part.
std::uint64_t expect_cut(const Runs& runs, std::uint64_t capacity) {
  const std::vector<PartCut> cuts = sorting::cut_parts(sample(runs, capacity), capacity);
  EXPECT_EQ(cuts.front().from.kind, Boundary::Kind::start);
  EXPECT_EQ(cuts.back().to.kind, Boundary::Kind::end);
  std::vector<std::uint64_t> merged;
  std::uint64_t fullest = 0;
  for (std::size_t c = 0; c < cuts.size(); ++c) {
    if (c) EXPECT_EQ(cuts[c].from, cuts[c - 1].to) << "part " << c << " does not follow the one before";
    std::vector<std::uint64_t> part;
    for (const auto& run : runs) {
      const std::uint64_t from = position(cuts[c].from, run), to = position(cuts[c].to, run);
      EXPECT_LE(from, to);
      part.insert(part.end(), run.begin() + from, run.begin() + to);
    }
    if (cuts[c].equal_keys) {
      EXPECT_TRUE(std::all_of(part.begin(), part.end(), [&](auto k) { return k == part.front(); })) << "part " << c;
    } else {
      EXPECT_LE(part.size(), capacity) << "part " << c;
      fullest = std::max<std::uint64_t>(fullest, part.size());
    }
    std::sort(part.begin(), part.end());
    if (!merged.empty() && !part.empty()) EXPECT_LE(merged.back(), part.front()) << "part " << c << " out of order";
    merged.insert(merged.end(), part.begin(), part.end());
  }
  std::vector<std::uint64_t> expected;
  for (const auto& run : runs) expected.insert(expected.end(), run.begin(), run.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(merged, expected) << "the parts do not hold every element once";
  return fullest;
}

Runs make_runs(std::size_t count, std::size_t length, std::mt19937_64& rng, auto&& key) {
  Runs runs(count);
  for (auto& run : runs) {
    const std::size_t n = length - rng() % (length / 4 + 1);
    for (std::size_t i = 0; i < n; ++i) run.push_back(key());
    std::sort(run.begin(), run.end());
  }
  return runs;
}

TEST(RunParts, UniformKeysFillPartsToWithinAnEighth) {
  auto rng = rng_for_current_test();
  for (std::size_t runs : {1, 2, 7, 16}) {
    const std::uint64_t capacity = 4096;
    const Runs r = make_runs(runs, capacity, rng, [&] { return rng(); });
    const std::uint64_t fullest = expect_cut(r, capacity);
    if (runs > 1) EXPECT_GE(fullest, capacity * 7 / 8) << runs << " runs";
  }
}

TEST(RunParts, FewDistinctKeysAndAllEqualKeysGetPartsOfTheirOwn) {
  auto rng = rng_for_current_test();
  for (std::uint64_t distinct : {1, 2, 5, 100}) {
    const Runs r = make_runs(9, 3000, rng, [&] { return (rng() % distinct) * 1000; });
    expect_cut(r, 3000);
  }
}

TEST(RunParts, OneHeavyKeyAmongUniformOnes) {
  auto rng = rng_for_current_test();
  const Runs r = make_runs(6, 5000, rng, [&] { return rng() % 3 ? 77 : rng() % 1000; });
  expect_cut(r, 5000);
}

TEST(RunParts, TheExtremeKeysAndEmptyRunsAreCovered) {
  auto rng = rng_for_current_test();
  Runs r = make_runs(4, 2000, rng, [&] { return rng() % 2 ? 0 : ~std::uint64_t{0}; });
  r.push_back({});
  expect_cut(r, 2000);
  expect_cut(Runs{{}, {}}, 10);
}

TEST(RunParts, SortedRunsOfDisjointRangesNeedNoSplitting) {
  Runs r(5);
  for (std::size_t i = 0; i < r.size(); ++i) {
    for (std::uint64_t k = 0; k < 1000; ++k) r[i].push_back(i * 1000 + k);
  }
  expect_cut(r, 1000);
}

TEST(RunParts, TooManyRunsForTheCapacityIsAnError) {
  EXPECT_THROW(sorting::sample_stride(100, 101), Error);
  EXPECT_EQ(sorting::sample_stride(100, 100), 1u);
}

TEST(RunParts, BoundariesFallBeforeOrAfterEqualKeys) {
  const std::vector<std::uint64_t> run = {1, 3, 3, 3, 5};
  EXPECT_EQ(position({Boundary::Kind::before, 3}, run), 1u);
  EXPECT_EQ(position({Boundary::Kind::after, 3}, run), 4u);
  EXPECT_EQ(position({Boundary::Kind::before, 0}, run), 0u);
  EXPECT_EQ(position({Boundary::Kind::after, 5}, run), 5u);
  EXPECT_EQ(position({Boundary::Kind::start}, run), 0u);
  EXPECT_EQ(position({Boundary::Kind::end}, run), 5u);
}

}  // namespace
}  // namespace vkc::test
