#!/usr/bin/env bash
# shellcheck disable=SC2317,SC1091  # functions called through step(); /etc/os-release
# Measures every table of BENCHMARKS.md on this machine's GPU and writes them, with their CSVs,
# the keys/s plot and the environment, into one folder.
#
#   bench/reproduce.sh OUT [all|part1|part2|part3|part4|part5]
#
# Each part fits one 10-minute call on an H100 (times measured at 974611a, or estimated where
# marked); `all` (the default) runs the four in turn. Most of each part's time is the CPU's: the
# reference sort and the check of every output, ours and CUB's, at 2^26 and 2^28.
# part1: the environment; every algorithm, CUB and std::sort on u32 keys from 2^9 to 2^28 (the
#        plot, the CPU-versus-GPU table, the u32 rows of the radix table, the crossover); pairs at
#        small sizes (the crossover); sorted input (odd-even); the n-body table with its peer.
#        211 s.
# part2: the radix table's f32 and u64 keys and u32+u32 pairs beside CUB, at 2^20, 2^24, 2^26 and
#        2^28. 403 s (u32+u32 alone 295 s).
# part3: u64+u32 pairs, the same sizes. Not yet run whole: 2^20 to 2^26 took under 200 s; about
#        450 s estimated (u32+u32's 295 s, half as many bytes a pair).
# part4: u64+u64 pairs, at 2^20, 2^24, 2^26 and 2^27 (one buffer cannot hold the temporary data of
#        2^28). Not yet run; about 300 s estimated (2^27 pairs of 16 bytes, as many bytes as u32+u32
#        at 2^28).
# part5: the key types of issue 51 beside CUB's radix sort (no merge sort or PyTorch): u8, u16 and
#        f16 keys, and u32 keys sorted by bits 0:16 (--bits 0:16, CUB's begin_bit/end_bit), at 2^24,
#        2^26 and 2^28. Not yet run; bench/issue51_device.sh runs these and more in one call.
# Run from the repository root. BUILD (default: build) holds `vkc`, and `peers/` with the CUDA
# peers where they were built (-DVKC_BUILD_PEERS=ON); without them the tables have no CUB column.
# BUILD/lib, if present, is searched first for shared libraries (TBB on a machine without it).
# VKC_COMMIT names the commit measured (default: `git rev-parse --short HEAD`, else the build's).
# REPRO_SCALE=tiny runs every step at small sizes, for a check on a CPU device (lavapipe).
# Each step's output goes to OUT/logs/, its time to OUT/timing-PART.txt; a failed step is
# reported there and the others still run, and the exit status is then non-zero. At the end
# bench/summarize.py writes OUT/tables.md (the page's tables) and OUT/README.md (the index); run
# it again on a folder that merges several parts.
set -uo pipefail

usage() { echo "usage: bench/reproduce.sh OUT [all|part1|part2|part3|part4|part5]" >&2; exit 2; }
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
OUT=$1
PART=${2:-all}
case $PART in all|part1|part2|part3|part4|part5) ;; *) usage ;; esac

BUILD=${BUILD:-build}
VKC="$BUILD/vkc"
PEER="$BUILD/peers/vkc-peer-cub-sort"
HERE=$(cd "$(dirname "$0")" && pwd)
[ -x "$VKC" ] || { echo "reproduce.sh: $VKC not found (set BUILD to the build folder)" >&2; exit 1; }
mkdir -p "$OUT/logs" || exit 1
[ -d "$BUILD/lib" ] && export LD_LIBRARY_PATH="$PWD/$BUILD/lib:${LD_LIBRARY_PATH:-}"
if [ -z "${VKC_COMMIT:-}" ] && commit=$(git rev-parse --short HEAD 2>/dev/null); then
  git diff --quiet HEAD 2>/dev/null || commit="$commit+modified"
  export VKC_COMMIT=$commit
fi

# Sizes: the full tables, or a quick pass through every step on a CPU device.
if [ "${REPRO_SCALE:-full}" = tiny ]; then
  ALL_MAX=14 CPU_MAX=14 ODD_MAX=12 SMALL_MAX=13 SORTED_MAX=13 RADIX_SIZES="10 12" KEY_TYPE_SIZES="10 12"
  RUNS=(--runs 10 --warmup 1)
  NBODY_N=256,512 NBODY_RUNS=(--runs 2 --warmup 1)
else
  ALL_MAX=28 CPU_MAX=26 ODD_MAX=16 SMALL_MAX=17 SORTED_MAX=20 RADIX_SIZES="20 24 26 28" KEY_TYPE_SIZES="24 26 28"
  RUNS=()
  NBODY_N=16384,32768,65536,135168,262144,524288,1048576 NBODY_RUNS=()
fi
PEERS=()
[ -x "$PEER" ] && PEERS=(--peers)

failed=0
start_all=$SECONDS
# step NAME COMMAND...: runs one step, its stdout and stderr into OUT/logs/NAME.log (and stdout),
# its time and status into OUT/timing-PART.txt.
step() {
  local name=$1; shift
  local t0=$SECONDS
  echo "== $name" | tee -a "$OUT/logs/$name.log"
  "$@" 2>&1 | tee -a "$OUT/logs/$name.log"
  local rc=${PIPESTATUS[0]}
  [ "$rc" -eq 0 ] || failed=1
  printf '%-24s %5d s  %s\n' "$name" $((SECONDS - t0)) "$([ "$rc" -eq 0 ] && echo ok || echo "FAILED ($rc)")" \
    >> "$OUT/timing-$PART.txt"
}

# The radix temporary data of one sort must fit one storage buffer binding.
fits() {  # fits N KEY_BYTES VALUE_BYTES
  local range
  range=$("$VKC" info --json 2>/dev/null | python3 -c \
    'import json,sys; d=json.load(sys.stdin); d=d if isinstance(d,list) else d.get("devices",[d]); print(min(x["max_storage_buffer_range"] for x in d))' \
    2>/dev/null) || range=4294967295
  [ $(( ($1 * ($2 + $3)) + (64 << 20) )) -le "$range" ]
}

environment() {
  {
    echo "date: $(date -u +%Y-%m-%d)"
    echo "commit: ${VKC_COMMIT:-as built}"
    if command -v nvidia-smi >/dev/null; then
      echo "gpu: $(nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | head -1)"
      echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
    fi
    "$VKC" info | sed -n 's/^ *Vulkan API *\(.*\)/vulkan: \1/p; s/^ *driver  *\(.*\)/vulkan driver: \1/p' | head -2
    local nvcc
    nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
    [ -n "$nvcc" ] && echo "cuda: $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
    if [ -x "$PEER" ]; then
      "$PEER" --n 1024 --runs 10 --warmup 1 | python3 -c '
import json, sys
j = json.loads(sys.stdin.readline())
v = j["cub_version"]
print("cub: %d.%d.%d (CUDA runtime %d)" % (v // 100000, v // 100 % 1000, v % 100, j["cuda_runtime"]))'
    else
      echo "cub: not built (no CUDA peers in $BUILD/peers)"
    fi
    # The copy bound: a device-to-device copy of 1 GiB, bytes read plus written, median of 20.
    python3 "$HERE/copy_rate.py" 2>/dev/null || echo "copy_tbps: unknown (no CUDA PyTorch)"
    echo "cpu: $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), $(nproc) cores"
    echo "os: $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"), Linux $(uname -r)"
    if command -v gnuplot >/dev/null; then echo "plot: vkc bench sort --plot ($(gnuplot --version))"
    else echo "plot: bench/plot_sort.py (matplotlib; gnuplot not installed)"; fi
  } > "$OUT/env-$PART.txt"
  cat "$OUT/env-$PART.txt"
  "$VKC" info --json > "$OUT/vkc-info.json"
}

# Every algorithm, CUB and std::sort, u32 keys: the plot and three tables come from this run.
all_algorithms() {
  local plot=()
  command -v gnuplot >/dev/null && plot=(--plot "$OUT/sort-u32.png")
  "$VKC" bench sort "${PEERS[@]}" "${RUNS[@]}" --min-n 512 --max-n $((1 << ALL_MAX)) --cpu-max-n $((1 << CPU_MAX)) \
    --odd-even-max-n $((1 << ODD_MAX)) --csv "$OUT/sort-u32.csv" "${plot[@]}" || return
  [ ${#plot[@]} -gt 0 ] || python3 "$HERE/plot_sort.py" "$OUT/sort-u32.csv" "$OUT/sort-u32.png"
}

# One case of the radix table beside CUB, one size per run (the sizes RADIX_SIZES lists), the rows
# gathered in one CSV; OPTION... go to every run (--bits 0:16, --peer-algos cub_radix).
radix_case() {  # radix_case NAME TYPE VALUES KEY_BYTES VALUE_BYTES [OPTION...]
  local name=$1 type=$2 values=$3 kb=$4 vb=$5 csv="$OUT/radix-$1.csv" rc=0 e n
  shift 5
  rm -f "$csv"
  for e in $RADIX_SIZES; do
    n=$((1 << e))
    if ! fits "$n" "$kb" "$vb"; then
      n=$((n / 2))
      echo "2^$e: the temporary data does not fit one storage buffer; 2^$((e - 1)) instead"
    fi
    "$VKC" bench sort "${PEERS[@]}" "${RUNS[@]}" --algos radix --type "$type" --values "$values" \
      --min-n "$n" --max-n "$n" --no-transfer --cpu-max-n 0 --csv "$OUT/logs/radix-$name-$n.csv" "$@" ||
      { rc=1; continue; }
    if [ -f "$csv" ]; then tail -n +2 "$OUT/logs/radix-$name-$n.csv" >> "$csv"
    else cp "$OUT/logs/radix-$name-$n.csv" "$csv"; fi
  done
  return "$rc"
}

runs() { [ "$PART" = all ] || [ "$PART" = "$1" ]; }  # runs PARTn: whether this call runs that part

if runs part1; then
  step environment environment
  step sort-u32 all_algorithms
  step sort-u32-u32-small "$VKC" bench sort "${RUNS[@]}" --algos bitonic,radix --values u32 --min-n 512 \
    --max-n $((1 << SMALL_MAX)) --no-transfer --cpu-max-n 0 --csv "$OUT/sort-u32-u32-small.csv"
  step sort-u32-sorted "$VKC" bench sort "${RUNS[@]}" --dist sorted --algos bitonic,odd_even,radix --min-n 512 \
    --max-n $((1 << SORTED_MAX)) --odd-even-max-n $((1 << SORTED_MAX)) --no-transfer --cpu-max-n 0 \
    --csv "$OUT/sort-u32-sorted.csv"
  nbody_peer=()
  [ -x "$BUILD/peers/vkc-peer-nbody" ] && nbody_peer=(--peers)
  step nbody "$VKC" bench nbody "${nbody_peer[@]}" "${NBODY_RUNS[@]}" --n "$NBODY_N" --csv "$OUT/nbody.csv"
fi
# A part run alone records its own environment (env-PART.txt), as the machine may differ.
[ "$PART" = all ] || [ "$PART" = part1 ] || step environment environment
if runs part2; then
  step radix-f32 radix_case f32 f32 none 4 0
  step radix-u64 radix_case u64 u64 none 8 0
  step radix-u32-u32 radix_case u32-u32 u32 u32 4 4
fi
if runs part3; then
  step radix-u64-u32 radix_case u64-u32 u64 u32 8 4
fi
if runs part4; then
  step radix-u64-u64 radix_case u64-u64 u64 u64 8 8
fi
if runs part5; then
  # CUB's radix sort alone beside ours: its merge sort and PyTorch add minutes and no column here.
  RADIX_SIZES=$KEY_TYPE_SIZES step radix-u8 radix_case u8 u8 none 1 0 --peer-algos cub_radix
  RADIX_SIZES=$KEY_TYPE_SIZES step radix-u16 radix_case u16 u16 none 2 0 --peer-algos cub_radix
  RADIX_SIZES=$KEY_TYPE_SIZES step radix-f16 radix_case f16 f16 none 2 0 --peer-algos cub_radix
  RADIX_SIZES=$KEY_TYPE_SIZES step radix-u32-bits0-16 radix_case u32-bits0-16 u32 none 4 0 --bits 0:16 \
    --peer-algos cub_radix
fi
printf '%-24s %5d s\n' total $((SECONDS - start_all)) >> "$OUT/timing-$PART.txt"
python3 "$HERE/summarize.py" "$OUT" || failed=1
cat "$OUT/timing-$PART.txt"
exit $failed
