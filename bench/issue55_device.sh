#!/usr/bin/env bash
# Issue 55's measurement on a GPU machine: `vkc sort --mpi` and `vkc nbody --mpi` with 1 and 2 ranks
# (each rank on its host's GPU by local rank; on a machine of one GPU both ranks share it), their
# phase times, the single-process `vkc sort` of the same file beside them, and whether the
# machine's Python has pandas and Dask.
#
#   bench/issue55_device.sh pack BUILD PACK   makes PACK: vkc, vkc-mpi and lib/ (TBB)
#   bench/issue55_device.sh PACK DEBS OUT     runs; DEBS holds OpenMPI's Debian packages (the list
#                                             in docs/mpi.md), unpacked into /opt/ompi
# Environment: ISSUE55_LOG2N (default "28 30": the u32 files, 2^N keys), ISSUE55_RANKS (default
# "1 2"), ISSUE55_BODIES (default "262144": the N-body sizes, each run first, ISSUE55_STEPS steps
# (default 6) without diagnostics, a checkpoint every 2 with its milliseconds per step),
# ISSUE55_REPEATS (default 3: runs of each sort).
set -uo pipefail

if [ "${1:-}" = pack ]; then
  [ $# -eq 3 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
  build=$2 dest=$3
  rm -rf "$dest" && mkdir -p "$dest/lib" || exit 1
  cp "$build/vkc" "$build/vkc-mpi" "$dest/" || exit 1
  tbb=$(ldd "$build/vkc" | awk '/libtbb/ {print $3}')
  [ -n "$tbb" ] && cp -L "$tbb" "$dest/lib/"
  exit 0
fi
[ $# -eq 3 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
PACK=$(cd "$1" && pwd) DEBS=$(cd "$2" && pwd) OUT=$3
mkdir -p "$OUT" /opt/ompi || exit 1
OUT=$(cd "$OUT" && pwd)
for f in "$DEBS"/*.deb; do dpkg -x "$f" /opt/ompi; done
export OPAL_PREFIX=/opt/ompi/usr PATH=/opt/ompi/usr/bin:$PATH
export LD_LIBRARY_PATH="$PACK/lib:/opt/ompi/usr/lib/x86_64-linux-gnu:/opt/ompi/usr/lib/x86_64-linux-gnu/openmpi/lib:${LD_LIBRARY_PATH:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
mpirun=(mpirun --oversubscribe --bind-to none)
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
  echo "cores: $(nproc)"
  mpirun --version | head -1
  python3 -c "import numpy; print('numpy', numpy.__version__)" 2>&1
  python3 -c "import pandas; print('pandas', pandas.__version__)" 2>&1 | tail -1
  python3 -c "import dask; print('dask', dask.__version__)" 2>&1 | tail -1
} > "$OUT/env.txt"
work=$(mktemp -d /tmp/i55.XXXX)
for bodies in ${ISSUE55_BODIES:-262144}; do
  for ranks in ${ISSUE55_RANKS:-1 2}; do
    /usr/bin/time -f "%e s wall" "${mpirun[@]}" -np "$ranks" "$PACK/vkc" nbody --mpi --bodies "$bodies" \
      --steps "${ISSUE55_STEPS:-6}" --every 2 --no-diagnostics --json \
      > "$OUT/nbody-$bodies-$ranks-ranks.jsonl" 2> "$OUT/nbody-$bodies-$ranks-ranks.err"
  done
done
for log2n in ${ISSUE55_LOG2N:-28 30}; do
  python3 -c "import numpy as np; np.save('$work/in.npy', np.random.default_rng(1).integers(0, 2**32, size=2**$log2n, dtype=np.uint32))"
  /usr/bin/time -f "%e s wall, %M KiB peak" "$PACK/vkc" -q sort "$work/in.npy" -o "$work/one.npy" 2> "$OUT/one-process-$log2n.txt"
  for ranks in ${ISSUE55_RANKS:-1 2}; do
    for run in $(seq "${ISSUE55_REPEATS:-3}"); do
      "${mpirun[@]}" -np "$ranks" "$PACK/vkc" sort --mpi "$work/in.npy" -o "$work/mpi.npy" --json \
        >> "$OUT/sort-$log2n-$ranks-ranks.jsonl" 2>> "$OUT/sort-$log2n-$ranks-ranks.err"
    done
    cmp "$work/mpi.npy" "$work/one.npy" && echo "2^$log2n on $ranks ranks: as one process" >> "$OUT/verified.txt"
  done
  rm -f "$work"/*.npy
done
rm -rf "$work"
