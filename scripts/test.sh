#!/usr/bin/env bash
# README's second command: install what is missing, build, run the whole test suite.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh"
"$here/scripts/build.sh"
cd "${CALIBER_BUILD_DIR:-$here/build}"
ctest --output-on-failure -j "${CALIBER_JOBS:-$(nproc)}" --timeout 600
