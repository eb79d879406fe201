"""vkcompute.sort_pairs: keys sorted, values moved with them; 4- and 8-byte rows on the GPU,
others through argsort and take."""

import numpy as np
import pytest

import vkcompute
from reference import assert_same_keys, random_keys, sorted_reference, stable_order


def _values(rng, dtype, n, tail=()):
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal((n,) + tail) + 1j * rng.standard_normal((n,) + tail)).astype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=(n,) + tail).astype(bool)
    if dtype.kind == "O":
        return np.array([f"v{i}" for i in range(n)], dtype=object)
    return rng.integers(0, 100, size=(n,) + tail).astype(dtype)


# (key dtype, value dtype, trailing value shape): the first ones move on the GPU
# (rows of 4 or 8 bytes), the rest through argsort + take.
CASES = [
    (np.uint32, np.uint32, ()), (np.float32, np.float64, ()), (np.int64, np.int64, ()), (np.float64, np.float32, ()),
    (np.int16, np.int32, ()), (np.float32, ">i8", ()), (np.uint64, np.complex64, ()), (np.int32, np.float32, (2,)),
    (np.float32, np.uint8, ()), (np.uint32, np.int16, ()), (np.int64, np.complex128, ()), (np.float32, np.float32, (3,)),
    (np.uint16, bool, ()), (np.float64, object, ()), (np.int8, np.float64, (2, 2)),
]


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
@pytest.mark.parametrize("key_dtype,value_dtype,tail", CASES,
                         ids=lambda c: c if isinstance(c, str) else (str(c) if isinstance(c, tuple) else np.dtype(c).str))
def test_stable_pairs_match_the_stable_permutation(key_dtype, value_dtype, tail, descending, rng):
    n = 1000
    keys = random_keys(rng, key_dtype, n, specials=False)
    keys[: n // 2] = keys[n // 2:]  # many equal keys: stability shows in the values
    values = _values(rng, value_dtype, n, tail)
    keys_before, values_before = keys.copy(), values.copy()
    sorted_keys, sorted_values = vkcompute.sort_pairs(keys, values, descending=descending, stable=True)
    order = stable_order(keys, descending)
    assert_same_keys(sorted_keys, keys[order])
    assert sorted_values.dtype == values.dtype and sorted_values.shape == values.shape
    np.testing.assert_array_equal(sorted_values, values[order])
    np.testing.assert_array_equal(keys, keys_before)
    np.testing.assert_array_equal(values, values_before)


@pytest.mark.parametrize("value_dtype", [np.uint32, np.float64, np.uint8])
def test_unstable_pairs_keep_every_key_with_its_value(value_dtype, rng):
    n = 1000
    keys = rng.integers(0, 50, size=n).astype(np.int32)
    values = np.arange(n).astype(value_dtype) if value_dtype != np.uint8 else (np.arange(n) % 256).astype(np.uint8)
    sorted_keys, sorted_values = vkcompute.sort_pairs(keys, values)
    np.testing.assert_array_equal(sorted_keys, np.sort(keys))
    pairs = sorted(zip(keys.tolist(), values.tolist()))
    assert sorted(zip(sorted_keys.tolist(), sorted_values.tolist())) == pairs


def test_pairs_of_a_million_keys(rng):
    n = (1 << 20) + 3
    keys = rng.random(n, dtype=np.float32)
    values = np.arange(n, dtype=np.uint32)
    sorted_keys, sorted_values = vkcompute.sort_pairs(keys, values, kind="stable")
    order = np.argsort(keys, kind="stable")
    np.testing.assert_array_equal(sorted_keys, keys[order])
    np.testing.assert_array_equal(sorted_values, values[order])


def test_pairs_sort_nan_last_with_their_values():
    keys = np.array([np.nan, 1.0, -0.0, 0.0, np.nan, -1.0], np.float32)
    values = np.arange(6, dtype=np.int32)
    sorted_keys, sorted_values = vkcompute.sort_pairs(keys, values, stable=True)
    assert_same_keys(sorted_keys, sorted_reference(keys))
    np.testing.assert_array_equal(sorted_values, [5, 2, 3, 1, 0, 4])


@pytest.mark.parametrize("n", [0, 1, 2])
def test_tiny_pairs(n, rng):
    keys = rng.random(n)
    values = np.arange(n, dtype=np.int64)
    sorted_keys, sorted_values = vkcompute.sort_pairs(keys, values)
    np.testing.assert_array_equal(sorted_keys, np.sort(keys))
    np.testing.assert_array_equal(sorted_values, np.argsort(keys, kind="stable"))


def test_pairs_of_non_contiguous_arrays(rng):
    keys = rng.integers(0, 1000, size=3000).astype(np.int64)[::3]
    values = rng.random(2000)[::2]
    sorted_keys, sorted_values = vkcompute.sort_pairs(keys, values, stable=True)
    order = np.argsort(keys, kind="stable")
    np.testing.assert_array_equal(sorted_keys, keys[order])
    np.testing.assert_array_equal(sorted_values, values[order])


def test_pairs_refuse_mismatched_lengths_and_multi_dimensional_keys():
    with pytest.raises(ValueError):
        vkcompute.sort_pairs(np.zeros(5), np.zeros(4))
    with pytest.raises(ValueError):
        vkcompute.sort_pairs(np.zeros(5), np.float32(1))
    with pytest.raises(ValueError):
        vkcompute.sort_pairs(np.zeros((2, 3)), np.zeros(6))
    with pytest.raises(TypeError):
        vkcompute.sort_pairs(np.zeros(5, bool), np.zeros(5))


class _Recorder:
    """Stands in for the library in vkcompute._sort, forwarding every function and noting its name."""

    def __init__(self, lib):
        self._lib = lib
        self.called = []

    def __getattr__(self, name):
        self.called.append(name)
        return getattr(self._lib, name)


@pytest.mark.parametrize("values,route", [
    (np.zeros(64, np.float32), "vkc_sort_pairs_to"), (np.zeros(64, np.int64), "vkc_sort_pairs_to"),
    (np.zeros((64, 2), np.float32), "vkc_sort_pairs_to"), (np.zeros(64, np.complex64), "vkc_sort_pairs_to"),
    (np.zeros(64, np.uint16), "vkc_argsort64"), (np.zeros(64, np.complex128), "vkc_argsort64"),
    (np.zeros((64, 3), np.float32), "vkc_argsort64"), (np.zeros(64, object), "vkc_argsort64"),
], ids=["f4", "i8", "f4x2", "c8", "u2", "c16", "f4x3", "object"])
def test_rows_of_4_or_8_bytes_move_on_the_gpu_and_others_by_take(values, route, monkeypatch):
    from vkcompute import _sort

    recorder = _Recorder(_sort.lib)
    monkeypatch.setattr(_sort, "lib", recorder)
    vkcompute.sort_pairs(np.arange(64, dtype=np.float32)[::-1].copy(), values)
    assert route in recorder.called


@pytest.mark.parametrize("value_dtype", [np.uint8, np.int16])
def test_pairs_by_take_clear_the_signs_of_nans_as_the_library_does(value_dtype):
    # Values of other widths go through argsort and take: the keys must still come out as the
    # library writes sorted NaNs (sign bit cleared, payload kept).
    keys = np.array([np.nan, 1.0, -np.nan, -2.0, np.nan], np.float32)
    keys.view(np.uint32)[0] |= 3  # a payload
    values = np.arange(5).astype(value_dtype)
    sorted_keys, sorted_values = vkcompute.sort_pairs(keys, values, stable=True)
    assert_same_keys(sorted_keys, sorted_reference(keys))
    assert not np.signbit(sorted_keys[np.isnan(sorted_keys)]).any()
    np.testing.assert_array_equal(sorted_values, values[stable_order(keys)])


def test_bfloat16_pairs_by_take_clear_the_signs_of_nans():
    bits = np.array([0xFFC1, 0x3F80, 0x7FC0, 0xBF80], np.uint16)  # -NaN, 1.0, NaN, -1.0
    sorted_keys, _ = vkcompute.sort_pairs(bits, np.arange(4, dtype=np.uint8), key_type="bfloat16")
    np.testing.assert_array_equal(sorted_keys, np.array([0xBF80, 0x3F80, 0x7FC0, 0x7FC1], np.uint16))
