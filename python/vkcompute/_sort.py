"""sort, argsort and sort_pairs with NumPy's semantics, over vkc_sort_to, vkc_argsort64 and
vkc_sort_pairs_to."""

from __future__ import annotations

import operator

import numpy as np

from ._arrays import AxisError, Kind, as_host_array, as_writable_array, key_plan, refuse_device_array, wrap_result
from ._calls import ALGORITHMS, AUTO, BITONIC, BITONIC_TRANSPOSE, RADIX, invoke
from ._capi import lib, require
from ._context import default_context
from ._pinned import result_array

__all__ = ["sort", "argsort", "sort_pairs"]

_KINDS = dict(ALGORITHMS)
_KINDS.update({"quicksort": AUTO, "heapsort": AUTO, "stable": RADIX, "mergesort": RADIX})
_KIND_NAMES = "'quicksort', 'heapsort', 'stable', 'mergesort', 'auto', 'radix', 'bitonic', 'bitonic_transpose', 'odd_even'"
_INTP_IS_64 = np.dtype(np.intp).itemsize == 8
#: The vkc_value_type of np.intp indices.
INDEX_TYPE = 2 if _INTP_IS_64 else 1
_ALGORITHM_NAMES = {number: name for name, number in ALGORITHMS.items()}


def _algorithm(kind, stable, function: str, stable_only: bool = False) -> int:
    """The vkc_sort_algorithm for NumPy's kind= and stable= (as NumPy 2 takes them)."""
    if stable is not None and kind is not None:
        raise ValueError("`kind` and `stable` parameters can't be provided at the same time. Use only one of them.")
    if stable:
        return RADIX
    if kind is None:
        return AUTO
    if not isinstance(kind, str):
        raise TypeError(f"{function}: kind must be a string or None, not {type(kind).__name__}")
    algorithm = _KINDS.get(kind.lower())
    if algorithm is None:
        raise ValueError(f"{function}: kind must be one of {_KIND_NAMES} (got {kind!r})")
    if stable_only and algorithm in (BITONIC, BITONIC_TRANSPOSE):
        raise ValueError(f"{function} is always stable: kind={kind!r} is not (use 'stable', 'radix' or 'odd_even')")
    return algorithm


def _axis(arr, axis, function: str):
    """`axis` as a number in [0, ndim), or None for the flattened array; AxisError outside."""
    if axis is None:
        return None
    try:
        ax = operator.index(axis)
    except TypeError:
        raise TypeError(f"{function}: axis must be an integer or None, not {type(axis).__name__}") from None
    if not -arr.ndim <= ax < arr.ndim:
        raise AxisError(ax, arr.ndim)
    return ax % arr.ndim


def _is_batched(arr, ax) -> bool:
    """Whether sorting along `ax` sorts several rows of more than one key each."""
    return ax is not None and arr.shape[ax] > 1 and arr.size > arr.shape[ax]


def _along(arr, ax):
    """(keys as a 1-D array, the result's shape), or (None, shape) when nothing needs sorting:
    an empty array, or one of length 1 along the axis. Not for batched sorts (_is_batched)."""
    if ax is None:
        return arr.reshape(-1), (arr.size,)
    if arr.ndim == 1:
        return arr, arr.shape
    if arr.size == 0 or arr.shape[ax] == 1:
        return None, arr.shape
    return arr.reshape(-1), arr.shape  # every other axis has length 1: the elements in a row


def _batched_algorithm(algorithm, bits, kind, function: str) -> int:
    """The algorithm of a sort along an axis of many rows (vkc_sort_rows), which picks its own
    kernels and sorts by the whole key."""
    if algorithm not in (AUTO, RADIX):
        raise ValueError(f"{function} along an axis of an array of more than one dimension chooses its own "
                         f"kernels: kind must be None, 'quicksort', 'heapsort', 'stable', 'mergesort', 'auto' "
                         f"or 'radix', not {kind!r}")
    if bits is not None:
        raise NotImplementedError(f"{function}: a bit range along an axis of an array of more than one dimension "
                                  "is not supported yet (axis=None sorts the flattened array by one)")
    return algorithm


def _plan(arr, input_kind, key_type):
    """The KeyPlan of the keys `arr`: a torch.bfloat16 tensor's bits are bfloat16 keys."""
    if key_type is None and input_kind == Kind.TORCH_BFLOAT16:
        key_type = "bfloat16"
    return key_plan(arr.dtype, key_type)


def _bit_range(plan, begin_bit, end_bit, algorithm, function: str):
    """(begin_bit, end_bit) for the library, or None for the whole key; ValueError for a range
    outside the key, or a range with an algorithm other than radix."""
    try:
        begin = operator.index(begin_bit)
        end = plan.bits if end_bit is None else operator.index(end_bit)
    except TypeError:
        raise TypeError(f"{function}: begin_bit and end_bit must be integers (end_bit may be None)") from None
    if not 0 <= begin <= end <= plan.bits:
        raise ValueError(f"{function}: bits [{begin_bit}, {end_bit}) are not within the {plan.bits} bits of "
                         f"{plan.name} keys (0 <= begin_bit <= end_bit <= {plan.bits})")
    if begin == 0 and end == plan.bits:
        return None
    if algorithm not in (AUTO, RADIX):
        raise ValueError(f"{function}: a bit range sorts by radix only (kind None, 'stable' or 'radix'), "
                         f"not {_ALGORITHM_NAMES[algorithm]!r}")
    return begin, end


def _nans_without_sign(keys, plan):
    """`keys` (a new array) with every NaN's sign bit cleared, as the library returns sorted NaNs
    (the order contract): for the keys sorted here through a permutation."""
    if keys.dtype.kind == "f":
        nan = np.isnan(keys)
        keys[nan] = np.copysign(keys[nan], 1)
    elif plan.name == "bfloat16":  # its bits, in a 16-bit integer array
        bits = keys.astype(np.uint16)
        nan = (bits & 0x7FFF) > 0x7F80
        keys[nan] = (bits[nan] & 0x7FFF).astype(keys.dtype)
    return keys


def _keys_for_library(flat, plan):
    """(contiguous native keys the library can read, whether they are a private copy)."""
    if plan.swapped:
        return flat.astype(plan.work_dtype), True
    if not flat.flags.c_contiguous:
        return np.ascontiguousarray(flat), True
    return flat, False


def _ptr(arr) -> int:
    return arr.__array_interface__["data"][0]


def _out_array(out, shape, dtype, function: str):
    """The writeable array `out` views (None without one), of the result's shape and dtype."""
    if out is None:
        return None
    target = as_writable_array(out)
    if target.shape != tuple(shape):
        raise ValueError(f"{function}: out has shape {target.shape}, the result has shape {tuple(shape)}")
    if target.dtype != dtype:
        raise ValueError(f"{function}: out has dtype {target.dtype}, the result has dtype {dtype}")
    return target


def _sort_rows(arr, ax, plan, target, call):
    """`arr` sorted along `ax` as rows (vkc_sort_rows): in `target` itself where that holds the
    keys as the library reads them (C order, native, the axis last), else in a new C-ordered
    array of arr's dtype. `call` is (algorithm, descending, progress, context)."""
    algorithm, descending, progress, context = call
    columns = arr.shape[ax]
    if target is not None and ax == arr.ndim - 1 and not plan.swapped and target.flags.c_contiguous:
        np.copyto(target, arr)
        work = target
    else:
        work = np.moveaxis(arr, ax, -1).astype(plan.work_dtype, order="C")  # a copy, sorted in place
    invoke(context or default_context(), require("vkc_sort_rows"), (plan.key_type, _ptr(work), work.size // columns, columns),
           work.size, algorithm, descending, progress)
    if work is target:
        return target
    return np.ascontiguousarray(np.moveaxis(work, -1, ax), dtype=arr.dtype)


def _argsort_rows(arr, ax, plan, call):
    """The stable permutation of every row along `ax` (vkc_argsort_rows), as positions within
    the row: a new C-ordered np.intp array of arr's shape."""
    algorithm, descending, progress, context = call
    columns = arr.shape[ax]
    keys = np.moveaxis(arr, ax, -1)
    if plan.swapped or not keys.flags.c_contiguous:
        keys = keys.astype(plan.work_dtype, order="C")
    indices = np.empty(keys.shape, np.intp)
    args = (plan.key_type, _ptr(keys), keys.size // columns, columns, INDEX_TYPE, _ptr(indices))
    invoke(context or default_context(), require("vkc_argsort_rows"), args, keys.size, algorithm, descending, progress)
    return np.ascontiguousarray(np.moveaxis(indices, -1, ax))


def sort(a, axis=-1, kind=None, *, stable=None, descending=False, begin_bit=0, end_bit=None, key_type=None, out=None,
         progress=None, context=None):
    arr, input_kind = as_host_array(a)
    plan = _plan(arr, input_kind, key_type)
    algorithm = _algorithm(kind, stable, "sort")
    bits = _bit_range(plan, begin_bit, end_bit, algorithm, "sort")
    ax = _axis(arr, axis, "sort")
    if _is_batched(arr, ax):
        target = _out_array(out, arr.shape, arr.dtype, "sort")
        algorithm = _batched_algorithm(algorithm, bits, kind, "sort")
        result = _sort_rows(arr, ax, plan, target, (algorithm, descending, progress, context))
        if target is None:
            return wrap_result(result, input_kind)
        if result is not target:
            np.copyto(target, result)
        return out
    flat, shape = _along(arr, ax)
    dtype = arr.dtype
    target = _out_array(out, shape, dtype, "sort")

    if flat is None or flat.size == 0:
        result = arr.reshape(shape).copy() if flat is None else np.empty(shape, dtype)
        if target is not None:
            np.copyto(target, result)
            return out
        return wrap_result(result, input_kind)

    n = flat.size
    keys, private = _keys_for_library(flat, plan)
    direct = target is not None and not private and target.flags.c_contiguous and (
        _ptr(target) == _ptr(keys) or not np.may_share_memory(target, keys))
    if direct:
        sorted_keys = target.reshape(-1)
    elif private:
        sorted_keys = keys  # sorted in place: it is our own copy
    else:
        sorted_keys = result_array(context or default_context(), n, dtype)
    invoke(context or default_context(), lib.vkc_sort_to, (plan.key_type, _ptr(keys), _ptr(sorted_keys), n),
           n, algorithm, descending, progress, bits)
    if direct:
        return out
    result = sorted_keys.astype(dtype) if private and sorted_keys.dtype != dtype else sorted_keys
    result = result.reshape(shape)
    if target is not None:
        np.copyto(target, result)
        return out
    return wrap_result(result, input_kind)


def _argsort_flat(flat, plan, n, algorithm, descending, progress, context, bits):
    """The stable permutation of the 1-D `flat`, as a new np.intp array."""
    keys, _ = _keys_for_library(flat, plan)
    indices = result_array(context or default_context(), n, np.intp)
    function = lib.vkc_argsort64 if _INTP_IS_64 else lib.vkc_argsort
    invoke(context or default_context(), function, (plan.key_type, _ptr(keys), n, _ptr(indices)),
           n, algorithm, descending, progress, bits)
    return indices


def argsort(a, axis=-1, kind=None, *, stable=None, descending=False, begin_bit=0, end_bit=None, key_type=None,
            progress=None, context=None):
    arr, input_kind = as_host_array(a)
    plan = _plan(arr, input_kind, key_type)
    algorithm = _algorithm(kind, stable, "argsort", stable_only=True)
    bits = _bit_range(plan, begin_bit, end_bit, algorithm, "argsort")
    if arr.ndim == 0 and axis is not None:
        arr = arr.reshape(1)  # as NumPy: the permutation of a 0-d array is [0]
    ax = _axis(arr, axis, "argsort")
    if _is_batched(arr, ax):
        algorithm = _batched_algorithm(algorithm, bits, kind, "argsort")
        return wrap_result(_argsort_rows(arr, ax, plan, (algorithm, descending, progress, context)), input_kind)
    flat, shape = _along(arr, ax)
    if flat is None or flat.size == 0:
        return wrap_result(np.zeros(shape, np.intp), input_kind)
    indices = _argsort_flat(flat, plan, flat.size, algorithm, descending, progress, context, bits)
    return wrap_result(indices.reshape(shape), input_kind)


def _values_as_words(values):
    """values (n, ...) whose rows are 4 or 8 plain bytes, as a contiguous 1-D uint32/uint64
    array (a view where values are contiguous), with its vkc_value_type; (None, None) else."""
    if values.dtype.hasobject or values.ndim == 0:
        return None, None
    row_bytes = values.itemsize
    for extent in values.shape[1:]:
        row_bytes *= extent
    if row_bytes not in (4, 8):
        return None, None
    word = np.uint32 if row_bytes == 4 else np.uint64
    contiguous = np.ascontiguousarray(values)
    if values.ndim == 1 and values.dtype.itemsize == row_bytes and values.dtype.fields is None:
        return contiguous, (1 if row_bytes == 4 else 2)
    return contiguous.reshape(-1).view(np.uint8).view(word), (1 if row_bytes == 4 else 2)


def sort_pairs(keys, values, *, descending=False, kind=None, stable=None, begin_bit=0, end_bit=None, key_type=None,
               progress=None, context=None):
    key_input, keys_kind = as_host_array(keys)
    value_input, values_kind = _as_values(values)
    plan = _plan(key_input, keys_kind, key_type)
    algorithm = _algorithm(kind, stable, "sort_pairs")
    bits = _bit_range(plan, begin_bit, end_bit, algorithm, "sort_pairs")
    if key_input.ndim != 1:
        raise ValueError(f"sort_pairs: keys must be one-dimensional, not of shape {key_input.shape}")
    n = key_input.shape[0]
    if value_input.ndim == 0 or value_input.shape[0] != n:
        raise ValueError(f"sort_pairs: values of shape {value_input.shape} do not match {n} keys "
                         "(their first axis must have the keys' length)")
    if n == 0:
        return wrap_result(key_input.copy(), keys_kind), wrap_result(value_input.copy(), values_kind)

    words, value_type = _values_as_words(value_input)
    if words is None:  # other values: the stable permutation, then take
        if algorithm in (BITONIC, BITONIC_TRANSPOSE):
            algorithm = AUTO
        indices = _argsort_flat(key_input, plan, n, algorithm, descending, progress, context, bits)
        sorted_keys = _nans_without_sign(key_input.take(indices), plan)
        sorted_values = value_input.take(indices, axis=0)
        return wrap_result(sorted_keys, keys_kind), wrap_result(sorted_values, values_kind)

    dtype = key_input.dtype
    work_keys, private = _keys_for_library(key_input, plan)
    sorted_keys = work_keys if private else np.empty(n, dtype)
    sorted_words = np.empty(n, words.dtype)
    args = (plan.key_type, _ptr(work_keys), _ptr(sorted_keys), value_type, _ptr(words), _ptr(sorted_words), n)
    invoke(context or default_context(), lib.vkc_sort_pairs_to, args, n, algorithm, descending, progress, bits)
    if private and sorted_keys.dtype != dtype:
        sorted_keys = sorted_keys.astype(dtype)
    if words.dtype == value_input.dtype and value_input.ndim == 1:
        sorted_values = sorted_words
    else:
        sorted_values = sorted_words.view(np.uint8).view(value_input.dtype).reshape(value_input.shape)
    return wrap_result(sorted_keys, keys_kind), wrap_result(sorted_values, values_kind)


def _as_values(values):
    """Values may be of any dtype (they are only moved): torch tensors of dtypes NumPy's DLPack
    import lacks come through .numpy()."""
    refuse_device_array(values)  # a GPU array: the TypeError saying how to get a host one
    try:
        return as_host_array(values)
    except TypeError:
        if type(values).__module__.startswith("torch"):
            return values.detach().numpy(), Kind.TORCH
        raise


sort.__doc__ = """Returns a sorted copy of an array, as numpy.sort does, sorted on the GPU.

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

argsort.__doc__ = """Returns the stable permutation that sorts an array, as
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

sort_pairs.__doc__ = """Sorts keys and moves values with them: returns (sorted keys, values in that
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
