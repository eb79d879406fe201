#!/usr/bin/env python3
"""PyTorch peer of `vkc bench sort --peers`: what a Python user would write.

For each n: a pageable host tensor moved to the GPU, torch.sort, and the result moved back
(wall clock, the GPU synchronised), and torch.sort on the GPU alone (CUDA events). Pairs sort
the keys with their indices and gather the values by them, both arrays moved both ways.
Every result is checked against NumPy. One JSON line per n on stdout.

With --rows RxC,...: each row of an R x C tensor on the GPU sorted by torch.sort(x, dim=-1),
values and indices, with stable=True and with the default; the GPU time alone (CUDA events),
a fresh copy of the input before each run, untimed. A sample of rows is checked against NumPy.
One JSON line per shape and stability on stdout.

PyTorch has no unsigned 32-bit sort on the GPU: u32 keys are timed as int32 keys of the same
bytes (the same work, another order), never as a widened copy; the line says "as": "int32".
"""
import argparse
import json
import statistics
import time

import numpy as np
import torch

DTYPES = {
    "u32": (np.uint32, torch.int32, np.int32),
    "i32": (np.int32, torch.int32, np.int32),
    "f32": (np.float32, torch.float32, np.float32),
    "u64": (np.uint64, torch.int64, np.int64),
    "i64": (np.int64, torch.int64, np.int64),
    "f64": (np.float64, torch.float64, np.float64),
}
VALUES = {"u32": np.int32, "u64": np.int64}


def make_keys(key, n, seed):
    rng = np.random.default_rng(seed)
    numpy_type, _, as_type = DTYPES[key]
    if np.issubdtype(numpy_type, np.floating):
        return rng.uniform(-1e6, 1e6, n).astype(numpy_type)
    info = np.iinfo(numpy_type)
    return rng.integers(info.min, info.max, n, dtype=numpy_type, endpoint=True).view(as_type)


def host_to_host(keys, values, descending):
    device_keys = keys.to("cuda")
    sorted_keys, order = torch.sort(device_keys, descending=descending)
    out_keys = sorted_keys.cpu()
    out_values = values.to("cuda")[order].cpu() if values is not None else None
    torch.cuda.synchronize()
    return out_keys, out_values


def check(keys, values, out_keys, out_values, descending):
    expected = np.sort(keys.numpy(), kind="stable")
    if descending:
        expected = expected[::-1]
    if not np.array_equal(out_keys.numpy(), expected):
        raise SystemExit("torch peer: keys not sorted as NumPy sorts them")
    if values is not None:
        picked = keys.numpy()[out_values.numpy()]
        if not np.array_equal(picked, out_keys.numpy()):
            raise SystemExit("torch peer: a value left its key")


def median_wall_ms(runs, step):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        step()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def median_gpu_ms(runs, step, prepare=None):
    """The median GPU time of step() over runs; prepare() runs before each, untimed."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(runs):
        if prepare is not None:
            prepare()
        start.record()
        step()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def measure(args, n):
    keys = torch.from_numpy(make_keys(args.key, n, n))
    values = None
    if args.values != "none":
        values = torch.from_numpy(np.arange(n, dtype=VALUES[args.values]))
    descending = args.order == "desc"
    for _ in range(args.warmup):
        host_to_host(keys, values, descending)
    out_keys, out_values = host_to_host(keys, values, descending)
    check(keys, values, out_keys, out_values, descending)
    wall = median_wall_ms(args.runs, lambda: host_to_host(keys, values, descending))
    device_keys = keys.to("cuda")
    gpu = median_gpu_ms(args.runs, lambda: torch.sort(device_keys, descending=descending))
    return {"n": n, "host_to_host_ms": wall, "gpu_ms": gpu, "verified": True,
            "as": str(DTYPES[args.key][1]).replace("torch.", ""), "torch": torch.__version__}


def sample_rows(rows, count):
    """Up to count row numbers spread evenly from the first row to the last."""
    return np.unique(np.linspace(0, rows - 1, min(rows, count)).round().astype(np.int64))


def stable_order(keys, descending):
    """The indices that sort a row stably: ties keep index order in both orders."""
    if not descending:
        return np.argsort(keys, kind="stable")
    # A stable ascending sort of the reversed row puts ties in descending index order;
    # reversing its result gives descending keys with ties in ascending index order.
    return (len(keys) - 1 - np.argsort(keys[::-1], kind="stable"))[::-1]


def check_rows(keys, values, indices, descending, stable):
    """keys: the sampled input rows, values and indices torch.sort's rows for them (NumPy)."""
    for row, got_values, got_indices in zip(keys, values, indices):
        order = stable_order(row, descending)
        if not np.array_equal(got_values, row[order]):
            raise SystemExit("torch peer: a row's values are not sorted as NumPy sorts them")
        if stable and not np.array_equal(got_indices, order):
            raise SystemExit("torch peer: a stable row's indices differ from NumPy's stable argsort")
        if not stable and not (np.array_equal(np.sort(got_indices), np.arange(len(row)))
                               and np.array_equal(row[got_indices], got_values)):
            raise SystemExit("torch peer: a row's indices are not a permutation that gives its values")


def measure_rows(args, rows, columns, stable):
    n = rows * columns
    keys = make_keys(args.key, n, n).reshape(rows, columns)  # the keys of --n n, in rows
    pristine = torch.from_numpy(keys).to("cuda")
    work = torch.empty_like(pristine)
    descending = args.order == "desc"

    def sort():
        if stable:
            return torch.sort(work, dim=-1, descending=descending, stable=True)
        return torch.sort(work, dim=-1, descending=descending)  # the default, as most code calls it

    def fresh():
        work.copy_(pristine)

    for _ in range(args.warmup):
        fresh()
        sort()
    fresh()
    values, indices = sort()
    sample = sample_rows(rows, args.check_rows)
    picked = torch.from_numpy(sample).to("cuda")
    check_rows(keys[sample], values[picked].cpu().numpy(), indices[picked].cpu().numpy(), descending, stable)
    del values, indices
    gpu = median_gpu_ms(args.runs, sort, prepare=fresh)
    call = f"torch.sort(x, dim=-1{', descending=True' if descending else ''}{', stable=True' if stable else ''})"
    return {"rows": rows, "columns": columns, "n": n, "stable": stable, "call": call, "order": args.order,
            "key": args.key, "gpu_ms": gpu, "runs": args.runs, "verified": True, "checked_rows": len(sample),
            "as": str(DTYPES[args.key][1]).replace("torch.", ""), "torch": torch.__version__,
            "device": torch.cuda.get_device_name()}


def parse_shapes(text):
    shapes = []
    for item in text.split(","):
        rows, _, columns = item.partition("x")
        if not rows.isdigit() or not columns.isdigit() or int(rows) < 1 or int(columns) < 1:
            raise SystemExit(f"torch peer: --rows: expected ROWSxCOLUMNS, got '{item}'")
        shapes.append((int(rows), int(columns)))
    return shapes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--key", choices=DTYPES, default="u32")
    parser.add_argument("--values", choices=["none", "u32", "u64"], default="none",
                        help="values beside the keys (not with --rows: the row sort returns indices)")
    parser.add_argument("--order", choices=["asc", "desc"], default="asc")
    sizes = parser.add_mutually_exclusive_group(required=True)
    sizes.add_argument("--n", help="comma-separated sizes")
    sizes.add_argument("--rows", help="comma-separated ROWSxCOLUMNS shapes, each row sorted (dim=-1)")
    parser.add_argument("--stable", choices=["both", "true", "false"], default="both",
                        help="--rows: stable=True, the default (stable=False), or one line of each")
    parser.add_argument("--check-rows", type=int, default=64, help="--rows: rows checked against NumPy")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    args = parser.parse_args()
    if args.n is not None:
        for n in (int(x) for x in args.n.split(",")):
            print(json.dumps(measure(args, n)), flush=True)
        return
    if args.values != "none":
        raise SystemExit("torch peer: --values is not for --rows (torch.sort returns the indices)")
    if args.check_rows < 1:
        raise SystemExit("torch peer: --check-rows must be at least 1")
    stabilities = {"both": [True, False], "true": [True], "false": [False]}[args.stable]
    for rows, columns in parse_shapes(args.rows):
        for stable in stabilities:
            print(json.dumps(measure_rows(args, rows, columns, stable)), flush=True)


if __name__ == "__main__":
    main()
