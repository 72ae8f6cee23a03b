#!/usr/bin/env bash
# Configures and builds caliber in build/ (or $CALIBER_BUILD_DIR) against the venv's torch.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${CALIBER_BUILD_DIR:-$here/build}
python=${CALIBER_PYTHON:-$here/.venv/bin/python}
jobs=${CALIBER_JOBS:-$(nproc)}
# ccache, where installed, makes a rebuild in another clone or worktree cheap.
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$here" -B "$build" -G Ninja -DCALIBER_PYTHON="$python" "${launcher[@]}" ${CALIBER_CMAKE_ARGS:-} >/dev/null
ninja -C "$build" -j "$jobs"
