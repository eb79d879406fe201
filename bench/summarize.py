#!/usr/bin/env python3
"""Turns a folder written by bench/reproduce.sh into the tables of BENCHMARKS.md (DIR/tables.md)
and an index of its files (DIR/README.md). Usage: bench/summarize.py DIR. Standard library only.

The radix table prints the CSVs' figures as written (CUB / radix is CUB's time over ours: above 1
is faster than CUB); the other tables round the CSVs' milliseconds to four significant digits. The
copy bound is the bytes a sort must move (bytes_per_key) at the copy rate in env-*.txt (copy_tbps).
The index ends with the radix table's cells the folder lacks.
"""
import csv
import glob
import os
import sys

# Radix table cases: label, CSV, key bytes, value bytes.
RADIX_CASES = [
    ("u32 keys", "sort-u32.csv", 4, 0),
    ("f32 keys", "radix-f32.csv", 4, 0),
    ("u64 keys", "radix-u64.csv", 8, 0),
    ("u32 keys + u32 values", "radix-u32-u32.csv", 4, 4),
    ("u64 keys + u32 values", "radix-u64-u32.csv", 8, 4),
    ("u64 keys + u64 values", "radix-u64-u64.csv", 8, 8),
]
RADIX_SIZES = [1 << 20, 1 << 24, 1 << 26, 1 << 27, 1 << 28]
# Issue 51's key types and bit range (reproduce.sh part5, issue51_device.sh): label, CSV, key
# bytes, value bytes; one table each. bytes_per_key comes from the CSV where it has the column.
KEY_TYPE_CASES = [
    ("u32 keys", "radix-u32.csv", 4, 0),
    ("u16 keys", "radix-u16.csv", 2, 0),
    ("i16 keys", "radix-i16.csv", 2, 0),
    ("f16 keys", "radix-f16.csv", 2, 0),
    ("bf16 keys", "radix-bf16.csv", 2, 0),
    ("u8 keys", "radix-u8.csv", 1, 0),
    ("u32 keys, bits 0:16", "radix-u32-bits0-16.csv", 4, 0),
]
FILES = [  # the index: file, what it holds
    ("env-*.txt", "GPU, driver, Vulkan, CUDA and CUB versions, commit, date, copy rate (one per part run)"),
    ("vkc-info.json", "`vkc info --json` on the machine"),
    ("sort-u32.csv", "every algorithm, CUB radix and merge, std::sort and the GPU sort with transfers; u32 keys, 2^9 to 2^28"),
    ("sort-u32.png", "keys/s against n for every series of sort-u32.csv"),
    ("sort-u32-u32-small.csv", "bitonic and radix, u32 keys with u32 values, small sizes (the crossover)"),
    ("sort-u32-sorted.csv", "bitonic, odd_even and radix on sorted input"),
    ("nbody.csv", "`vkc bench nbody --peers`: force evaluation speed beside the GPU Gems 3 CUDA kernel"),
    ("radix-*.csv", "the radix sort beside CUB, one case per file, at 2^20, 2^24, 2^26 and 2^28 (2^27 where one buffer cannot hold more); "
     "issue 51's key types (radix-u8, -u16, -f16, ..., -u32-bits0-16) at 2^24, 2^26 and 2^28"),
    ("tables.md", "the tables of BENCHMARKS.md, made from the files above by bench/summarize.py"),
    ("timing-*.txt", "each step's wall time and status"),
    ("logs/", "each step's printed output"),
]


def read_csv(folder, name):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def ms(x):
    if x is None:
        return ""
    for limit, digits in ((100, 1), (10, 2), (1, 3)):
        if x >= limit:
            return "%.*f" % (digits, x)
    return "%.4f" % x


def size(n):
    e = n.bit_length() - 1
    return "2^%d" % e if n == 1 << e else str(n)


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def environment(folder):
    env = {}
    for path in sorted(glob.glob(os.path.join(folder, "env-*.txt"))):
        for line in open(path):
            key, _, value = line.partition(":")
            env.setdefault(key.strip(), value.strip())
    return env


def gpu_times(rows, algorithm):
    """n -> (our ms, CUB radix ms) for one algorithm's rows of a `vkc bench sort` CSV."""
    out = {}
    for r in rows:
        if r["algorithm"] == algorithm:
            t = number(r["gpu_ms"]) or number(r["wall_ms"])
            out[int(r["n"])] = (t, number(r["cub_ms"]))
    return out


def radix_rows(folder, name):
    """n -> the radix sort's CSV row (gpu_ms, cub_ms, ratio_to_cub, gkeys_per_s as written)."""
    return {int(r["n"]): r for r in read_csv(folder, name) if r["algorithm"] == "radix"}


def bytes_per_key(kb, vb):
    # One pass per 8-bit digit reads and writes keys and values; the histogram reads the keys once.
    return kb * 2 * (kb + vb) + kb


def row_bytes_per_key(row, kb, vb):
    """The CSV's bytes_per_key (which counts the digits a bit range covers), else the whole key's."""
    return number(row.get("bytes_per_key")) or bytes_per_key(kb, vb)


def key_type_tables(folder, copy_tbps):
    """One table per key type of KEY_TYPE_CASES that the folder holds, against CUB's radix sort,
    with the copy bound of its bytes per key; "vs u32" is vkcompute's u32 time over this case's at
    the same n (the issue asks 1.7x of the 8- and 16-bit keys). Empty when none is there."""
    u32 = radix_rows(folder, "radix-u32.csv") or radix_rows(folder, "sort-u32.csv")  # issue51_device.sh, or part1
    out = []
    for label, name, kb, vb in KEY_TYPE_CASES:
        rows = radix_rows(folder, name)
        if not rows:
            continue
        lines = []
        for n in sorted(rows):
            r = rows[n]
            ours, per_key = number(r["gpu_ms"]), row_bytes_per_key(r, kb, vb)
            bound = copy_tbps * 1e12 / per_key / 1e9 if copy_tbps else None
            rate = n / ours / 1e6
            base = number(u32[n]["gpu_ms"]) if n in u32 else None
            lines.append([size(n), r["gpu_ms"], r["cub_ms"], r["ratio_to_cub"] + "x" if r["ratio_to_cub"] else "",
                          r["gkeys_per_s"], "%.2fx" % (base / ours) if base and name != "radix-u32.csv" else "",
                          "%d" % per_key, "%.0f%% of %.0f" % (100 * rate / bound, bound) if bound else ""])
        first = next(iter(rows.values()))
        cut = first.get("begin_bit") and (int(first["begin_bit"]), int(first["end_bit"])) != (0, 8 * kb)
        title = "%s (the CSV's bit range %s:%s)" % (label, first["begin_bit"], first["end_bit"]) if cut else label
        out.append("### %s\n\n" % title + table(
            ["n", "radix ms", "CUB ms", "CUB / radix", "G keys/s", "vs u32", "bytes per key",
             "fraction of the copy bound"], lines))
    return "\n".join(out)


def radix_sizes(folder):
    # The sizes the radix-* files hold (a quick run's are small), else the page's.
    found = {n for _, name, _, _ in RADIX_CASES[1:] for n in radix_rows(folder, name)}
    return sorted(found) or RADIX_SIZES


def radix_table(folder, copy_tbps):
    """The CSV's own figures, as written, so that every number can be found in it; only the
    fraction of the copy bound is computed here."""
    lines = []
    for label, name, kb, vb in RADIX_CASES:
        rows = radix_rows(folder, name)
        bound = copy_tbps * 1e12 / bytes_per_key(kb, vb) / 1e9 if copy_tbps else None
        for n in radix_sizes(folder):
            if n not in rows or (n == 1 << 27 and (1 << 28) in rows):
                continue
            r = rows[n]
            rate = n / float(r["gpu_ms"]) / 1e6
            lines.append([label, size(n), r["gpu_ms"], r["cub_ms"], r["ratio_to_cub"] + "x" if r["ratio_to_cub"] else "",
                          r["gkeys_per_s"], "%.0f%% of %.0f" % (100 * rate / bound, bound) if bound else ""])
    return table(["case", "n", "radix ms", "CUB ms", "CUB / radix", "G keys/s", "fraction of the copy bound"], lines)


def not_measured(folder):
    """The radix table's cells this folder lacks: whole cases, and sizes a case stopped short of
    (2^27 stands for 2^28 where one storage buffer cannot hold the temporary data)."""
    sizes = radix_sizes(folder)
    missing = []
    for label, name, _, _ in RADIX_CASES:
        rows = radix_rows(folder, name)
        if not rows:
            missing.append("%s (no %s)" % (label, name))
            continue
        gone = [n for n in sizes if n not in rows and not (n == 1 << 28 and (1 << 27) in rows)
                and not (n == 1 << 27 and (1 << 28) in rows)]
        if gone:
            missing.append("%s at %s" % (label, ", ".join(size(n) for n in gone)))
    return missing


def cpu_gpu_table(folder):
    rows = read_csv(folder, "sort-u32.csv")
    series = ["std_sort", "std_sort_par", "bitonic", "bitonic_transpose", "odd_even", "radix", "cub_radix",
              "cub_merge", "host_to_host"]
    times = {s: gpu_times(rows, s) for s in series}
    lines = []
    for n in sorted({int(r["n"]) for r in rows}):
        if (n.bit_length() - 1) % 2:
            continue
        cells = [size(n)] + [ms(times[s].get(n, (None,))[0]) for s in series]
        cpu, total = times["std_sort"].get(n, (None,))[0], times["host_to_host"].get(n, (None,))[0]
        cells.append("%.2fx" % (cpu / total) if cpu and total else "")
        lines.append(cells)
    head = ["n", "std::sort", "std::sort par", "bitonic", "bitonic_transpose", "odd_even", "radix", "CUB radix",
            "CUB merge", "host to host", "std::sort / host to host"]
    return table(head, lines)


def crossover_table(folder):
    keys, pairs = read_csv(folder, "sort-u32.csv"), read_csv(folder, "sort-u32-u32-small.csv")
    kb, kr = gpu_times(keys, "bitonic"), gpu_times(keys, "radix")
    pb, pr = gpu_times(pairs, "bitonic"), gpu_times(pairs, "radix")
    lines = []
    for n in sorted(set(pb) | set(pr)):
        cells = [size(n)]
        for b, r in ((kb, kr), (pb, pr)):
            tb, tr = b.get(n, (None,))[0], r.get(n, (None,))[0]
            cells += [ms(tb), ms(tr), ("bitonic" if tb < tr else "radix") if tb and tr else ""]
        lines.append(cells)
    head = ["n", "keys: bitonic ms", "radix ms", "faster", "pairs: bitonic ms", "radix ms", "faster"]
    return table(head, lines)


def odd_even_table(folder):
    rows, random = read_csv(folder, "sort-u32-sorted.csv"), read_csv(folder, "sort-u32.csv")
    t = {a: gpu_times(rows, a) for a in ("bitonic", "odd_even", "radix")}
    r = {a: gpu_times(random, a) for a in ("bitonic", "odd_even")}
    lines = []
    for n in sorted(set(t["odd_even"])):
        lines.append([size(n)] + [ms(t[a].get(n, (None,))[0]) for a in ("bitonic", "odd_even", "radix")] +
                     [ms(r[a].get(n, (None,))[0]) for a in ("bitonic", "odd_even")])
    head = ["n", "sorted: bitonic ms", "odd_even ms", "radix ms", "random: bitonic ms", "odd_even ms"]
    return table(head, lines)


def nbody_table(folder):
    rows = read_csv(folder, "nbody.csv")
    lines = [[r["N"], r["median ms"], r["G interactions/s"], r["GFLOP/s"], r.get("peer G interactions/s", ""),
              r.get("vkc / peer", "")] for r in rows]
    return table(["N", "median ms", "G interactions/s", "GFLOP/s", "peer G interactions/s", "vkc / peer"], lines)


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: bench/summarize.py DIR (a folder written by bench/reproduce.sh)")
    folder = sys.argv[1]
    env = environment(folder)
    copy_tbps = number(env.get("copy_tbps", "").split(" ")[0])
    parts = ["# Tables\n", "".join("- %s: %s\n" % kv for kv in env.items()),
             "\n## Radix sort against CUB\n\n", radix_table(folder, copy_tbps),
             ("\n## Key types and bit ranges against CUB\n\n" + key_type_tables(folder, copy_tbps))
             if key_type_tables(folder, copy_tbps) else "",
             "\n![keys/s against n](sort-u32.png)\n",
             "\n## Every algorithm, the CPU, and the GPU sort with transfers (u32 keys, ms)\n\n", cpu_gpu_table(folder),
             "\n## Crossover (u32 keys; u32 keys with u32 values)\n\n", crossover_table(folder),
             "\n## Odd-even (u32 keys)\n\n", odd_even_table(folder),
             "\n## N-body\n\n", nbody_table(folder)]
    with open(os.path.join(folder, "tables.md"), "w") as f:
        f.write("".join(parts))
    index = ["# %s\n\n" % os.path.basename(os.path.abspath(folder)),
             "Written by `bench/reproduce.sh`; the tables of BENCHMARKS.md come from these files.\n\n"]
    for pattern, what in FILES:
        present = sorted(os.path.basename(p.rstrip("/")) for p in glob.glob(os.path.join(folder, pattern)))
        if present:
            index.append("- %s: %s\n" % (", ".join("`%s`" % p for p in present), what))
    missing = not_measured(folder)
    if missing:
        index.append("\nNot measured in this folder: %s.\n" % "; ".join(missing))
    with open(os.path.join(folder, "README.md"), "w") as f:
        f.write("".join(index))


if __name__ == "__main__":
    main()
