# Typed stub of the public API of vkcompute (PEP 561; py.typed marks the package as typed).
# Its docstrings are the runtime's (python/tests/test_stub.py checks that they stay the same).
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

import dataclasses
import os
import enum
from typing import Any, Callable, List, Literal, Optional, Sequence, Tuple, Union

import numpy as np

from . import nbody as nbody

__version__: str
#: The VKC_ABI_VERSION of the vkc.h this package binds.
ABI_VERSION: int
#: The path of the C library that was loaded.
library_path: str

ArrayLike = Any  # a NumPy array, a torch CPU tensor, a memoryview, anything NumPy can view
Progress = Callable[[int, int], Any]

def version() -> str:
    """The library's version, "major.minor.patch"."""

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
    status: Union[Status, int]
    def __init__(self, message: str, status: int = ...) -> None: ...
    @property
    def message(self) -> str: ...

@dataclasses.dataclass(frozen=True)
class PciInfo:
    """Where a device sits on the PCI bus and what the system tells of its link and NUMA node, as
    `vkc info --json` reports them; each fact None where unknown."""
    address: str
    numa_node: Optional[int]
    link_speed: Optional[str]
    link_width: Optional[int]
    max_link_speed: Optional[str]
    max_link_width: Optional[int]

@dataclasses.dataclass(frozen=True)
class DeviceInfo:
    """One Vulkan device, as vkc_device_info describes it."""
    index: int
    name: str
    driver_name: str
    driver_info: str
    api_version: Tuple[int, int, int]
    vendor_id: int
    device_id: int
    type: str
    subgroup_size: int
    shader_int64: bool
    shader_float64: bool
    device_local_bytes: int
    max_storage_buffer_range: int
    max_allocation_bytes: int
    pci: Optional[PciInfo] = ...

class Context:
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
    def __init__(
        self,
        device: Union[None, int, str] = None,
        memory_limit: Optional[int] = None,
        pipeline_cache: Union[None, str, "os.PathLike[str]"] = None,
        validation: Optional[bool] = None,
        *,
        quiet: bool = False,
        host_threads: Optional[int] = None,
        devices: Union[None, str, Sequence[Union[int, str]]] = None,
    ) -> None: ...
    @property
    def device(self) -> DeviceInfo:
        """The DeviceInfo of the device this context runs on."""
    @property
    def closed(self) -> bool: ...
    def close(self) -> None:
        """Frees the context and its device memory (after closing its n-body simulations).
        Raises RuntimeError while another thread is in a call on it. Closing twice does nothing.
        """
    def release_cached_memory(self) -> None:
        """Frees the device and staging memory the context keeps between sorts, and its idle
        pinned blocks.
        """
    def empty_pinned(self, shape: Union[int, Sequence[int]], dtype: Any = ...) -> np.ndarray:
        """A new, uninitialized NumPy array in pinned host memory of this context, which sorts
        read and write with the device's copies alone (no staging copies). The memory goes
        back to the context's pool when the array and its views are gone.
        """
    def take_validation_messages(self) -> List[str]:
        """The validation layer's messages since the last call (then forgets them); always
        empty unless validation is on.
        """
    def __enter__(self) -> "Context": ...
    def __exit__(self, *exc: object) -> None: ...

def devices() -> List[DeviceInfo]:
    """Every Vulkan device the loader reports, in its order (listed once per process)."""

def choose_device(device: Union[None, int, str] = None) -> int:
    """The index of the device that Context(device=device) would use (see Context)."""

def default_context() -> Context:
    """The process-wide Context, created with every default on first use (the device from
    VKC_DEVICE, else the best one present) and reused by every call given no context=.
    """

def sort(
    a: ArrayLike,
    axis: Optional[int] = -1,
    kind: Optional[str] = None,
    *,
    stable: Optional[bool] = None,
    descending: bool = False,
    begin_bit: int = 0,
    end_bit: Optional[int] = None,
    key_type: Optional[str] = None,
    out: Optional[ArrayLike] = None,
    progress: Optional[Progress] = None,
    context: Optional[Context] = None,
) -> Any:
    """Returns a sorted copy of an array, as numpy.sort does, sorted on the GPU.

    Parameters
    ----------
    a : array_like
        Keys: a NumPy array, a torch CPU tensor, a memoryview or anything NumPy can view (buffer
        protocol, __array__, __dlpack__ on the host). Read without a copy where it is contiguous
        and in native byte order; never written (unless it is also `out`). dtypes uint8, int8,
        uint16, int16, float16, uint32, int32, float32, uint64, int64, float64, each sorted as it
        is (8- and 16-bit keys take fewer radix passes), and bfloat16: a torch.bfloat16 tensor, or
        its bits in a uint16 array with key_type='bfloat16'. Others raise TypeError. Arrays in GPU
        memory (torch CUDA tensors, CuPy arrays) raise TypeError: copy them to the host first.
    axis : int or None, default -1
        The axis along which each 1-D slice is sorted on its own, as np.sort does; None sorts the
        flattened array. Along the last axis the rows go to the GPU together, one segmented sort
        (vkc_sort_rows); along another the axis is moved last in a copy, and back. Sorting many rows
        takes kind None, 'quicksort', 'heapsort', 'stable', 'mergesort', 'auto' or 'radix' (the
        library picks its kernels by row length; other kinds raise ValueError) and no bit range yet
        (NotImplementedError). A bad axis raises numpy's AxisError.
    kind : str or None
        None, 'quicksort', 'heapsort', 'auto': the library's choice (bitonic for small arrays,
        radix above a measured crossover); 'stable', 'mergesort', 'radix': radix sort (stable);
        'bitonic', 'bitonic_transpose', 'odd_even': that algorithm. Other strings: ValueError.
    stable : bool or None
        True: a stable sort (radix), as NumPy 2's stable=True. Not together with kind.
    descending : bool
        Largest first: the exact reverse of the ascending order for distinct keys, NaNs still last.
    begin_bit, end_bit : int, default 0 and None (the key's width)
        Sort by the bits [begin_bit, end_bit) of each key's ordered image alone, as CUB's
        begin_bit and end_bit: keys equal under those bits are equal keys and keep their input
        order. The ordered image is the unsigned number of the key's width whose ascending order is
        the order above: an unsigned key itself; a signed key with its sign bit flipped; a float
        with its sign bit flipped when positive and every bit flipped when negative, a NaN as its
        positive bits with the sign bit set; descending, every bit of that flipped but a NaN's. So
        a range without the top bit does not see the sign (under [0, 8), int16 -1 and 255 are equal
        keys). Requires 0 <= begin_bit <= end_bit <= the width (ValueError otherwise); a range
        other than the whole key sorts by radix only (kind None, 'stable' or 'radix'; others raise
        ValueError), over the 8-bit digits it touches: a narrower range is a faster sort.
    key_type : str or None
        None reads the keys as their dtype says. A key type name reads the bits of the array's
        elements as keys of that type, which must have their width: 'bfloat16' (or 'bf16') for
        bfloat16 bits in a uint16 or int16 array, as NumPy has no bfloat16 dtype; also 'uint8',
        'int8', 'uint16', 'int16', 'float16', 'uint32', 'int32', 'float32', 'uint64', 'int64',
        'float64' (or 'u8' ... 'f64'). The result keeps the array's dtype. Unknown names raise
        ValueError; another width TypeError.
    out : array, optional
        Where to put the result: a writeable array of the result's shape and of a's dtype
        (ValueError otherwise); out=a sorts a in place. Returned.
    progress : callable(done, total), optional
        Called on this thread as the sort advances (at its start and end at least); an exception it
        raises cancels the sort and is raised again (the input is left as it was).
    context : Context, optional
        The device to sort on; default_context() when omitted.

    Returns
    -------
    The sorted array: a torch tensor for a torch tensor (torch.bfloat16 for one), a NumPy array
    otherwise, of a's dtype (byte order included), or `out`.

    Order: integers by value; floats by value with -0.0 before +0.0 ascending (after it
    descending) and NaN last in both orders. Out of memory and device loss raise vkcompute.Error.
    """

def argsort(
    a: ArrayLike,
    axis: Optional[int] = -1,
    kind: Optional[str] = None,
    *,
    stable: Optional[bool] = None,
    descending: bool = False,
    begin_bit: int = 0,
    end_bit: Optional[int] = None,
    key_type: Optional[str] = None,
    progress: Optional[Progress] = None,
    context: Optional[Context] = None,
) -> Any:
    """Returns the stable permutation that sorts an array, as
    numpy.argsort(kind="stable") does: an np.intp array (a torch int64 tensor for a torch tensor).

    `a`, `axis`, `descending`, `begin_bit`, `end_bit`, `key_type`, `progress` and `context` as
    in sort(); a 0-d array gives [0]. Along an axis of an N-D array, each slice's permutation holds
    positions within the slice, as np.argsort(a, axis=k, kind="stable"). The permutation is always
    stable (equal keys keep their input order, in both orders): kind None, 'quicksort', 'heapsort',
    'stable', 'mergesort', 'auto' and 'radix' sort by radix, 'odd_even' by odd-even merge-split
    (one row only); the unstable 'bitonic' and 'bitonic_transpose' raise ValueError. With
    descending=True, equal keys still keep their input order; with a bit range, so do keys equal
    under it.
    """

def sort_pairs(
    keys: ArrayLike,
    values: ArrayLike,
    *,
    descending: bool = False,
    kind: Optional[str] = None,
    stable: Optional[bool] = None,
    begin_bit: int = 0,
    end_bit: Optional[int] = None,
    key_type: Optional[str] = None,
    progress: Optional[Progress] = None,
    context: Optional[Context] = None,
) -> Tuple[Any, Any]:
    """Sorts keys and moves values with them: returns (sorted keys, values in that
    order), both new arrays (torch tensors for torch tensors).

    keys : a 1-D array of a key dtype (as sort()).
    values : an array whose first axis has the keys' length, of any dtype. Rows of 4 or 8 bytes
        (uint32, float32, int64, float64, complex64, (n, 2) float32...) move on the GPU with the
        keys (vkc_sort_pairs_to); any other values are reordered on the host by the stable
        permutation (argsort, then take).
    descending, kind, stable, begin_bit, end_bit, key_type, progress, context : as in sort().
        With kind None the order of equal keys' values is unspecified (unless a bit range makes it
        radix); kind='stable' or stable=True keeps it (input order).
    """

def segmented_sort(
    keys: ArrayLike,
    offsets: Optional[ArrayLike] = None,
    *,
    begins: Optional[ArrayLike] = None,
    ends: Optional[ArrayLike] = None,
    values: Optional[ArrayLike] = None,
    descending: bool = False,
    out: Optional[ArrayLike] = None,
    key_type: Optional[str] = None,
    progress: Optional[Progress] = None,
    context: Optional[Context] = None,
) -> Any:
    """Sorts each segment of a 1-D array on its own, on the GPU: returns a
    sorted copy (with values: the tuple (sorted keys, values in that order)). As CUB's
    DeviceSegmentedSort; for the rows of an N-D array, sort(a, axis=...) is simpler.

    Parameters
    ----------
    keys : array_like
        A 1-D array of a key dtype, as sort() takes it (key_type= reads other bits as keys).
    offsets : array_like of int, optional
        S + 1 non-decreasing offsets within [0, len(keys)]: segment i is
        keys[offsets[i]:offsets[i + 1]] (np.split's boundaries with the ends added). Or, instead:
    begins, ends : array_like of int, optional
        S of each: segment i is keys[begins[i]:ends[i]]. Any order; segments may be empty and leave
        gaps, but must not overlap.
    values : array_like, optional
        Moved with the keys: an array whose first axis has the keys' length, of any dtype (rows of 4
        or 8 bytes move on the GPU, others on the host by the permutation, as sort_pairs).
    descending : bool
        Largest first within each segment, NaNs still last.
    out : array, optional
        Where the sorted keys go, as sort()'s out= (out=keys sorts in place); returned.
    key_type, progress, context : as in sort().

    Keys outside every segment come back as they were (values too). Equal keys keep their input
    order (the sort is stable, in both orders). Offsets that are not integers, negative, not 1-D,
    decreasing or past the keys, and segments that end before they begin or overlap, raise
    ValueError; giving both offsets and begins/ends, or neither, TypeError.
    """

def segmented_argsort(
    keys: ArrayLike,
    offsets: Optional[ArrayLike] = None,
    *,
    begins: Optional[ArrayLike] = None,
    ends: Optional[ArrayLike] = None,
    descending: bool = False,
    indices: Literal["local", "global"] = "local",
    key_type: Optional[str] = None,
    progress: Optional[Progress] = None,
    context: Optional[Context] = None,
) -> Any:
    """The stable permutation of each segment of a 1-D array, as np.intp
    (a torch int64 tensor for a torch tensor): what np.argsort(segment, kind="stable") gives for
    each segment.

    keys, offsets, begins, ends, descending, key_type, progress, context : as in segmented_sort().
    indices : 'local' or 'global'
        'local': positions within each segment, 0 for its first key (np.argsort of the segment); a
        position outside every segment holds 0. 'global': positions in the whole array, so that
        keys[result] sorts each segment in place; a position outside every segment holds itself,
        so the result is a permutation of the whole array. Anything else raises ValueError.
    """
