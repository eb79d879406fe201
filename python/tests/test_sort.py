"""vkcompute.sort against numpy.sort: every dtype and order, sizes, axes, out=, kinds."""

import numpy as np
import pytest

import vkcompute
from reference import ALL_DTYPES, assert_same_keys, random_keys, sorted_reference

try:
    AxisError = np.exceptions.AxisError
except AttributeError:
    AxisError = np.AxisError


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
@pytest.mark.parametrize("n", [0, 1, 2, 1000])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_sort_matches_numpy(dtype, n, descending, rng):
    a = random_keys(rng, dtype, n)
    before = a.copy()
    result = vkcompute.sort(a, descending=descending)
    assert type(result) is np.ndarray
    assert_same_keys(result, sorted_reference(a, descending))
    if not descending:
        np.testing.assert_array_equal(result, np.sort(a))  # numerically: -0.0 == +0.0
    np.testing.assert_array_equal(a, before)  # a copy: the input is only read


@pytest.mark.parametrize("dtype,descending", [(np.uint32, False), (np.float32, True), (np.int16, False), (np.float64, True)],
                         ids=["uint32-asc", "float32-desc", "int16-asc", "float64-desc"])
def test_sort_matches_numpy_past_a_million(dtype, descending, rng):
    a = random_keys(rng, dtype, (1 << 20) + 3)
    assert_same_keys(vkcompute.sort(a, descending=descending), sorted_reference(a, descending))


def test_sort_puts_nan_last_and_negative_zero_first_in_both_orders():
    a = np.array([0.0, np.nan, -0.0, 1.0, -np.inf, -np.nan, np.inf, -1.0, 0.0, -0.0], np.float32)
    ascending = vkcompute.sort(a)
    assert_same_keys(ascending, np.array([-np.inf, -1, -0.0, -0.0, 0, 0, 1, np.inf, np.nan, np.nan], np.float32))
    descending = vkcompute.sort(a, descending=True)
    assert_same_keys(descending, np.array([np.inf, 1, 0, 0, -0.0, -0.0, -1, -np.inf, np.nan, np.nan], np.float32))


@pytest.mark.parametrize("dtype", [np.float16, np.float64])
def test_sort_nan_and_signed_zero_arrays_of_other_float_widths(dtype, rng):
    a = rng.choice(np.array([0.0, -0.0, np.nan, 1.5, -2.25, np.inf], dtype), size=999)
    for descending in (False, True):
        assert_same_keys(vkcompute.sort(a, descending=descending), sorted_reference(a, descending))


@pytest.mark.parametrize("shape", [(30, 40), (5, 6, 7)])
def test_axis_none_sorts_the_flattened_array(shape, rng):
    a = rng.integers(-1000, 1000, size=shape).astype(np.int32)
    result = vkcompute.sort(a, axis=None)
    assert result.shape == (a.size,)
    np.testing.assert_array_equal(result, np.sort(a, axis=None))


def test_axis_none_of_a_fortran_ordered_array_flattens_in_c_order(rng):
    a = np.asfortranarray(rng.random((17, 19)))
    np.testing.assert_array_equal(vkcompute.sort(a, axis=None), np.sort(a, axis=None))


@pytest.mark.parametrize("axis", [0, -1])
def test_one_dimensional_arrays_sort_along_axis_0_and_minus_1(axis, rng):
    a = rng.random(100)
    np.testing.assert_array_equal(vkcompute.sort(a, axis=axis), np.sort(a, axis=axis))


@pytest.mark.parametrize("shape,axis", [((1, 50), 1), ((1, 50), -1), ((50, 1), 0), ((1, 50, 1), 1), ((50, 1), 1),
                                        ((4, 1), -1), ((0, 5), 1), ((3, 0), 0)])
def test_arrays_whose_other_axes_have_length_1_sort_along_the_axis(shape, axis, rng):
    a = rng.integers(0, 100, size=shape).astype(np.int64)
    result = vkcompute.sort(a, axis=axis)
    assert result.shape == a.shape
    np.testing.assert_array_equal(result, np.sort(a, axis=axis))


@pytest.mark.parametrize("shape,axis", [((5,), 1), ((5,), -2), ((2, 3), 2), ((), 0), ((), -1)])
def test_bad_axis_raises_numpys_axis_error(shape, axis):
    a = np.zeros(shape, np.float32)
    with pytest.raises(AxisError):
        np.sort(a, axis=axis)
    with pytest.raises(AxisError):
        vkcompute.sort(a, axis=axis)


def test_axis_error_is_also_a_value_error_and_an_index_error():
    with pytest.raises(ValueError):
        vkcompute.sort(np.zeros(3), axis=3)
    with pytest.raises(IndexError):
        vkcompute.sort(np.zeros(3), axis=3)


def test_a_zero_dimensional_array_sorts_with_axis_none():
    np.testing.assert_array_equal(vkcompute.sort(np.array(3.5), axis=None), np.sort(np.array(3.5), axis=None))


@pytest.mark.parametrize("dtype", [np.float32, np.uint16])
def test_out_a_sorts_in_place(dtype, rng):
    a = random_keys(rng, dtype, 1000)
    expected = sorted_reference(a)
    result = vkcompute.sort(a, out=a)
    assert result is a
    assert_same_keys(a, expected)


def test_out_a_of_a_non_contiguous_view_sorts_the_view_in_place(rng):
    base = rng.integers(0, 1 << 30, size=2000).astype(np.uint32)
    view = base[::2]
    untouched = base[1::2].copy()
    expected = np.sort(view)
    assert vkcompute.sort(view, out=view) is view
    np.testing.assert_array_equal(base[::2], expected)
    np.testing.assert_array_equal(base[1::2], untouched)


def test_out_another_array_receives_the_result(rng):
    a = rng.random(500)
    out = np.empty_like(a)
    assert vkcompute.sort(a, descending=True, out=out) is out
    assert_same_keys(out, sorted_reference(a, True))


def test_out_overlapping_the_input_gets_the_right_result(rng):
    buffer = rng.integers(-50, 50, size=101).astype(np.int32)
    a = buffer[1:].copy()
    vkcompute.sort(buffer[1:], out=buffer[:-1])
    np.testing.assert_array_equal(buffer[:-1], np.sort(a))


def test_out_with_axis_none_has_the_flat_shape(rng):
    a = rng.random((10, 10))
    out = np.empty(100)
    vkcompute.sort(a, axis=None, out=out)
    np.testing.assert_array_equal(out, np.sort(a, axis=None))


@pytest.mark.parametrize("out", [np.empty(99, np.float32), np.empty(100, np.float64), np.empty((10, 10), np.float32),
                                 np.empty(100, ">f4")], ids=["short", "dtype", "shape", "byteorder"])
def test_out_of_the_wrong_shape_or_dtype_raises_value_error(out):
    a = np.arange(100, dtype=np.float32)
    with pytest.raises(ValueError):
        vkcompute.sort(a, out=out)


def test_out_read_only_raises_value_error():
    a = np.arange(10, dtype=np.int32)
    a.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        vkcompute.sort(a, out=a)


@pytest.mark.parametrize("kind", [None, "quicksort", "heapsort", "stable", "mergesort", "auto", "radix", "bitonic",
                                  "bitonic_transpose", "odd_even"])
def test_every_kind_sorts(kind, rng):
    a = random_keys(rng, np.float32, 777)
    for descending in (False, True):
        assert_same_keys(vkcompute.sort(a, kind=kind, descending=descending), sorted_reference(a, descending))


def test_stable_true_sorts():
    a = np.array([3, 1, 2, 1], np.int64)
    np.testing.assert_array_equal(vkcompute.sort(a, stable=True), [1, 1, 2, 3])
    np.testing.assert_array_equal(vkcompute.sort(a, stable=False), [1, 1, 2, 3])


def test_unknown_kind_raises_value_error():
    with pytest.raises(ValueError, match="kind"):
        vkcompute.sort(np.zeros(4), kind="bogo")
    with pytest.raises(ValueError):
        vkcompute.sort(np.zeros(4), kind="stable", stable=True)
    with pytest.raises(TypeError):
        vkcompute.sort(np.zeros(4), kind=3)


def test_lists_sort_like_numpy():
    np.testing.assert_array_equal(vkcompute.sort([3, 1, 2]), np.sort([3, 1, 2]))
