#!/usr/bin/env python3
"""Summarises libvkc-kernel-times.so's records of vkc-peer-cub-sort's radix sorts: for each size
(told apart by the onesweep kernels' grid), the median over the timed runs of the histogram kernel,
each onesweep pass and the span from the histogram's start to the last pass's end (the gaps between
kernels included), in microseconds.

usage: kernel_times.py FILE [--warmup 3]"""
import argparse
import statistics


def kind(name):
    for k in ("Histogram", "ExclusiveSum", "Onesweep"):
        if k in name:
            return k
    return name


def sorts(path):
    """The kernel records of each sort, a sort starting at its histogram kernel."""
    current = None
    for line in open(path):
        fields = line.split()
        record = (kind(fields[0]), int(fields[1]), int(fields[2]), int(fields[3]))
        if record[0] == "Histogram":
            if current:
                yield current
            current = [record]
        elif current is not None:
            current.append(record)
    if current:
        yield current


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    parser.add_argument("--warmup", type=int, default=3, help="untimed runs before each size's timed ones")
    args = parser.parse_args()
    by_grid = {}
    for sort in sorts(args.file):
        passes = [r for r in sort if r[0] == "Onesweep"]
        if not passes:
            continue
        last = passes[-1]
        span = last[2] + last[3] - sort[0][2]
        by_grid.setdefault(passes[0][1], []).append([sort[0][3]] + [p[3] for p in passes] + [span])
    for grid, rows in sorted(by_grid.items()):
        timed = rows[args.warmup:]
        medians = [statistics.median(column) / 1000 for column in zip(*timed)]
        passes = " ".join(f"{m:.1f}" for m in medians[1:-1])
        print(f"onesweep grid {grid}: {len(timed)} runs, histogram {medians[0]:.1f}, passes {passes}, "
              f"span {medians[-1]:.1f} us")


if __name__ == "__main__":
    main()
