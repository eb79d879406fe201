#!/usr/bin/env bash
# `vkc sort --argsort` of a .npy of more than 2^32 u32 keys, checked with NumPy without a CPU sort:
# the permutation is uint64, the keys it gathers ascend, equal keys keep their input order, and
# its indices sum to n(n-1)/2 (every index once, given the checks before).
#
#   bench/cli_argsort_large.sh [N] [DIR]
#
# N defaults to 2^32 + 1,000 keys of 1,000 distinct values (stability visible); DIR (default
# /tmp) must hold 12 bytes a key (keys and the permutation). VKC (default build/vkc) is the tool.
set -euo pipefail
N=${1:-4294968296}
DIR=${2:-/tmp}
VKC=${VKC:-build/vkc}
TIME=(); [ -x /usr/bin/time ] && TIME=(/usr/bin/time -v)

python3 - "$N" "$DIR/keys.npy" <<'PY'
import sys
import numpy as np
n, path = int(sys.argv[1]), sys.argv[2]
np.save(path, np.random.default_rng(3).integers(0, 1000, n, dtype=np.uint32))
PY
"${TIME[@]}" "$VKC" sort --argsort "$DIR/keys.npy" -o "$DIR/perm.npy"
python3 - "$DIR/keys.npy" "$DIR/perm.npy" <<'PY'
import sys
import numpy as np
keys = np.load(sys.argv[1], mmap_mode='r')
perm = np.load(sys.argv[2], mmap_mode='r')
n = keys.shape[0]
ok = perm.dtype == np.uint64 and perm.shape == (n,)
step, last, total = 1 << 28, None, 0
for start in range(0, n, step):
    p = np.asarray(perm[start:start + step])
    k = keys[p]
    ok &= bool(np.all(k[1:] >= k[:-1]))
    same = k[1:] == k[:-1]
    ok &= bool(np.all(p[1:][same] > p[:-1][same]))
    if last is not None:
        ok &= bool(k[0] > last[0] or (k[0] == last[0] and p[0] > last[1]))
    last = (k[-1], p[-1])
    total += int(p.sum(dtype=np.uint64))
ok &= total == n * (n - 1) // 2
print(f"argsort of {n} keys: uint64, sorted, stable, every index once: {ok}; largest index {int(perm.max())}")
sys.exit(0 if ok else 1)
PY
rm -f "$DIR/keys.npy" "$DIR/perm.npy"
