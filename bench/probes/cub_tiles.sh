#!/usr/bin/env bash
# CUB's radix sort at fixed onesweep tiles beside CUB's own tile and our probe, for the device
# machine (docs/perf-notes.md#shared-memory-budget): it shows how much of the gap to
# CUB is the tile that the shared-memory budget allows. Every row's output is verified.
#
# usage: cub_tiles.sh DIR VALUE SIZES [TILE...]
#   DIR    holds probe-radix and peers/vkc-peer-cub-sort
#   VALUE  none (u32 keys) or u32 (u32 pairs)
#   SIZES  log2 sizes, e.g. 24,26
#   TILE   WGxITEMS tiles the peer accepts (vkc-peer-cub-sort --help); default 448x18 384x16
# Prints "cub TILE case 2^N:ms ..." per tile (TILE "cub": CUB's own) and "ours case 2^N:ms ...".
set -euo pipefail
[[ $# -ge 3 ]] || { sed -n '2,12p' "$0" >&2; exit 2; }
dir=$1 value=$2 sizes=$3
shift 3
tiles=("$@")
[[ ${#tiles[@]} -gt 0 ]] || tiles=(448x18 384x16)
case_name=$([[ $value == none ]] && echo keys || echo pairs)
counts=$(tr ',' '\n' <<<"$sizes" | while read -r e; do echo $((1 << e)); done | paste -sd,)

for tile in cub "${tiles[@]}"; do
  opt=()
  [[ $tile == cub ]] || opt=(--tile "$tile")
  "$dir/peers/vkc-peer-cub-sort" --n "$counts" --value "$value" --runs 15 "${opt[@]}" |
    python3 -c '
import json, sys
rows = [json.loads(line) for line in sys.stdin]
print("cub", sys.argv[1], sys.argv[2], " ".join(
    "2^%d:%.4f%s" % (r["n"].bit_length() - 1, r["median_ms"], "" if r["verified"] else " UNVERIFIED") for r in rows))' \
      "$tile" "$case_name"
done
VKC_PROBE_CLEAR=1 "$dir/probe-radix" --cases "$case_name" --scans lookback --sizes "$sizes" --runs 15 |
  awk -v c="$case_name" '$2 == "lookback" { row = row " 2^" $3 ":" $5 ($6 == "yes" ? "" : " UNVERIFIED") }
                         END { print "ours", c row }'
