#!/usr/bin/env bash
# README's second command: install what is missing, build, run the whole test suite.
# As root it also starts a throwaway two-node Slurm cluster (scripts/slurm_cluster.sh) for the
# Slurm tests and stops it afterwards; CALIBER_SLURM_CLUSTER=0 skips that (the Slurm tests then
# skip, except under CI, where they must run).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh"
"$here/scripts/build.sh"

cluster=0
if [ "${CALIBER_SLURM_CLUSTER:-1}" != 0 ] && [ "$(id -u)" = 0 ]; then
  if "$here/scripts/slurm_cluster.sh" install && "$here/scripts/slurm_cluster.sh" start; then
    cluster=1
    eval "$("$here/scripts/slurm_cluster.sh" env)"
    export SLURM_CONF
    trap '"$here/scripts/slurm_cluster.sh" stop' EXIT
  elif [ -n "${CI:-}" ]; then
    echo "test: the Slurm test cluster did not start" >&2
    "$here/scripts/slurm_cluster.sh" stop || true
    exit 1
  else
    echo "test: no Slurm test cluster (it did not start); the Slurm tests will skip" >&2
    "$here/scripts/slurm_cluster.sh" stop || true
  fi
fi
[ "$cluster" = 1 ] || echo "test: no Slurm test cluster; the Slurm tests skip unless CI is set"

cd "${CALIBER_BUILD_DIR:-$here/build}"
# The out-of-tree backend tests run on the torch-opencl that setup.sh installed into its venv:
# never skipped there (a CALIBER_PYTHON of one's own may lack it; the tests then skip).
[ -n "${CALIBER_PYTHON:-}" ] || export CALIBER_REQUIRE_OPENCL=1
ctest --output-on-failure -j "${CALIBER_JOBS:-$(nproc)}" --timeout 600
