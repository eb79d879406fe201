#!/usr/bin/env bash
# Issue 51's measurement on the GPU machine, in one call: vkcompute's radix sort beside CUB's radix
# sort, in the same vkc-bench run (one process per case and size: ours, then the CUB peer, each
# output verified), for the new key types and a bit range, with u32 keys as the base.
#
#   bench/issue51_device.sh BUILD OUT [PEER]
#     BUILD  a build folder (-DVKC_BUILD_PEERS=ON), or a pack of one: vkc-bench (BUILD/lib, if
#            present, is searched first for libraries)
#     OUT    the folder for the CSVs (radix-CASE.csv, one row per size and series), env-issue51.txt,
#            logs/ and summary.md (bench/issue51_summary.py), created if missing
#     PEER   vkc-peer-cub-sort (default BUILD/peers/vkc-peer-cub-sort); `none`: ours alone
#
# Cases, in this order (the speed targets' first: if the time runs short the last ones go):
#   u32 (the base: the 8- and 16-bit keys must be 1.7x its speed), u16, f16, u8, u32 with
#   --bits 0:16 (within 5% of u16), bf16, i16; keys alone, ascending, uniform; at 2^24, 2^26, 2^28.
# Environment: ISSUE51_SIZES (log2 sizes, default "24 26 28"), ISSUE51_CASES (names from the list
# above, default all), ISSUE51_BUDGET_S (default 480: no case and size starts after this many
# seconds, so that the call ends inside a 10-minute limit), ISSUE51_RUNS (timed runs, default 15).
# Estimated at about 3 minutes on an H200 (most of it the CPU's: input, reference sorts, checks).
#
#   bench/issue51_device.sh pack BUILD DEST
#     copies what a run needs from a build folder made here (x86-64) into DEST, about 12 MiB:
#     vkc-bench, peers/vkc-peer-cub-sort and lib/libtbb.so.12, which the GPU machine may lack.
#
# One device call (the pack and the Vulkan loader's .debs, .gl, named in `carry`; both folders
# ignored through .git/info/exclude; the device README says how to fetch .gl):
#   for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig;
#   bench/issue51_device.sh .pack51 /tmp/i51; tar -czf $OUT/issue51.tgz -C /tmp i51;
#   cp /tmp/i51/summary.md $OUT/
# (a call brings back at most 8 files from $OUT: hence the one archive; where vkc-bench finds no
# NVIDIA device, export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json first.)
set -uo pipefail

usage() { sed -n '2,30p' "$0" >&2; exit 2; }

if [ "${1:-}" = pack ]; then
  [ $# -eq 3 ] || usage
  build=$2 dest=$3
  tbb=$(ldd "$build/vkc-bench" | awk '/libtbb/ {print $3}')
  rm -rf "$dest" && mkdir -p "$dest/lib" "$dest/peers" || exit 1
  cp "$build/vkc-bench" "$dest/" && cp "$build/peers/vkc-peer-cub-sort" "$dest/peers/" || exit 1
  [ -n "$tbb" ] && cp -L "$tbb" "$dest/lib/"
  du -sh "$dest"
  exit 0
fi
[ $# -ge 2 ] && [ $# -le 3 ] || usage
BUILD=$1 OUT=$2
PEER=${3:-$BUILD/peers/vkc-peer-cub-sort}
HERE=$(cd "$(dirname "$0")" && pwd)
SIZES=${ISSUE51_SIZES:-24 26 28}
BUDGET=${ISSUE51_BUDGET_S:-480}
RUNS=${ISSUE51_RUNS:-15}

BENCH=$BUILD/vkc-bench
[ -x "$BENCH" ] || { echo "issue51_device.sh: $BENCH not found" >&2; exit 1; }
mkdir -p "$OUT/logs" || exit 1
[ -d "$BUILD/lib" ] && export LD_LIBRARY_PATH="$(cd "$BUILD/lib" && pwd):${LD_LIBRARY_PATH:-}"
peers=()
if [ "$PEER" != none ]; then
  [ -x "$PEER" ] || { echo "issue51_device.sh: $PEER not found (or pass none)" >&2; exit 1; }
  # vkc-bench finds the peer by its folder (bench/peers.cpp: peer_path).
  [ "$(basename "$PEER")" = vkc-peer-cub-sort ] || { echo "issue51_device.sh: the peer must be named vkc-peer-cub-sort" >&2; exit 1; }
  export VKC_PEER_DIR
  VKC_PEER_DIR=$(cd "$(dirname "$PEER")" && pwd)
  peers=(--peers --peer-algos cub_radix)
fi

# The machine, the build and the copy rate that the copy bound divides (summarize.py reads copy_tbps).
environment() {
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$HERE" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  command -v nvidia-smi >/dev/null &&
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | head -1)"
  if [ ${#peers[@]} -gt 0 ]; then
    "$PEER" --n 1024 --runs 10 --warmup 1 | python3 -c '
import json, sys
j = json.loads(sys.stdin.readline())
v = j["cub_version"]
print("cub: %d.%d.%d (CUDA runtime %d), num_items as %s" % (v // 100000, v // 100 % 1000, v % 100, j["cuda_runtime"], j.get("count_type", "int")))'
  fi
  python3 "$HERE/copy_rate.py" 2>/dev/null || echo "copy_tbps: unknown (no CUDA PyTorch)"
  echo "cpu: $(nproc) cores"
}

# case NAME TYPE [OPTION...]: every size of one case, one vkc-bench process each, gathered in
# OUT/radix-NAME.csv.
failed=0 start=$SECONDS
run_case() {
  local name=$1 type=$2 e n csv="$OUT/radix-$1.csv" part
  shift 2
  rm -f "$csv"
  for e in $SIZES; do
    if [ $((SECONDS - start)) -ge "$BUDGET" ]; then
      echo "== $name 2^$e: skipped, past the budget of $BUDGET s" | tee -a "$OUT/logs/skipped.txt"
      continue
    fi
    n=$((1 << e)) part="$OUT/logs/radix-$name-$n.csv"
    echo "== $name 2^$e ($((SECONDS - start)) s)"
    if "$BENCH" sort "${peers[@]}" --algos radix --type "$type" "$@" --min-n "$n" --max-n "$n" --no-transfer \
      --cpu-max-n 0 --runs "$RUNS" --csv "$part" >"$OUT/logs/radix-$name-$n.log" 2>&1; then
      if [ -f "$csv" ]; then tail -n +2 "$part" >>"$csv"; else cp "$part" "$csv"; fi
    else
      failed=1
      echo "   FAILED: $(tail -n 3 "$OUT/logs/radix-$name-$n.log" | tr '\n' ' ')"
    fi
  done
}

wanted() { [ -z "${ISSUE51_CASES:-}" ] || [[ " $ISSUE51_CASES " == *" $1 "* ]]; }

environment 2>&1 | tee "$OUT/env-issue51.txt"
wanted u32 && run_case u32 u32
wanted u16 && run_case u16 u16
wanted f16 && run_case f16 f16
wanted u8 && run_case u8 u8
wanted i8 && run_case i8 i8
wanted u32-bits0-16 && run_case u32-bits0-16 u32 --bits 0:16
wanted bf16 && run_case bf16 bf16
wanted i16 && run_case i16 i16
echo "total: $((SECONDS - start)) s"
python3 "$HERE/issue51_summary.py" "$OUT" | tee "$OUT/summary.md"
exit $failed
