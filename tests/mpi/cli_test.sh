#!/bin/sh
# `mpirun -np RANKS vkc sort --mpi` against the single-process `vkc sort` of the same file, byte for
# byte (NumPy, under $PYTHON, makes the inputs): a .npy of f32 keys with NaNs and signed zeros
# ascending, raw u64 keys descending, an i16 .npy of fewer keys than ranks; then a failure on every
# rank: status 1, one message, no output file. `vkc nbody --mpi` saves the state one process saves,
# with diagnostics or without.
#   cli_test.sh VKC RANKS
set -eu
vkc=$1 ranks=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"${PYTHON:-python3}" - <<'PY'
import numpy as np
r = np.random.default_rng(3)
f = r.standard_normal(30011).astype(np.float32)
f[::101] = np.nan
f[::103] = -0.0
f[::107] = 0.0
np.save("f32.npy", f)
r.integers(0, 2**64, size=20001, dtype=np.uint64).tofile("u64.raw")
np.save("i16.npy", np.array([7, -3], dtype=np.int16))
PY
run() { mpirun --oversubscribe -np "$ranks" "$vkc" sort --mpi "$@"; }
run f32.npy -o f32.mpi.npy
"$vkc" -q sort f32.npy -o f32.one.npy
cmp f32.mpi.npy f32.one.npy
run u64.raw --type u64 --order desc -o u64.mpi.raw --json > phases.json
"$vkc" -q sort u64.raw --type u64 --order desc -o u64.one.raw
cmp u64.mpi.raw u64.one.raw
grep -q '"exchange_ms"' phases.json
run i16.npy -o i16.mpi.npy
"$vkc" -q sort i16.npy -o i16.one.npy
cmp i16.mpi.npy i16.one.npy
mpirun --oversubscribe -np "$ranks" "$vkc" nbody --mpi --bodies 301 --steps 12 --every 6 --save nbody.mpi.npy \
  --frames frames > nbody.mpi.txt
"$vkc" -q nbody --bodies 301 --steps 12 --every 6 --save nbody.one.npy > nbody.one.txt
cmp nbody.mpi.npy nbody.one.npy
test -s frames/frame_00012.png
# Without diagnostics: the same state, and lines of the step, its time and the milliseconds a step.
mpirun --oversubscribe -np "$ranks" "$vkc" nbody --mpi --bodies 301 --steps 12 --every 6 --no-diagnostics --json \
  --save nbody.quiet.npy > nbody.quiet.jsonl
cmp nbody.quiet.npy nbody.one.npy
"$vkc" -q nbody --bodies 301 --steps 12 --every 6 --no-diagnostics --json --save nbody.quiet1.npy > nbody.quiet1.jsonl
cmp nbody.quiet1.npy nbody.one.npy
"${PYTHON:-python3}" - <<'PY'
import json
for name in ("nbody.quiet.jsonl", "nbody.quiet1.jsonl"):
    lines = [json.loads(l) for l in open(name)]
    assert [l["step"] for l in lines] == [0, 6, 12], (name, lines)
    assert lines[0]["step_ms"] is None and all(l["step_ms"] > 0 for l in lines[1:]), (name, lines)
    assert not any("energy" in l for l in lines), (name, lines)
PY
if run missing.npy -o never.npy 2> err.txt; then echo "a missing input passed" >&2; exit 1; fi
grep -q "vkc: rank 0: missing.npy" err.txt
test ! -e never.npy
test -z "$(ls -A | grep vkc-mpi)" || { echo "a temporary file was left" >&2; exit 1; }
echo "vkc sort --mpi and vkc nbody --mpi on $ranks ranks: as one process"
