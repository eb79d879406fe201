#!/usr/bin/env python3
"""Prints the table of BENCHMARKS.md's "Radix sort on every distribution": each CSV that
bench/issue53_device.sh's `table` wrote (ours-NAME.csv: vkc bench sort --peers with CUB's fastest
call), one row per case and size, the radix time beside CUB's and the ratio CUB / radix.

usage: dist_summary.py DIR"""
import csv
import glob
import os
import sys

# Case name -> what the table calls it, in the table's order.
CASES = [
    ("u32", "u32 uniform"), ("u32-and2", "u32 entropy 0.811"), ("u32-and3", "u32 entropy 0.544"),
    ("u32-and4", "u32 entropy 0.337"), ("u32-and5", "u32 entropy 0.201"), ("u32-equal", "u32 all equal"),
    ("u32-low16", "u32 below 2^16"), ("f32", "f32 uniform [-1e6, 1e6]"), ("f32-float01", "f32 uniform [0, 1)"),
    ("f32-normal", "f32 N(0, 1)"), ("u64", "u64 uniform"), ("u64-low32", "u64 below 2^32"),
    ("u64-low32-u32", "u64 below 2^32 + u32 values"),
    ("u64-equal", "u64 all equal"), ("splat-u32", "splat u64 + u32 values"), ("u32-u32", "u32 + u32 values uniform"),
]


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "."
    print("| case | n | radix ms | CUB ms (call) | CUB / radix |")
    print("|---|---|---|---|---|")
    for name, label in CASES:
        path = os.path.join(folder, f"ours-{name}.csv")
        if not os.path.exists(path):
            continue
        for row in csv.DictReader(open(path)):
            if row["algorithm"] != "radix" or not row["cub_ms"]:
                continue
            n = int(row["n"])
            if n not in (1 << 24, 1 << 26, 1 << 28):
                continue
            ratio = float(row["cub_ms"]) / float(row["gpu_ms"])
            cell = f"**{ratio:.3f}x**" if ratio >= 1 else f"{ratio:.3f}x"
            print(f"| {label} | 2^{n.bit_length() - 1} | {float(row['gpu_ms']):.4g} | "
                  f"{float(row['cub_ms']):.4g} ({row['cub_count_type']}) | {cell} |")
    unused = sorted(set(os.path.basename(p)[5:-4] for p in glob.glob(os.path.join(folder, "ours-*.csv")))
                    - {name for name, _ in CASES})
    if unused:
        print(f"\n(not tabulated: {', '.join(unused)})", file=sys.stderr)


if __name__ == "__main__":
    main()
