#!/usr/bin/env python3
"""`vkc sort` file to file against NumPy's load, sort, save of the same .npy file.

For each size: an .npy file of uniform random keys, then RUNS runs of each tool, alternating
(vkc, NumPy, vkc, ...) so that neither gets a warmer page cache; wall time and peak resident
memory of each process. Linux carries a forking parent's peak over into its child's ru_maxrss,
so each run is started by a small launcher process that has not imported NumPy (about 10 MiB,
the floor of the figure). Every output is checked equal to np.sort of the input.
vkc syncs its output to the disk before renaming it over the target; NumPy does not. So each runs
both ways: vkc as it is and with --no-sync ("vkc_no_sync"), NumPy as users call it and followed
by os.fsync of its output ("numpy_synced"); compare like with like.
The page cache holds the input, as it does for a file just written or read; outputs are written
to the same directory. Prints CSV on stdout:
tool,key_type,n,file_mib,runs,median_s,min_s,peak_rss_mib,verified

usage: cli_file.py VKC [--n 268435456] [--type u32] [--runs 5] [--dir DIR]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

TYPES = {"u32": np.uint32, "i32": np.int32, "f32": np.float32, "u64": np.uint64, "i64": np.int64,
         "f64": np.float64}
NUMPY_SORT = "import numpy as np, sys; np.save(sys.argv[2], np.sort(np.load(sys.argv[1])))"
NUMPY_SORT_SYNCED = ("import numpy as np, os, sys\n"
                     "with open(sys.argv[2], 'wb') as f:\n"
                     "    np.save(f, np.sort(np.load(sys.argv[1]))); f.flush(); os.fsync(f.fileno())")


def make_keys(key_type, n):
    rng = np.random.default_rng(n)
    dtype = TYPES[key_type]
    if np.issubdtype(dtype, np.floating):
        return rng.uniform(-1e6, 1e6, n).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)


# Runs argv[1:], prints "<wall seconds> <peak RSS KiB> <exit code>" of it.
LAUNCHER = """import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(time.perf_counter() - start, usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def timed(command):
    """Wall seconds and peak RSS in MiB of one process; fails on a non-zero exit."""
    result = subprocess.run([sys.executable, "-c", LAUNCHER, *command], capture_output=True, text=True, check=True)
    seconds, rss_kib, code = result.stdout.split()
    if int(code) != 0:
        sys.exit(f"cli_file.py: {' '.join(command)} failed")
    return float(seconds), int(rss_kib) / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("vkc")
    parser.add_argument("--n", type=int, default=1 << 28)
    parser.add_argument("--type", choices=TYPES, default="u32")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", default=None, help="where the files go (default: a temporary directory)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as work:
        source = os.path.join(work, "in.npy")
        outputs = {tool: os.path.join(work, tool + ".npy") for tool in ("vkc", "vkc_no_sync", "numpy", "numpy_synced")}
        np.save(source, make_keys(args.type, args.n))
        commands = {"vkc": [args.vkc, "--quiet", "sort", source, "-o", outputs["vkc"], "--force"],
                    "vkc_no_sync": [args.vkc, "--quiet", "sort", "--no-sync", source, "-o", outputs["vkc_no_sync"],
                                    "--force"],
                    "numpy": [sys.executable, "-c", NUMPY_SORT, source, outputs["numpy"]],
                    "numpy_synced": [sys.executable, "-c", NUMPY_SORT_SYNCED, source, outputs["numpy_synced"]]}
        samples = {tool: [] for tool in commands}
        for _ in range(args.runs):
            for tool, command in commands.items():
                samples[tool].append(timed(command))
        expected = np.sort(np.load(source))
        print("tool,key_type,n,file_mib,runs,median_s,min_s,peak_rss_mib,verified")
        for tool in commands:
            verified = np.array_equal(np.load(outputs[tool]), expected)
            times = [s for s, _ in samples[tool]]
            print(f"{tool},{args.type},{args.n},{os.path.getsize(source) / 2**20:.1f},{args.runs},"
                  f"{statistics.median(times):.4f},{min(times):.4f},{max(r for _, r in samples[tool]):.1f},"
                  f"{'yes' if verified else 'NO'}", flush=True)


if __name__ == "__main__":
    main()
