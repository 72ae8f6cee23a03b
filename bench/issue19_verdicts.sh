#!/usr/bin/env bash
# Issue 19's verdict figures from the screens of bench/issue19_screens.sh (no device needed):
# A/A false verdicts with and without an A/A calibration, and the power of the verdicts against
# the selftest delays, on graph-timed rows of 10 us or more.
#   bash bench/issue19_verdicts.sh [bench/results/issue19/screens-aa71-h200x2.tgz] [MIN_EFFECT]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
caliber=${CALIBER:-$here/build/caliber}
tgz=${1:-$here/bench/results/issue19/screens-aa71-h200x2.tgz}
min_effect=${2:-0.02}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$tgz" -C "$work"
mkdir -p "$work/s"
for stage in "$work"/g*/screen_*.tgz; do tar -xzf "$stage" -C "$work/s"; done
for results in "$work"/s/screen_*/*-results.tgz; do tar -xzf "$results" -C "$work/s"; done
s=$work/s
"$caliber" calibrate "$s/c1" "$s/c2" -o "$work/c12.json" | tail -2

share() {  # share COMPARE_DIR: FAST+SLOW and UNSURE over all rows; SLOW over graph rows >= 10 us
  python3 - "$1/compare.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["verdict"] in ("SAME", "FAST", "SLOW", "UNSURE")]
n = len(rows)
fs = sum(r["verdict"] in ("FAST", "SLOW") for r in rows)
un = sum(r["verdict"] == "UNSURE" for r in rows)
big = [r for r in rows if r["a_timer_used"] == "graph" and float(r["a_median_ms"]) >= 0.010]
slow = sum(r["verdict"] == "SLOW" for r in big)
print(f"{n} rows: FAST+SLOW {fs} ({100 * fs / n:.2f}%), UNSURE {un} ({100 * un / n:.1f}%); "
      f"graph rows >= 10 us: {len(big)}, SLOW {slow} ({100 * slow / len(big):.1f}%)")
PY
}
row() {  # row LABEL A B [compare flags]
  local label=$1 a=$2 b=$3; shift 3
  "$caliber" compare "$s/$a" "$s/$b" -o "$work/$label" --min-effect "$min_effect" "$@" >/dev/null
  printf '%-34s %s\n' "$label" "$(share "$work/$label")"
}
echo "min effect $min_effect"
for cal in none "$work/c12.json"; do
  tag=$([ "$cal" = none ] && echo uncalibrated || echo calibrated)
  row "A/A t1 t2 $tag" t1 t2 --calibration "$cal"
  row "A/A c1 c2 $tag (in sample)" c1 c2 --calibration "$cal"
  row "b vs p5 $tag" b p5 --calibration "$cal" --allow-mismatch selftest_delay
  row "b vs p2 $tag" b p2 --calibration "$cal" --allow-mismatch selftest_delay
  row "w25 vs b $tag (old warmup)" w25 b --calibration "$cal"
  row "t2 vs o $tag (old defaults)" t2 o --calibration "$cal" --allow-mismatch policy
done
