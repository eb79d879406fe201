"""Reference orders computed with NumPy alone, under the library's order contract
(include/vkc/sort.hpp): integers by value; floats by value with -0.0 before +0.0 ascending (after
it descending), NaN last in both orders; equal keys in input order (stable)."""

import numpy as np

ALL_DTYPES = [np.uint8, np.int8, np.uint16, np.int16, np.float16,
              np.uint32, np.int32, np.float32, np.uint64, np.int64, np.float64]
NATIVE_DTYPES = [np.uint32, np.int32, np.float32, np.uint64, np.int64, np.float64]


def bits_of(a):
    """The bits of the elements of `a`, as unsigned integers of their width."""
    return a.view(f"u{a.dtype.itemsize}")


def sign_bit(a):
    return bits_of(a).dtype.type(1 << (8 * a.dtype.itemsize - 1))


def stable_order(a, descending=False):
    """The stable permutation that sorts `a` (1-D) by the contract; NaNs among themselves by
    their bits without the sign, ascending in both orders."""
    a = np.asarray(a)
    if a.dtype.kind == "f":
        nan = np.isnan(a)
        value = np.where(nan, 0, a).astype(np.float64)
        sign = np.signbit(a) & ~nan
        payload = np.where(nan, bits_of(a) & ~sign_bit(a), 0)
        if descending:
            # lexsort: the last key is the primary one; every sort in it is stable.
            return np.lexsort((sign, -value, payload, nan))
        return np.lexsort((~sign, value, payload, nan))
    if descending:
        _, rank = np.unique(a, return_inverse=True)
        return np.argsort(-rank.reshape(-1), kind="stable")
    return np.argsort(a, kind="stable")


def with_nan_signs_cleared(a):
    """A copy of `a` whose NaNs have their sign bit cleared, as the library writes them."""
    a = np.array(a)
    if a.dtype.kind == "f":
        bits_of(a)[np.isnan(a)] &= ~sign_bit(a)
    return a


def sorted_reference(a, descending=False):
    a = np.asarray(a)
    return with_nan_signs_cleared(a[stable_order(a, descending)])


def ordered_image(a, descending=False):
    """The unsigned number (as uint64) whose ascending order is the contract's order of `a`, as
    the sort functions' begin_bit/end_bit define it: unsigned keys as they are, signed ones with
    the sign bit flipped, floats with the sign bit flipped (positive) or every bit (negative),
    a NaN as its positive bits with the sign bit set; descending, every bit flipped but a NaN's."""
    a = np.asarray(a)
    width = 8 * a.dtype.itemsize
    u = bits_of(a).astype(np.uint64)
    sign, full = np.uint64(1 << (width - 1)), np.uint64((1 << width) - 1)
    nan = np.isnan(a) if a.dtype.kind == "f" else np.zeros(a.shape, bool)
    if a.dtype.kind == "u":
        image = u
    elif a.dtype.kind == "i":
        image = u ^ sign
    else:
        image = np.where(nan, u | sign, np.where(u & sign, ~u & full, u | sign))
    return np.where(nan | (not descending), image, ~image & full)


def bit_range_order(a, begin_bit, end_bit, descending=False):
    """The stable permutation that orders `a` by the bits [begin_bit, end_bit) of its ordered
    image alone."""
    mask = np.uint64(((1 << end_bit) - 1) & ~((1 << begin_bit) - 1))
    return np.argsort(ordered_image(a, descending) & mask, kind="stable")


def widened_bfloat16(bits):
    """bfloat16 bits (uint16) as the float32 values they are (the upper half of a binary32)."""
    return (np.asarray(bits, np.uint16).astype(np.uint32) << 16).view(np.float32)


def narrowed_bfloat16(wide):
    """float32 values that are bfloat16 ones, as their bfloat16 bits."""
    return (np.asarray(wide, np.float32).view(np.uint32) >> 16).astype(np.uint16)


def assert_same_keys(result, expected):
    """Same dtype, shape and values; for floats the same sign of every zero, NaN equal to NaN."""
    result = np.asarray(result)
    expected = np.asarray(expected)
    assert result.dtype == expected.dtype, (result.dtype, expected.dtype)
    assert result.shape == expected.shape, (result.shape, expected.shape)
    np.testing.assert_array_equal(result, expected)
    if result.dtype.kind == "f":
        both = ~np.isnan(expected)
        np.testing.assert_array_equal(np.signbit(result[both]), np.signbit(expected[both]))


def random_keys(rng, dtype, n, specials=True):
    """n keys of `dtype` over its whole range, with duplicates; floats with +-0, +-inf and NaN
    when `specials`."""
    dtype = np.dtype(dtype)
    if n == 0:
        return np.empty(0, dtype)
    if dtype.kind in "ui":
        info = np.iinfo(dtype)
        keys = rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
        if n >= 8:
            keys[: n // 8] = keys[n // 8: 2 * (n // 8)]  # duplicates
            keys[0], keys[-1] = info.min, info.max
        return keys
    keys = (rng.standard_normal(n) * rng.choice([1e-3, 1.0, 1e3], size=n)).astype(dtype)
    if n >= 8:
        keys[: n // 8] = keys[n // 8: 2 * (n // 8)]
    if specials and n >= 16:
        where = rng.choice(n, size=8, replace=False)
        keys[where] = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, np.nan, -0.0, 0.0], dtype)
    return rng.permutation(keys)
