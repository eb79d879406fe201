"""Reference orders computed with NumPy alone, under the library's order contract
(include/vkc/sort.hpp): integers by value; floats by value with -0.0 before +0.0 ascending (after
it descending), NaN last in both orders; equal keys in input order (stable)."""

import numpy as np

ALL_DTYPES = [np.uint8, np.int8, np.uint16, np.int16, np.float16,
              np.uint32, np.int32, np.float32, np.uint64, np.int64, np.float64]
NATIVE_DTYPES = [np.uint32, np.int32, np.float32, np.uint64, np.int64, np.float64]


def stable_order(a, descending=False):
    """The stable permutation that sorts `a` (1-D) by the contract."""
    a = np.asarray(a)
    if a.dtype.kind == "f":
        nan = np.isnan(a)
        value = np.where(nan, 0, a).astype(np.float64)
        sign = np.signbit(a) & ~nan
        if descending:
            # lexsort: the last key is the primary one; every sort in it is stable.
            return np.lexsort((sign, -value, nan))
        return np.lexsort((~sign, value, nan))
    if descending:
        _, rank = np.unique(a, return_inverse=True)
        return np.argsort(-rank.reshape(-1), kind="stable")
    return np.argsort(a, kind="stable")


def sorted_reference(a, descending=False):
    a = np.asarray(a)
    return a[stable_order(a, descending)]


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
