#!/usr/bin/env bash
# What a short `vkc sort` costs from start to exit: `vkc info`, then `vkc sort` of N u32 keys
# (.npy to .npy) with no pipeline cache file, with a cold one (removed before every run) and with
# a warm one, each with the driver's own disk cache as it is and turned off (Mesa:
# MESA_SHADER_CACHE_DISABLE=true, NVIDIA: __GL_SHADER_DISK_CACHE=0), for `--algo auto` (a bitonic
# sort at this size: one pipeline) and `--algo radix` (what sizes past the crossover meet).
# Every sort's output is checked against NumPy. Needs bash, coreutils and python3 with NumPy.
#
# usage: cli_startup.sh VKC [RUNS] [N]
#   VKC   the vkc binary
#   RUNS  timed runs per row (default 10); the median, min and max are printed
#   N     keys (default 1000)
# VKC_DEVICE chooses the device as it does for vkc. Prints CSV on standard output:
# case,algorithm,n,driver_disk_cache,runs,median_ms,min_ms,max_ms,verified,device,vkc
set -euo pipefail
[[ $# -ge 1 ]] || { sed -n '2,14p' "$0" >&2; exit 2; }
vkc=$(realpath "$1")
runs=${2:-10}
n=${3:-1000}
work=$(mktemp -d "${TMPDIR:-/tmp}/vkc-cli-startup.XXXXXX")
trap 'rm -rf "$work"' EXIT

python3 - "$vkc" "$runs" "$n" "$work" <<'EOF'
import os, shutil, statistics, subprocess, sys, time
import numpy as np

vkc, runs, n, work = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
keys_path, out_path, cache_dir = f"{work}/keys.npy", f"{work}/sorted.npy", f"{work}/cache"
keys = np.random.default_rng(1).integers(0, 2**32, n, dtype=np.uint32)
np.save(keys_path, keys)
expected = np.sort(keys)

version = subprocess.run([vkc, "--version"], capture_output=True, text=True, check=True).stdout.splitlines()
device = next((line.split("] ", 1)[1] for line in version if line.startswith("device [")), "?")
build = version[0] if version else "?"

def env_for(pipeline_cache, driver_cache):
    env = dict(os.environ, VKC_PIPELINE_CACHE=pipeline_cache)
    if driver_cache == "off":
        env.update(MESA_SHADER_CACHE_DISABLE="true", __GL_SHADER_DISK_CACHE="0")
    return env

def run(cmd, env):
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000

def row(case, algorithm, driver_cache, times, verified):
    print(f"{case},{algorithm},{n if algorithm else ''},{driver_cache},{len(times)},{statistics.median(times):.1f},"
          f"{min(times):.1f},{max(times):.1f},{verified},\"{device}\",\"{build}\"", flush=True)

print("case,algorithm,n,driver_disk_cache,runs,median_ms,min_ms,max_ms,verified,device,vkc")
run([vkc, "info"], env_for("off", "on"))  # loads the driver once before anything is timed
row("info", "", "on", [run([vkc, "info"], env_for("off", "on")) for _ in range(runs)], "")

for driver_cache in ("on", "off"):
    for algorithm in ("auto", "radix"):
        sort = [vkc, "sort", "--algo", algorithm, keys_path, "-o", out_path]
        cases = {"sort_no_cache_file": "off", "sort_cold_cache_file": cache_dir, "sort_warm_cache_file": cache_dir}
        for case, pipeline_cache in cases.items():
            env = env_for(pipeline_cache, driver_cache)
            shutil.rmtree(cache_dir, ignore_errors=True)
            run(sort, env)  # warms the file (warm case) and the driver's disk cache (driver cache on)
            times = []
            for _ in range(runs):
                if case == "sort_cold_cache_file":
                    shutil.rmtree(cache_dir, ignore_errors=True)
                times.append(run(sort, env))
            verified = bool(np.array_equal(np.load(out_path), expected))
            row(case, algorithm, driver_cache, times, verified)
EOF
