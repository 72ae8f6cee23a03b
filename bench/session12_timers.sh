#!/usr/bin/env bash
# The twelfth session's first device call for issue 22, on one H200: build, the whole timer
# validation (run 9: graphs sized from one replay of the first instead of the warmup's reading,
# warmups cut to their time, no eager call before each capture), then the graph timer alone on
# the two launch-bound cases with 15 repeats each (mm fp16 256^3, whose fixed-policy repeat 1 read
# 11% high in run 8, and add fp32 2^20), printing calls per graph beside each repeat.
# Everything is packed into $OUT/session12-timers.tgz.
#   DEADLINE_S=580 bash bench/session12_timers.sh
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
final=${OUT:-$here/bench/out}
work=/tmp/session12-timers
rm -rf "$work" && mkdir -p "$work" "$final"
start=$(date +%s)
left() { echo $((${DEADLINE_S:-580} - ($(date +%s) - start))); }
OUT=$work/timers TIMERS_BUDGET_S=${TIMERS_BUDGET_S:-230} DEADLINE_S=$(left) \
  bash "$here/bench/device.sh" timers
vt=$here/.device_build/bench/validate_timers
budget=$(($(left) - 25))
if [ "$budget" -ge 15 ]; then
  timeout $((budget + 15)) "$vt" --timer graph --case mm_fp16_256x256x256 --case add_fp32_1048576 \
    --repeats 15 --deadline-s "$budget" --out "$work/cv15.json" 2>"$work/cv15.log"
  echo "== cv15 rc=$? (budget $budget s)"
  python3 - "$work/cv15.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["rows"]:
    if "error" in r:
        continue
    print(f'{r["case"]:24} {r["policy"]:8} K={r["graph_captures"]} cv={r["cv_pct"]:.2f}% '
          f'median={r["median_us"]:.3f}us calls={sorted(set(r["calls_per_repeat"]))} '
          f'range={min(r["repeats_us"]):.3f}-{max(r["repeats_us"]):.3f} '
          f'throttled={sum(r["throttled_per_repeat"])}')
PY
else
  echo "== cv15 skipped: $(left) s left"
fi
tar -czf "$final/session12-timers.tgz" -C "$work" .
ls -la "$final"
