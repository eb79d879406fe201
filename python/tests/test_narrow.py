"""8- and 16-bit keys sorted as they are (not widened), every float16 bit pattern, bfloat16 (raw
bits with key_type=, and torch.bfloat16 tensors), against NumPy references (reference.py)."""

import numpy as np
import pytest

import vkcompute
from reference import (assert_same_keys, bit_range_order, bits_of, narrowed_bfloat16, random_keys, sorted_reference,
                       stable_order, widened_bfloat16)

NARROW_DTYPES = [np.uint8, np.int8, np.uint16, np.int16, np.float16]
# vkc_key_type of each (include/vkc/vkc.h).
KEY_TYPE_NUMBERS = {np.uint8: 6, np.int8: 7, np.uint16: 8, np.int16: 9, np.float16: 10}


def _all_patterns(rng):
    """Every 16-bit pattern once, shuffled: each NaN payload and sign, +-0, +-inf, subnormals."""
    return rng.permutation(np.arange(1 << 16, dtype=np.uint16))


def _same_bits(result, expected):
    result, expected = np.asarray(result), np.asarray(expected)
    assert result.dtype == expected.dtype and result.shape == expected.shape
    wrong = np.flatnonzero(bits_of(result) != bits_of(expected))
    assert wrong.size == 0, f"{wrong.size} keys differ, the first at {wrong[0]}: {result[wrong[0]]!r} vs {expected[wrong[0]]!r}"


class _ArgumentRecorder:
    """Stands in for the ctypes library: records each function's arguments, then calls it."""

    def __init__(self, lib):
        self._lib = lib
        self.calls = []

    def __getattr__(self, name):
        function = getattr(self._lib, name)

        def call(*args):
            self.calls.append((name, args))
            return function(*args)

        return call


@pytest.mark.parametrize("dtype", NARROW_DTYPES, ids=lambda d: np.dtype(d).name)
def test_narrow_keys_reach_the_library_as_their_own_key_type(dtype, rng, monkeypatch):
    from vkcompute import _sort

    recorder = _ArgumentRecorder(_sort.lib)
    monkeypatch.setattr(_sort, "lib", recorder)
    a = random_keys(rng, dtype, 1000)
    vkcompute.sort(a)
    vkcompute.argsort(a)
    vkcompute.sort_pairs(a, np.arange(1000, dtype=np.uint32))
    # Each call is function(context, key type, keys, ...).
    assert [args[1] for _, args in recorder.calls] == [KEY_TYPE_NUMBERS[dtype]] * 3
    # The keys are the caller's own array (no widened copy), read where they lie.
    assert [args[2] for _, args in recorder.calls] == [a.__array_interface__["data"][0]] * 3


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
@pytest.mark.parametrize("n", [0, 1, 7, 4097, 100003])
@pytest.mark.parametrize("dtype", NARROW_DTYPES, ids=lambda d: np.dtype(d).name)
def test_narrow_keys_sort_argsort_and_pair_like_numpy(dtype, n, descending, rng):
    a = random_keys(rng, dtype, n)
    assert_same_keys(vkcompute.sort(a, descending=descending), sorted_reference(a, descending))
    order = stable_order(a, descending)
    np.testing.assert_array_equal(vkcompute.argsort(a, descending=descending), order)
    values = np.arange(n, dtype=np.uint64)
    keys, moved = vkcompute.sort_pairs(a, values, descending=descending, stable=True)
    assert_same_keys(keys, sorted_reference(a, descending))
    np.testing.assert_array_equal(moved, order)
    if not descending and n:
        np.testing.assert_array_equal(vkcompute.sort(a), np.sort(a, kind="stable"))  # numerically


@pytest.mark.parametrize("dtype", [np.uint8, np.int8])
def test_every_byte_value_many_times_over_argsorts_stably(dtype, rng):
    a = rng.permutation(np.tile(np.arange(256, dtype=np.uint8), 300)).view(dtype)
    for descending in (False, True):
        np.testing.assert_array_equal(vkcompute.argsort(a, descending=descending), stable_order(a, descending))


@pytest.mark.parametrize("kind", ["bitonic", "bitonic_transpose", "odd_even", "radix"])
def test_every_algorithm_sorts_float16(kind, rng):
    a = random_keys(rng, np.float16, 3001)
    for descending in (False, True):
        assert_same_keys(vkcompute.sort(a, kind=kind, descending=descending), sorted_reference(a, descending))


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
def test_every_float16_bit_pattern_sorts_by_the_contract(descending, rng):
    # NumPy's stable sort, with the contract's NaNs: last in both orders, sign cleared, by payload.
    a = _all_patterns(rng).view(np.float16)
    _same_bits(vkcompute.sort(a, descending=descending), sorted_reference(a, descending))
    np.testing.assert_array_equal(vkcompute.argsort(a, descending=descending), stable_order(a, descending))
    non_nan = ~np.isnan(a)
    if not descending:  # NumPy's own order of every number, -0.0 and +0.0 aside
        np.testing.assert_array_equal(vkcompute.sort(a)[: non_nan.sum()], np.sort(a[non_nan], kind="stable"))


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
def test_every_bfloat16_bit_pattern_as_raw_bits_sorts_as_numpy_orders_them_widened(descending, rng):
    bits = _all_patterns(rng)
    wide = widened_bfloat16(bits)  # exact: bfloat16 is the upper half of a float32
    for key_type in ("bfloat16", "bf16"):
        result = vkcompute.sort(bits, key_type=key_type, descending=descending)
        assert result.dtype == np.uint16
        _same_bits(result, narrowed_bfloat16(sorted_reference(wide, descending)))
    order = stable_order(wide, descending)
    np.testing.assert_array_equal(vkcompute.argsort(bits, key_type="bfloat16", descending=descending), order)
    keys, values = vkcompute.sort_pairs(bits, np.arange(bits.size, dtype=np.uint32), key_type="bfloat16",
                                        descending=descending, stable=True)
    np.testing.assert_array_equal(values, order)
    # int16 holds the same bits.
    _same_bits(vkcompute.sort(bits.view(np.int16), key_type="bf16", descending=descending),
               narrowed_bfloat16(sorted_reference(wide, descending)).view(np.int16))


def test_key_type_reads_the_bits_as_another_type_of_the_same_width(rng):
    a = random_keys(rng, np.float32, 5000)
    as_unsigned = vkcompute.sort(a, key_type="uint32")
    assert as_unsigned.dtype == np.float32
    np.testing.assert_array_equal(bits_of(as_unsigned), np.sort(bits_of(a)))
    halves = random_keys(rng, np.float16, 5000)
    _same_bits(vkcompute.sort(bits_of(halves), key_type="float16").view(np.float16), sorted_reference(halves))


def test_key_type_of_another_width_or_name_is_refused():
    with pytest.raises(TypeError, match="2-byte"):
        vkcompute.sort(np.zeros(4, np.float32), key_type="bfloat16")
    with pytest.raises(TypeError):
        vkcompute.sort(np.zeros(4, np.uint16), key_type="uint32")
    with pytest.raises(TypeError):
        vkcompute.argsort(np.zeros(4, bool), key_type="uint8")
    with pytest.raises(ValueError, match="key_type must be one of"):
        vkcompute.sort(np.zeros(4, np.uint16), key_type="brainfloat")
    with pytest.raises(TypeError, match="key_type must be a string"):
        vkcompute.sort(np.zeros(4, np.uint16), key_type=np.float16)


def test_byte_swapped_narrow_keys_sort(rng):
    a = random_keys(rng, np.float16, 2000).astype(">f2")
    result = vkcompute.sort(a)
    assert result.dtype == np.dtype(">f2")
    assert_same_keys(result, sorted_reference(a))


torch_reason = "torch is not installed: the bfloat16 tensor tests need it (the raw-bits tests cover bfloat16)"


def _torch():
    return pytest.importorskip("torch", reason=torch_reason)


def _bfloat16_tensor_bits(t):
    torch = _torch()
    return t.view(torch.int16).numpy().view(np.uint16)


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
def test_bfloat16_tensors_sort_into_bfloat16_tensors_as_numpy_orders_them_widened(descending, rng):
    torch = _torch()
    bits = np.concatenate([_all_patterns(rng), rng.integers(0, 1 << 16, 5000, dtype=np.uint16)])
    t = torch.from_numpy(bits.view(np.int16)).view(torch.bfloat16)
    before = t.clone()
    result = vkcompute.sort(t, descending=descending)
    assert isinstance(result, torch.Tensor) and result.dtype == torch.bfloat16
    _same_bits(_bfloat16_tensor_bits(result), narrowed_bfloat16(sorted_reference(widened_bfloat16(bits), descending)))
    assert torch.equal(t.view(torch.int16), before.view(torch.int16))  # only read
    indices = vkcompute.argsort(t, descending=descending)
    assert isinstance(indices, torch.Tensor) and indices.dtype == torch.int64
    np.testing.assert_array_equal(indices.numpy(), stable_order(widened_bfloat16(bits), descending))


def test_bfloat16_tensors_agree_with_torch_sort_on_numbers(rng):
    torch = _torch()
    t = (torch.randn(10000, generator=torch.Generator().manual_seed(5)) * 100).to(torch.bfloat16)
    for descending in (False, True):
        expected = torch.sort(t, descending=descending, stable=True).values
        assert torch.equal(vkcompute.sort(t, descending=descending), expected)


def test_bfloat16_tensor_pairs_out_and_values(rng):
    torch = _torch()
    t = torch.randn(3000, generator=torch.Generator().manual_seed(7)).to(torch.bfloat16)
    values = torch.arange(3000, dtype=torch.int64)
    keys, moved = vkcompute.sort_pairs(t, values, stable=True)
    assert keys.dtype == torch.bfloat16 and moved.dtype == torch.int64
    order = torch.sort(t, stable=True).indices
    assert torch.equal(moved, order)
    _, moved_bf16 = vkcompute.sort_pairs(t, t, stable=True)  # bfloat16 values come back as such
    assert moved_bf16.dtype == torch.bfloat16 and torch.equal(moved_bf16, t[order])
    out = t.clone()
    assert vkcompute.sort(out, out=out) is out
    assert torch.equal(out, torch.sort(t, stable=True).values)


def test_narrow_keys_and_bit_ranges_past_the_device_memory_limit_sort_as_in_memory(rng):
    # 1.2 MB of float16 keys (and argsort's 8-byte indices) under a 1 MiB limit: sorted in runs
    # and merged, with the same result as the reference, stability included.
    a = rng.choice(random_keys(rng, np.float16, 50), size=600001)
    with vkcompute.Context(memory_limit=1 << 20, validation=True, quiet=True) as small:
        totals = set()
        result = vkcompute.sort(a, descending=True, context=small, progress=lambda done, total: totals.add(total))
        assert_same_keys(result, sorted_reference(a, True))
        assert totals == {2 * a.size}  # each key counted twice: sorted in its run, then in its part
        np.testing.assert_array_equal(vkcompute.argsort(a, context=small), stable_order(a))
        ranged = vkcompute.argsort(a, begin_bit=4, end_bit=13, context=small)
        np.testing.assert_array_equal(ranged, bit_range_order(a, 4, 13))
        assert small.take_validation_messages() == []
