"""Results in pinned memory: sort and argsort of arrays past _pinned.MIN_BYTES return arrays in
the context's pinned pool, equal to NumPy's; blocks go back to the pool and are reused; arrays
from empty_pinned sort in place; a closed context keeps its memory until its arrays are gone."""

import gc

import numpy as np
import pytest

import vkcompute
from vkcompute import _pinned


def _large(rng, dtype=np.uint32):
    n = _pinned.MIN_BYTES // np.dtype(dtype).itemsize + 12345
    return rng.integers(0, 1 << 30, n).astype(dtype)


def _in_pool(a) -> bool:
    base = a
    while base is not None and not isinstance(base, _pinned._Block):
        base = getattr(base, "base", None)
    return base is not None


def test_large_results_come_from_the_pool_and_equal_numpys(rng):
    a = _large(rng)
    before = a.copy()
    s = vkcompute.sort(a)
    assert _in_pool(s) and np.array_equal(s, np.sort(a)) and np.array_equal(a, before)
    d = vkcompute.sort(a, descending=True)
    assert _in_pool(d) and np.array_equal(d, np.sort(a)[::-1])
    i = vkcompute.argsort(a)
    assert _in_pool(i) and i.dtype == np.intp and np.array_equal(i, np.argsort(a, kind="stable"))
    small = vkcompute.sort(a[:1000])
    assert not _in_pool(small) and np.array_equal(small, np.sort(a[:1000]))


def test_a_block_goes_back_and_is_reused(rng):
    ctx = vkcompute.Context(quiet=True)
    try:
        a = _large(rng, np.float32)
        first = vkcompute.sort(a, context=ctx)
        address = first.__array_interface__["data"][0]
        assert ctx._pinned.lent == 1
        del first
        gc.collect()
        assert ctx._pinned.lent == 0
        second = vkcompute.sort(a, context=ctx)
        assert second.__array_interface__["data"][0] == address
        assert np.array_equal(second, np.sort(a))
        del second
        ctx.release_cached_memory()
        assert ctx._pinned._idle_bytes == 0
    finally:
        ctx.close()


def test_pinned_arrays_sort_in_place_and_as_inputs(rng):
    ctx = vkcompute.Context(quiet=True)
    try:
        a = _large(rng, np.int64)
        p = ctx.empty_pinned(a.shape, a.dtype)
        assert _in_pool(p) and p.shape == a.shape and p.dtype == a.dtype
        p[:] = a
        assert vkcompute.sort(p, out=p, context=ctx) is p
        assert np.array_equal(p, np.sort(a))
        p[:] = a
        s = vkcompute.sort(p, descending=True, context=ctx)
        assert np.array_equal(s, np.sort(a)[::-1]) and np.array_equal(p, a)
        m = ctx.empty_pinned((3, 4), np.float32)
        assert m.shape == (3, 4) and m.dtype == np.float32
    finally:
        ctx.close()


def test_a_closed_context_keeps_the_memory_of_its_arrays(rng):
    ctx = vkcompute.Context(quiet=True)
    a = _large(rng)
    s = vkcompute.sort(a, context=ctx)
    ctx.close()
    assert ctx.closed
    with pytest.raises(ValueError):
        vkcompute.sort(a, context=ctx)
    assert np.array_equal(s, np.sort(a))  # still readable: the device is kept for it
    s[:] = 0
    del s
    gc.collect()
    assert ctx._pinned.lent == 0
