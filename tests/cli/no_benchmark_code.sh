#!/bin/sh
# no_benchmark_code.sh VKC MAP BENCH_BUILD_DIR: vkc carries no benchmark code. Fails when the link
# of VKC read any file of the benchmarks' build folder (MAP, its linker map, names every input),
# or when VKC defines a symbol of vkc that benchmark code defines (nm: the strong, global vkc::
# symbols of every library and object under BENCH_BUILD_DIR: harness, checks, shaders, vkc-bench).
set -eu
export LC_ALL=C  # one collation for sort and comm
vkc=$1 map=$2 bench=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -s "$map" ] || { echo "no linker map $map"; exit 1; }
if grep -E '(^|[[:space:]/(])bench/' "$map" > "$tmp/linked"; then
  echo "vkc's link read benchmark files:"; sort -u "$tmp/linked" | head -20; exit 1
fi

strong_vkc_symbols() { sed -n 's/^[0-9a-f]* [TDRB] \(vkc::.*\)$/\1/p' | sort -u; }
nm -C --defined-only "$vkc" | strong_vkc_symbols > "$tmp/vkc"
find "$bench" -name '*.o' -o -name '*.a' | xargs nm -C --defined-only --extern-only 2>/dev/null |
  strong_vkc_symbols > "$tmp/bench"
# Both lists must hold something, or the comparison proves nothing (a stripped binary, no build).
[ -s "$tmp/vkc" ] || { echo "$vkc: no vkc:: symbols to check (stripped?)"; exit 1; }
[ -s "$tmp/bench" ] || { echo "$bench: no benchmark symbols to compare with (not built?)"; exit 1; }
comm -12 "$tmp/vkc" "$tmp/bench" > "$tmp/shared"
if [ -s "$tmp/shared" ]; then
  echo "vkc defines symbols of the benchmarks:"; head -20 "$tmp/shared"; exit 1
fi
echo "vkc: $(wc -l < "$tmp/vkc") symbols, none of the $(wc -l < "$tmp/bench") of the benchmarks; no benchmark file linked"
