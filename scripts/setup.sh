#!/usr/bin/env bash
# Installs what caliber needs and is missing; safe to run again (each step checks first).
# Debian's C++ libraries through apt; torch pinned to the GPU machine's version in a
# project-local virtualenv (.venv) built on Debian's python3, whose libpython the
# embedded-Python provider links against. Wheels are cached outside the checkout so a
# fresh clone (CI) installs from disk instead of the network.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
venv=${CALIBER_VENV:-$here/.venv}
torch_version=${CALIBER_TORCH_VERSION:-2.11.0}
wheelhouse=${CALIBER_WHEELHOUSE:-${XDG_CACHE_HOME:-$HOME/.cache}/caliber/wheelhouse}
start=$(date +%s)

# chromium: the report tests open the generated HTML in it (headless). pocl-opencl-icd: POCL's
# OpenCL runtime on the host, the device under torch-opencl (below) for the out-of-tree backend
# tests.
apt_packages=(cmake ninja-build g++ python3-dev python3-venv libcli11-dev libyaml-cpp-dev
  nlohmann-json3-dev libfmt-dev zlib1g-dev libgtest-dev libgmock-dev pybind11-dev chromium
  pocl-opencl-icd)
if [ "${CALIBER_SKIP_APT:-0}" != 1 ]; then
  missing=()
  for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
fi

# CALIBER_PYTHON: a python that already has torch (a GPU image's, a ROCm or MUSA torch): caliber
# builds against it and nothing is installed into it.
if [ -n "${CALIBER_PYTHON:-}" ]; then
  if ! "$CALIBER_PYTHON" -c "import torch" 2>/dev/null; then
    echo "setup: CALIBER_PYTHON=$CALIBER_PYTHON cannot import torch (accepted: a python that has torch)" >&2
    exit 2
  fi
  echo "setup: using torch $("$CALIBER_PYTHON" -c "import torch; print(torch.__version__)") of $CALIBER_PYTHON"
  echo "setup: done in $(( $(date +%s) - start )) s"
  exit 0
fi

if [ ! -x "$venv/bin/python" ]; then
  echo "setup: creating $venv"
  /usr/bin/python3 -m venv "$venv"
fi
# Free space in KiB on the filesystem holding $1 (or its nearest existing parent).
free_kib() {
  local d=$1
  while [ ! -e "$d" ]; do d=$(dirname "$d"); done
  df -Pk "$d" | awk 'NR==2 {print $4}'
}
# torch and its CUDA wheels unpack to about 5 GiB, and download to about 3 GiB when the
# wheelhouse is empty; a full disk otherwise surfaces as pip's bare "Errno 28" halfway
# through the install, leaving a broken virtualenv behind.
need_space() {
  local dir=$1 gib=$2 have
  have=$(free_kib "$dir")
  if [ "$have" -lt $((gib * 1024 * 1024)) ]; then
    echo "setup: $dir needs ${gib} GiB free for torch==$torch_version; it has $((have / 1024 / 1024)) GiB" >&2
    exit 1
  fi
}

if ! "$venv/bin/python" -c "import torch,sys; sys.exit(torch.__version__.split('+')[0] != '$torch_version')" 2>/dev/null; then
  ls "$wheelhouse"/torch-"$torch_version"-*.whl >/dev/null 2>&1 || need_space "$wheelhouse" 4
  need_space "$venv" 6
  mkdir -p "$wheelhouse"
  echo "setup: torch==$torch_version into $venv (wheel cache $wheelhouse)"
  # Download once into the wheelhouse, then install offline from it.
  "$venv/bin/python" -m pip download -q --no-cache-dir --dest "$wheelhouse" --find-links "$wheelhouse" \
    "torch==$torch_version" numpy pyyaml
  "$venv/bin/python" -m pip install -q --no-cache-dir --no-index --find-links "$wheelhouse" \
    "torch==$torch_version" numpy pyyaml
fi
# torch-opencl: a real out-of-tree PrivateUse1 backend ("opencl") from PyPI, for the tests of the
# device-generic path (tests/cli/opencl_backend_test.cpp). Pinned: a dev release whose kernel set
# the tests describe. --no-deps: it only needs torch, which is pinned above.
opencl_version=${CALIBER_TORCH_OPENCL_VERSION:-0.1.0.dev23}
if [ "${CALIBER_SKIP_OPENCL:-0}" != 1 ] &&
  ! "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('torch-opencl') != '$opencl_version')" 2>/dev/null; then
  mkdir -p "$wheelhouse"
  echo "setup: torch-opencl==$opencl_version into $venv (wheel cache $wheelhouse)"
  ls "$wheelhouse"/torch_opencl-"$opencl_version"-*.whl >/dev/null 2>&1 ||
    "$venv/bin/python" -m pip download -q --no-cache-dir --no-deps --dest "$wheelhouse" \
      "torch-opencl==$opencl_version"
  "$venv/bin/python" -m pip install -q --no-cache-dir --no-index --no-deps \
    --find-links "$wheelhouse" "torch-opencl==$opencl_version"
fi
echo "setup: done in $(( $(date +%s) - start )) s"
