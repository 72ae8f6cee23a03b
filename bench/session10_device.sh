#!/usr/bin/env bash
# The tenth session's device call for issue 22, on one H200: build, the timer validation (run 6:
# the default of 8 graph captures sharing one graph's replay target, timed replays launched
# without torch's generator refill), a default screen of act_quant_triton (whose largest cases
# ran out of memory with 8 captures before captures were bounded by it), and a default screen of
# bench/screen_ops/aa71.txt (the default's cost per case, beside the eighth session's 42.8 s).
# Everything is packed into $OUT/session10.tgz.
#   DEADLINE_S=540 bash bench/session10_device.sh
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
final=${OUT:-$here/bench/out}
work=/tmp/session10
rm -rf "$work" && mkdir -p "$work" "$final"
start=$(date +%s)
left() { echo $((${DEADLINE_S:-540} - ($(date +%s) - start))); }
OUT=$work/timers TIMERS_BUDGET_S=${TIMERS_BUDGET_S:-250} DEADLINE_S=$(left) \
  bash "$here/bench/device.sh" timers
export CALIBER_SKIP_BUILD=1
printf 'act_quant_triton\n' >"$work/act_quant.txt"
OUT=$work/aq RESULTS=0 OPS_FILE=$work/act_quant.txt DEADLINE_S=$(($(left) - 60)) \
  bash "$here/bench/device.sh" screen:0:aq
for name in ${AA_SCREENS:-t1}; do
  [ "$(left)" -lt 50 ] && { echo "== $name skipped: $(left) s left"; continue; }
  OUT=$work/aa OPS_FILE=$here/bench/screen_ops/aa71.txt DEADLINE_S=$(left) \
    bash "$here/bench/device.sh" "screen:0:$name"
done
tar -czf "$final/session10.tgz" -C "$work" .
ls -la "$final"
