#!/usr/bin/env python3
"""Issue 51's figures from a folder that bench/issue51_device.sh (or reproduce.sh part5) wrote:
one table per key type against CUB's radix sort, with the copy bound of its bytes per key
(summarize.py's key_type_tables), then the issue's speed targets, each against its figure.
Usage: bench/issue51_summary.py DIR (prints Markdown). Standard library only.
"""
import os
import sys

import summarize as s

# Targets of issue 51: at least 1.0x CUB's radix sort of the same type, and at least 1.7x
# vkcompute's own u32 sort of the same count, for the 8- and 16-bit keys.
NARROW = [("u16", "radix-u16.csv"), ("f16", "radix-f16.csv"), ("u8", "radix-u8.csv"), ("bf16", "radix-bf16.csv"),
          ("i16", "radix-i16.csv")]


def ms_of(rows, n):
    return s.number(rows[n]["gpu_ms"]) if n in rows else None


def narrow_targets(folder):
    u32 = s.radix_rows(folder, "radix-u32.csv") or s.radix_rows(folder, "sort-u32.csv")
    lines = []
    for label, name in NARROW:
        rows = s.radix_rows(folder, name)
        for n in sorted(rows):
            cub = s.number(rows[n]["ratio_to_cub"])
            base, ours = ms_of(u32, n), ms_of(rows, n)
            speedup = base / ours if base and ours else None
            lines.append([label, s.size(n), "%.3fx" % cub if cub else "", verdict(cub, 1.0),
                          "%.2fx" % speedup if speedup else "", verdict(speedup, 1.7)])
    return s.table(["keys", "n", "CUB / radix", ">= 1.0x", "u32 ms / this ms", ">= 1.7x"], lines)


def bit_range_target(folder):
    cut, u16 = s.radix_rows(folder, "radix-u32-bits0-16.csv"), s.radix_rows(folder, "radix-u16.csv")
    lines = []
    for n in sorted(set(cut) & set(u16)):
        ratio = ms_of(cut, n) / ms_of(u16, n)
        lines.append([s.size(n), cut[n]["gpu_ms"], u16[n]["gpu_ms"], "%.3f" % ratio, "yes" if ratio <= 1.05 else "no"])
    return s.table(["n", "u32 bits 0:16 ms", "u16 ms", "ratio", "<= 1.05"], lines)


def verdict(value, target):
    return "" if value is None else ("yes" if value >= target else "no")


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: bench/issue51_summary.py DIR")
    folder = sys.argv[1]
    env = s.environment(folder)
    copy_tbps = s.number(env.get("copy_tbps", "").split(" ")[0])
    print("# Issue 51: key types and bit ranges against CUB\n")
    print("".join("- %s: %s\n" % kv for kv in env.items()))
    print(s.key_type_tables(folder, copy_tbps) or "(no radix-*.csv of issue 51's cases here)\n")
    print("## Targets: 8- and 16-bit keys\n")
    print(narrow_targets(folder))
    print("## Target: u32 keys by bits 0:16 within 5% of u16 keys\n")
    print(bit_range_target(folder))


if __name__ == "__main__":
    main()
