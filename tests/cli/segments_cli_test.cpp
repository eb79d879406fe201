// vkc sort of N-D .npy files (each row along the last axis, or --flatten), and of the segments
// that --segments OFFSETS.npy bounds, against references NumPy computes; and the offsets and
// options that are refused.
#include <gmock/gmock.h>

#include "cli/sort_fixture.hpp"

namespace vkc::test {
namespace {

class CliSegmentedSort : public CliSort {};

// NumPy's side: the contract's order of each row or segment alone (python/tests/reference.py:
// NumPy's stable sorts, -0.0 before +0.0, NaN last with its sign cleared).
const std::string kReference = std::string(R"(
import numpy as np, sys
d = sys.argv[1]
sys.path.insert(0, ')") + VKC_PYTHON_TESTS_DIR + R"(')
from reference import random_keys, sorted_reference, stable_order
rng = np.random.default_rng(52)

def save_rows(name, x):
    """x's rows along the last axis sorted both ways, and their permutations (local)."""
    for order in ('asc', 'desc'):
        desc = order == 'desc'
        np.save(f'{d}/{order}_{name}.npy', np.apply_along_axis(lambda r: sorted_reference(r, desc), -1, x))
        np.save(f'{d}/arg_{order}_{name}.npy',
                np.apply_along_axis(lambda r: stable_order(r, desc), -1, x).astype(np.uint64))

def save_segments(name, x, offsets):
    """x with each segment sorted (the rest as it was), and the local and global permutations."""
    for order in ('asc', 'desc'):
        desc = order == 'desc'
        keys, local, glob = x.copy(), np.zeros(x.size, np.uint64), np.arange(x.size, dtype=np.uint64)
        for b, e in zip(map(int, offsets[:-1]), map(int, offsets[1:])):
            keys[b:e] = sorted_reference(x[b:e], desc)
            local[b:e] = stable_order(x[b:e], desc)
            glob[b:e] = local[b:e] + b
        np.save(f'{d}/{order}_{name}.npy', keys)
        np.save(f'{d}/local_{order}_{name}.npy', local)
        np.save(f'{d}/global_{order}_{name}.npy', glob)
)";

TEST_F(CliSegmentedSort, NpyOfTwoOrThreeDimensionsSortsEachRowAsNumPy) {
  // Rows shorter than a subgroup, about as long, and long; keys with equals, +-0 and NaNs.
  run_numpy(kReference + R"(
for name, t, shape in (('f4', 'f4', (37, 33)), ('i8', 'i8', (3, 4, 1000)), ('u2', 'u2', (200, 2)), ('f2', 'f2', (5, 31))):
    x = random_keys(rng, t, int(np.prod(shape))).reshape(shape)
    np.save(f'{d}/in_{name}.npy', x)
    save_rows(name, x)
)");
  for (const std::string name : {"f4", "i8", "u2", "f2"}) {
    for (const std::string order : {"asc", "desc"}) {
      SCOPED_TRACE(name + " " + order);
      expect_output("--order " + order, "in_" + name + ".npy", order + "_" + name + ".npy");
      expect_output("--argsort --order " + order, "in_" + name + ".npy", "arg_" + order + "_" + name + ".npy");
    }
  }
}

TEST_F(CliSegmentedSort, FlattenSortsAnNDArrayAsOneIntoOneDimension) {
  run_numpy(kReference + R"(
x = random_keys(rng, 'f8', 3000).reshape(30, 100)
np.save(f'{d}/in.npy', x)
np.save(f'{d}/flat.npy', sorted_reference(x.reshape(-1), True))
np.save(f'{d}/arg_flat.npy', stable_order(x.reshape(-1)).astype(np.uint64))
)");
  expect_output("--flatten --order desc", "in.npy", "flat.npy");
  expect_output("--flatten --argsort", "in.npy", "arg_flat.npy");
}

TEST_F(CliSegmentedSort, SegmentsSortEachOnItsOwnAndLeaveTheRestAsItWas) {
  // Gaps before the first segment and after the last, empty segments, lengths 1 to hundreds.
  run_numpy(kReference + R"(
x = random_keys(rng, 'f4', 5000)
offsets = np.array([3, 3, 4, 40, 41, 41, 700, 2500, 4990], np.int32)
np.save(f'{d}/in.npy', x)
x.tofile(f'{d}/in.f32')
np.save(f'{d}/offsets.npy', offsets)
save_segments('f4', x, offsets)
for order in ('asc', 'desc'):
    np.load(f'{d}/{order}_f4.npy').tofile(f'{d}/{order}.f32')
)");
  for (const std::string order : {"asc", "desc"}) {
    SCOPED_TRACE(order);
    const std::string segments = "--segments " + path("offsets.npy") + " --order " + order;
    expect_output(segments, "in.npy", order + "_f4.npy");
    expect_output(segments + " --type f32", "in.f32", order + ".f32", "out.f32");
    expect_output(segments + " --argsort", "in.npy", "local_" + order + "_f4.npy");
    expect_output(segments + " --argsort --indices global", "in.npy", "global_" + order + "_f4.npy");
  }
}

TEST_F(CliSegmentedSort, SegmentsOfAFlattenedArrayAndOffsetsOfEveryIntegerType) {
  run_numpy(kReference + R"(
x = random_keys(rng, 'u4', 200).reshape(10, 20)
np.save(f'{d}/in.npy', x)
for t in ('u1', 'i2', 'u8', 'i8'):
    np.save(f'{d}/offsets_{t}.npy', np.array([0, 50, 120, 200], t))
save_segments('u4', x.reshape(-1), [0, 50, 120, 200])
)");
  for (const std::string type : {"u1", "i2", "u8", "i8"}) {
    SCOPED_TRACE(type);
    expect_output("--flatten --segments " + path("offsets_" + type + ".npy"), "in.npy", "asc_u4.npy");
  }
}

TEST_F(CliSegmentedSort, RefusesOffsetsThatAreNotNonDecreasingIntegersWithinTheKeys) {
  write_npy("in.npy", io::DType::u32, std::vector<std::uint32_t>(10, 1));
  const auto offsets = [&](const std::string& name, io::DType type, const auto& values, std::vector<std::size_t> shape) {
    io::write_npy(path(name), type, std::as_bytes(std::span(values)), std::move(shape));
    return "sort --segments " + path(name) + " " + path("in.npy") + " -o " + path("out.npy");
  };
  expect_refused(offsets("f.npy", io::DType::f32, std::vector<float>{0, 5}, {2}), "offsets must be integers, not f32");
  expect_refused(offsets("2d.npy", io::DType::u32, std::vector<std::uint32_t>{0, 5, 5, 10}, {2, 2}),
                 "offsets must be a one-dimensional array");
  expect_refused(offsets("neg.npy", io::DType::i32, std::vector<std::int32_t>{0, -2, 5}, {3}),
                 "offset 1 is -2, below 0");
  expect_refused(offsets("down.npy", io::DType::i64, std::vector<std::int64_t>{0, 6, 5}, {3}),
                 "offsets decrease at 2 (5 after 6)");
  expect_refused(offsets("past.npy", io::DType::u64, std::vector<std::uint64_t>{0, 11}, {2}),
                 "offset 1 is 11, past the 10 keys");
  expect_refused(offsets("none.npy", io::DType::u64, std::vector<std::uint64_t>{}, {0}), "holds no offsets");
  std::ofstream(path("text.npy")) << "0 5 10";
  expect_refused("sort --segments " + path("text.npy") + " " + path("in.npy") + " -o " + path("out.npy"), "text.npy");
}

TEST_F(CliSegmentedSort, RefusesWhatSegmentedSortsDoNotTake) {
  std::vector<float> grid(12, 1.0f);
  io::write_npy(path("grid.npy"), io::DType::f32, std::as_bytes(std::span(grid)), {3, 4});
  write_npy("in.npy", io::DType::f32, grid);
  write_npy("offsets.npy", io::DType::u64, std::vector<std::uint64_t>{0, 12});
  const std::string out = " -o " + path("out.npy");
  expect_refused("sort --segments " + path("offsets.npy") + " " + path("grid.npy") + out,
                 "--segments sorts a one-dimensional array, and " + path("grid.npy") + " has 2 dimensions");
  expect_refused("sort --algo bitonic " + path("grid.npy") + out, "--algo bitonic: a segmented sort");
  expect_refused("sort --algo odd_even --segments " + path("offsets.npy") + " " + path("in.npy") + out,
                 "use auto or radix");
  expect_refused("sort --bits 0:8 " + path("grid.npy") + out, "takes no bit range yet");
  expect_refused("sort --indices somewhere --argsort " + path("grid.npy") + out, "--indices");
  expect_refused("sort --segments " + path("offsets.npy") + " " + path("in.npy") + " -o " + path("offsets.npy"),
                 "is the offsets file");
}

}  // namespace
}  // namespace vkc::test
