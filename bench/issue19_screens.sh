#!/usr/bin/env bash
# Issue 19's screens in one device call on two GPUs (nvidia-h200-x2), all of the ops in
# bench/screen_ops/aa71.txt with caliber batch's default flags unless named:
#   GPU 0: c1 c2 (the A/A pair a calibration learns from), t1 t2 (a held-out A/A pair), then o
#          (the old defaults: --isolation op --policy fixed)
#   GPU 1: b (baseline), p5 and p2 (--selftest-delay 0.05 and 0.02: the power of the verdicts),
#          then w25 (--warmup-ms 25 --policy adaptive: the adaptive warmup before this issue)
# Everything is packed into $OUT/issue19.tgz (screens' results.jsonl, status, logs, profiles).
#   DEADLINE_S=585 bash bench/issue19_screens.sh
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$here/bench/out}
work=/tmp/issue19
rm -rf "$work" && mkdir -p "$work" "$OUT"
start=$(date +%s)
deadline=${DEADLINE_S:-585}
left() { echo $((deadline - ($(date +%s) - start))); }

OUT=$work/build DEADLINE_S=$(left) bash "$here/bench/device.sh" devices >"$work/build.txt" 2>&1 ||
  { tail -60 "$work/build.txt"; tar -czf "$OUT/issue19.tgz" -C "$work" .; exit 1; }
export CALIBER_SKIP_BUILD=1 OPS_FILE=$here/bench/screen_ops/aa71.txt

lane() {  # lane GPU "NAME[=SCREEN_ARGS]"...: the screens one after the other on one GPU
  local gpu=$1; shift
  for spec in "$@"; do
    local name=${spec%%=*} args=""
    [ "$spec" != "$name" ] && args=${spec#*=}
    [ "$(left)" -lt 40 ] && { echo "== $name skipped: $(left) s left"; continue; }
    OUT=$work/g$gpu SCREEN_ARGS=$args DEADLINE_S=$(left) \
      bash "$here/bench/device.sh" "screen:$gpu:$name"
  done
}
lane 0 c1 c2 t1 t2 "o=--isolation op --policy fixed" >"$work/g0.txt" 2>&1 &
lane 1 b "p5=--selftest-delay 0.05" "p2=--selftest-delay 0.02" \
  "w25=--warmup-ms 25 --policy adaptive" >"$work/g1.txt" 2>&1 &
wait
# device.sh packed each stage into g*/<stage>.tgz; one file goes back.
rm -rf "$work"/g*/work "$work"/build/work/screen_* 2>/dev/null
tar -czf "$OUT/issue19.tgz" -C "$work" .
ls -la "$OUT"
grep -h -e "^== " -e "rc=" -e "ops, .* cases" -e "^batch" "$work"/g0.txt "$work"/g1.txt | head -60
