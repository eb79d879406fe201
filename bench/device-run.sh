#!/usr/bin/env bash
# The benchmark batch for a GPU machine reached through the device tool (see docs/perf-notes.md):
# device list, the sort table with the CUB peers (every algorithm to 2^24, radix alone above),
# radix with u32 values and u64 keys, sorted input, and the radix sort's fixed cost (all keys
# equal: every digit pass skipped). Expects BIN to hold vkc, peers/ and the libtbb it links;
# writes everything under OUT. NBODY=1 adds the n-body table.
# The whole batch takes more than one device call's 10 minutes (the CPU reference sorts and
# verification of 2^28 pairs alone take minutes), and a call returns at most 8 files: run it in
# two calls, PART=1 (info and the u32 tables) and PART=2 (the rest).
set -uo pipefail
BIN=${BIN:-build-dev}
OUT=${OUT:-/tmp/vkc-bench}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/$BIN/lib:${LD_LIBRARY_PATH:-}"
vkc="$BIN/vkc"
bench() { local name=$1; shift; "$vkc" bench sort "$@" --csv "$OUT/$name.csv" 2>&1 | tee "$OUT/$name.md"; }
PART=${PART:-all}
if [ "$PART" != 2 ]; then
  "$vkc" info | tee "$OUT/info.txt"
  "$vkc" info --json > "$OUT/info.json"
  bench sort_u32 --peers --max-n 16777216 --cpu-max-n 16777216 --transpose-max-n 16777216
  bench sort_u32_large --peers --algos radix --min-n 33554432 --max-n 268435456 --no-transfer --cpu-max-n 0
fi
[ "$PART" = 1 ] && exit 0
bench sort_u32_u32 --peers --algos radix --values u32 --min-n 1048576 --max-n 268435456 --no-transfer --cpu-max-n 0
bench sort_u64 --peers --algos radix --type u64 --min-n 1048576 --max-n 67108864 --no-transfer --cpu-max-n 0
bench sort_sorted --dist sorted --algos bitonic odd_even radix --max-n 1048576 --odd-even-max-n 1048576 \
  --no-transfer --cpu-max-n 0
bench sort_equal --dist equal --algos radix --min-n 1048576 --max-n 268435456 --no-transfer --cpu-max-n 0
if [ "${NBODY:-0}" = 1 ]; then
  "$vkc" bench nbody --peers --n 16384,32768,65536,135168,262144,524288,1048576 --csv "$OUT/nbody.csv" 2>&1 \
    | tee "$OUT/nbody.md"
fi
