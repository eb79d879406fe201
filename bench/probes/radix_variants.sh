#!/usr/bin/env bash
# Times radix sort variants side by side on one device with probe-radix, for tuning calls on the
# device machine (docs/perf-notes.md): first the registers of each variant's scatter pipelines
# (VKC_PIPELINE_STATS; NVIDIA reports them), then two interleaved rounds of timings, so that
# drift within the call shows as a difference between rounds.
#
# usage: radix_variants.sh DIR SIZES CASES VARIANT...
#   DIR      holds probe-radix, and probe-radix-old for variants whose name starts with "old"
#            (a binary built at an earlier commit, as a baseline); a variant named NAME runs
#            DIR/probe-radix-NAME where that file exists (a binary with variant shaders)
#   SIZES    log2 sizes, e.g. 24,26;  CASES  e.g. keys,pairs,u64
#   VARIANT  "name=SETTING,SETTING..." (probe-radix --policy settings: src/sort/radix_policy.hpp),
#            or name= alone for the device class's policy
# e.g. radix_variants.sh build-dev/dev 24,26 keys,pairs old= new= \
#        "packed16=packed=1,tile=512x16x2"
# Prints "name: case:log2n:ms ..." per round; a row that failed verification is marked "UNVERIFIED".
# `vkc bench sort` times sorts over a temporary buffer kept clear: export VKC_PROBE_CLEAR=1 to
# time the probe the same way (probe-radix's other VKC_PROBE_* settings are in its header).
set -euo pipefail
[[ $# -ge 4 ]] || { sed -n '2,16p' "$0" >&2; exit 2; }
dir=$1 sizes=$2 cases=$3
shift 3

binary_of() {
  if [[ -x $dir/probe-radix-$1 ]]; then echo "$dir/probe-radix-$1"
  elif [[ $1 == old* ]]; then echo "$dir/probe-radix-old"
  else echo "$dir/probe-radix"; fi
}

# Runs the probe of variant $1 with its policy settings and any extra arguments.
probe() {
  local name=${1%%=*} knobs=${1#*=}
  shift
  local policy=()
  [[ -n $knobs ]] && policy=(--policy "$knobs")
  "$(binary_of "$name")" --cases "$cases" --scans lookback "${policy[@]}" "$@" 2>&1
}

for variant in "$@"; do
  stats=$(VKC_PIPELINE_STATS=1 probe "$variant" --sizes "${sizes%%,*}" --runs 1 |
          grep -E 'scatter[a-z_0-9]* .*Register' | sed -E 's/.*scatter[a-z_0-9]* (\[[^]]*\]).*Register Count=([0-9]+).*/\1:\2/' |
          sort -u | tr '\n' ' ' || true)
  echo "${variant%%=*} registers: ${stats:-(none reported)}"
done
for round in 1 2; do
  for variant in "$@"; do
    probe "$variant" --sizes "$sizes" --runs 15 |
      awk -v name="${variant%%=*}" '$2 == "lookback" {
             row = row " " $1 ":" $3 ":" $5 ($6 == "yes" ? "" : " UNVERIFIED")
           } END { print name ":" row }' ||
      echo "${variant%%=*}: the probe failed (exit $?)"  # the other variants still run
  done
done
