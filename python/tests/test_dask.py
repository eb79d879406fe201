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
