"""Dask's DataFrame.sort_values with vkcompute's sort_function against Dask's default, on one
host with Dask's local (threaded) scheduler: a frame of ROWS rows, a float64 key column "x" and
an int64 payload "v", in PARTITIONS partitions. Each way is timed end to end (divisions, shuffle,
the partitions' sorts, compute()), median of RUNS, and the two results must be the same rows in
the same order (ties: both stable by the row's original position within its partition).

    python3 bench/dask_sort.py [--log2-rows 28] [--partitions 32] [--runs 3] [--csv FILE]
"""

import argparse
import statistics
import sys
import time

import numpy as np
import pandas as pd
import dask
import dask.dataframe as dd

import vkcompute
import vkcompute.dask


def frame(rows, partitions, seed=1):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"x": rng.standard_normal(rows), "v": np.arange(rows, dtype=np.int64)})
    return dd.from_pandas(df, npartitions=partitions)


def timed(make, runs):
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = make().compute()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times, result


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--log2-rows", type=int, default=28)
    p.add_argument("--partitions", type=int, default=32)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--csv")
    a = p.parse_args()
    rows = 1 << a.log2_rows
    ddf = frame(rows, a.partitions).persist()
    vkcompute.sort(np.zeros(16, np.float64))  # the context made before any timing
    print(f"dask {dask.__version__}, pandas {pd.__version__}, numpy {np.__version__}, "
          f"{rows} rows in {a.partitions} partitions, device {vkcompute.default_context().device.name}", flush=True)
    vk_s, vk_all, vk = timed(lambda: ddf.sort_values("x", sort_function=vkcompute.dask.sort_function), a.runs)
    print(f"vkcompute sort_function: {vk_s:.3f} s (runs {', '.join(f'{t:.3f}' for t in vk_all)})", flush=True)
    pd_s, pd_all, default = timed(lambda: ddf.sort_values("x"), a.runs)
    print(f"dask default:            {pd_s:.3f} s (runs {', '.join(f'{t:.3f}' for t in pd_all)})", flush=True)
    same = np.array_equal(vk["x"].to_numpy(), default["x"].to_numpy()) and \
        np.array_equal(np.sort(vk["v"].to_numpy()), np.arange(rows)) and \
        np.all(np.diff(vk["x"].to_numpy()) >= 0)
    print(f"speed-up {pd_s / vk_s:.2f}x; results agree: {same}")
    if a.csv:
        with open(a.csv, "w") as f:
            f.write("rows,partitions,vkcompute_s,dask_default_s,speedup,agree\n")
            f.write(f"{rows},{a.partitions},{vk_s:.4f},{pd_s:.4f},{pd_s / vk_s:.3f},{same}\n")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
