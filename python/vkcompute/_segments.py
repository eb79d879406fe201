"""segmented_sort and segmented_argsort: independent pieces of one 1-D array, each sorted on its
own, over vkc_sort_segments, vkc_sort_segments_pairs and vkc_argsort_segments."""

from __future__ import annotations

import numpy as np

from ._arrays import as_host_array, wrap_result
from ._calls import AUTO, invoke
from ._capi import require
from ._context import default_context
from ._sort import INDEX_TYPE, _as_values, _keys_for_library, _nans_without_sign, _out_array, _plan, _ptr, _values_as_words

__all__ = ["segmented_sort", "segmented_argsort"]

_NUMBERINGS = {"local": 0, "global": 1}  # vkc_segment_indices


def _integers(numbers, name: str, function: str):
    """A 1-D array-like of non-negative integers as uint64; ValueError for anything else."""
    arr = np.asarray(numbers)
    if arr.ndim != 1:
        raise ValueError(f"{function}: {name} must be one-dimensional, not of shape {arr.shape}")
    if arr.size == 0:
        return np.empty(0, np.uint64)
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{function}: {name} must be integers, not {arr.dtype}")
    if arr.dtype.kind == "i" and arr.min() < 0:
        at = int(np.argmax(arr < 0))
        raise ValueError(f"{function}: {name}[{at}] = {arr[at]} is negative")
    return arr.astype(np.uint64)


def _from_offsets(offsets, n: int, function: str):
    """(begins, ends) of the S segments that S + 1 offsets bound."""
    o = _integers(offsets, "offsets", function)
    if o.size == 0:
        raise ValueError(f"{function}: offsets must hold at least one offset (S + 1 of them bound S segments)")
    falls = np.nonzero(o[1:] < o[:-1])[0]
    if falls.size:
        i = int(falls[0])
        raise ValueError(f"{function}: offsets must not decrease: offsets[{i}] = {o[i]} > offsets[{i + 1}] = {o[i + 1]}")
    if o[-1] > n:
        raise ValueError(f"{function}: offsets[{o.size - 1}] = {o[-1]} is past the {n} keys")
    return o[:-1], o[1:]


def _check_ranges(begins, ends, n: int, function: str):
    """ValueError for a segment that ends before it begins or past the keys, or two that overlap
    (empty segments overlap nothing)."""
    backwards = np.nonzero(ends < begins)[0]
    if backwards.size:
        i = int(backwards[0])
        raise ValueError(f"{function}: segment {i} [{begins[i]}, {ends[i]}) ends before it begins")
    past = np.nonzero(ends > n)[0]
    if past.size:
        i = int(past[0])
        raise ValueError(f"{function}: segment {i} [{begins[i]}, {ends[i]}) ends past the {n} keys")
    filled = np.nonzero(ends > begins)[0]
    filled = filled[np.argsort(begins[filled], kind="stable")]
    clashes = np.nonzero(begins[filled[1:]] < ends[filled[:-1]])[0]
    if clashes.size:
        i, j = (int(k) for k in filled[clashes[0]: clashes[0] + 2])
        raise ValueError(f"{function}: segments {i} [{begins[i]}, {ends[i]}) and {j} [{begins[j]}, {ends[j]}) overlap")


def _segments(n: int, offsets, begins, ends, function: str):
    """(begins, ends) as contiguous uint64 arrays, from offsets or from begins and ends, checked
    against n keys."""
    if offsets is not None:
        if begins is not None or ends is not None:
            raise TypeError(f"{function}: give offsets, or begins and ends, not both")
        b, e = _from_offsets(offsets, n, function)
    else:
        if begins is None or ends is None:
            raise TypeError(f"{function}: give offsets (S + 1 of them), or begins and ends (S of each)")
        b, e = _integers(begins, "begins", function), _integers(ends, "ends", function)
        if b.shape != e.shape:
            raise ValueError(f"{function}: {b.size} begins and {e.size} ends: one of each per segment")
        _check_ranges(b, e, n, function)
    return np.ascontiguousarray(b), np.ascontiguousarray(e)


def _one_dimensional(keys, key_type, function: str):
    """(keys as an ndarray, their Kind, their KeyPlan); ValueError unless they are 1-D."""
    arr, input_kind = as_host_array(keys)
    plan = _plan(arr, input_kind, key_type)
    if arr.ndim != 1:
        raise ValueError(f"{function}: keys must be one-dimensional, not of shape {arr.shape}")
    return arr, input_kind, plan


def _inside(n: int, begins, ends):
    """Whether each of n positions lies in a segment."""
    edges = np.zeros(n + 1, np.int64)
    np.add.at(edges, begins.astype(np.intp), 1)
    np.add.at(edges, ends.astype(np.intp), -1)
    return np.cumsum(edges[:n]) > 0


def _segment_order(arr, plan, segments, numbering: str, call):
    """The stable permutation of each segment (vkc_argsort_segments), numbered as `numbering`
    says; a position outside every segment holds 0 ('local') or itself ('global')."""
    descending, progress, context = call
    n = arr.shape[0]
    indices = np.arange(n, dtype=np.intp) if numbering == "global" else np.zeros(n, np.intp)
    if n and segments[0].size:
        work, _ = _keys_for_library(arr, plan)
        args = (plan.key_type, _ptr(work), n, _ptr(segments[0]), _ptr(segments[1]), segments[0].size, INDEX_TYPE,
                _ptr(indices), _NUMBERINGS[numbering])
        invoke(context or default_context(), require("vkc_argsort_segments"), args, n, AUTO, descending, progress)
    return indices


def _sort_keys(arr, plan, segments, target, call):
    """The keys with each segment sorted (vkc_sort_segments): in `target` where the library can
    sort it in place, else in a new array."""
    descending, progress, context = call
    n = arr.shape[0]
    if target is not None and not plan.swapped and target.flags.c_contiguous:
        np.copyto(target, arr)
        work = target
    else:
        work = arr.astype(plan.work_dtype)  # a copy, sorted in place
    if n and segments[0].size:
        args = (plan.key_type, _ptr(work), n, _ptr(segments[0]), _ptr(segments[1]), segments[0].size)
        invoke(context or default_context(), require("vkc_sort_segments"), args, n, AUTO, descending, progress)
    return work if work.dtype == arr.dtype else work.astype(arr.dtype)


def _sort_values(arr, plan, values, segments, call):
    """(sorted keys, values in that order): values of 4- or 8-byte rows move with the keys on the
    GPU (vkc_sort_segments_pairs); others by the global permutation, on the host."""
    descending, progress, context = call
    words, value_type = _values_as_words(values)
    if words is None:
        order = _segment_order(arr, plan, segments, "global", call)
        keys = arr.take(order)
        inside = _inside(arr.shape[0], *segments)
        keys[inside] = _nans_without_sign(keys[inside], plan)
        return keys, values.take(order, axis=0)
    n = arr.shape[0]
    keys = arr.astype(plan.work_dtype)
    sorted_words = words.copy()
    if n and segments[0].size:
        args = (plan.key_type, _ptr(keys), value_type, _ptr(sorted_words), n, _ptr(segments[0]), _ptr(segments[1]),
                segments[0].size)
        invoke(context or default_context(), require("vkc_sort_segments_pairs"), args, n, AUTO, descending, progress)
    if keys.dtype != arr.dtype:
        keys = keys.astype(arr.dtype)
    if words.dtype == values.dtype and values.ndim == 1:
        return keys, sorted_words
    return keys, sorted_words.view(np.uint8).view(values.dtype).reshape(values.shape)


def segmented_sort(keys, offsets=None, *, begins=None, ends=None, values=None, descending=False, out=None,
                   key_type=None, progress=None, context=None):
    arr, input_kind, plan = _one_dimensional(keys, key_type, "segmented_sort")
    n = arr.shape[0]
    segments = _segments(n, offsets, begins, ends, "segmented_sort")
    target = _out_array(out, arr.shape, arr.dtype, "segmented_sort")
    call = (descending, progress, context)
    if values is None:
        result = _sort_keys(arr, plan, segments, target, call)
        if target is None:
            return wrap_result(result, input_kind)
        if result is not target:
            np.copyto(target, result)
        return out
    value_input, values_kind = _as_values(values)
    if value_input.ndim == 0 or value_input.shape[0] != n:
        raise ValueError(f"segmented_sort: values of shape {value_input.shape} do not match {n} keys "
                         "(their first axis must have the keys' length)")
    sorted_keys, sorted_values = _sort_values(arr, plan, value_input, segments, call)
    if target is not None:
        np.copyto(target, sorted_keys)
        return out, wrap_result(sorted_values, values_kind)
    return wrap_result(sorted_keys, input_kind), wrap_result(sorted_values, values_kind)


def segmented_argsort(keys, offsets=None, *, begins=None, ends=None, descending=False, indices="local",
                      key_type=None, progress=None, context=None):
    arr, input_kind, plan = _one_dimensional(keys, key_type, "segmented_argsort")
    if not isinstance(indices, str) or indices not in _NUMBERINGS:
        raise ValueError(f"segmented_argsort: indices must be 'local' or 'global', not {indices!r}")
    n = arr.shape[0]
    segments = _segments(n, offsets, begins, ends, "segmented_argsort")
    order = _segment_order(arr, plan, segments, indices, (descending, progress, context))
    return wrap_result(order, input_kind)


segmented_sort.__doc__ = """Sorts each segment of a 1-D array on its own, on the GPU: returns a
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

segmented_argsort.__doc__ = """The stable permutation of each segment of a 1-D array, as np.intp
(a torch int64 tensor for a torch tensor): what np.argsort(segment, kind="stable") gives for
each segment.

keys, offsets, begins, ends, descending, key_type, progress, context : as in segmented_sort().
indices : 'local' or 'global'
    'local': positions within each segment, 0 for its first key (np.argsort of the segment); a
    position outside every segment holds 0. 'global': positions in the whole array, so that
    keys[result] sorts each segment in place; a position outside every segment holds itself,
    so the result is a permutation of the whole array. Anything else raises ValueError.
"""
