#!/usr/bin/env python3
"""The Python side's cost per call: vkcompute.sort / argsort / sort_pairs on 2^10 keys against
the bare ctypes call of the same C function (vkc_sort_to, vkc_argsort64, vkc_sort_pairs_to) on
preallocated arrays, warm, on the default context.

    PYTHONPATH=build/python python3 python/benchmarks/call_overhead.py [--calls 10000] [--n 1024]

Calls alternate in blocks (bare, package, bare, ...) so that drift in the device's own time
falls on both; the figure is the median over blocks of (package - bare) per call.
"""

import argparse
import statistics
import time

import numpy as np

import vkcompute
from vkcompute._capi import check, lib


def _ptr(a):
    return a.__array_interface__["data"][0]


def measure(bare, package, calls, block, budget):
    for _ in range(20):  # warm: pipelines compiled, memory cached
        bare()
        package()
    t0 = time.perf_counter()
    for _ in range(10):
        bare()
    per_call = (time.perf_counter() - t0) / 10
    calls = max(2 * block, min(calls, int(budget / (2 * per_call))))  # slow devices: fewer calls
    block = min(block, calls // 2)
    bare_times, package_times = [], []
    for _ in range(calls // block):
        t0 = time.perf_counter()
        for _ in range(block):
            bare()
        t1 = time.perf_counter()
        for _ in range(block):
            package()
        t2 = time.perf_counter()
        bare_times.append((t1 - t0) / block)
        package_times.append((t2 - t1) / block)
    diffs = [p - b for p, b in zip(package_times, bare_times)]
    return statistics.median(bare_times), statistics.median(package_times), statistics.median(diffs), calls


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--block", type=int, default=500)
    parser.add_argument("--budget", type=float, default=30.0, help="seconds at most per case (fewer calls if slower)")
    args = parser.parse_args()
    ctx = vkcompute.default_context()
    handle = ctx._handle
    rng = np.random.default_rng(0)
    keys = rng.integers(0, 1 << 32, size=args.n, dtype=np.uint64).astype(np.uint32)
    values = np.arange(args.n, dtype=np.uint32)
    out_keys = np.empty_like(keys)
    out_values = np.empty_like(values)
    indices = np.empty(args.n, np.int64)

    cases = {
        "sort": (lambda: check(lib.vkc_sort_to(handle, 0, _ptr(keys), _ptr(out_keys), args.n, None)),
                 lambda: vkcompute.sort(keys)),
        "argsort": (lambda: check(lib.vkc_argsort64(handle, 0, _ptr(keys), args.n, _ptr(indices), None)),
                    lambda: vkcompute.argsort(keys)),
        "sort_pairs": (lambda: check(lib.vkc_sort_pairs_to(handle, 0, _ptr(keys), _ptr(out_keys), 1, _ptr(values),
                                                           _ptr(out_values), args.n, None)),
                       lambda: vkcompute.sort_pairs(keys, values)),
    }
    print(f"device: {ctx.device.name}; {args.n} uint32 keys; {args.calls} calls of each, in blocks of {args.block}")
    print(f"{'call':<12} {'calls':>6} {'bare ctypes':>12} {'vkcompute':>12} {'overhead':>10} {'Python alone':>13}")
    for name, (bare, package) in cases.items():
        b, p, d, calls = measure(bare, package, args.calls, args.block, args.budget)
        alone = python_alone(package, args.calls)
        print(f"{name:<12} {calls:>6} {b * 1e3:>9.4f} ms {p * 1e3:>9.4f} ms {d * 1e6:>7.2f} us {alone * 1e6:>10.2f} us")
    print("overhead: median over blocks of (vkcompute - bare) per call; Python alone: the package's call "
          "with the library function replaced by one that returns at once")


def python_alone(package, calls):
    """Seconds per call of everything but the library: its functions stubbed out."""
    from vkcompute import _sort

    class NoCall:
        def __getattr__(self, name):
            return lambda *a: 0

    real = _sort.lib
    _sort.lib = NoCall()
    try:
        t0 = time.perf_counter()
        for _ in range(calls):
            package()
        return (time.perf_counter() - t0) / calls
    finally:
        _sort.lib = real


if __name__ == "__main__":
    main()
