#!/usr/bin/env bash
# The Python package's measurements on one GPU machine, in one call (BENCHMARKS.md, "Python"):
# python/benchmarks/call_overhead.py (the per-call cost), bench/python_sort.py (host-to-host sorts
# against PyTorch, CuPy and NumPy, a fresh interpreter's first sort), then the same run's C++
# figures from vkc-bench (the overhead of a 2^10 sort and u32 host to host from 2^20 to 2^28, with
# the PCIe copy bound) and the driver's
# bare instance and device creation (probe-startup ... driver), after the package's whole pytest
# suite (the tests that need PyTorch or a CUDA device run there).
#
#   bench/python_device.sh pack BUILD_DIR DEST   copy what a device call needs (and libtbb) to DEST
#   bench/python_device.sh run PACK OUT          measure with the packed build, results in OUT
#                                                (PYTEST_SELECT=FILE: that test file alone)
#   bench/python_device.sh processes PACK OUT    the same host sorts in three kinds of process,
#                                                twice: vkc-bench (C++), probe-capi_host (C++ and
#                                                the C ABI), python_sort.py --parts host
#
# The pack holds python/ (the build tree's package, with libvkcompute.so.1 and libtbb.so.12 beside
# it: the library's RUNPATH is $ORIGIN), vkc-bench, probe-startup and lib/libtbb.so.12 for those.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

case "${1:-}" in
  pack)
    [ $# -eq 3 ] || { sed -n '9,14p' "$0" >&2; exit 2; }
    build=$2 dest=$3
    tbb=$(ldd "$build/lib/libvkcompute.so.1" | awk '/libtbb/ {print $3}')
    rm -rf "$dest" && mkdir -p "$dest/lib"
    cp -rL "$build/python" "$dest/python"
    cp "$build/vkc-bench" "$build/probes/probe-startup" "$build/probes/probe-capi_host" "$dest/"
    cp -L "$tbb" "$build/lib/libvkcompute.so.1" "$dest/lib/"
    du -sh "$dest"
    ;;
  run)
    [ $# -eq 3 ] || { sed -n '9,14p' "$0" >&2; exit 2; }
    pack=$(cd "$2" && pwd) out=$3
    mkdir -p "$out"
    export PYTHONPATH="$pack/python" LD_LIBRARY_PATH="$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    {
      nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
      python3 -c "import sys, numpy; print('python', sys.version.split()[0], 'numpy', numpy.__version__)"
      python3 -c "import torch; print('torch', torch.__version__)" 2>/dev/null || echo "torch absent"
      python3 -c "import cupy; print('cupy', cupy.__version__)" 2>/dev/null || echo "cupy absent"
      python3 -c "import pytest; print('pytest', pytest.__version__)" 2>/dev/null || echo "pytest absent"
      python3 -c "import vkcompute; print(vkcompute.default_context().device)"
    } >"$out/env.txt" 2>&1
    cat "$out/env.txt"
    # The whole pytest suite, the test past 128 MiB included.
    VKC_PYTHON_LARGE_TESTS=1 python3 -m pytest -q -p no:cacheprovider "$here/../python/tests${PYTEST_SELECT:+/$PYTEST_SELECT}" \
      >"$out/pytest.txt" 2>&1 && echo "pytest: passed" || echo "pytest: FAILED (see pytest.txt)"
    tail -4 "$out/pytest.txt"
    python3 "$here/../python/benchmarks/call_overhead.py" >"$out/call-overhead.txt" 2>&1 || echo "call_overhead.py failed"
    tail -8 "$out/call-overhead.txt"
    python3 "$here/python_sort.py" --csv "$out/python-sort.csv"
    "$pack/vkc-bench" sort --algos bitonic,radix --min-n 1024 --max-n 1024 --cpu-max-n 0 --runs 1000 \
      --csv "$out/cxx-overhead.csv" >/dev/null
    "$pack/vkc-bench" sort --algos radix --min-n 1048576 --max-n 268435456 --cpu-max-n 0 --runs 10 \
      --csv "$out/cxx-host.csv" >/dev/null
    for i in 1 2 3; do "$pack/probe-startup" 1000 auto off driver; done >"$out/startup-driver.txt" 2>&1
    grep -h "host_to_host" "$out/cxx-overhead.csv" "$out/cxx-host.csv" | cut -d, -f1,6,12,13
    grep -i "driver\|instance\|device" "$out/startup-driver.txt" | head -12
    ;;
  processes)
    [ $# -eq 3 ] || { sed -n '9,14p' "$0" >&2; exit 2; }
    pack=$(cd "$2" && pwd) out=$3
    mkdir -p "$out"
    export PYTHONPATH="$pack/python" LD_LIBRARY_PATH="$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    for round in 1 2; do
      "$pack/vkc-bench" sort --algos radix --min-n 1048576 --max-n 268435456 --cpu-max-n 0 --runs 10 \
        --csv "$out/cxx-host-$round.csv" >/dev/null 2>&1
      grep -h "host_to_host" "$out/cxx-host-$round.csv" | cut -d, -f1,6,12
      "$pack/probe-capi_host" 20 22 24 26 28 | tee "$out/capi-host-$round.csv"
      python3 "$here/python_sort.py" --parts host --sizes 20,22,24,26,28 \
        --csv "$out/python-host-$round.csv" | grep "in_place\|kept"
    done
    ;;
  *) sed -n '2,17p' "$0" >&2; exit 2 ;;
esac
