#!/usr/bin/env python3
"""Draws keys/s against n for every series of a `vkc bench sort --csv` file, as `--plot` does,
where gnuplot is not installed (bench/reproduce.sh falls back to it). Needs matplotlib.
Usage: bench/plot_sort.py SORT.csv OUT.png"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: bench/plot_sort.py SORT.csv OUT.png")
    series, info = {}, {}
    with open(sys.argv[1], newline="") as f:
        for row in csv.DictReader(f):
            ms = float(row["gpu_ms"] or row["wall_ms"] or 0)
            if ms > 0:
                series.setdefault(row["algorithm"], []).append((int(row["n"]), int(row["n"]) / ms / 1e6))
            info = row
    fig, ax = plt.subplots(figsize=(11, 7))
    for name, points in sorted(series.items()):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", markersize=3, label=name)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set(xlabel="n (keys)", ylabel="G keys/s",
           title="vkc bench sort on %s (%s, %s)" % (info.get("device", "?"), info.get("commit", "?"), info.get("date", "?")))
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda x, _: "2^%d" % round(math.log2(x))))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))  # beside the data, not over it
    fig.savefig(sys.argv[2], dpi=100, bbox_inches="tight")


if __name__ == "__main__":
    main()
