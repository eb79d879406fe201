"""vkcompute.argsort against numpy.argsort(kind="stable"): the stable permutation as np.intp."""

import numpy as np
import pytest

import vkcompute
from reference import ALL_DTYPES, random_keys, stable_order


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
@pytest.mark.parametrize("n", [0, 1, 2, 1000])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_argsort_matches_numpy_stable(dtype, n, descending, rng):
    a = random_keys(rng, dtype, n, specials=False)
    if a.dtype.kind == "f" and n >= 16:
        a[rng.choice(n, 4, replace=False)] = np.nan  # NaNs last, in input order
    result = vkcompute.argsort(a, descending=descending)
    assert result.dtype == np.intp and result.shape == (n,)
    np.testing.assert_array_equal(result, stable_order(a, descending))
    if not descending:
        np.testing.assert_array_equal(result, np.argsort(a, kind="stable"))


@pytest.mark.parametrize("dtype,descending", [(np.int64, False), (np.float32, True)], ids=["int64-asc", "float32-desc"])
def test_argsort_matches_numpy_past_a_million(dtype, descending, rng):
    a = random_keys(rng, dtype, (1 << 20) + 3, specials=False)
    np.testing.assert_array_equal(vkcompute.argsort(a, descending=descending), stable_order(a, descending))


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float64], ids=lambda d: np.dtype(d).name)
def test_argsort_is_stable_with_many_equal_keys(dtype, descending, rng):
    a = rng.integers(0, 5, size=5000).astype(dtype)
    result = vkcompute.argsort(a, descending=descending)
    np.testing.assert_array_equal(result, stable_order(a, descending))
    # equal keys keep their input order: within each key the indices ascend
    for key in range(5):
        where = result[a[result] == key]
        assert np.all(np.diff(where) > 0)


def test_argsort_orders_negative_zero_before_positive_zero_and_nan_last():
    a = np.array([0.0, np.nan, -0.0, 1.0, 0.0, -0.0, np.nan, -1.0])
    np.testing.assert_array_equal(vkcompute.argsort(a), [7, 2, 5, 0, 4, 3, 1, 6])
    np.testing.assert_array_equal(vkcompute.argsort(a, descending=True), [3, 0, 4, 2, 5, 7, 1, 6])


@pytest.mark.parametrize("kind", [None, "quicksort", "heapsort", "stable", "mergesort", "auto", "radix", "odd_even"])
def test_argsort_is_stable_for_every_kind_it_takes(kind, rng):
    a = rng.integers(0, 10, size=1000).astype(np.int32)
    np.testing.assert_array_equal(vkcompute.argsort(a, kind=kind), np.argsort(a, kind="stable"))


@pytest.mark.parametrize("kind", ["bitonic", "bitonic_transpose"])
def test_argsort_refuses_unstable_kinds(kind):
    with pytest.raises(ValueError, match="stable"):
        vkcompute.argsort(np.zeros(8, np.float32), kind=kind)


@pytest.mark.parametrize("shape", [(30, 40), (5, 6, 7)])
def test_argsort_axis_none_gives_flat_indices(shape, rng):
    a = rng.integers(0, 50, size=shape).astype(np.uint32)
    np.testing.assert_array_equal(vkcompute.argsort(a, axis=None), np.argsort(a, axis=None, kind="stable"))


@pytest.mark.parametrize("shape,axis", [((1, 60), 1), ((60, 1), 0), ((60, 1), 1), ((0, 3), 0)])
def test_argsort_along_the_only_long_axis(shape, axis, rng):
    a = rng.integers(0, 9, size=shape).astype(np.int16)
    np.testing.assert_array_equal(vkcompute.argsort(a, axis=axis), np.argsort(a, axis=axis, kind="stable"))


def test_argsort_of_a_zero_dimensional_array_is_zero():
    np.testing.assert_array_equal(vkcompute.argsort(np.array(2.0)), np.argsort(np.array(2.0)))
