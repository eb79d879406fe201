"""Dask (and pandas) with vkcompute's sort: a sort_function for DataFrame.sort_values.

    import dask.dataframe as dd, vkcompute.dask
    ddf.sort_values("x", sort_function=vkcompute.dask.sort_function)

Dask's sort_values splits the frame into partitions by sampled divisions and sorts each with
`sort_function(df, by=..., ascending=..., na_position=...)`; this one sorts a partition on the GPU
with vkcompute.argsort (stable: equal keys keep their order, as pandas' kind="stable") and takes the
rows, index included, in that order. Columns of several keys sort as a lexicographic order,
the last key first, each level stable. Keys of a type vkcompute does not sort (strings, objects,
categoricals, pandas' nullable types) fall back to pandas' own stable sort, so that any frame
sorts. Works with any pandas DataFrame as well: sort_function(df, by="x").
"""

import numpy as np

from ._sort import argsort

__all__ = ["sort_function"]

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
