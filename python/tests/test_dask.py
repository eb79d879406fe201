"""vkcompute.dask.sort_function: on pandas frames against pandas' stable sort (rows, index and all),
and inside Dask's sort_values on the local scheduler against pandas sorting the whole frame."""

import numpy as np
import pytest

pd = pytest.importorskip("pandas")
dd = pytest.importorskip("dask.dataframe")

import vkcompute.dask  # noqa: E402


def frame(rng, n):
    x = rng.normal(size=n)
    x[rng.random(n) < 0.05] = np.nan
    return pd.DataFrame({
        "x": x,
        "y": rng.integers(-3, 4, size=n).astype(np.int16),  # many ties
        "t": pd.to_datetime(rng.integers(0, 10**9, size=n), unit="s"),
        "u": rng.integers(0, 2**40, size=n, dtype=np.uint64),
        "s": rng.choice(["a", "b", "c"], size=n),
        "id": np.arange(n),
    }, index=rng.permutation(n))


@pytest.mark.parametrize("by", ["x", "y", "t", "u", ["y", "x"], ["y", "t", "u"]])
@pytest.mark.parametrize("ascending", [True, False])
@pytest.mark.parametrize("na_position", ["last", "first"])
def test_sorts_a_partition_as_pandas_stable_sort(rng, by, ascending, na_position):
    df = frame(rng, 3001)
    df.loc[df.index[::97], "t"] = pd.NaT
    got = vkcompute.dask.sort_function(df, by=by, ascending=ascending, na_position=na_position)
    want = df.sort_values(by, ascending=ascending, na_position=na_position, kind="stable")
    pd.testing.assert_frame_equal(got, want)


def test_per_column_orders_and_pandas_fallback(rng):
    df = frame(rng, 2000)
    got = vkcompute.dask.sort_function(df, by=["y", "x"], ascending=[False, True])
    pd.testing.assert_frame_equal(got, df.sort_values(["y", "x"], ascending=[False, True], kind="stable"))
    # Strings are pandas' to sort, in the same call.
    got = vkcompute.dask.sort_function(df, by=["s", "y"])
    pd.testing.assert_frame_equal(got, df.sort_values(["s", "y"], kind="stable"))
    with pytest.raises(ValueError):
        vkcompute.dask.sort_function(df, by=["x", "y"], ascending=[True])


@pytest.mark.parametrize("ascending", [True, False])
def test_dask_sort_values_with_the_gpu_sort_function(rng, ascending):
    df = frame(rng, 20000)
    ddf = dd.from_pandas(df, npartitions=5)
    out = ddf.sort_values("x", ascending=ascending, sort_function=vkcompute.dask.sort_function)
    got = out.compute(scheduler="sync")
    want = df.sort_values("x", ascending=ascending, kind="stable")
    # The same keys in order, and the same rows: Dask's shuffle may order ties differently.
    np.testing.assert_array_equal(got["x"].to_numpy(), want["x"].to_numpy())
    assert sorted(got["id"]) == list(range(len(df)))
    joined = got.set_index("id").sort_index()
    pd.testing.assert_frame_equal(joined, df.set_index("id").sort_index())


# vkcompute.dask.sort: 1-D dask arrays on Dask's local schedulers, against np.sort of the whole.

da = pytest.importorskip("dask.array")


def numpy_sorted(a, descending):
    """np.sort(a), NaN last; descending: the reverse of the rest, NaN still last."""
    if not descending:
        return np.sort(a)
    nan = np.isnan(a) if a.dtype.kind == "f" else np.zeros(a.shape, dtype=bool)
    return np.concatenate([np.sort(a[~nan])[::-1], a[nan]])


def arrays(rng):
    uniform = rng.integers(0, 2**32, size=20000, dtype=np.uint32)
    floats = rng.normal(size=15000).astype(np.float32)
    floats[rng.random(floats.size) < 0.1] = np.nan
    floats[::501] = -0.0
    skewed = np.where(rng.random(12000) < 0.95, 5, rng.integers(-10**12, 10**12, size=12000)).astype(np.int64)
    return {
        "uniform": (uniform, 2500),
        "all equal": (np.full(9000, 3, dtype=np.int16), 1000),
        "skewed": (skewed, 1500),
        "floats with NaN": (floats, 2000),
        "one chunk": (rng.normal(size=777), 1000),
        "float16": (rng.normal(size=5000).astype(np.float16), 700),
        "empty": (np.zeros(0, dtype=np.float64), 10),
    }


@pytest.mark.parametrize("case", ["uniform", "all equal", "skewed", "floats with NaN", "one chunk", "float16", "empty"])
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("scheduler", ["sync", "threads"])
def test_dask_sort_equals_numpy(rng, case, descending, scheduler):
    a, chunk = arrays(rng)[case]
    x = da.from_array(a, chunks=chunk)
    s = vkcompute.dask.sort(x, descending=descending)
    assert s.numblocks == x.numblocks
    np.testing.assert_array_equal(s.compute(scheduler=scheduler), numpy_sorted(a, descending))


def test_dask_sort_chunks_with_nothing_and_ranges_left_empty(rng):
    a = np.concatenate([np.zeros(0), rng.normal(size=3000), np.zeros(0), np.full(2000, np.nan)])
    x = da.concatenate([da.from_array(a[:3000], chunks=1500), da.zeros(0, chunks=1), da.from_array(a[3000:], chunks=1000)])
    np.testing.assert_array_equal(vkcompute.dask.sort(x).compute(scheduler="sync"), numpy_sorted(a, False))
    np.testing.assert_array_equal(vkcompute.dask.sort(x, descending=True).compute(scheduler="sync"),
                                  numpy_sorted(a, True))


def test_dask_sort_balances_distinct_keys(rng):
    a = rng.permutation(40000).astype(np.uint32)
    parts = vkcompute.dask.sort(da.from_array(a, chunks=10000)).to_delayed().ravel()
    sizes = [p.compute(scheduler="sync").size for p in parts]
    assert sum(sizes) == a.size and max(sizes) < 1.3 * a.size / len(sizes), sizes


def test_dask_sort_refuses_what_it_cannot_sort():
    with pytest.raises(ValueError):
        vkcompute.dask.sort(da.zeros((4, 4), chunks=2))
    with pytest.raises(TypeError):
        vkcompute.dask.sort(da.from_array(np.array(["a", "b"])))
