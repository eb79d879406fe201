#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds vkcompute and runs the whole test suite: every GPU
# test at lavapipe subgroup sizes 4, 8 and 16 under the Khronos validation layer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake --preset release -DVKC_BUILD_PEERS=OFF
cmake --build --preset release
ctest --preset release
