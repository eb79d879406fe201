#!/usr/bin/env python3
"""Draws keys/s against n for the host-to-host and on-GPU rows of bench/python_sort.py's CSV, and
the C++ vkc::sort host-to-host line of a `vkc bench sort --csv` file of the same run. Needs matplotlib.
Usage: bench/plot_python_sort.py PYTHON_SORT.csv [VKC_BENCH.csv] OUT.png"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LABELS = {
    ("host", "vkcompute_sort_auto"): "vkcompute.sort(a): a new array",
    ("host", "vkcompute_sort_in_place_auto"): "vkcompute.sort(a, out=a)",
    ("host", "torch_sort_int32"): "torch.sort(from_numpy(a).cuda()).cpu()",
    ("host", "cupy_sort"): "cupy.asnumpy(cupy.sort(cupy.asarray(a)))",
    ("host", "numpy_sort"): "np.sort",
    ("gpu", "torch_sort_int32"): "torch.sort, on the GPU",
    ("gpu", "cupy_sort"): "cupy.sort, on the GPU",
}


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: bench/plot_python_sort.py PYTHON_SORT.csv [VKC_BENCH.csv] OUT.png")
    series, device = {}, ""
    with open(sys.argv[1], newline="") as f:
        for row in csv.DictReader(f):
            label = LABELS.get((row["section"], row["case"]))
            if label and int(row["n"]) > 0:
                series.setdefault(label, []).append((int(row["n"]), int(row["n"]) / float(row["median_ms"]) / 1e6))
                device = row["device"]
    if len(sys.argv) == 4:
        with open(sys.argv[2], newline="") as f:
            for row in csv.DictReader(f):
                if row["algorithm"] == "host_to_host" and row["host_to_host_ms"]:
                    n = int(row["n"])
                    series.setdefault("C++ vkc::sort in place (vkc-bench)", []).append(
                        (n, n / float(row["host_to_host_ms"]) / 1e6))
    fig, ax = plt.subplots(figsize=(11, 7))
    for name, points in sorted(series.items()):
        points.sort()
        style = "--" if "on the GPU" in name else "-"
        ax.plot([p[0] for p in points], [p[1] for p in points], style, marker="o", markersize=3, label=name)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("keys (uint32; torch as int32)")
    ax.set_ylabel("Gkeys/s (median)")
    ax.set_title(f"Sorting u32 keys from Python: {device}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9)
    fig.savefig(sys.argv[-1], dpi=110, bbox_inches="tight")


if __name__ == "__main__":
    main()
