#!/usr/bin/env bash
# Issue 52's measurement on the GPU machine, in one call: vkcompute's segmented sort (vkc bench
# segments: the recorded sort's GPU time, with the whole-array radix sort of the same keys beside
# it) and CUB's DeviceSegmentedSort and DeviceSegmentedRadixSort on the same segment offsets
# (bench/segment_shapes.hpp, same seed), then rows against torch.sort(x, dim=-1).
#
#   bench/issue52_device.sh PACK OUT
#     PACK  a folder with vkc-bench, lib/ (libraries the GPU machine may lack), peers/vkc-peer-cub-sort
#           and peers/torch_sort.py (bench/issue52_device.sh pack BUILD PEER_BUILD PACK makes it)
#     OUT   the folder for ours-*.csv (ours-pairs-*: rows with their indices as values, what
#           torch.sort also gives), cub-*.jsonl, torch-rows.txt and env.txt
# Environment: ISSUE52_BUDGET_S (default 480: no case starts after it), ISSUE52_RUNS (default 20).
#
# One device call (PACK and the Vulkan loader's .debs, .gl, named in `carry`):
#   for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig;
#   export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json;
#   bench/issue52_device.sh .pack52 /tmp/i52; tar -czf $OUT/issue52.tgz -C /tmp i52
set -uo pipefail

if [ "${1:-}" = pack ]; then
  [ $# -eq 4 ] || { sed -n '2,18p' "$0" >&2; exit 2; }
  build=$2 peer_build=$3 dest=$4
  rm -rf "$dest" && mkdir -p "$dest/lib" "$dest/peers" || exit 1
  cp "$build/vkc-bench" "$dest/" && cp "$peer_build/peers/vkc-peer-cub-sort" "$dest/peers/" || exit 1
  cp "$(dirname "$0")/peers/torch_sort.py" "$dest/peers/" || exit 1
  tbb=$(ldd "$build/vkc-bench" | awk '/libtbb/ {print $3}')
  [ -n "$tbb" ] && cp -L "$tbb" "$dest/lib/"
  exit 0
fi
[ $# -eq 2 ] || { sed -n '2,18p' "$0" >&2; exit 2; }
PACK=$1 OUT=$2
BUDGET=${ISSUE52_BUDGET_S:-480}
RUNS=${ISSUE52_RUNS:-20}
mkdir -p "$OUT" || exit 1
export LD_LIBRARY_PATH="$(cd "$PACK/lib" && pwd):${LD_LIBRARY_PATH:-}"
BENCH=$PACK/vkc-bench CUB=$PACK/peers/vkc-peer-cub-sort
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
} > "$OUT/env.txt"

start=$SECONDS
in_budget() { [ $((SECONDS - start)) -lt "$BUDGET" ] || { echo "budget spent: skipping $*" >&2; return 1; }; }

# case NAME TYPE SHAPE N: ours, then both CUB algorithms, on the same offsets.
case_() {
  local name=$1 type=$2 shape=$3 n=$4
  in_budget "$name" || return 0
  "$BENCH" segments --type "$type" --shapes "$shape" --n "$n" --runs "$RUNS" --csv "$OUT/ours-$name.csv" \
    > "$OUT/ours-$name.txt" 2>&1 || echo "ours $name failed" >&2
  for algo in segmented segmented_radix; do
    "$CUB" --algo "$algo" --key "$type" --segments "$shape" --n "$n" --runs "$RUNS" > "$OUT/cub-$algo-$name.jsonl" 2>&1 ||
      echo "cub $algo $name failed" >&2
  done
}

case_ power16-22 i32 power:65536 4194304
case_ power16-26 i32 power:65536 67108864
case_ power20-26 i32 power:1048576 67108864
case_ small-22 i32 uniform:256 4194304
case_ small-26 i32 uniform:256 67108864
case_ large-26 i32 uniform:65536 67108864
case_ rows256 f32 rows:256 16777216
case_ rows16k f32 rows:16384 67108864
case_ rows1m f32 rows:1048576 16777216
# torch.sort returns each key's index too: our sort of the keys with their indices as values.
for rows in rows256:256:16777216 rows16k:16384:67108864 rows1m:1048576:16777216; do
  IFS=: read -r name columns n <<< "$rows"
  in_budget "pairs $name" || break
  "$BENCH" segments --type f32 --output pairs --shapes "rows:$columns" --n "$n" --runs "$RUNS" \
    --csv "$OUT/ours-pairs-$name.csv" > "$OUT/ours-pairs-$name.txt" 2>&1 || echo "ours pairs $name failed" >&2
done
if in_budget torch; then
  python3 "$PACK/peers/torch_sort.py" --rows 65536x256,4096x16384,16x1048576 --key f32 --runs 30 > "$OUT/torch-rows.txt" 2>&1 ||
    echo "torch rows failed" >&2
fi
echo "done in $((SECONDS - start)) s" >&2
