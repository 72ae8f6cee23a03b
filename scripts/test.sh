#!/usr/bin/env bash
# README's second command: install what is missing, build, run the whole test suite.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh"
"$here/scripts/build.sh"
cd "${CALIBER_BUILD_DIR:-$here/build}"
# The out-of-tree backend tests run on the torch-opencl that setup.sh installed into its venv:
# never skipped there (a CALIBER_PYTHON of one's own may lack it; the tests then skip).
[ -n "${CALIBER_PYTHON:-}" ] || export CALIBER_REQUIRE_OPENCL=1
ctest --output-on-failure -j "${CALIBER_JOBS:-$(nproc)}" --timeout 600
