#!/usr/bin/env bash
# The benchmark batch for a GPU machine reached through the device tool (see docs/perf-notes.md):
# device list, the sort table with the CUB peers, radix pairs and u64 keys, and the n-body table.
# Expects BIN to hold vkc, peers/ and the libtbb it links; writes everything under OUT.
set -uo pipefail
BIN=${BIN:-build-dev}
OUT=${OUT:-/tmp/vkc-bench}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/$BIN/lib:${LD_LIBRARY_PATH:-}"
vkc="$BIN/vkc"
"$vkc" info | tee "$OUT/info.txt"
"$vkc" info --json > "$OUT/info.json"
"$vkc" bench sort --peers --max-n 268435456 --cpu-max-n 67108864 --transpose-max-n 67108864 \
  --csv "$OUT/sort_u32.csv" 2>&1 | tee "$OUT/sort_u32.md"
"$vkc" bench sort --peers --algos radix --values u32 --min-n 1048576 --max-n 268435456 --no-transfer \
  --cpu-max-n 0 --csv "$OUT/sort_u32_u32.csv" 2>&1 | tee "$OUT/sort_u32_u32.md"
"$vkc" bench sort --peers --algos radix --type u64 --min-n 1048576 --max-n 67108864 --no-transfer \
  --cpu-max-n 0 --csv "$OUT/sort_u64.csv" 2>&1 | tee "$OUT/sort_u64.md"
"$vkc" bench sort --dist sorted --algos bitonic odd_even radix --max-n 1048576 --odd-even-max-n 1048576 \
  --no-transfer --cpu-max-n 0 --csv "$OUT/sort_sorted.csv" 2>&1 | tee "$OUT/sort_sorted.md"
"$vkc" bench nbody --peers --n 16384,32768,65536,135168,262144,524288,1048576 --csv "$OUT/nbody.csv" 2>&1 \
  | tee "$OUT/nbody.md"
