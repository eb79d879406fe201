"""Sorting one array split across MPI ranks (mpi4py), each rank sorting on its own GPU.

    from mpi4py import MPI
    import vkcompute.mpi
    mine = vkcompute.mpi.sort(MPI.COMM_WORLD, my_slice)   # this rank's range of the sorted whole

The ranks' arrays, in rank order, form one array. The C++ vkc::mpi sorts it (include/vkc/mpi.hpp),
through its C library libvkcompute_mpi.so (include/vkc/vkc_mpi.h): a sample sort with one
all-to-all exchange. Samples of every rank's keys, in proportion to its share, give splitters that
cut the sorted whole into one balanced, contiguous range per rank (equal keys that straddle a
boundary are divided by their global position, so that even all-equal keys split evenly); each
rank sends every key to the rank whose range holds it, then sorts what it received on its context
(radix: stable, so equal keys keep their global input order). The order contract is vkcompute's:
NaN last in both orders, -0.0 before +0.0 ascending.

Keys of every NumPy dtype vkcompute sorts (8 to 64-bit integers, float16, float32, float64).
A rank may hold and receive any count (past 2^31 elements, in several messages). Every function
is collective: when the input is bad on any rank, or the sort fails there, every rank raises the
first failing rank's error ("rank R: ..."), so that none waits for ever. mpi4py and
libvkcompute_mpi.so.1 (built beside libvkcompute.so.1 when CMake finds MPI) are loaded on first
use; ImportError names the one that is missing.
"""

import ctypes
import ctypes.util
import os
import threading
from ctypes import POINTER, byref, c_char_p, c_double, c_int, c_size_t, c_uint32, c_uint64, c_void_p

import numpy as np

from . import _capi
from ._arrays import key_plan
from ._calls import AUTO, _options_for
from ._capi import Error
from ._context import Context, choose_device, default_context

__all__ = ["sort", "sort_pairs"]

_SONAME = "libvkcompute_mpi.so.1"
_ABI_VERSION = 1
_VALUE_TYPES = {4: 1, 8: 2}  # value bytes: vkc_value_type


class _SliceInfo(ctypes.Structure):
    _fields_ = [("count", c_uint64), ("offset", c_uint64), ("total", c_uint64), ("sample_ms", c_double),
                ("partition_ms", c_double), ("exchange_ms", c_double), ("local_sort_ms", c_double)]


_SIGNATURES = {
    "vkc_mpi_last_error": (c_char_p, []),
    "vkc_mpi_abi_version": (c_uint32, []),
    "vkc_mpi_local_device": (c_int, [c_int, POINTER(c_uint32)]),
    "vkc_mpi_sort": (c_int, [c_void_p, c_int, c_int, c_void_p, c_uint64, c_void_p, POINTER(c_void_p)]),
    "vkc_mpi_sort_pairs": (c_int, [c_void_p, c_int, c_int, c_void_p, c_int, c_void_p, c_uint64, c_void_p,
                                   POINTER(c_void_p)]),
    "vkc_mpi_slice_get_info": (c_int, [c_void_p, POINTER(_SliceInfo), c_size_t]),
    "vkc_mpi_slice_copy": (c_int, [c_void_p, c_void_p, c_void_p]),
    "vkc_mpi_slice_destroy": (None, [c_void_p]),
}

_lib = None
_lock = threading.Lock()
_contexts = {}  # device index -> the Context that sorts given no context=


def _load():
    """libvkcompute_mpi.so.1, beside the libvkcompute.so.1 that the package loaded, else from the
    system's search path; its functions typed."""
    tried = []
    for path in (os.path.join(os.path.dirname(os.path.abspath(_capi.library_path)), _SONAME),
                 ctypes.util.find_library("vkcompute_mpi")):
        if not path:
            continue
        try:
            lib = ctypes.CDLL(path)
            break
        except OSError as e:
            tried.append(f"{path}: {e}")
    else:
        raise ImportError(f"vkcompute.mpi needs {_SONAME}, the distributed sort's C library, which is built beside "
                          f"libvkcompute.so.1 when CMake finds MPI (tried {'; '.join(tried) or 'nothing found'})")
    for name, (restype, argtypes) in _SIGNATURES.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, argtypes
    if lib.vkc_mpi_abi_version() != _ABI_VERSION:
        raise ImportError(f"vkcompute.mpi: {path} has ABI version {lib.vkc_mpi_abi_version()}, this package was "
                          f"written for {_ABI_VERSION}; install the library and the package from the same build")
    return lib


def _library():
    global _lib
    with _lock:
        if _lib is None:
            _lib = _load()
        return _lib


def _check(status):
    if status:
        message = _lib.vkc_mpi_last_error()
        raise Error(message.decode("utf-8", "replace") if message else f"vkcompute.mpi: status {status}", status)


def _handle(comm):
    """The communicator as MPI's Fortran handle (what vkc_mpi.h takes)."""
    try:
        import mpi4py.MPI  # noqa: F401  (MPI initialized, its library loaded)
    except ImportError as e:
        raise ImportError(f"vkcompute.mpi needs mpi4py ({e})") from e
    if not hasattr(comm, "py2f"):
        raise TypeError(f"comm must be an mpi4py communicator, not {type(comm).__name__}")
    return comm.py2f()


def _on_every_rank(comm, work):
    """work() on every rank; when it raises on any, every rank raises the first failing rank's
    error, of its type, as "rank R: <message>"."""
    try:
        result, failure = work(), None
    except Exception as e:  # noqa: BLE001  (every rank must hear of it)
        result, failure = None, e
    failures = comm.allgather(None if failure is None else
                              (type(failure), str(failure), getattr(failure, "status", None)))
    for rank, found in enumerate(failures):
        if found is not None:
            kind, message, status = found
            try:
                error = kind(f"rank {rank}: {message}", status) if status is not None else kind(f"rank {rank}: {message}")
            except Exception:  # noqa: BLE001  (an exception type that takes other arguments)
                error = RuntimeError(f"rank {rank}: {message}")
            raise error from failure
    return result


def _rank_context(comm, lib):
    """The Context on this rank's device (vkc_mpi_local_device): the default one where it is
    that device, else one kept per device."""
    index = c_uint32()
    _check(lib.vkc_mpi_local_device(_handle(comm), byref(index)))
    device = index.value

    def made():
        if device == choose_device():
            return default_context()
        with _lock:
            if device not in _contexts:
                _contexts[device] = Context(device=device)
            return _contexts[device]
    return made


def _keys(keys):
    keys = np.ascontiguousarray(keys)
    if keys.ndim != 1:
        raise ValueError(f"vkcompute.mpi sorts 1-D arrays, not {keys.ndim}-D")
    if keys.dtype.kind not in "uif" or keys.dtype.itemsize not in (1, 2, 4, 8) or \
            (keys.dtype.kind == "f" and keys.dtype.itemsize == 1):
        raise TypeError(f"vkcompute.mpi sorts integers and floats of 8 to 64 bits, not {keys.dtype}")
    return keys if keys.dtype.isnative else keys.astype(keys.dtype.newbyteorder("="))


def _values(values, keys):
    values = np.ascontiguousarray(values)
    if values.shape != keys.shape:
        raise ValueError(f"values have shape {values.shape}, keys {keys.shape}")
    if values.dtype.itemsize not in _VALUE_TYPES:
        raise TypeError(f"vkcompute.mpi moves values of 4 or 8 bytes, not {values.dtype}")
    return values


def _sorted(comm, keys, values, pairs, descending, context):
    """The distributed sort: this rank's (keys, values; None without pairs)."""
    lib = _library()
    handle = _handle(comm)
    rank_context = None if context is not None else _rank_context(comm, lib)

    def prepare():
        k = _keys(keys)
        v = _values(values, k) if pairs else None
        return k, v, context if context is not None else rank_context()
    k, v, ctx = _on_every_rank(comm, prepare)
    options = _options_for(AUTO, descending, None)
    key_type = key_plan(k.dtype).key_type
    slice_ = c_void_p()
    context_handle = ctx._enter()
    try:
        if v is None:
            status = lib.vkc_mpi_sort(context_handle, handle, key_type, k.ctypes.data, k.size, options, byref(slice_))
        else:
            status = lib.vkc_mpi_sort_pairs(context_handle, handle, key_type, k.ctypes.data,
                                            _VALUE_TYPES[v.dtype.itemsize], v.ctypes.data, k.size, options,
                                            byref(slice_))
    finally:
        ctx._leave()
    _check(status)
    try:
        info = _SliceInfo()
        _check(lib.vkc_mpi_slice_get_info(slice_, byref(info), ctypes.sizeof(info)))
        out_keys = np.empty(info.count, dtype=k.dtype)
        out_values = None if v is None else np.empty(info.count, dtype=v.dtype)
        _check(lib.vkc_mpi_slice_copy(slice_, out_keys.ctypes.data,
                                      None if out_values is None else out_values.ctypes.data))
    finally:
        lib.vkc_mpi_slice_destroy(slice_)
    return out_keys, out_values


def sort(comm, keys, *, descending=False, context=None):
    """This rank's range of the sorted whole that the ranks' `keys` form (collective). context: the
    vkcompute.Context to sort on; None: one on this rank's device (its rank among the ranks on
    its host, modulo the host's devices)."""
    return _sorted(comm, keys, None, False, descending, context)[0]


def sort_pairs(comm, keys, values, *, descending=False, context=None):
    """sort() moving `values` (one per key, of any 4- or 8-byte dtype) with the keys: this rank's
    (keys, values) (collective)."""
    return _sorted(comm, keys, values, True, descending, context)
