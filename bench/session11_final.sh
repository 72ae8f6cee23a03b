#!/usr/bin/env bash
# The eleventh session's last device call, on one H200 (issues 22 and 19): build; the graph
# timer's part of the timer validation again (every case, both policies, hot and cold, 8 captures
# and 1, 5 repeats), now that the adaptive rule levels the captures before judging noise, grown
# captures keep the first ones' samples and the graphs of a batch replay behind one untimed
# replay; then a default screen of the 321 ops of bench/screen_ops/corpus321.txt (issue 19's
# 5-minute target) until the deadline. Everything is packed into $OUT/session11-final.tgz.
#   DEADLINE_S=585 bash bench/session11_final.sh
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
final=${OUT:-$here/bench/out}
work=/tmp/session11-final
rm -rf "$work" && mkdir -p "$work" "$final"
start=$(date +%s)
left() { echo $((${DEADLINE_S:-585} - ($(date +%s) - start))); }
build=$here/.device_build
OUT=$work/build DEADLINE_S=$(left) bash "$here/bench/device.sh" devices >/dev/null 2>&1 ||
  { echo "build failed"; tail -30 "$work/build/work/build.log"; exit 1; }
cmake --build "$build" -j 16 --target validate_timers >"$work/build_vt.log" 2>&1 ||
  { echo "validate_timers build failed"; tail -30 "$work/build_vt.log"; exit 1; }
echo "== built (at $(($(date +%s) - start)) s)"
timeout 100 "$build/bench/validate_timers" --timer graph --repeats 5 --deadline-s 80 \
  --out "$work/graph_timers.json" 2>"$work/graph_timers.log"
echo "== graph timers rc=$? (at $(($(date +%s) - start)) s)"
python3 - "$work/graph_timers.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["rows"]:
    if "error" in r:
        print(f'{r["case"]:28} {r.get("cache")} {r.get("policy")} {r["error"]}')
        continue
    limit = 0.5 if r["median_us"] >= 20 else 1.5
    throttled = sum(r["throttled_per_repeat"])
    flag = "ok" if r["cv_pct"] <= limit else ("throttled" if throttled else "MISS")
    print(f'{r["case"]:28} {r["cache"]:4} {r["policy"]:8} K={r["graph_captures"]} '
          f'used={sorted(set(r["captures_per_repeat"]))} cv={r["cv_pct"]:.2f}% ({flag}) '
          f'median={r["median_us"]:.2f}us samples={r["samples"]:.0f} wall={r["wall_s"]:.3f}s '
          f'throttled={throttled}')
PY
OUT=$work/screen OPS_FILE=$here/bench/screen_ops/corpus321.txt DEADLINE_S=$(($(left) - 5)) \
  bash "$here/bench/device.sh" screen:0:c321b
tar -czf "$final/session11-final.tgz" -C "$work" .
ls -la "$final"
