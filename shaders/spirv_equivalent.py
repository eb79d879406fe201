#!/usr/bin/env python3
"""Checks that two SPIR-V modules are the same up to a renaming of ids and the order of their
module-level declarations: the function bodies must match instruction by instruction. A move of
GLSL code between includes changes only those (glslang numbers ids in the order it meets them).
Usage: spirv_equivalent.py before.spv after.spv"""
import subprocess, sys
from collections import Counter

def parse(path):
    text = subprocess.run(['spirv-dis', '--raw-id', '--no-header', path], check=True, capture_output=True, text=True).stdout
    out = []
    for line in text.splitlines():
        t = line.split()
        if not t: continue
        if len(t) > 1 and t[1] == '=': out.append((t[0], t[2], t[3:]))
        else: out.append((None, t[0], t[1:]))
    return out

a, b = parse(sys.argv[1]), parse(sys.argv[2])
fa = next(i for i, x in enumerate(a) if x[1] == 'OpFunction')
fb = next(i for i, x in enumerate(b) if x[1] == 'OpFunction')
m, inv = {}, {}
def bind(x, y):
    if x in m or y in inv:
        if m.get(x) != y or inv.get(y) != x: raise SystemExit(f'id mismatch {x} {y}')
    m[x] = y; inv[y] = x
def match(ia, ib):
    (ra, oa, pa), (rb, ob, pb) = ia, ib
    if oa != ob or len(pa) != len(pb) or (ra is None) != (rb is None): raise SystemExit(f'differ: {ia} / {ib}')
    if ra: bind(ra, rb)
    for x, y in zip(pa, pb):
        if x.startswith('%') != y.startswith('%'): raise SystemExit(f'differ: {ia} / {ib}')
        if x.startswith('%'): bind(x, y)
        elif x != y: raise SystemExit(f'differ: {ia} / {ib}')
# Function bodies in order.
if len(a) - fa != len(b) - fb: raise SystemExit('function sections differ in length')
for ia, ib in zip(a[fa:], b[fb:]): match(ia, ib)
# Module-level definitions: match each mapped result id with its counterpart, to a fixpoint.
da = {x[0]: x for x in a[:fa] if x[0]}
db = {x[0]: x for x in b[:fb] if x[0]}
done = set(); changed = True
while changed:
    changed = False
    for r, ia in da.items():
        if r in m and r not in done:
            match(ia, db[m[r]]); done.add(r); changed = True
if len(done) != len(da) or len(da) != len(db): raise SystemExit(f'unmatched definitions: {set(da) - done}')
# The rest (decorations, names, entry point, modes, capabilities) as multisets under the renaming.
def canon(ia, rename):
    r, o, p = ia
    p = [rename.get(x, x) for x in p]
    if o == 'OpEntryPoint': p = p[:3] + sorted(p[3:])
    return (o, tuple(p))
ra = Counter(canon(x, m) for x in a[:fa] if not x[0])
rb = Counter(canon(x, {}) for x in b[:fb] if not x[0])
if ra != rb: raise SystemExit(f'declarations differ: {ra - rb} / {rb - ra}')
print(f'equivalent: {len(a) - fa} function instructions identical up to id renaming; '
      f'{len(da)} definitions and {sum(ra.values())} declarations the same, in another order')
