#!/usr/bin/env bash
# Configures and builds caliber in build/ (or $CALIBER_BUILD_DIR) against the venv's torch.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${CALIBER_BUILD_DIR:-$here/build}
python=${CALIBER_PYTHON:-$here/.venv/bin/python}
jobs=${CALIBER_JOBS:-$(nproc)}
cmake -S "$here" -B "$build" -G Ninja -DCALIBER_PYTHON="$python" ${CALIBER_CMAKE_ARGS:-} >/dev/null
ninja -C "$build" -j "$jobs"
