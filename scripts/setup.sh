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

# chromium: the report tests open the generated HTML in it (headless).
apt_packages=(cmake ninja-build g++ python3-dev python3-venv libcli11-dev libyaml-cpp-dev
  nlohmann-json3-dev libfmt-dev libgtest-dev libgmock-dev pybind11-dev chromium)
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

if [ ! -x "$venv/bin/python" ]; then
  echo "setup: creating $venv"
  /usr/bin/python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import torch,sys; sys.exit(torch.__version__.split('+')[0] != '$torch_version')" 2>/dev/null; then
  mkdir -p "$wheelhouse"
  echo "setup: torch==$torch_version into $venv (wheel cache $wheelhouse)"
  # Download once into the wheelhouse, then install offline from it.
  "$venv/bin/python" -m pip download -q --dest "$wheelhouse" --find-links "$wheelhouse" \
    "torch==$torch_version" numpy pyyaml
  "$venv/bin/python" -m pip install -q --no-index --find-links "$wheelhouse" \
    "torch==$torch_version" numpy pyyaml
fi
echo "setup: done in $(( $(date +%s) - start )) s"
