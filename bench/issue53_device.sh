#!/usr/bin/env bash
# Issue 53's measurement on the GPU machine: the radix sort against CUB's fastest call (both count
# types, bench/peers/README.md "The count type") on every key distribution of the issue, then where
# the uniform u32 time goes: CUB's kernels one by one (libvkc-kernel-times.so), ours step by step
# (probe-radix --policy steps=N), and CUB's own onesweep kernel at chosen tiles and offset types.
#
#   bench/issue53_device.sh PART PACK OUT
#     PART  table (the distributions: vkc bench sort --peers), parts (the breakdown), or all
#     PACK  a folder with vkc-bench, probe-radix, lib/ and peers/ (vkc-peer-cub-sort,
#           libvkc-kernel-times.so, kernel_times.py): bench/issue53_device.sh pack BUILD PACK
#           makes it from a build configured with -DVKC_BUILD_PEERS=ON
#     OUT   the folder for ours-*.csv and *.txt (the tables), cub-*.jsonl, kernels-*.txt,
#           steps-*.txt, tiles-*.txt and env.txt
# Environment: ISSUE53_BUDGET_S (default 540: no case starts after it), ISSUE53_RUNS (default 15),
# ISSUE53_CASES (table: names of the cases to run, default all; splat-bits is CUB alone).
#
# One device call (PACK and the Vulkan loader's .debs, .gl, named in `carry`):
#   for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig;
#   export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json;
#   bench/issue53_device.sh table .pack53 /tmp/i53; tar -czf $OUT/issue53.tgz -C /tmp i53
set -uo pipefail

if [ "${1:-}" = pack ]; then
  [ $# -eq 3 ] || { sed -n '2,20p' "$0" >&2; exit 2; }
  build=$2 dest=$3
  rm -rf "$dest" && mkdir -p "$dest/lib" "$dest/peers" || exit 1
  cp "$build/vkc-bench" "$build/probes/probe-radix" "$dest/" || exit 1
  cp "$build/peers/vkc-peer-cub-sort" "$build/peers/libvkc-kernel-times.so" "$dest/peers/" || exit 1
  cp "$(dirname "$0")/peers/kernel_times.py" "$dest/peers/" || exit 1
  cupti=$(ldd "$build/peers/libvkc-kernel-times.so" | awk '/libcupti/ {print $3}')
  [ -n "$cupti" ] && cp -L "$cupti" "$dest/peers/"
  tbb=$(ldd "$build/vkc-bench" | awk '/libtbb/ {print $3}')
  [ -n "$tbb" ] && cp -L "$tbb" "$dest/lib/"
  exit 0
fi
[ $# -eq 3 ] || { sed -n '2,20p' "$0" >&2; exit 2; }
PART=$1 PACK=$(cd "$2" && pwd) OUT=$3
BUDGET=${ISSUE53_BUDGET_S:-540}
RUNS=${ISSUE53_RUNS:-15}
mkdir -p "$OUT" || exit 1
export LD_LIBRARY_PATH="$PACK/lib:$PACK/peers:${LD_LIBRARY_PATH:-}"
export VKC_PEER_DIR=$PACK/peers
BENCH=$PACK/vkc-bench CUB=$PACK/peers/vkc-peer-cub-sort
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | head -1
} >> "$OUT/env.txt"

start=$SECONDS
in_budget() { [ $((SECONDS - start)) -lt "$BUDGET" ] || { echo "budget spent: skipping $*" >&2; return 1; }; }
wanted() { [ -z "${ISSUE53_CASES:-}" ] || [[ ",$ISSUE53_CASES," == *",$1,"* ]]; }

# table_case NAME TYPE VALUES DIST [MIN_N]: ours and CUB's fastest call, 2^24 (or MIN_N) to 2^28.
table_case() {
  local name=$1 type=$2 values=$3 dist=$4 min_n=${5:-16777216}
  wanted "$name" || return 0
  in_budget "$name" || return 0
  "$BENCH" sort --type "$type" --values "$values" --dist "$dist" --algos radix --min-n "$min_n" --max-n 268435456 \
    --runs "$RUNS" --no-transfer --cpu-max-n 0 --peers --peer-algos cub_radix --csv "$OUT/ours-$name.csv" \
    > "$OUT/ours-$name.txt" 2>&1 || echo "table $name failed" >&2
}

table() {
  table_case u32 u32 none uniform
  for d in and2 and3 and4 and5; do table_case "u32-$d" u32 none "$d"; done
  table_case u32-equal u32 none equal
  table_case u32-low16 u32 none low:16
  table_case f32 f32 none uniform
  table_case f32-float01 f32 none float01
  table_case f32-normal f32 none normal
  table_case u64 u64 none uniform
  table_case u64-low32 u64 none low:32
  table_case u64-low32-u32 u64 u32 low:32
  table_case u64-equal u64 none equal
  table_case splat-u32 u64 u32 splat
  table_case u32-u32 u32 u32 uniform
  # A renderer that knows its tile count passes CUB the key's bits (32 + 13 for 8,160 tiles).
  if wanted splat-bits && in_budget "splat bits"; then
    "$CUB" --key u64 --value u32 --dist splat --bits 0:45 --n 16777216,67108864,268435456 --runs "$RUNS" \
      > "$OUT/cub-splat-u32-bits45.jsonl" 2>&1 || echo "cub splat bits failed" >&2
  fi
}

# CUB's kernels one by one at 2^26 and 2^28 u32 keys, each count type; then ours, the histogram
# and the first N passes (steps=N); then CUB's onesweep kernel at fixed tiles and offset types.
parts() {
  for count in int int64; do
    in_budget "kernels $count" || return 0
    KERNEL_TIMES_OUT="$OUT/kernels-raw-$count.txt" CUDA_INJECTION64_PATH="$PACK/peers/libvkc-kernel-times.so" \
      "$CUB" --n 67108864,268435456 --count "$count" --runs "$RUNS" > "$OUT/cub-kernels-$count.jsonl" 2>&1
    python3 "$PACK/peers/kernel_times.py" "$OUT/kernels-raw-$count.txt" > "$OUT/kernels-$count.txt" 2>&1
  done
  for steps in 0 1 2 3 4; do
    in_budget "steps $steps" || return 0
    echo "steps=$steps" >> "$OUT/steps-u32.txt"
    VKC_PROBE_CLEAR=1 "$PACK/probe-radix" --cases keys --scans lookback --sizes 24,26,28 --runs "$RUNS" \
      --policy "steps=$steps" >> "$OUT/steps-u32.txt" 2>&1
  done
  for tile in 384x16 384x19 384x20 512x20; do
    for count in int int64; do
      in_budget "tile $tile $count" || return 0
      "$CUB" --n 16777216,67108864,268435456 --tile "$tile" --count "$count" --runs "$RUNS" \
        > "$OUT/tiles-$tile-$count.jsonl" 2>&1 || echo "tile $tile $count failed" >&2
    done
  done
}

case $PART in
  table) table ;;
  parts) parts ;;
  all) table; parts ;;
  *) sed -n '2,20p' "$0" >&2; exit 2 ;;
esac
echo "done in $((SECONDS - start)) s" >&2
