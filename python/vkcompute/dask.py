"""Dask (and pandas) with vkcompute's sort: a sort_function for DataFrame.sort_values, and sort()
for 1-D dask arrays.

    import dask.dataframe as dd, vkcompute.dask
    ddf.sort_values("x", sort_function=vkcompute.dask.sort_function)
    s = vkcompute.dask.sort(dask_array)   # s.compute() == np.sort(dask_array.compute())

Dask's sort_values splits the frame into partitions by sampled divisions and sorts each with
`sort_function(df, by=..., ascending=..., na_position=...)`; this one sorts a partition on the GPU
with vkcompute.argsort (stable: equal keys keep their order, as pandas' kind="stable") and takes the
rows, index included, in that order. Columns of several keys sort as a lexicographic order,
the last key first, each level stable. Keys of a type vkcompute does not sort (strings, objects,
categoricals, pandas' nullable types) fall back to pandas' own stable sort, so that any frame
sorts. Works with any pandas DataFrame as well: sort_function(df, by="x").
"""

import numpy as np

from ._arrays import key_plan
from ._sort import argsort, sort as _sort

__all__ = ["sort_function", "sort"]

# NumPy kinds vkcompute sorts as they are; datetimes and timedeltas sort as their int64 counts.
_NUMERIC = set(np.typecodes["AllInteger"] + np.typecodes["Float"]) - {"g"}  # no long double


def _gpu_keys(column):
    """The column as an array vkcompute sorts, and the mask of its missing values; None when it
    cannot (the caller then lets pandas sort)."""
    dtype = column.dtype
    if not isinstance(dtype, np.dtype):
        return None  # a pandas extension type: nullable integers, categoricals, strings
    values = column.to_numpy()
    if dtype.char in _NUMERIC:
        return values, np.isnan(values) if dtype.kind == "f" else None
    if dtype.kind == "b":
        return values.view(np.uint8), None
    if dtype.kind in "mM":
        counts = values.view(np.int64)
        return counts, np.isnat(values)
    return None


def _level_order(keys, missing, ascending, na_position, context):
    """The stable order of one key level, missing values where na_position says."""
    order = argsort(keys, descending=not ascending, context=context)
    if missing is None or not missing.any():
        return order
    # vkcompute puts NaN last in both orders; NaT (the least int64) comes first ascending, last
    # descending. Pull the missing ones out and put them back at the chosen end, in order.
    is_missing = missing[order]
    present, absent = order[~is_missing], order[is_missing]
    return np.concatenate([absent, present] if na_position == "first" else [present, absent])


def sort_function(df, by, ascending=True, na_position="last", context=None, **kwargs):
    """df sorted by the column(s) `by` as df.sort_values(by, ascending=ascending,
    na_position=na_position, kind="stable") sorts it, on the GPU where the keys allow.

    ascending: one bool, or one per column of `by`. context: the vkcompute.Context to sort on
    (default_context() when None). Other keyword arguments go to pandas where it sorts.
    """
    columns = [by] if isinstance(by, str) or not isinstance(by, (list, tuple)) else list(by)
    orders = [ascending] * len(columns) if isinstance(ascending, bool) else list(ascending)
    if len(orders) != len(columns):
        raise ValueError(f"ascending has {len(orders)} values for {len(columns)} columns")
    if na_position not in ("first", "last"):
        raise ValueError(f"na_position must be 'first' or 'last', not {na_position!r}")
    levels = [_gpu_keys(df[c]) for c in columns]
    if any(level is None for level in levels) or kwargs:
        return df.sort_values(columns, ascending=orders, na_position=na_position, kind="stable", **kwargs)
    order = np.arange(len(df))
    for (keys, missing), up in zip(reversed(levels), reversed(orders)):
        level = _level_order(keys[order], None if missing is None else missing[order], up, na_position, context)
        order = order[level]
    return df.iloc[order]


# Samples per output chunk that choose the splitters: ranges within a few percent of even.
_SAMPLES_PER_CHUNK = 256


def _ordered(keys, descending):
    """uint64 numbers in the order vkcompute's contract puts the keys (the library's ordered
    images, key_bits.hpp): NaN last in both orders, -0.0 before +0.0 ascending."""
    width = keys.dtype.itemsize * 8
    mask = np.uint64((1 << width) - 1)
    sign = np.uint64(1 << (width - 1))
    bits = keys.view(f"u{keys.dtype.itemsize}").astype(np.uint64)
    if keys.dtype.kind == "f":
        nan = np.isnan(keys)
        bits = np.where(nan, bits & ~sign, bits)
        image = np.where(bits & sign, ~bits & mask, bits | sign)
        return np.where(nan, image, ~image & mask) if descending else image
    image = bits ^ sign if keys.dtype.kind == "i" else bits
    return ~image & mask if descending else image


def _sample(block, stride, descending):
    image = _ordered(block, descending)
    return image[::stride] if stride else image[:: max(1, image.size // _SAMPLES_PER_CHUNK)]


def _splitters(samples, chunks):
    """The images that cut the sorted samples into `chunks` runs of equal length."""
    everything = np.sort(np.concatenate(samples))
    return everything[(everything.size * np.arange(1, chunks)) // chunks] if everything.size else everything


def _partition(block, splitters, chunks, descending):
    """The block's keys by destination chunk: those whose image is below splitter 0, ..."""
    destination = np.searchsorted(splitters, _ordered(block, descending), side="right")
    ends = np.cumsum(np.bincount(destination, minlength=chunks))
    return tuple(np.split(block[np.argsort(destination, kind="stable")], ends[:-1]))


def _sort_range(pieces, descending, context):
    return _sort(np.concatenate(pieces), descending=descending, context=context)


def sort(x, descending=False, context=None):
    """A 1-D dask array sorted by vkcompute, as a dask array of as many chunks, whose
    concatenation is np.sort(x) (under vkcompute's order contract: NaN last in both orders, -0.0
    before +0.0 ascending; descending its exact reverse otherwise).

    Lazy, in one graph: samples of every chunk choose splitters, each chunk's keys go to the
    ranges the splitters cut, and each range is sorted with vkcompute.sort. The result's chunks
    have unknown lengths (dask's nan) until computed: equal keys stay in one range, so skewed
    keys make uneven ones. context: the vkcompute.Context of every range's sort (None: the
    default one); for Dask's local schedulers (a Context does not travel between processes).
    """
    import dask
    import dask.array as da

    if x.ndim != 1:
        raise ValueError(f"vkcompute.dask.sort sorts 1-D arrays, not {x.ndim}-D")
    dtype = key_plan(x.dtype).work_dtype  # native byte order; TypeError for what vkcompute does not sort
    x = x.astype(dtype)
    chunks = x.numblocks[0]
    known = not np.isnan(x.size)
    stride = max(1, int(x.size) // (_SAMPLES_PER_CHUNK * chunks)) if known else None
    blocks = x.to_delayed().ravel()
    samples = [dask.delayed(_sample)(b, stride, descending) for b in blocks]
    splitters = dask.delayed(_splitters)(samples, chunks)
    parts = [dask.delayed(_partition, nout=chunks)(b, splitters, chunks, descending) for b in blocks]
    ranges = [dask.delayed(_sort_range)([p[c] for p in parts], descending, context) for c in range(chunks)]
    return da.concatenate([da.from_delayed(r, shape=(np.nan,), dtype=dtype) for r in ranges])
