#!/usr/bin/env bash
# Issue 19 on one H200 (tenth session): build; two default screens of bench/screen_ops/confirm16.txt
# (a1, a2) judged by `caliber compare --confirm` (every row not SAME re-measured, A's and B's
# flags back to back in one process, 3 rounds); then the 5% selftest (p5) of
# bench/screen_ops/power5.txt against a1, also confirmed, and the 2% one (p2) when time is left.
# Each comparison is also written without the pass (`caliber compare` here, from the results).
# Everything is packed into $OUT/confirm.tgz.
#   DEADLINE_S=300 bash bench/session10_confirm.sh
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
final=${OUT:-$here/bench/out}
work=/tmp/session10-confirm
rm -rf "$work" && mkdir -p "$work" "$final"
start=$(date +%s)
left() { echo $((${DEADLINE_S:-300} - ($(date +%s) - start))); }
OUT=$work/build DEADLINE_S=$(left) bash "$here/bench/device.sh" devices >/dev/null 2>&1 ||
  { echo "build failed"; tail -30 "$work/build/work/build.log"; exit 1; }
echo "== built (at $(($(date +%s) - start)) s)"
caliber=$here/.device_build/caliber
screens=$work/screens
screen() {  # screen NAME OPS_FILE [ARGS...]
  local name=$1 ops=$2; shift 2
  local t0=$(date +%s)
  timeout -s INT "$(left)" "$caliber" batch --ops-file "$ops" --no-progress "$@" \
    --out "$screens/$name" >"$work/batch_$name.txt" 2>&1
  echo "== screen $name rc=$? $(($(date +%s) - t0)) s: $(tail -1 "$work/batch_$name.txt")"
}
confirm() {  # confirm A B [ARGS...]
  local a=$1 b=$2; shift 2
  local t0=$(date +%s)
  timeout -s INT "$(left)" "$caliber" compare "$screens/$a" "$screens/$b" --calibration none \
    --confirm -o "$work/confirm_${a}_$b" "$@" >"$work/confirm_${a}_$b.txt" 2>"$work/confirm_${a}_$b.err"
  echo "== confirm $a $b rc=$? $(($(date +%s) - t0)) s"
  grep -E "^[0-9]+ rows:|confirmation pass|by timer" "$work/confirm_${a}_$b.txt"
}
screen a1 "$here/bench/screen_ops/confirm16.txt"
screen a2 "$here/bench/screen_ops/confirm16.txt"
confirm a1 a2
screen p5 "$here/bench/screen_ops/power5.txt" --selftest-delay 0.05
confirm a1 p5 --allow-mismatch selftest_delay
if [ "$(left)" -gt 70 ]; then
  screen p2 "$here/bench/screen_ops/power5.txt" --selftest-delay 0.02
  confirm a1 p2 --allow-mismatch selftest_delay
fi
(cd "$screens" && find . -maxdepth 4 \( -name results.jsonl -o -name run_identity.json \
  -o -name ops_status.csv \) -print0 | tar -czf "$work/screens.tgz" --null -T -)
rm -rf "$screens" "$work"/confirm_*/confirm
tar -czf "$final/confirm.tgz" -C "$work" --exclude=build .
ls -la "$final"
