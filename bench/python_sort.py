#!/usr/bin/env python3
"""What a Python user gets from vkcompute, beside what they would write otherwise, in one process:
the per-call overhead of a small sort, host-to-host sorts of u32 keys against PyTorch, CuPy and
NumPy, and a fresh interpreter's first sort. Every output is checked against np.sort.

usage: bench/python_sort.py [--sizes 20,22,24,26,28] [--csv FILE] [--startup-runs 10]
                            [--overhead-calls 2000] [--peers torch,cupy,numpy]
Needs vkcompute importable (PYTHONPATH=build/python) and NumPy; the peers where they import.

Rows (CSV, one per figure; the median of `runs` timed calls after two untimed ones):
- overhead,<case>: vkcompute.sort of 2^10 u32 keys with a warm context, host to host, and the
  bare library call under it (vkc_sort_to through ctypes), alternating;
- host,<case>: u32 keys host to host: vkcompute (kind None: the automatic choice, and radix) and
  the bare library call, alternating,
  torch (`torch.sort(torch.from_numpy(a).cuda())[0].cpu()`, as int32 keys of the same bytes:
  PyTorch has no unsigned 32-bit sort on the GPU), cupy (`cupy.asnumpy(cupy.sort(cupy.asarray(a)))`)
  and np.sort; gpu,<case>: torch.sort and cupy.sort on arrays already on the GPU (CUDA events);
- startup,<case>: a fresh `python3 -c "import vkcompute, numpy as np; vkcompute.sort(...)"` whole,
  against `python3 -c "import numpy"` (the interpreter and NumPy alone), with the pipeline cache
  file warm and off.
Inputs rotate among three random arrays per size, drawn before anything is timed."""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import time

import numpy as np

INPUTS_PER_SIZE = 3


def runs_for(n):
    return 30 if n <= 1 << 24 else 15 if n <= 1 << 26 else 8


class Table:
    """Collects rows, prints each as it comes and writes the CSV at the end."""

    def __init__(self, device, library):
        self.rows, self.device, self.library = [], device, library

    def add(self, section, case, n, times_s, verified):
        ms = [t * 1e3 for t in times_s]
        median = statistics.median(ms)
        row = {"section": section, "case": case, "n": n, "runs": len(ms), "median_ms": f"{median:.5g}",
               "min_ms": f"{min(ms):.5g}", "max_ms": f"{max(ms):.5g}",
               "mkeys_per_s": f"{n / median / 1e3:.5g}" if n else "", "verified": verified,
               "device": self.device, "library": self.library}
        self.rows.append(row)
        print(f"{section:9} {case:28} n={n:>11}  median {median:10.4f} ms  ({len(ms)} runs, {verified})", flush=True)

    def write(self, path):
        with open(path, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(self.rows[0]))
            writer.writeheader()
            writer.writerows(self.rows)


def timed(call, runs, before=None):
    """Times `runs` calls of call(i) after two untimed ones; before(i), untimed, runs first each time."""
    times = []
    for i in range(runs + 2):
        if before:
            before(i)
        start = time.perf_counter()
        call(i)
        if i >= 2:
            times.append(time.perf_counter() - start)
    return times


def check(got, expected, what):
    if not np.array_equal(np.asarray(got), expected):
        raise SystemExit(f"python_sort: {what} differs from np.sort")


def bare_sort_to(vkcompute, kind):
    """The library's own call with no Python around it but ctypes: vkc_sort_to of u32 keys into a
    new array, as vkcompute.sort makes one (the yardstick for the package's overhead)."""
    from vkcompute import _calls
    from vkcompute._capi import check as check_status, lib

    handle = vkcompute.default_context()._handle
    options = _calls._options_for(_calls.ALGORITHMS[kind or "auto"], False)

    def sort(a):
        out = np.empty_like(a)
        check_status(lib.vkc_sort_to(handle, 0, a.ctypes.data, out.ctypes.data, a.size, options))
        return out
    return sort


def compare_interleaved(table, section, n, arrays, expected, runs, vkcompute, kind):
    """vkcompute.sort and the bare library call, alternating, each output checked untimed."""
    bare = bare_sort_to(vkcompute, kind)
    calls = {f"vkcompute_sort_{kind or 'auto'}": lambda a: vkcompute.sort(a, kind=kind),
             f"bare_vkc_sort_to_{kind or 'auto'}": bare}
    times = {name: [] for name in calls}
    for i in range(runs + 2):
        a, ref = arrays[i % len(arrays)], expected[i % len(arrays)]
        for name, call in calls.items():
            start = time.perf_counter()
            out = call(a)
            if i >= 2:
                times[name].append(time.perf_counter() - start)
            check(out, ref, f"{name} of {n} keys")
    for name, t in times.items():
        table.add(section, name, n, t, "yes")


def measure_overhead(table, vkcompute, calls):
    rng = np.random.default_rng(10)
    arrays = [rng.integers(0, 2**32, 1024, dtype=np.uint32) for _ in range(INPUTS_PER_SIZE)]
    expected = [np.sort(a) for a in arrays]
    for kind in (None, "radix"):
        compare_interleaved(table, "overhead", 1024, arrays, expected, calls, vkcompute, kind)


def cuda_timed(torch, call, runs):
    """Times call(i) on the GPU with CUDA events, two untimed runs first."""
    times = []
    for i in range(runs + 2):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        call(i)
        end.record()
        end.synchronize()
        if i >= 2:
            times.append(start.elapsed_time(end) / 1e3)
    return times


def measure_size(table, n, peers, vkcompute, torch, cupy):
    rng = np.random.default_rng(n)
    arrays = [rng.integers(0, 2**32, n, dtype=np.uint32) for _ in range(INPUTS_PER_SIZE)]
    runs = runs_for(n)
    expected, numpy_times = [], []
    for a in arrays:  # np.sort is the reference: each input's sort is timed once
        start = time.perf_counter()
        expected.append(np.sort(a))
        numpy_times.append(time.perf_counter() - start)
    if "numpy" in peers:
        extra = max(0, min(runs, 5) - INPUTS_PER_SIZE)
        numpy_times += timed(lambda i: np.sort(arrays[i % INPUTS_PER_SIZE]), extra) if extra else []
        table.add("host", "numpy_sort", n, numpy_times, "reference")

    def pick(i):
        return arrays[i % INPUTS_PER_SIZE], expected[i % INPUTS_PER_SIZE]

    for kind in (None, "radix"):
        compare_interleaved(table, "host", n, arrays, expected, runs, vkcompute, kind)

    if torch is not None and "torch" in peers:
        signed = [np.sort(a.view(np.int32)) for a in arrays]
        times = []
        for i in range(runs + 2):
            a = arrays[i % INPUTS_PER_SIZE].view(np.int32)
            torch.cuda.synchronize()
            start = time.perf_counter()
            out = torch.sort(torch.from_numpy(a).cuda())[0].cpu()
            if i >= 2:
                times.append(time.perf_counter() - start)
            check(out.numpy(), signed[i % INPUTS_PER_SIZE], "torch.sort")
        table.add("host", "torch_sort_int32", n, times, "yes")
        on_gpu = [torch.from_numpy(a.view(np.int32)).cuda() for a in arrays]
        out = {}
        times = cuda_timed(torch, lambda i: out.__setitem__(i % INPUTS_PER_SIZE, torch.sort(on_gpu[i % INPUTS_PER_SIZE])[0]),
                           runs)
        for j, got in out.items():
            check(got.cpu().numpy(), signed[j], "torch.sort on the GPU")
        table.add("gpu", "torch_sort_int32", n, times, "yes")
        del on_gpu, out

    if cupy is not None and "cupy" in peers:
        times = []
        for i in range(runs + 2):
            a, ref = pick(i)
            cupy.cuda.Device().synchronize()
            start = time.perf_counter()
            out = cupy.asnumpy(cupy.sort(cupy.asarray(a)))
            if i >= 2:
                times.append(time.perf_counter() - start)
            check(out, ref, "cupy.sort")
        table.add("host", "cupy_sort", n, times, "yes")
        on_gpu = [cupy.asarray(a) for a in arrays]
        out = {}
        times = cuda_timed(torch, lambda i: out.__setitem__(i % INPUTS_PER_SIZE, cupy.sort(on_gpu[i % INPUTS_PER_SIZE])),
                           runs) if torch is not None else []
        if times:
            for j, got in out.items():
                check(cupy.asnumpy(got), expected[j], "cupy.sort on the GPU")
            table.add("gpu", "cupy_sort", n, times, "yes")
        del on_gpu, out


def measure_startup(table, runs):
    script = ("import vkcompute, numpy as np; a = np.arange(1000)[::-1].copy(); "
              "assert (vkcompute.sort(a) == np.arange(1000)).all()")
    baseline = "import numpy"
    for cache in ("warm", "off"):
        env = dict(os.environ)
        if cache == "off":
            env["VKC_PIPELINE_CACHE"] = "off"
        subprocess.run([sys.executable, "-c", script], env=env, check=True)  # fills the cache file

        def call(_):
            subprocess.run([sys.executable, "-c", script], env=env, check=True)
        table.add("startup", f"python_first_sort_cache_{cache}", 1000, timed(call, runs), "yes")
    table.add("startup", "python_import_numpy", 0,
              timed(lambda _: subprocess.run([sys.executable, "-c", baseline], check=True), runs), "")


def optional_import(name):
    try:
        return __import__(name)
    except Exception as error:  # noqa: BLE001 -- any failure means the peer is absent
        print(f"python_sort: {name} not importable ({error}); its rows are skipped", file=sys.stderr)
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="20,22,24,26,28", help="log2 of each n")
    parser.add_argument("--csv", default="python_sort.csv")
    parser.add_argument("--overhead-calls", type=int, default=2000)
    parser.add_argument("--startup-runs", type=int, default=10)
    parser.add_argument("--peers", default="torch,cupy,numpy")
    parser.add_argument("--parts", default="overhead,host,startup")
    args = parser.parse_args()
    import vkcompute

    info = vkcompute.default_context().device
    table = Table(f"{info.name} ({info.driver_info})", f"vkcompute {vkcompute.__version__}")
    peers = args.peers.split(",")
    torch = optional_import("torch") if "torch" in peers or "cupy" in peers else None
    if torch is not None and not torch.cuda.is_available():
        torch = None
    cupy = optional_import("cupy") if "cupy" in peers else None
    parts = args.parts.split(",")
    if "overhead" in parts:
        measure_overhead(table, vkcompute, args.overhead_calls)
    if "host" in parts:
        for log2 in (int(s) for s in args.sizes.split(",")):
            measure_size(table, 1 << log2, peers, vkcompute, torch, cupy)
    if "startup" in parts:
        measure_startup(table, args.startup_runs)
    table.write(args.csv)


if __name__ == "__main__":
    main()
