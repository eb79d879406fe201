#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds vkcompute and runs the main job on the best device
# present (lavapipe where there is no GPU): the device list, then the sorting benchmark table.
# Extra arguments go to `vkc bench sort` (e.g. --max-n 1048576 --csv sort.csv --plot sort.png).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake --preset release
cmake --build --preset release
./build/vkc info
./build/vkc bench sort "$@"
