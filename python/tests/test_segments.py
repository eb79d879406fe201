"""Sorting along any axis of an N-D array (sort, argsort) and the segmented sorts
(segmented_sort, segmented_argsort), against NumPy's stable sort of each row or segment alone."""

import numpy as np
import pytest

import vkcompute
from reference import assert_same_keys, random_keys, sorted_reference, stable_order, with_nan_signs_cleared

DTYPES = [np.uint32, np.int32, np.float32, np.int64, np.float64, np.uint16, np.int8, np.float16]


def sorted_along(a, axis, descending=False):
    """Each 1-D slice along `axis` sorted by the contract (NumPy's stable sort, -0.0 first, NaN
    last with its sign cleared)."""
    return np.apply_along_axis(lambda row: sorted_reference(row, descending), axis, a)


def order_along(a, axis, descending=False):
    """Each slice's stable permutation, as positions within the slice."""
    return np.apply_along_axis(lambda row: stable_order(row, descending), axis, a)


def keys_of_shape(rng, dtype, shape):
    """Keys with duplicates (and +-0, +-inf, NaN among floats), of `shape`."""
    return random_keys(rng, dtype, int(np.prod(shape))).reshape(shape)


# ---- sort and argsort along an axis


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,axis", [((7, 33), 0), ((7, 33), 1), ((7, 33), -2), ((3, 5, 31), 0), ((3, 5, 31), 1),
                                        ((3, 5, 31), -1)])
def test_sort_and_argsort_along_every_axis_match_numpy(shape, axis, dtype, descending, rng):
    a = keys_of_shape(rng, dtype, shape)
    before = a.copy()
    result = vkcompute.sort(a, axis=axis, descending=descending)
    assert type(result) is np.ndarray and result.flags.c_contiguous
    assert_same_keys(result, sorted_along(a, axis, descending))
    if not descending:
        np.testing.assert_array_equal(result, np.sort(a, axis=axis))  # numerically: -0.0 == +0.0
    order = vkcompute.argsort(a, axis=axis, descending=descending)
    assert order.dtype == np.intp and order.shape == a.shape
    np.testing.assert_array_equal(order, order_along(a, axis, descending))
    np.testing.assert_array_equal(a, before)  # only read


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
@pytest.mark.parametrize("dtype", [np.float32, np.uint32], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("columns", [1, 2, 31, 32, 33, 100000])
def test_rows_of_every_length_sort_as_numpy(columns, dtype, descending, rng):
    a = keys_of_shape(rng, dtype, (3 if columns > 1000 else 64, columns))
    assert_same_keys(vkcompute.sort(a, descending=descending), sorted_along(a, -1, descending))
    np.testing.assert_array_equal(vkcompute.argsort(a, descending=descending), order_along(a, -1, descending))


def test_argsort_along_an_axis_matches_numpys_stable_argsort_with_many_equal_keys(rng):
    a = rng.integers(0, 4, size=(40, 50)).astype(np.int32)
    for axis in (0, 1):
        np.testing.assert_array_equal(vkcompute.argsort(a, axis=axis), np.argsort(a, axis=axis, kind="stable"))


def test_rows_keep_nan_last_and_negative_zero_first_in_both_orders():
    a = np.array([[0.0, np.nan, -0.0, 1.0], [-np.nan, -1.0, 0.0, -0.0]], np.float32)
    assert_same_keys(vkcompute.sort(a), np.array([[-0.0, 0.0, 1.0, np.nan], [-1.0, -0.0, 0.0, np.nan]], np.float32))
    assert_same_keys(vkcompute.sort(a, descending=True),
                     np.array([[1.0, 0.0, -0.0, np.nan], [0.0, -0.0, -1.0, np.nan]], np.float32))
    np.testing.assert_array_equal(vkcompute.argsort(a, axis=0), [[0, 1, 0, 1], [1, 0, 1, 0]])


def test_non_contiguous_and_byte_swapped_arrays_sort_along_an_axis(rng):
    base = keys_of_shape(rng, np.float64, (20, 30))
    for a in (base[:, ::2], np.asfortranarray(base), base.T, base.astype(">f8")):
        native = a.astype(np.float64)
        for axis in (0, 1):
            result = vkcompute.sort(a, axis=axis)
            assert result.dtype == a.dtype
            assert_same_keys(result.astype(np.float64), sorted_along(native, axis))
            np.testing.assert_array_equal(vkcompute.argsort(a, axis=axis), order_along(native, axis))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_out_a_sorts_along_an_axis_in_place(axis, rng):
    a = keys_of_shape(rng, np.float32, (9, 40))
    expected = sorted_along(a, axis)
    assert vkcompute.sort(a, axis=axis, out=a) is a
    assert_same_keys(a, expected)


def test_out_another_array_of_any_layout_receives_the_rows(rng):
    a = keys_of_shape(rng, np.int16, (12, 35))
    for out in (np.empty_like(a), np.empty(a.shape, a.dtype, order="F")):
        assert vkcompute.sort(a, axis=1, descending=True, out=out) is out
        assert_same_keys(out, sorted_along(a, 1, True))
    with pytest.raises(ValueError, match="shape"):
        vkcompute.sort(a, axis=0, out=np.empty((35, 12), a.dtype))


def test_an_n_d_array_along_an_axis_takes_the_segmented_kinds_only(rng):
    a = keys_of_shape(rng, np.int32, (4, 5))
    for kind in ("stable", "mergesort", "quicksort", "radix", "auto"):
        np.testing.assert_array_equal(vkcompute.sort(a, kind=kind), np.sort(a))
    for kind in ("bitonic", "bitonic_transpose", "odd_even"):
        with pytest.raises(ValueError, match="kind"):
            vkcompute.sort(a, kind=kind)
    with pytest.raises(ValueError, match="kind"):
        vkcompute.argsort(a, axis=0, kind="odd_even")
    with pytest.raises(NotImplementedError, match="bit range"):
        vkcompute.sort(a, end_bit=8)
    np.testing.assert_array_equal(vkcompute.sort(a, axis=None, end_bit=32), np.sort(a, axis=None))


def test_torch_tensors_sort_along_an_axis_into_tensors(rng):
    torch = pytest.importorskip("torch", reason="torch is not installed")
    t = torch.from_numpy(keys_of_shape(rng, np.float32, (6, 50)))
    result = vkcompute.sort(t, axis=0)
    assert isinstance(result, torch.Tensor) and result.shape == t.shape
    assert_same_keys(result.numpy(), sorted_along(t.numpy(), 0))
    order = vkcompute.argsort(t, descending=True)
    assert isinstance(order, torch.Tensor) and order.dtype == torch.int64
    np.testing.assert_array_equal(order.numpy(), order_along(t.numpy(), -1, True))
    halves = (torch.randn(5, 40) * 100).to(torch.bfloat16)
    result = vkcompute.sort(halves, axis=1, descending=True)
    assert result.dtype == torch.bfloat16
    assert torch.equal(result, torch.sort(halves, dim=1, descending=True, stable=True).values)


# ---- segmented_sort and segmented_argsort


def random_segments(rng, n):
    """begins and ends of segments in shuffled order: empty ones, gaps between some, lengths from
    1 to hundreds."""
    begins, ends, at = [], [], 0
    while at < n:
        at += int(rng.integers(0, 4)) if rng.random() < 0.3 else 0
        length = int(rng.choice([0, 1, 2, rng.integers(3, 40), rng.integers(100, 400)]))
        begins.append(min(at, n))
        ends.append(min(at + length, n))
        at = ends[-1]
    order = rng.permutation(len(begins))
    return np.array(begins)[order], np.array(ends)[order]


def segments_sorted(keys, begins, ends, descending=False):
    """Each segment sorted alone; keys outside every segment as they were."""
    expected = keys.copy()
    for b, e in zip(begins, ends):
        expected[b:e] = sorted_reference(keys[b:e], descending)
    return expected


def segments_order(keys, begins, ends, descending=False, numbering="local"):
    outside = np.arange(keys.size) if numbering == "global" else np.zeros(keys.size, np.intp)
    for b, e in zip(begins, ends):
        outside[b:e] = stable_order(keys[b:e], descending) + (b if numbering == "global" else 0)
    return outside


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_segmented_sort_and_argsort_match_numpy_per_segment(dtype, descending, rng):
    keys = random_keys(rng, dtype, 3001)
    begins, ends = random_segments(rng, keys.size)
    before = keys.copy()
    result = vkcompute.segmented_sort(keys, begins=begins, ends=ends, descending=descending)
    assert_same_keys(result, segments_sorted(keys, begins, ends, descending))
    for numbering in ("local", "global"):
        order = vkcompute.segmented_argsort(keys, begins=begins, ends=ends, descending=descending, indices=numbering)
        assert order.dtype == np.intp
        np.testing.assert_array_equal(order, segments_order(keys, begins, ends, descending, numbering))
    np.testing.assert_array_equal(keys, before)


def test_offsets_bound_consecutive_segments_with_gaps_before_and_after(rng):
    keys = rng.integers(0, 9, size=500).astype(np.int64)
    offsets = [3, 3, 10, 11, 200, 490]
    begins, ends = offsets[:-1], offsets[1:]
    assert_same_keys(vkcompute.segmented_sort(keys, offsets), segments_sorted(keys, begins, ends))
    for numbering in ("local", "global"):
        np.testing.assert_array_equal(vkcompute.segmented_argsort(keys, np.array(offsets, np.int32), indices=numbering),
                                      segments_order(keys, begins, ends, numbering=numbering))


def test_global_indices_are_a_permutation_that_sorts_each_segment(rng):
    keys = random_keys(rng, np.float32, 1000)
    offsets = np.array([0, 100, 100, 350, 900])
    order = vkcompute.segmented_argsort(keys, offsets, indices="global")
    np.testing.assert_array_equal(np.sort(order), np.arange(keys.size))
    expected = segments_sorted(keys, offsets[:-1], offsets[1:])
    assert_same_keys(with_nan_signs_cleared(keys[order][:900]), expected[:900])
    np.testing.assert_array_equal(order[900:], np.arange(900, 1000))


def test_one_segment_of_the_whole_array_is_sort(rng):
    keys = random_keys(rng, np.float64, 4000)
    assert_same_keys(vkcompute.segmented_sort(keys, [0, keys.size], descending=True), sorted_reference(keys, True))
    np.testing.assert_array_equal(vkcompute.segmented_argsort(keys, [0, keys.size]), stable_order(keys))


def test_no_segments_and_empty_keys_leave_everything_as_it_was(rng):
    keys = rng.random(50)
    np.testing.assert_array_equal(vkcompute.segmented_sort(keys, [7]), keys)
    np.testing.assert_array_equal(vkcompute.segmented_sort(keys, begins=[], ends=[]), keys)
    np.testing.assert_array_equal(vkcompute.segmented_argsort(keys, [0, 0, 0]), np.zeros(50, np.intp))
    np.testing.assert_array_equal(vkcompute.segmented_argsort(keys, [4], indices="global"), np.arange(50))
    assert vkcompute.segmented_sort(np.empty(0, np.float32), [0]).shape == (0,)


@pytest.mark.parametrize("values_dtype", [np.uint32, np.float64, np.complex128, "S3"])
def test_values_move_with_their_keys(values_dtype, rng):
    keys = rng.integers(0, 20, size=2000).astype(np.uint16)
    begins, ends = random_segments(rng, keys.size)
    values = np.arange(keys.size).astype(values_dtype)
    sorted_keys, sorted_values = vkcompute.segmented_sort(keys, begins=begins, ends=ends, values=values,
                                                          descending=True)
    assert_same_keys(sorted_keys, segments_sorted(keys, begins, ends, True))
    np.testing.assert_array_equal(sorted_values, values[segments_order(keys, begins, ends, True, "global")])


def test_out_receives_the_sorted_keys_and_out_keys_sorts_in_place(rng):
    keys = random_keys(rng, np.float32, 300)
    expected = segments_sorted(keys, [0, 150], [100, 300])
    out = np.empty_like(keys)
    assert vkcompute.segmented_sort(keys, begins=[150, 0], ends=[300, 100], out=out) is out
    assert_same_keys(out, expected)
    assert vkcompute.segmented_sort(keys, begins=[150, 0], ends=[300, 100], out=keys) is keys
    assert_same_keys(keys, expected)


def test_torch_keys_give_torch_results(rng):
    torch = pytest.importorskip("torch", reason="torch is not installed")
    t = torch.from_numpy(rng.integers(-100, 100, size=400).astype(np.int32))
    result = vkcompute.segmented_sort(t, [0, 200, 400])
    assert isinstance(result, torch.Tensor)
    np.testing.assert_array_equal(result.numpy(), segments_sorted(t.numpy(), [0, 200], [200, 400]))
    order = vkcompute.segmented_argsort(t, [0, 200, 400])
    assert isinstance(order, torch.Tensor) and order.dtype == torch.int64


@pytest.mark.parametrize("offsets,message", [
    ([0, -1, 5], "negative"),
    ([0.0, 5.0], "integers"),
    (["0", "5"], "integers"),
    ([[0, 5]], "one-dimensional"),
    ([0, 6, 5], "must not decrease"),
    ([0, 11], "past the 10 keys"),
    ([], "at least one offset"),
])
def test_bad_offsets_raise_value_error(offsets, message):
    with pytest.raises(ValueError, match=message):
        vkcompute.segmented_sort(np.zeros(10, np.float32), offsets)
    with pytest.raises(ValueError, match=message):
        vkcompute.segmented_argsort(np.zeros(10, np.float32), offsets)


@pytest.mark.parametrize("begins,ends,message", [
    ([0, 5], [5, 3], "segment 1 \\[5, 3\\) ends before it begins"),
    ([0], [11], "past the 10 keys"),
    ([6, 0], [9, 7], "segments 1 \\[0, 7\\) and 0 \\[6, 9\\) overlap"),
    ([0, 1], [5], "one of each"),
    ([-1], [3], "negative"),
])
def test_bad_ranges_raise_value_error(begins, ends, message):
    with pytest.raises(ValueError, match=message):
        vkcompute.segmented_sort(np.zeros(10, np.int32), begins=begins, ends=ends)


def test_empty_segments_overlap_nothing():
    keys = np.array([3, 2, 1, 0], np.int32)
    result = vkcompute.segmented_sort(keys, begins=[0, 2, 2], ends=[4, 2, 2])
    np.testing.assert_array_equal(result, [0, 1, 2, 3])


def test_segments_given_twice_or_not_at_all_and_other_misuse_raise():
    keys = np.zeros(10, np.int32)
    with pytest.raises(TypeError, match="not both"):
        vkcompute.segmented_sort(keys, [0, 10], begins=[0], ends=[10])
    with pytest.raises(TypeError, match="give offsets"):
        vkcompute.segmented_argsort(keys, begins=[0])
    with pytest.raises(ValueError, match="one-dimensional"):
        vkcompute.segmented_sort(np.zeros((2, 5)), [0, 10])
    with pytest.raises(ValueError, match="'local' or 'global'"):
        vkcompute.segmented_argsort(keys, [0, 10], indices="globally")
    with pytest.raises(ValueError, match="values"):
        vkcompute.segmented_sort(keys, [0, 10], values=np.zeros(9))
