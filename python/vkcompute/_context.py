"""Devices and contexts: Context, devices(), default_context()."""

from __future__ import annotations

import atexit
import ctypes
import dataclasses
import os
import threading
import weakref
from ctypes import byref, c_uint32, c_void_p
from typing import List, Optional

from . import _capi
from ._capi import DeviceInfoStruct, DevicePciStruct, check, lib, missing_functions, require
from ._pinned import PinnedPool

__all__ = ["Context", "DeviceInfo", "PciInfo", "devices", "default_context", "choose_device"]

_DEVICE_TYPES = {0: "other", 1: "integrated_gpu", 2: "discrete_gpu", 3: "virtual_gpu", 4: "cpu"}


@dataclasses.dataclass(frozen=True)
class PciInfo:
    """Where a device sits on the PCI bus and what the system tells of its link and NUMA node, as
    `vkc info --json` reports them; each fact None where unknown."""

    address: str  #: "0000:1b:00.0"
    numa_node: Optional[int]
    link_speed: Optional[str]  #: the current link, "32.0 GT/s PCIe"
    link_width: Optional[int]  #: lanes of the current link
    max_link_speed: Optional[str]
    max_link_width: Optional[int]

    @classmethod
    def _of_device(cls, index: int) -> Optional["PciInfo"]:
        """The device's PCI facts; None when its driver gives no address (or the library is too
        old to say)."""
        if "vkc_device_get_pci" in missing_functions:
            return None
        s = DevicePciStruct()
        check(lib.vkc_device_get_pci(index, byref(s), ctypes.sizeof(s)))
        if not s.known:
            return None
        text = lambda b: b.decode("utf-8", "replace") or None  # noqa: E731
        return cls(address=s.address.decode(), numa_node=s.numa_node if s.numa_node >= 0 else None,
                   link_speed=text(s.link_speed), link_width=s.link_width or None,
                   max_link_speed=text(s.max_link_speed), max_link_width=s.max_link_width or None)


@dataclasses.dataclass(frozen=True)
class DeviceInfo:
    """One Vulkan device, as vkc_device_info describes it."""

    index: int  #: position in the loader's enumeration (what Context(device=str(index)) picks)
    name: str  #: "NVIDIA H200", "llvmpipe (LLVM 15.0.6, 256 bits)"
    driver_name: str
    driver_info: str
    api_version: tuple  #: (major, minor, patch) of the Vulkan version the device supports
    vendor_id: int
    device_id: int
    type: str  #: "discrete_gpu", "integrated_gpu", "virtual_gpu", "cpu" or "other"
    subgroup_size: int  #: the default subgroup size of compute shaders
    shader_int64: bool  #: 64-bit integer keys sort here
    shader_float64: bool  #: the device has fp64 (float64 keys sort without it too)
    device_local_bytes: int  #: the largest device-local heap
    max_storage_buffer_range: int
    max_allocation_bytes: int
    pci: Optional[PciInfo] = None  #: None when the driver gives no PCI address (lavapipe)

    @classmethod
    def _from_struct(cls, s: DeviceInfoStruct) -> "DeviceInfo":
        v = s.api_version
        return cls(
            index=s.index,
            name=s.name.decode("utf-8", "replace"),
            driver_name=s.driver_name.decode("utf-8", "replace"),
            driver_info=s.driver_info.decode("utf-8", "replace"),
            api_version=((v >> 22) & 0x7F, (v >> 12) & 0x3FF, v & 0xFFF),
            vendor_id=s.vendor_id,
            device_id=s.device_id,
            type=_DEVICE_TYPES.get(s.type, "other"),
            subgroup_size=s.subgroup_size,
            shader_int64=bool(s.shader_int64),
            shader_float64=bool(s.shader_float64),
            device_local_bytes=s.device_local_bytes,
            max_storage_buffer_range=s.max_storage_buffer_range,
            max_allocation_bytes=s.max_allocation_bytes,
            pci=PciInfo._of_device(s.index),
        )


def devices() -> List[DeviceInfo]:
    """Every Vulkan device the loader reports, in its order (listed once per process)."""
    count = c_uint32()
    check(lib.vkc_device_count(byref(count)))
    result = []
    for i in range(count.value):
        info = DeviceInfoStruct()
        check(lib.vkc_device_get_info(i, byref(info), ctypes.sizeof(info)))
        result.append(DeviceInfo._from_struct(info))
    return result


def choose_device(device: Optional[str] = None) -> int:
    """The index of the device that Context(device=device) would use (see Context)."""
    index = c_uint32()
    check(lib.vkc_choose_device(_device_arg(device), byref(index)))
    return index.value


def _devices_arg(devices) -> bytes:
    """Context's devices= as vkc_context_options_set_devices takes it: "all", a comma list, or a
    list or tuple of indices and names."""
    if isinstance(devices, str):
        return devices.encode()
    if isinstance(devices, (list, tuple)) and devices and all(d is not None for d in devices):
        return ",".join(_device_arg(d).decode() for d in devices).encode()
    raise TypeError(f"devices must be \"all\", a comma-separated string or a non-empty list of indices or names, "
                    f"not {devices!r}")


def _device_arg(device) -> Optional[bytes]:
    if device is None:
        return None
    if isinstance(device, bool) or not isinstance(device, (int, str)):
        raise TypeError(f"device must be None, an index or a name, not {type(device).__name__}")
    return str(device).encode()


# The context whose call is running a callback on this thread: the library holds that
# context's lock meanwhile, so a call into it from the callback would wait for ever.
in_callback = threading.local()


class Handle:
    """An owner of one library handle that is held while a call uses it, so that close() on
    another thread cannot free it under the call (it raises RuntimeError instead)."""

    _handle = None
    _context = None  # the Context whose lock the library takes for this handle's calls

    def _init_handle(self) -> None:
        self._handle = None
        self._lock = threading.Lock()
        self._users = 0

    def _enter(self) -> int:
        busy = getattr(in_callback, "context", None)
        if busy is not None and busy is self._context:
            raise RuntimeError(
                "vkcompute: a progress callback cannot call vkcompute on the context that is sorting "
                "(the library holds it until the sort returns); use another Context")
        with self._lock:
            if self._handle is None:
                raise ValueError(f"this {self._public_name} is closed")
            self._users += 1
            return self._handle

    def _leave(self) -> None:
        with self._lock:
            self._users -= 1

    def _call(self, function, *args) -> None:
        """function(handle, *args), raising Error on failure."""
        handle = self._enter()
        try:
            check(function(handle, *args))
        finally:
            self._leave()

    def _close_handle(self, destroy) -> None:
        with self._lock:
            if self._handle is None:
                return
            if self._users:
                raise RuntimeError(f"{self._public_name}.close(): it is in use by another thread")
            handle, self._handle = self._handle, None
        destroy(handle)

    def _destroy_unused(self, destroy) -> None:
        """From __del__: no call can be using the handle (each holds a reference)."""
        try:
            handle, self._handle = self._handle, None
            if handle is not None:
                destroy(handle)
        except Exception:  # interpreter shutdown
            pass


class Context(Handle):
    """One Vulkan device, its queues, its compiled pipelines and the memory that sorts reuse.

    Context(device=None, memory_limit=None, pipeline_cache=None, validation=None, *,
    quiet=False, host_threads=None, devices=None)

    - device: an index (0, "1") or a case-insensitive substring of the device's name; None: the
      VKC_DEVICE environment variable, else the first discrete GPU, integrated GPU, virtual GPU,
      other device, CPU device.
    - devices: several devices at once: "all" (every GPU of the best kind), a list of indices or
      names ([0, 2]; a device may repeat), or the same as one comma-separated string. sort,
      argsort and sort_pairs of 1-D arrays then split each array by key across them, each device
      sorting one range of the result at once; an nbody.Simulation shares its bodies among them
      (each device computes the forces on its share); everything else (rows, segments) runs on
      the first, which `device` describes. None: one device, as `device` says.
    - memory_limit: the most device memory (bytes) that sorts hold at once; None: the
      VKC_DEVICE_MEMORY_LIMIT environment variable, else nine tenths of the largest device-local
      heap. Larger arrays are sorted in runs and merged.
    - pipeline_cache: a directory where compiled pipelines are kept between runs, or "off";
      None: VKC_PIPELINE_CACHE, else $XDG_CACHE_HOME/vkcompute, else ~/.cache/vkcompute.
    - validation: True turns on the Khronos validation layer (messages are kept, see
      take_validation_messages); None: on when VKC_VALIDATION=1.
    - quiet: no note on stderr when the choice falls back to a CPU device.
    - host_threads: threads that move host arrays to and from staging memory (None: 8, or fewer
      cores).

    Raises Error (status Status.NO_DEVICE) when there is no Vulkan device or none matches.
    Calls on one context are serialized by the library: several threads may share one, and
    each call waits for the one before it; different contexts run in parallel. close() (or
    leaving a `with` block) frees it at once; otherwise it is freed when garbage collected.
    """

    _public_name = "vkcompute.Context"

    def __init__(self, device=None, memory_limit=None, pipeline_cache=None, validation=None, *, quiet=False, host_threads=None,
                 devices=None):
        self._init_handle()
        self._context = self
        self._simulations = weakref.WeakSet()
        options = c_void_p()
        check(lib.vkc_context_options_create(byref(options)))
        try:
            if device is not None:
                check(lib.vkc_context_options_set_device(options, _device_arg(device)))
            if devices is not None:
                check(require("vkc_context_options_set_devices")(options, _devices_arg(devices)))
            if memory_limit is not None:
                limit = _non_negative_int(memory_limit, "memory_limit")
                check(lib.vkc_context_options_set_device_memory_limit(options, limit))
            if pipeline_cache is not None:
                check(lib.vkc_context_options_set_pipeline_cache_dir(options, os.fsencode(pipeline_cache)))
            if validation is not None:
                check(lib.vkc_context_options_set_validation(options, 1 if validation else 0))
            if quiet:
                check(lib.vkc_context_options_set_quiet(options, 1))
            if host_threads is not None:
                check(lib.vkc_context_options_set_host_threads(options, _non_negative_int(host_threads, "host_threads")))
            handle = c_void_p()
            check(lib.vkc_context_create(options, byref(handle)))
            self._handle = handle.value
        finally:
            lib.vkc_context_options_destroy(options)
        self._cancel_check_min_elements = cancel_check_min_elements(self.device)
        self._pinned = PinnedPool(self)
        self._pinned_ok = not {"vkc_pinned_alloc", "vkc_pinned_free"} & missing_functions

    @property
    def closed(self) -> bool:
        return self._handle is None

    def close(self) -> None:
        """Frees the context and its device memory (after closing its n-body simulations).
        Raises RuntimeError while another thread is in a call on it. Closing twice does nothing."""
        for sim in list(self._simulations):
            sim.close()
        self._close_handle(self._destroy_when_unpinned)

    def _destroy_when_unpinned(self, handle) -> None:
        # Arrays still in pinned memory that the context gave (empty_pinned, sort results) keep
        # it until the last of them is collected; it takes no calls meanwhile.
        if not self._pinned.close_when_returned(handle):
            lib.vkc_context_destroy(handle)

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        self._destroy_unused(lib.vkc_context_destroy)

    def __repr__(self) -> str:
        if self._handle is None:
            return "<vkcompute.Context (closed)>"
        return f"<vkcompute.Context device={self.device.name!r}>"

    @property
    def device(self) -> DeviceInfo:
        """The DeviceInfo of the device this context runs on."""
        info = DeviceInfoStruct()
        self._call(lib.vkc_context_get_device_info, byref(info), ctypes.sizeof(info))
        return DeviceInfo._from_struct(info)

    def release_cached_memory(self) -> None:
        """Frees the device and staging memory the context keeps between sorts, and its idle
        pinned blocks."""
        self._call(lib.vkc_context_release_cached_memory)
        if self._pinned_ok:
            self._pinned.release_idle()

    def empty_pinned(self, shape, dtype=float) -> "np.ndarray":
        """A new, uninitialized NumPy array in pinned host memory of this context, which sorts
        read and write with the device's copies alone (no staging copies). The memory goes
        back to the context's pool when the array and its views are gone."""
        import numpy as np

        if not self._pinned_ok:
            raise NotImplementedError("empty_pinned needs a libvkcompute with vkc_pinned_alloc")
        return self._pinned.empty(shape, dtype)

    def take_validation_messages(self) -> List[str]:
        """The validation layer's messages since the last call (then forgets them); always
        empty unless validation is on."""
        messages: List[str] = []

        def sink(_user, message):
            messages.append(message.decode("utf-8", "replace") if message else "")

        callback = _capi.MESSAGE_FN(sink)
        self._call(lib.vkc_context_take_validation_messages, callback, None)
        return messages


def _non_negative_int(value, name: str) -> int:
    try:
        v = int(value.__index__())
    except (AttributeError, TypeError):
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}") from None
    if v < 0 or v >= 1 << 64:
        raise ValueError(f"{name} must be between 0 and 2^64 - 1, not {v}")
    return v


_default: Optional[Context] = None
_default_lock = threading.Lock()


def cancel_check_min_elements(device: DeviceInfo) -> int:
    """Sorts of at least this many elements get the Ctrl-C callback even when the caller passes
    no progress=: those that take a tenth of a second or more (2^24 keys on a GPU; a CPU device
    is a hundred times slower). Below, the callback's per-call cost (an options object, a signal
    handler, two calls back into Python) would show (docs/perf-notes.md#python-package)."""
    return 1 << 16 if device.type == "cpu" else 1 << 24


def default_context() -> Context:
    """The process-wide Context, created with every default on first use (the device from
    VKC_DEVICE, else the best one present) and reused by every call given no context=."""
    global _default
    ctx = _default
    if ctx is not None:
        return ctx
    with _default_lock:
        if _default is None:
            _default = Context()
        return _default


def _default_if_created() -> Optional[Context]:
    return _default


def _close_default_at_exit():
    ctx = _default
    if ctx is not None:
        try:
            ctx.close()
        except Exception:  # a daemon thread still in a call: leave it to the OS
            pass


atexit.register(_close_default_at_exit)
