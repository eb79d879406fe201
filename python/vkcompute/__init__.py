"""vkcompute: GPU sorting with NumPy's semantics, and n-body simulation, on any Vulkan device.

    import numpy as np, vkcompute
    a = np.random.default_rng(0).random(10_000_000, dtype=np.float32)
    s = vkcompute.sort(a)                     # == np.sort(a)
    i = vkcompute.argsort(a, descending=True) # the stable permutation, as np.intp

A pure-Python package over the C library libvkcompute.so.1 (its C ABI, include/vkc/vkc.h) through
ctypes. One Context per process is created on first use (default_context()); every function
takes context= for another. Calls release the GIL while the GPU works; several threads may sort
at once (the library serializes the calls of one context). Ctrl-C during a long sort (2^24
keys or more on a GPU, 2^16 on a CPU device, or any sort given progress=) cancels it and raises
KeyboardInterrupt, leaving the input as it was.

The library is found through the VKCOMPUTE_LIBRARY environment variable (a path), else
libvkcompute.so.1 in this package's directory, else the path `cmake --install` recorded, else
the system's library search path.
"""

from ._capi import ABI_VERSION, Error, Status, library_path, version
from ._context import Context, DeviceInfo, PciInfo, choose_device, default_context, devices
from ._segments import segmented_argsort, segmented_sort
from ._sort import argsort, sort, sort_pairs
from . import nbody

__version__ = version()

__all__ = [
    "sort",
    "argsort",
    "sort_pairs",
    "segmented_sort",
    "segmented_argsort",
    "Context",
    "DeviceInfo",
    "PciInfo",
    "devices",
    "choose_device",
    "default_context",
    "Error",
    "Status",
    "nbody",
    "library_path",
    "version",
    "ABI_VERSION",
    "__version__",
]
