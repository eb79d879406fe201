"""Pinned host memory for results: arrays the device's copies write directly, without the
staging copies and the page faults that a fresh np.empty array costs (docs/perf-notes.md#host-path).

Each Context keeps a pool of blocks (vkc_pinned_alloc). A block lent out backs one NumPy array,
whose base is a _Block: when the array and every view of it are gone, the block goes back to the
pool, which keeps at most IDLE_LIMIT bytes of idle blocks for the next result of that size."""
from __future__ import annotations

import ctypes
import os
import threading
from ctypes import byref, c_void_p

import numpy as np

from ._capi import check, lib, require

# Results of at least this many bytes come from the pool; smaller ones are cheaper staged.
MIN_BYTES = 4 << 20
GRANULE = 2 << 20  # block sizes are multiples of this, so that similar sizes share blocks


def _idle_limit() -> int:
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        physical = 16 << 30
    return min(4 << 30, physical // 4)


IDLE_LIMIT = _idle_limit()


class _Block:
    """One pinned block lent out; the array's base. Gives itself back when collected."""

    def __init__(self, pool: "PinnedPool", address: int, size: int, shape, dtype):
        self._pool, self._address, self._size = pool, address, size
        self.__array_interface__ = {"data": (address, False), "shape": shape, "typestr": dtype.str, "version": 3}

    def __del__(self):
        pool, self._pool = self._pool, None
        if pool is not None:
            pool._give_back(self._address, self._size)


class PinnedPool:
    """The pinned blocks of one Context: idle ones by size, and how many are lent out."""

    def __init__(self, context):
        self._context = context
        self._lock = threading.Lock()
        self._idle = {}  # size -> [address, ...]
        self._idle_bytes = 0
        self._lent = 0
        self._handle_to_destroy = None  # set by close_when_returned

    def empty(self, shape, dtype) -> np.ndarray:
        """A new array in pinned memory (uninitialized), kept alive by its _Block."""
        dtype = np.dtype(dtype)
        shape = (int(shape),) if np.ndim(shape) == 0 else tuple(int(d) for d in shape)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        size = max(GRANULE, -(-nbytes // GRANULE) * GRANULE)
        address = self._take(size)
        return np.asarray(_Block(self, address, size, shape, dtype))

    @property
    def lent(self) -> int:
        return self._lent

    def _take(self, size: int) -> int:
        with self._lock:
            free = self._idle.get(size)
            if free:
                self._idle_bytes -= size
                self._lent += 1
                return free.pop()
        address = c_void_p()
        self._context._call(require("vkc_pinned_alloc"), size, byref(address))
        with self._lock:
            self._lent += 1
        return address.value

    def _give_back(self, address: int, size: int) -> None:
        to_free = []
        with self._lock:
            self._lent -= 1
            handle = self._handle_to_destroy
            if handle is None:
                self._idle.setdefault(size, []).append(address)
                self._idle_bytes += size
                to_free = self._evict(IDLE_LIMIT)
            else:
                to_free = [address]
            done = handle is not None and self._lent == 0
        try:
            for a in to_free:
                self._free(handle, a)
            if done:
                lib.vkc_context_destroy(handle)
        except Exception:  # interpreter shutdown: the process frees it
            pass

    def _evict(self, limit: int) -> list:
        """Idle blocks past `limit` bytes, largest first, taken from the pool (lock held)."""
        out = []
        for size in sorted(self._idle, reverse=True):
            while self._idle_bytes > limit and self._idle[size]:
                out.append(self._idle[size].pop())
                self._idle_bytes -= size
        return out

    def _free(self, handle, address: int) -> None:
        if handle is None:
            self._context._call(lib.vkc_pinned_free, address)
        else:
            check(lib.vkc_pinned_free(handle, address))

    def release_idle(self) -> None:
        """Frees every idle block."""
        with self._lock:
            to_free = self._evict(0)
        for a in to_free:
            self._free(None, a)

    def close_when_returned(self, handle) -> bool:
        """For Context.close(): frees the idle blocks; if blocks are still lent, keeps `handle`
        to destroy when the last comes back and returns True (the caller must not destroy it)."""
        with self._lock:
            to_free = self._evict(0)
            if self._lent:
                self._handle_to_destroy = handle
        for a in to_free:
            check(lib.vkc_pinned_free(handle, a))
        return self._handle_to_destroy is not None


def result_array(context, shape, dtype) -> np.ndarray:
    """np.empty(shape, dtype), from `context`'s pinned pool when it is large enough to gain."""
    dtype = np.dtype(dtype)
    if int(np.prod(shape, dtype=np.int64)) * dtype.itemsize < MIN_BYTES or not getattr(context, "_pinned_ok", False):
        return np.empty(shape, dtype)
    return context._pinned.empty(shape, dtype)
