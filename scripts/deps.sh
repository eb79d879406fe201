#!/usr/bin/env bash
# Installs the Debian 12 packages vkcompute needs, skipping those already present.
# Usage: scripts/deps.sh [extra packages...]
set -euo pipefail

packages=(
  cmake ninja-build g++ git pkgconf
  libvulkan-dev glslc spirv-tools          # Vulkan headers and loader, shader compiler, SPIR-V validator
  mesa-vulkan-drivers                      # lavapipe: Vulkan on the CPU where there is no GPU
  vulkan-validationlayers                  # the Khronos validation layer the tests run under
  libgtest-dev libgmock-dev                # GoogleTest
  libcli11-dev nlohmann-json3-dev libstb-dev libtbb-dev
  python3-numpy                            # the reference that the .npy and CLI tests compare against
  python3-pytest                           # the Python package's tests (python/tests)
  gnuplot-nox                              # `vkc bench sort --plot`, and its test
  openmpi-bin libopenmpi-dev               # vkc::mpi, the distributed sort, and its tests under mpirun
  python3-pandas python3-dask python3-mpi4py  # vkcompute.dask and vkcompute.mpi, and their tests
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "deps.sh: missing packages (${missing[*]}) and no sudo to install them" >&2; exit 1; }
  sudo="sudo"
fi
echo "deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
