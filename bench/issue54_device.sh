#!/usr/bin/env bash
# Issue 54's measurement on a machine of several GPUs: host-to-host sorts on one GPU beside the
# same sort split across every GPU (vkc bench sort --devices all), in one call, after the host's
# memory bandwidth (probe-host_memory: memcpy and a read pass on 1 to every core).
#
#   bench/issue54_device.sh PACK OUT
#     PACK  a folder with vkc-bench and lib/ (libraries the GPU machine may lack):
#           bench/issue54_device.sh pack BUILD PACK makes it
#     OUT   the folder for host-memory.csv, sort-CASE.csv, sort-CASE.txt and env.txt
# Environment: ISSUE54_BUDGET_S (default 540: no case starts after it), ISSUE54_RUNS (default 10, the least vkc bench sort takes),
# ISSUE54_DEVICES (default all), ISSUE54_CASES (TYPE:VALUES:MIN_N:MAX_N items; default u32 keys from 2^24 to
# 2^30, u32 pairs and u64 keys at 2^30).
#
# One device call (PACK and the Vulkan loader's .debs, .gl, named in `carry`; kind nvidia-h200-x2
# or -x4):
#   for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig;
#   export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json;
#   bench/issue54_device.sh .pack54 /tmp/i54; tar -czf $OUT/issue54.tgz -C /tmp i54
set -uo pipefail

if [ "${1:-}" = pack ]; then
  [ $# -eq 3 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
  build=$2 dest=$3
  rm -rf "$dest" && mkdir -p "$dest/lib" || exit 1
  cp "$build/vkc-bench" "$build/probes/probe-host_memory" "$dest/" || exit 1
  tbb=$(ldd "$build/vkc-bench" | awk '/libtbb/ {print $3}')
  [ -n "$tbb" ] && cp -L "$tbb" "$dest/lib/"
  exit 0
fi
[ $# -eq 2 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
PACK=$(cd "$1" && pwd) OUT=$2
BUDGET=${ISSUE54_BUDGET_S:-540}
RUNS=${ISSUE54_RUNS:-10}
DEVICES=${ISSUE54_DEVICES:-all}
mkdir -p "$OUT" || exit 1
export LD_LIBRARY_PATH="$PACK/lib:${LD_LIBRARY_PATH:-}"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id --format=csv,noheader
  command -v numactl >/dev/null && numactl --hardware | head -3
} >> "$OUT/env.txt"

start=$SECONDS
in_budget() { [ $((SECONDS - start)) -lt "$BUDGET" ] || { echo "budget spent: skipping $*" >&2; return 1; }; }

# sort_case NAME TYPE VALUES MIN_N MAX_N: host to host on one GPU and on $DEVICES.
sort_case() {
  local name=$1 type=$2 values=$3 min_n=$4 max_n=$5
  in_budget "$name" || return 0
  "$PACK/vkc-bench" sort --type "$type" --values "$values" --algos radix --min-n "$min_n" --max-n "$max_n" \
    --runs "$RUNS" --cpu-max-n 0 --devices "$DEVICES" --csv "$OUT/sort-$name.csv" > "$OUT/sort-$name.txt" 2>&1 ||
    echo "$name failed" >&2
}

"$PACK/probe-host_memory" > "$OUT/host-memory.csv" 2>&1
for item in ${ISSUE54_CASES:-u32:none:16777216:1073741824 u32:u32:1073741824:1073741824 u64:none:1073741824:1073741824}; do
  IFS=: read -r type values min_n max_n <<< "$item"
  name=$type; [ "$values" = none ] || name=$type-$values
  sort_case "$name-$max_n" "$type" "$values" "$min_n" "$max_n"
done
echo "done in $((SECONDS - start)) s" >&2
