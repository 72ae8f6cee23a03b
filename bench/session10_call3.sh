#!/usr/bin/env bash
# The tenth session's last device call, on one H200: build; the python provider's function path
# (OpDef::python_fn) against FlagGems' own kernels, `caliber batch --candidate python:flag_gems`
# over the 29 ops that map to a flag_gems function, float16, graph timer (issue 16; needs
# bench/prepare_flaggems.sh's third_party_fetched/FlagGems and .whl carried); then issue 19's A/A
# pair (t2, t3) and the 5% selftest (p5) on bench/screen_ops/aa71.txt with the default flags.
# Everything is packed into $OUT/session10-call3.tgz.
#   DEADLINE_S=540 bash bench/session10_call3.sh
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
final=${OUT:-$here/bench/out}
work=/tmp/session10-call3
rm -rf "$work" && mkdir -p "$work" "$final"
start=$(date +%s)
left() { echo $((${DEADLINE_S:-540} - ($(date +%s) - start))); }
OUT=$work/build DEADLINE_S=$(left) bash "$here/bench/device.sh" devices
export CALIBER_SKIP_BUILD=1
pyfn_ops=$("$here/.device_build/caliber" ops --json |
  python3 -c 'import json,sys; print(",".join(o["op"] for o in json.load(sys.stdin) if o.get("python_fn")))')
echo "python_fn ops: $pyfn_ops"
OUT=$work/pyfn PART=caliber OPS=$pyfn_ops DTYPES=float16 CALIBER_FLAGS="" \
  CALIBER_VALIDATE_BUDGET_S=$((${PYFN_S:-200})) bash "$here/bench/flaggems_compare.sh"
tail -30 "$work/pyfn/caliber.log"
for spec in t2 t3 "p5=--selftest-delay 0.05"; do
  name=${spec%%=*} args=""
  [ "$spec" != "$name" ] && args=${spec#*=}
  [ "$(left)" -lt 75 ] && { echo "== $name skipped: $(left) s left"; continue; }
  OUT=$work/aa SCREEN_ARGS=$args OPS_FILE=$here/bench/screen_ops/aa71.txt DEADLINE_S=$(left) \
    bash "$here/bench/device.sh" "screen:0:$name"
done
tar -czf "$final/session10-call3.tgz" -C "$work" .
ls -la "$final"
