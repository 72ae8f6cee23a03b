#!/usr/bin/env bash
# How long caliber's translation units take to compile with full debug info (-g, CMake's
# RelWithDebInfo default) and with line tables only (-g1, what bench/device.sh builds with), each
# with the build's own command line from ninja, one after the other on this machine.
#   bash bench/compile_debug_info.sh [BUILD_DIR] [SOURCE...]
set -euo pipefail
build=${1:-build}
shift || true
sources=("$@")
[ ${#sources[@]} -gt 0 ] || sources=(src/ops/linalg.cpp src/engine/provider/python_provider.cpp
  src/ops/reduction_variants.cpp src/cli/batch_command.cpp src/ops/tensor_variants.cpp)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seconds() { local s; s=$(date +%s.%N); bash "$1"; echo "$(date +%s.%N) - $s" | bc; }
echo "source,g_s,g1_s"
for f in "${sources[@]}"; do
  ninja -C "$build" -t commands caliber | grep -F -- "$f.o -c" | head -1 |
    sed -e "s| -o [^ ]*\.o | -o $tmp/t.o |" -e "s| -MF [^ ]*\.d | -MF $tmp/t.d |" >"$tmp/g.sh"
  [ -s "$tmp/g.sh" ] || { echo "$f: no compile command in $build" >&2; exit 2; }
  grep -q -- " -g " "$tmp/g.sh" || { echo "$f: its command has no -g" >&2; exit 2; }
  sed -e 's| -g | -g1 |' "$tmp/g.sh" >"$tmp/g1.sh"
  (cd "$build" && echo "$f,$(seconds "$tmp/g.sh"),$(seconds "$tmp/g1.sh")")
done
