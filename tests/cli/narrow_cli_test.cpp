// vkc sort of 8- and 16-bit keys (.npy |u1 |i1 <u2 <i2 <f2, raw or <u2 bfloat16 bits with
// --type bf16) and of bit ranges (--bits), against references NumPy computes; and the command
// lines that are refused.
#include <gmock/gmock.h>

#include "cli/sort_fixture.hpp"

namespace vkc::test {
namespace {

class CliNarrowSort : public CliSort {
 protected:
  // Runs `vkc sort ARGS INPUT -o OUT` and expects OUT to hold the array of the .npy file
  // `expected` (the same dtype, shape and bytes), or, for raw output, its bytes.
  void expect_output(const std::string& args, const std::string& input, const std::string& expected,
                     const std::string& out = "out.npy") {
    const auto o = run_vkc("sort " + args + " " + path(input) + " -o " + path(out), dir_);
    ASSERT_EQ(o.status, 0) << args << ": " << o.err;
    const std::string what = args + " " + input + " vs " + expected;
    if (!out.ends_with(".npy")) {
      EXPECT_EQ(slurp(path(out)), slurp(path(expected))) << what;
      return;
    }
    const io::Array result = io::read_npy(path(out)), reference = io::read_npy(path(expected));
    EXPECT_EQ(result.dtype, reference.dtype) << what;
    EXPECT_EQ(result.shape, reference.shape) << what;
    EXPECT_TRUE(result.bytes == reference.bytes) << what;
  }
};

// NumPy's side of the tests: the contract's order (include/vkc/sort.hpp) from NumPy's stable
// sorts (np.lexsort is stable), and the ordered image that --bits masks, from its definition.
const std::string kReference = R"(
import numpy as np, sys
d = sys.argv[1]
rng = np.random.default_rng(51)

def bits_of(x):
    return x.view(f'u{x.itemsize}')

def sign_of(x):
    return bits_of(x).dtype.type(1 << (8 * x.itemsize - 1))

def contract_order(x, descending):
    """The stable permutation: integers by value; floats by value, -0.0 before +0.0 ascending
    (after it descending), NaNs last in both orders, among themselves by their bits without the
    sign, ascending."""
    if x.dtype.kind != 'f':
        v = x.astype(np.int64)
        return np.argsort(-v if descending else v, kind='stable')
    nan = np.isnan(x)
    value = np.where(nan, 0, x).astype(np.float64)
    negative = np.signbit(x) & ~nan
    payload = np.where(nan, bits_of(x) & ~sign_of(x), 0)
    if descending:
        return np.lexsort((negative, -value, payload, nan))
    return np.lexsort((~negative, value, payload, nan))

def permuted(x, order):
    """x in `order`, every NaN's sign bit cleared (as the library writes NaNs)."""
    out = x[order].copy()
    if x.dtype.kind == 'f':
        bits_of(out)[np.isnan(out)] &= ~sign_of(x)
    return out

def ordered_image(x, descending):
    """The unsigned word whose ascending order is the contract's (SortOptions::begin_bit)."""
    width = 8 * x.itemsize
    u = bits_of(x).astype(np.uint64)
    sign, full = np.uint64(1 << (width - 1)), np.uint64((1 << width) - 1)
    nan = np.isnan(x) if x.dtype.kind == 'f' else np.zeros(x.shape, bool)
    if x.dtype.kind == 'u':
        image = u
    elif x.dtype.kind == 'i':
        image = u ^ sign
    else:
        image = np.where(nan, u | sign, np.where(u & sign, ~u & full, u | sign))
    return np.where(nan | (not descending), image, ~image & full)

def range_order(x, descending, begin, end):
    mask = np.uint64(((1 << end) - 1) & ~((1 << begin) - 1))
    return np.argsort(ordered_image(x, descending) & mask, kind='stable')

def widened_bf16(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)

def narrowed_bf16(wide):
    return (wide.view(np.uint32) >> 16).astype(np.uint16)

def save_references(name, x, keys_of=lambda k: k):
    """x sorted both ways (keys, and the permutation as argsort writes it)."""
    for order in ('asc', 'desc'):
        p = contract_order(x, order == 'desc')
        np.save(f'{d}/{order}_{name}.npy', keys_of(permuted(x, p)))
        np.save(f'{d}/arg_{order}_{name}.npy', p.astype(np.uint64))
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
save_references('bf16', widened_bf16(bits), narrowed_bf16)
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
    p = range_order(x, order == 'desc', begin, end)
    np.save(f'{d}/keys_{name}.npy', permuted(x, p))
    np.save(f'{d}/perm_{name}.npy', p.astype(np.uint64))
bits = rng.integers(0, 1 << 16, 50001, dtype=np.uint16)
np.save(f'{d}/in_bf16.npy', bits)
p = range_order(widened_bf16(bits), True, 16 + 2, 16 + 11)  # the same bits of the upper half
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
