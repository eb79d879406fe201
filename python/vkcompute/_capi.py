"""The C ABI (include/vkc/vkc.h) through ctypes: the library, every function's signature, and the
status codes turned into exceptions.

ctypes.CDLL releases the GIL for the duration of every call, so other Python threads run while
the GPU sorts; callbacks from the library (progress) take it back while they run.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import enum
import os
from ctypes import POINTER, Structure, c_char, c_char_p, c_double, c_float, c_int, c_int32, c_size_t, c_uint32, c_uint64, c_void_p

__all__ = ["lib", "Error", "Status", "check", "ABI_VERSION", "library_path"]

#: The VKC_ABI_VERSION of the vkc.h this package binds.
ABI_VERSION = 1

_SONAME = "libvkcompute.so.1"


class Status(enum.IntEnum):
    """vkc_status: what a library call returned."""

    OK = 0
    INVALID_ARGUMENT = 1
    UNSUPPORTED = 2
    OUT_OF_MEMORY = 3
    DEVICE_LOST = 4
    NO_DEVICE = 5
    CANCELLED = 6
    CALLBACK = 7
    FAILED = 8


class Error(RuntimeError):
    """A failure the library reported: its one-line message, and its status (a Status).

    Raised for out of memory (Status.OUT_OF_MEMORY), device loss (Status.DEVICE_LOST), no
    (matching) device (Status.NO_DEVICE), what the device cannot do (Status.UNSUPPORTED) and every
    other failure inside the library. Arguments that Python can check itself raise TypeError or
    ValueError instead.
    """

    def __init__(self, message: str, status: int = Status.FAILED):
        super().__init__(message)
        try:
            self.status = Status(status)
        except ValueError:  # a status newer than this package: keep the number
            self.status = status

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""

    def __reduce__(self):  # pickles (multiprocessing) keep the status
        return (type(self), (self.message, int(self.status)))


# --------------------------------------------------------------------------------------------
# Finding the library


def _candidates():
    """Where the library may be, in the order tried: VKCOMPUTE_LIBRARY, the package's own
    directory, the path recorded at install time, then the system's search (find_library)."""
    env = os.environ.get("VKCOMPUTE_LIBRARY")
    if env:
        yield env, "VKCOMPUTE_LIBRARY"
        return  # an explicit choice is never silently replaced by another library
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), _SONAME)
    if os.path.exists(here):
        yield here, "the package directory"
    try:
        from ._library_path import LIBRARY_PATH  # written by `cmake --install`
    except ImportError:
        LIBRARY_PATH = None
    if LIBRARY_PATH:
        yield LIBRARY_PATH, "the path recorded at install time"
    found = ctypes.util.find_library("vkcompute")
    if found:
        yield found, "the system's library path"


def _load():
    tried = []
    for path, origin in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append(f"{path} ({origin}): {e}")
    detail = "; ".join(tried) if tried else "no candidate found"
    raise ImportError(
        "vkcompute: cannot load the vkcompute C library (libvkcompute.so.1): "
        f"{detail}. Build it (cmake target vkc_capi, then the `python` target copies it into "
        "build/python/vkcompute/), install it with `cmake --install`, or set VKCOMPUTE_LIBRARY "
        "to its path."
    )


lib, library_path = _load()

# --------------------------------------------------------------------------------------------
# Types


class DeviceInfoStruct(Structure):
    _fields_ = [
        ("index", c_uint32),
        ("name", c_char * 256),
        ("driver_name", c_char * 256),
        ("driver_info", c_char * 256),
        ("api_version", c_uint32),
        ("vendor_id", c_uint32),
        ("device_id", c_uint32),
        ("type", c_int),
        ("subgroup_size", c_uint32),
        ("shader_int64", c_uint32),
        ("shader_float64", c_uint32),
        ("device_local_bytes", c_uint64),
        ("max_storage_buffer_range", c_uint64),
        ("max_allocation_bytes", c_uint64),
    ]


class DevicePciStruct(Structure):
    _fields_ = [
        ("known", c_uint32),
        ("domain", c_uint32),
        ("bus", c_uint32),
        ("device", c_uint32),
        ("function", c_uint32),
        ("address", c_char * 32),
        ("numa_node", c_int32),
        ("link_speed", c_char * 64),
        ("link_width", c_uint32),
        ("max_link_speed", c_char * 64),
        ("max_link_width", c_uint32),
    ]


class NbodyDiagnosticsStruct(Structure):
    _fields_ = [
        ("mass", c_double),
        ("kinetic", c_double),
        ("potential", c_double),
        ("energy", c_double),
        ("momentum", c_double * 3),
        ("angular_momentum", c_double * 3),
        ("centre_of_mass", c_double * 3),
    ]


class NbodyViewStruct(Structure):
    _fields_ = [
        ("centre_x", c_float),
        ("centre_y", c_float),
        ("extent", c_float),
        ("body_radius", c_int32),
        ("white", c_float),
    ]


PROGRESS_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_uint64, c_uint64)
MESSAGE_FN = ctypes.CFUNCTYPE(None, c_void_p, c_char_p)
READ_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_uint64, c_void_p, c_uint64)
WRITE_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_uint64, c_void_p, c_uint64)

_status = c_int
_handle = c_void_p
_ptr = c_void_p
_u64 = c_uint64

# name: (restype, argtypes). Every function of vkc.h.
_SIGNATURES = {
    "vkc_last_error": (c_char_p, []),
    "vkc_status_name": (c_char_p, [c_int]),
    "vkc_abi_version": (c_uint32, []),
    "vkc_version": (c_char_p, []),
    # devices
    "vkc_device_count": (_status, [POINTER(c_uint32)]),
    "vkc_device_get_info": (_status, [c_uint32, POINTER(DeviceInfoStruct), c_size_t]),
    "vkc_device_get_pci": (_status, [c_uint32, POINTER(DevicePciStruct), c_size_t]),
    "vkc_choose_device": (_status, [c_char_p, POINTER(c_uint32)]),
    # contexts
    "vkc_context_options_create": (_status, [POINTER(_handle)]),
    "vkc_context_options_destroy": (None, [_handle]),
    "vkc_context_options_set_device": (_status, [_handle, c_char_p]),
    "vkc_context_options_set_devices": (_status, [_handle, c_char_p]),
    "vkc_context_options_set_device_memory_limit": (_status, [_handle, _u64]),
    "vkc_context_options_set_pipeline_cache_dir": (_status, [_handle, c_char_p]),
    "vkc_context_options_set_validation": (_status, [_handle, c_int]),
    "vkc_context_options_set_quiet": (_status, [_handle, c_int]),
    "vkc_context_options_set_host_threads": (_status, [_handle, c_uint32]),
    "vkc_context_create": (_status, [_handle, POINTER(_handle)]),
    "vkc_context_destroy": (None, [_handle]),
    "vkc_context_get_device_info": (_status, [_handle, POINTER(DeviceInfoStruct), c_size_t]),
    "vkc_context_release_cached_memory": (_status, [_handle]),
    "vkc_pinned_alloc": (_status, [_handle, _u64, POINTER(c_void_p)]),
    "vkc_pinned_free": (_status, [_handle, c_void_p]),
    "vkc_context_take_validation_messages": (_status, [_handle, MESSAGE_FN, c_void_p]),
    # sort options
    "vkc_sort_options_create": (_status, [POINTER(_handle)]),
    "vkc_sort_options_destroy": (None, [_handle]),
    "vkc_sort_options_set_algorithm": (_status, [_handle, c_int]),
    "vkc_sort_options_set_order": (_status, [_handle, c_int]),
    "vkc_sort_options_set_radix_scan": (_status, [_handle, c_int]),
    "vkc_sort_options_set_progress": (_status, [_handle, PROGRESS_FN, c_void_p]),
    "vkc_sort_options_set_bits": (_status, [_handle, c_uint32, c_uint32]),
    "vkc_sort_options_get_order": (_status, [_handle, POINTER(c_int)]),
    "vkc_sort_options_get_bits": (_status, [_handle, POINTER(c_uint32), POINTER(c_uint32)]),
    # sorts of host arrays
    "vkc_sort": (_status, [_handle, c_int, _ptr, _u64, _handle]),
    "vkc_sort_to": (_status, [_handle, c_int, _ptr, _ptr, _u64, _handle]),
    "vkc_sort_pairs": (_status, [_handle, c_int, _ptr, c_int, _ptr, _u64, _handle]),
    "vkc_sort_pairs_to": (_status, [_handle, c_int, _ptr, _ptr, c_int, _ptr, _ptr, _u64, _handle]),
    "vkc_argsort": (_status, [_handle, c_int, _ptr, _u64, _ptr, _handle]),
    "vkc_argsort64": (_status, [_handle, c_int, _ptr, _u64, _ptr, _handle]),
    # segmented sorts
    "vkc_sort_segments": (_status, [_handle, c_int, _ptr, _u64, _ptr, _ptr, _u64, _handle]),
    "vkc_sort_segments_pairs": (_status, [_handle, c_int, _ptr, c_int, _ptr, _u64, _ptr, _ptr, _u64, _handle]),
    "vkc_argsort_segments": (_status, [_handle, c_int, _ptr, _u64, _ptr, _ptr, _u64, c_int, _ptr, c_int, _handle]),
    "vkc_sort_rows": (_status, [_handle, c_int, _ptr, _u64, _u64, _handle]),
    "vkc_sort_rows_pairs": (_status, [_handle, c_int, _ptr, c_int, _ptr, _u64, _u64, _handle]),
    "vkc_argsort_rows": (_status, [_handle, c_int, _ptr, _u64, _u64, c_int, _ptr, _handle]),
    # streamed sorts
    "vkc_sort_streamed": (_status, [_handle, c_int, READ_FN, c_void_p, WRITE_FN, c_void_p, _u64, _handle]),
    "vkc_sort_pairs_streamed": (
        _status,
        [_handle, c_int, READ_FN, c_void_p, WRITE_FN, c_void_p, c_int, READ_FN, c_void_p, WRITE_FN, c_void_p, _u64, _handle],
    ),
    "vkc_argsort_streamed": (_status, [_handle, c_int, READ_FN, c_void_p, WRITE_FN, c_void_p, _u64, _handle]),
    "vkc_argsort64_streamed": (_status, [_handle, c_int, READ_FN, c_void_p, WRITE_FN, c_void_p, _u64, _handle]),
    # n-body
    "vkc_nbody_initial_conditions": (_status, [c_int, _u64, _u64, _ptr, _ptr]),
    "vkc_nbody_create": (_status, [_handle, _ptr, _ptr, _u64, c_float, c_float, POINTER(_handle)]),
    "vkc_nbody_destroy": (None, [_handle]),
    "vkc_nbody_step": (_status, [_handle, c_float, c_uint32]),
    "vkc_nbody_get_state": (_status, [_handle, _ptr, _ptr, POINTER(c_double)]),
    "vkc_nbody_set_state": (_status, [_handle, _ptr, _ptr]),
    "vkc_nbody_diagnose": (_status, [_handle, POINTER(NbodyDiagnosticsStruct)]),
    "vkc_nbody_fit_view": (_status, [_handle, POINTER(NbodyViewStruct)]),
    "vkc_nbody_render": (_status, [_handle, c_uint32, c_uint32, POINTER(NbodyViewStruct), _ptr]),
}

_missing = []
for _name, (_restype, _argtypes) in _SIGNATURES.items():
    try:
        _fn = getattr(lib, _name)
    except AttributeError:
        _missing.append(_name)
        continue
    _fn.restype = _restype
    _fn.argtypes = _argtypes

_abi = lib.vkc_abi_version() if "vkc_abi_version" not in _missing else None
if _abi != ABI_VERSION:
    raise ImportError(
        f"vkcompute: {library_path} has C ABI version {_abi}, this package was written for "
        f"version {ABI_VERSION}; install the library and the package from the same build"
    )

#: Functions of vkc.h that the loaded library does not export (a library older than the
#: header adds functions without changing the ABI version); calling one raises Error.
missing_functions = frozenset(_missing)


def require(name: str):
    """The library's function `name`, or Error when this library lacks it."""
    if name in missing_functions:
        raise Error(f"{library_path} has no {name}: it is older than this package", Status.UNSUPPORTED)
    return getattr(lib, name)


def last_error() -> str:
    message = lib.vkc_last_error()
    return message.decode("utf-8", "replace") if message else ""


def check(status: int) -> None:
    """Raises Error with the library's message when `status` is not VKC_OK."""
    if status:
        raise Error(last_error() or f"vkcompute: {_status_name(status)}", status)


def _status_name(status: int) -> str:
    name = lib.vkc_status_name(status)
    return name.decode() if name else str(status)


def version() -> str:
    """The library's version, "major.minor.patch"."""
    return lib.vkc_version().decode()
