#!/usr/bin/env bash
# README's first command: install what is missing, build, list the devices and run the default
# screen on the default device (the first backend with a device, else the host CPU).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh"
"$here/scripts/build.sh"
caliber="${CALIBER_BUILD_DIR:-$here/build}/caliber"
"$caliber" devices
if "$caliber" batch --help >/dev/null 2>&1; then
  "$caliber" batch --level core --out "$here/runs/screen-$(date -u +%Y%m%dT%H%M%SZ)" "$@"
elif "$caliber" run --help >/dev/null 2>&1; then
  "$caliber" run --op mm "$@"
fi
