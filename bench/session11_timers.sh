#!/usr/bin/env bash
# The eleventh session's first device call for issue 22, on one H200: build, the timer
# validation (run 7: captures grown under the adaptive policy while their spread leaves the mean
# imprecise), then the graph timer alone on four cases with 15 repeats each, once as built and
# once with --capture-noise-target 0 (never more than the 8 captures asked): the CV across
# repeats with and without the growth, from three times the repeats of the validation.
# Everything is packed into $OUT/session11-timers.tgz.
#   DEADLINE_S=560 bash bench/session11_timers.sh
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
final=${OUT:-$here/bench/out}
work=/tmp/session11-timers
rm -rf "$work" && mkdir -p "$work" "$final"
start=$(date +%s)
left() { echo $((${DEADLINE_S:-560} - ($(date +%s) - start))); }
OUT=$work/timers TIMERS_BUDGET_S=${TIMERS_BUDGET_S:-250} DEADLINE_S=$(left) \
  bash "$here/bench/device.sh" timers
vt=$here/.device_build/bench/validate_timers
cases=(--case topk_fp16_64x8192_k128 --case sort_fp32_1048576 --case layer_norm_fp16_4096x4096
  --case add_fp32_1048576)
for target in default 0; do
  budget=$((($(left) - 20) / 2))
  [ "$target" = 0 ] && budget=$(($(left) - 20))
  [ "$budget" -lt 15 ] && { echo "== cv $target skipped: $(left) s left"; continue; }
  args=()
  [ "$target" = default ] || args=(--capture-noise-target "$target")
  timeout $((budget + 15)) "$vt" --timer graph "${cases[@]}" --repeats 15 --deadline-s "$budget" \
    "${args[@]}" --out "$work/cv15_$target.json" 2>"$work/cv15_$target.log"
  echo "== cv $target rc=$? (budget $budget s)"
  python3 - "$work/cv15_$target.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["rows"]:
    if "error" in r:
        continue
    print(f'{r["case"]:28} {r["cache"]:4} {r["policy"]:8} K={r["graph_captures"]} '
          f'used={sorted(set(r["captures_per_repeat"]))} cv={r["cv_pct"]:.2f}% '
          f'median={r["median_us"]:.2f}us throttled={sum(r["throttled_per_repeat"])}')
PY
done
tar -czf "$final/session11-timers.tgz" -C "$work" .
ls -la "$final"
