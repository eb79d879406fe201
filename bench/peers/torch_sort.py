#!/usr/bin/env python3
"""PyTorch peer of `vkc bench sort --peers`: what a Python user would write.

For each n: a pageable host tensor moved to the GPU, torch.sort, and the result moved back
(wall clock, the GPU synchronised), and torch.sort on the GPU alone (CUDA events). Pairs sort
the keys with their indices and gather the values by them, both arrays moved both ways.
Every result is checked against NumPy. One JSON line per n on stdout.

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


def median_gpu_ms(runs, step):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(runs):
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--key", choices=DTYPES, default="u32")
    parser.add_argument("--values", choices=["none", "u32", "u64"], default="none")
    parser.add_argument("--order", choices=["asc", "desc"], default="asc")
    parser.add_argument("--n", required=True, help="comma-separated sizes")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    args = parser.parse_args()
    for n in (int(x) for x in args.n.split(",")):
        print(json.dumps(measure(args, n)), flush=True)


if __name__ == "__main__":
    main()
