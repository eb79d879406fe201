#!/usr/bin/env python3
"""What a Python user gets from vkcompute, beside what they would write otherwise, in one process:
host-to-host sorts of u32 keys against PyTorch, CuPy and NumPy, and a fresh interpreter's first
sort (the per-call cost of small sorts: python/benchmarks/call_overhead.py). Every output is checked against np.sort.

usage: bench/python_sort.py [--sizes 20,22,24,26,28] [--csv FILE] [--startup-runs 10]
                            [--peers torch,cupy] [--parts host,peers,startup]
Needs vkcompute importable (PYTHONPATH=build/python) and NumPy; the peers where they import.

Rows (CSV, one per figure; the median of `runs` timed calls after two untimed ones). First, with
no CUDA context in the process:
- host,<case> (each size): vkcompute.sort returning a new array
  (`vkcompute_sort_*`), into a kept one (`vkcompute_sort_out_*`, out=) and in place on a fresh
  copy of the input (`vkcompute_sort_in_place_*`, the copy untimed: what vkc-bench's C++
  host_to_host column times), and the bare library call under each (`bare_vkc_sort_*`:
  vkc_sort_to through ctypes), in an order that rotates from run to run; host,numpy_sort:
  np.sort (the reference, once per input).
Then with the peers imported (PyTorch and CuPy each hold a CUDA context on the GPU):
- host_beside_cuda,vkcompute_sort_auto: vkcompute.sort again;
- host,torch_sort_int32: `torch.sort(torch.from_numpy(a).cuda())[0].cpu()` (int32 keys of the same
  bytes: PyTorch has no unsigned 32-bit sort on the GPU); host,cupy_sort:
  `cupy.asnumpy(cupy.sort(cupy.asarray(a)))`; gpu,<case>: torch.sort and cupy.sort on arrays
  already on the GPU (CUDA events);
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


def bare_sort_to(vkcompute, into=None):
    """The library's own call with no Python around it but ctypes: vkc_sort_to of u32 keys (the
    default options) into a new array, as vkcompute.sort makes one, or into `into` (the yardstick
    for the package's cost)."""
    from vkcompute._capi import check as check_status, lib

    handle = vkcompute.default_context()._handle

    def sort(a):
        out = np.empty_like(a) if into is None else into
        check_status(lib.vkc_sort_to(handle, 0, a.ctypes.data, out.ctypes.data, a.size, None))
        return out
    return sort


def interleaved(table, section, n, inputs, calls, runs):
    """Each of `calls` (name -> call(a), or (prepare(a), call(a)) with an untimed prepare) once
    per run, in an order that rotates from run to run (so that none always finds the input in
    the cache after another), each output checked untimed."""
    arrays, expected = inputs
    names = list(calls)
    times = {name: [] for name in names}
    for i in range(runs + 2):
        a, ref = arrays[i % len(arrays)], expected[i % len(arrays)]
        for name in names[i % len(names):] + names[:i % len(names)]:
            prepare, call = calls[name] if isinstance(calls[name], tuple) else (None, calls[name])
            if prepare:
                prepare(a)
            start = time.perf_counter()
            out = call(a)
            if i >= 2:
                times[name].append(time.perf_counter() - start)
            check(out, ref, f"{name} of {n} keys")
    for name, t in times.items():
        table.add(section, name, n, t, "yes")


def vkcompute_calls(vkcompute, n):
    """The package's sort (the automatic algorithm) returning a new array, into a kept one (out=),
    and in place on a fresh copy of the input (what vkc-bench's C++ host_to_host times: the copy
    untimed, just before), each beside the bare library call that does the same."""
    kept = {name: np.ones(n, np.uint32) for name in ("out", "bare_out", "work", "bare_work")}  # touched
    bare_in_place = bare_sort_to(vkcompute, into=kept["bare_work"])
    pinned = vkcompute.default_context().empty_pinned(n, np.uint32)  # the device copies it directly
    pinned[:] = 1
    return {
        "vkcompute_sort_in_place_pinned": (lambda a: np.copyto(pinned, a), lambda a: vkcompute.sort(pinned, out=pinned)),
        "vkcompute_sort_auto": lambda a: vkcompute.sort(a),
        "bare_vkc_sort_to_auto": bare_sort_to(vkcompute),
        "vkcompute_sort_out_auto": lambda a: vkcompute.sort(a, out=kept["out"]),
        "bare_vkc_sort_to_kept_auto": bare_sort_to(vkcompute, into=kept["bare_out"]),
        "vkcompute_sort_in_place_auto": (lambda a: np.copyto(kept["work"], a),
                                         lambda a: vkcompute.sort(kept["work"], out=kept["work"])),
        "bare_vkc_sort_in_place_auto": (lambda a: np.copyto(kept["bare_work"], a),
                                        lambda a: bare_in_place(kept["bare_work"])),
    }


def make_inputs(n):
    """Three random u32 arrays and their np.sort, and np.sort's time for each."""
    rng = np.random.default_rng(n)
    arrays = [rng.integers(0, 2**32, n, dtype=np.uint32) for _ in range(INPUTS_PER_SIZE)]
    expected, times = [], []
    for a in arrays:
        start = time.perf_counter()
        expected.append(np.sort(a))
        times.append(time.perf_counter() - start)
    return (arrays, expected), times


def measure_alone(table, vkcompute, sizes):
    """Phase 1, no CUDA context in the process: the package against the bare library call."""
    all_inputs = {}
    for n in sizes:
        all_inputs[n], numpy_times = make_inputs(n)
        table.add("host", "numpy_sort", n, numpy_times, "reference")
        interleaved(table, "host", n, all_inputs[n], vkcompute_calls(vkcompute, n), runs_for(n))
    return all_inputs


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


def measure_torch(table, torch, n, inputs, runs):
    arrays, _ = inputs
    signed = [np.sort(a.view(np.int32)) for a in arrays]
    interleaved(table, "host", n, ([a.view(np.int32) for a in arrays], signed),
                {"torch_sort_int32": lambda a: torch.sort(torch.from_numpy(a).cuda())[0].cpu().numpy()}, runs)
    on_gpu = [torch.from_numpy(a.view(np.int32)).cuda() for a in arrays]
    out = {}
    times = cuda_timed(torch, lambda i: out.__setitem__(i % INPUTS_PER_SIZE, torch.sort(on_gpu[i % INPUTS_PER_SIZE])[0]),
                       runs)
    for j, got in out.items():
        check(got.cpu().numpy(), signed[j], "torch.sort on the GPU")
    table.add("gpu", "torch_sort_int32", n, times, "yes")


def measure_cupy(table, cupy, torch, n, inputs, runs):
    arrays, expected = inputs
    interleaved(table, "host", n, inputs, {"cupy_sort": lambda a: cupy.asnumpy(cupy.sort(cupy.asarray(a)))}, runs)
    if torch is None:
        return
    on_gpu = [cupy.asarray(a) for a in arrays]
    out = {}
    times = cuda_timed(torch, lambda i: out.__setitem__(i % INPUTS_PER_SIZE, cupy.sort(on_gpu[i % INPUTS_PER_SIZE])),
                       runs)
    for j, got in out.items():
        check(cupy.asnumpy(got), expected[j], "cupy.sort on the GPU")
    table.add("gpu", "cupy_sort", n, times, "yes")


def measure_with_peers(table, vkcompute, all_inputs, peers):
    """Phase 2, the peers imported (CUDA contexts in the process): vkcompute again beside them."""
    torch = optional_import("torch") if "torch" in peers or "cupy" in peers else None
    if torch is not None and not torch.cuda.is_available():
        torch = None
    cupy = optional_import("cupy") if "cupy" in peers else None
    for n, inputs in all_inputs.items():
        runs = runs_for(n)
        interleaved(table, "host_beside_cuda", n, inputs,
                    {"vkcompute_sort_auto": lambda a: vkcompute.sort(a)}, runs)
        if torch is not None and "torch" in peers:
            measure_torch(table, torch, n, inputs, runs)
        if cupy is not None:
            measure_cupy(table, cupy, torch, n, inputs, runs)


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
    parser.add_argument("--startup-runs", type=int, default=10)
    parser.add_argument("--peers", default="torch,cupy")
    parser.add_argument("--parts", default="host,peers,startup")
    args = parser.parse_args()
    import vkcompute

    info = vkcompute.default_context().device
    table = Table(f"{info.name} ({info.driver_info})", f"vkcompute {vkcompute.__version__}")
    parts = args.parts.split(",")
    sizes = [1 << int(s) for s in args.sizes.split(",")] if "host" in parts else []
    all_inputs = measure_alone(table, vkcompute, sizes)
    if "peers" in parts:
        measure_with_peers(table, vkcompute, all_inputs, args.peers.split(","))
    if "startup" in parts:
        measure_startup(table, args.startup_runs)
    table.write(args.csv)


if __name__ == "__main__":
    main()
