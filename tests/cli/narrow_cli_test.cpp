// vkc sort of 8- and 16-bit keys (.npy |u1 |i1 <u2 <i2 <f2, raw or <u2 bfloat16 bits with
// --type bf16) and of bit ranges (--bits), against references NumPy computes; and the command
// lines that are refused.
#include <gmock/gmock.h>

#include "cli/sort_fixture.hpp"

namespace vkc::test {
namespace {

class CliNarrowSort : public CliSort {};

// NumPy's side of the tests: the references of the Python package's tests (python/tests/
// reference.py: the contract's order from NumPy's stable sorts, and the ordered image that
// --bits masks, written from its definition), saved as the files vkc's outputs must equal.
const std::string kReference = std::string(R"(
import numpy as np, sys
d = sys.argv[1]
sys.path.insert(0, ')") + VKC_PYTHON_TESTS_DIR + R"(')
from reference import (bit_range_order, narrowed_bfloat16, sorted_reference, stable_order, widened_bfloat16,
                       with_nan_signs_cleared)
rng = np.random.default_rng(51)

def save_references(name, x, keys_of=lambda k: k):
    """x sorted both ways: the keys, and the permutation as argsort writes it."""
    for order in ('asc', 'desc'):
        np.save(f'{d}/{order}_{name}.npy', keys_of(sorted_reference(x, order == 'desc')))
        np.save(f'{d}/arg_{order}_{name}.npy', stable_order(x, order == 'desc').astype(np.uint64))
)";

TEST_F(CliNarrowSort, NpyOfEveryNarrowDtypeSortsAsNumPyInBothOrders) {
  // Every f16 bit pattern (each NaN payload and sign, +-0, +-inf, subnormals) and random keys
  // with many equals, past one staging chunk of a CPU device (1 MiB) for the 16-bit types.
  run_numpy(kReference + R"(
for t in ('u1', 'i1', 'u2', 'i2', 'f2'):
    if t == 'f2':
        x = rng.permutation(np.concatenate([np.arange(1 << 16, dtype=np.uint16),
                                            rng.integers(0, 1 << 16, 600000, dtype=np.uint16)])).view(np.float16)
    else:
        info = np.iinfo(t)
        x = rng.integers(info.min, info.max, 700001, dtype=t, endpoint=True)
    np.save(f'{d}/in_{t}.npy', x)
    save_references(t, x)
)");
  for (const std::string type : {"u1", "i1", "u2", "i2", "f2"}) {
    for (const std::string order : {"asc", "desc"}) {
      SCOPED_TRACE(type + " " + order);
      expect_output("--order " + order, "in_" + type + ".npy", order + "_" + type + ".npy");
      expect_output("--argsort --order " + order, "in_" + type + ".npy", "arg_" + order + "_" + type + ".npy");
    }
  }
}

TEST_F(CliNarrowSort, Bf16KeysSortAsNumPyOrdersThemWidenedToFloat32) {
  // bfloat16 has no NumPy dtype: raw files with --type bf16, or its bits in a <u2 .npy.
  run_numpy(kReference + R"(
bits = rng.permutation(np.concatenate([np.arange(1 << 16, dtype=np.uint16),
                                       rng.integers(0, 1 << 16, 100000, dtype=np.uint16)]))
bits.tofile(f'{d}/in.bf16')
np.save(f'{d}/in_bf16.npy', bits)
save_references('bf16', widened_bfloat16(bits), narrowed_bfloat16)
for order in ('asc', 'desc'):
    np.load(f'{d}/{order}_bf16.npy').tofile(f'{d}/{order}.bf16')
)");
  for (const std::string order : {"asc", "desc"}) {
    SCOPED_TRACE(order);
    expect_output("--type bf16 --order " + order, "in.bf16", order + ".bf16", "out.bf16");
    expect_output("--type bf16 --order " + order, "in_bf16.npy", order + "_bf16.npy");
    expect_output("--type bf16 --argsort --order " + order, "in.bf16", "arg_" + order + "_bf16.npy");
  }
}

TEST_F(CliNarrowSort, BitsSortByTheRangeOfTheOrderedImageAlone) {
  // Ranges that cut inside a digit, on signed, float and bfloat16 keys, in both orders: the
  // stable order of the masked images, keys and permutation.
  run_numpy(kReference + R"(
cases = [('i2', 'asc', 4, 12), ('f2', 'desc', 10, 16), ('u1', 'asc', 3, 5), ('i1', 'desc', 0, 7),
         ('f2', 'asc', 0, 3), ('u2', 'desc', 7, 7)]
for t, order, begin, end in cases:
    x = rng.integers(0, 1 << (8 * np.dtype(t).itemsize), 50001).astype(f'u{t[1]}').view(t)
    name = f'{t}_{order}_{begin}_{end}'
    np.save(f'{d}/in_{name}.npy', x)
    p = bit_range_order(x, begin, end, order == 'desc')
    np.save(f'{d}/keys_{name}.npy', with_nan_signs_cleared(x[p]))
    np.save(f'{d}/perm_{name}.npy', p.astype(np.uint64))
bits = rng.integers(0, 1 << 16, 50001, dtype=np.uint16)
np.save(f'{d}/in_bf16.npy', bits)
p = bit_range_order(widened_bfloat16(bits), 16 + 2, 16 + 11, True)  # the same bits of the upper half
np.save(f'{d}/perm_bf16.npy', p.astype(np.uint64))
)");
  const std::pair<std::string, std::string> cases[] = {{"i2_asc_4_12", "--bits 4:12"},
                                                       {"f2_desc_10_16", "--order desc --bits 10:16"},
                                                       {"u1_asc_3_5", "--bits 3:5 --algo radix"},
                                                       {"i1_desc_0_7", "--order desc --bits 0:7"},
                                                       {"f2_asc_0_3", "--bits 0:3"},
                                                       {"u2_desc_7_7", "--order desc --bits 7:7"}};
  for (const auto& [name, args] : cases) {
    SCOPED_TRACE(name);
    expect_output(args, "in_" + name + ".npy", "keys_" + name + ".npy");
    expect_output("--argsort " + args, "in_" + name + ".npy", "perm_" + name + ".npy");
  }
  expect_output("--argsort --type bf16 --order desc --bits 2:11", "in_bf16.npy", "perm_bf16.npy");
}

TEST_F(CliNarrowSort, RefusesMalformedBits) {
  write_npy("in.npy", io::DType::u16, std::vector<std::uint16_t>{3, 1, 2});
  for (const std::string bits : {"4", "4:", ":8", "a:b", "-1:4", "4:8:12", "0x1:4", "1 :4"}) {
    expect_refused("sort '--bits=" + bits + "' " + path("in.npy") + " -o " + path("out.npy"), "expected BEGIN:END");
  }
}

TEST_F(CliNarrowSort, RefusesBitsOutsideTheKey) {
  write_npy("u8.npy", io::DType::u8, std::vector<std::uint8_t>{3, 1, 2});
  write_npy("f32.npy", io::DType::f32, std::vector<float>{3, 1, 2});
  expect_refused("sort --bits 0:9 " + path("u8.npy") + " -o " + path("out.npy"), "u8 keys have 8 bits");
  expect_refused("sort --bits 9:9 " + path("u8.npy") + " -o " + path("out.npy"), "u8 keys have 8 bits");
  expect_refused("sort --bits 6:2 " + path("u8.npy") + " -o " + path("out.npy"), "0 <= BEGIN <= END <= 8");
  expect_refused("sort --bits 0:33 " + path("f32.npy") + " -o " + path("out.npy"), "f32 keys have 32 bits");
  const auto o = run_vkc("sort --bits 8:8 " + path("u8.npy") + " -o " + path("out.npy"), dir_);
  EXPECT_EQ(o.status, 0) << "an empty range at the top of the key is a range: " << o.err;
}

TEST_F(CliNarrowSort, RefusesBitsWithAnAlgorithmOtherThanRadix) {
  write_npy("in.npy", io::DType::i16, std::vector<std::int16_t>{3, -1, 2});
  for (const std::string algo : {"bitonic", "bitonic_transpose", "odd_even"}) {
    expect_refused("sort --algo " + algo + " --bits 0:8 " + path("in.npy") + " -o " + path("out.npy"),
                   "--bits sorts by radix only, not --algo " + algo);
  }
}

TEST_F(CliNarrowSort, RefusesBf16ForANpyOfAnotherWidthAndNarrowTypesThatDisagree) {
  write_npy("f32.npy", io::DType::f32, std::vector<float>{3, 1, 2});
  write_npy("u8.npy", io::DType::u8, std::vector<std::uint8_t>{3, 1, 2});
  expect_refused("sort --type bf16 " + path("f32.npy") + " -o " + path("out.npy"), "holds f32, not --type bf16");
  expect_refused("sort --type i8 " + path("u8.npy") + " -o " + path("out.npy"), "holds u8, not --type i8");
  expect_refused("sort --type f8 " + path("u8.npy") + " -o " + path("out.npy"), "--type");
}

}  // namespace
}  // namespace vkc::test
