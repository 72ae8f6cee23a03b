#!/usr/bin/env bash
# The H200 validation of issue 3, in one device call: builds validate_timers, times the cases with
# every caliber timer, then triton's do_bench / do_bench_cudagraph and ncu on the same cases, and
# merges everything into $OUT/timers-h200.json (copy it to bench/results/ to commit it).
#
#   OUT=/some/dir bench/validate_timers.sh        # defaults: OUT=bench/out, budget 450 s
#
# Files written under $OUT (kept to six so they all come back from the device machine):
#   timers-h200.json     merged rows: case, timer, policy, cache, median_us, cv_pct, wall_s, ncu_us
#   caliber_timers.json  validate_timers' raw output (per-repeat latencies, markers, samples)
#   ref_timers.json      do_bench / do_bench_cudagraph rows
#   ncu_hot.csv, ncu_cold.csv   ncu --csv output (--cache-control none / all)
#   validate_timers.log  build and run log, the merged table at its end
# Each step has its own time limit, sized from CALIBER_VALIDATE_BUDGET_S, so that a slow build or
# a hang still leaves the files of the steps that finished.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$here/bench/out}
mkdir -p "$OUT"
budget=${CALIBER_VALIDATE_BUDGET_S:-450}
build=${CALIBER_DEVICE_BUILD:-$here/.device_build}
py=$(command -v python3)
log="$OUT/validate_timers.log"
work=$(mktemp -d)
start=$(date +%s)
: >"$log"

elapsed() { echo $(($(date +%s) - start)); }
step() { echo "== $* (at $(elapsed) s)" | tee -a "$log"; }
left() { echo $((budget - $(elapsed))); }

step "configure"
generator=$(command -v ninja >/dev/null && echo Ninja || echo "Unix Makefiles")
# CALIBER_DEVICE_CMAKE_ARGS is split into words on purpose (several -D options).
# shellcheck disable=SC2086
cmake -S "$here" -B "$build" -G "$generator" -DCALIBER_PYTHON="$py" -DCALIBER_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DTORCH_CUDA_ARCH_LIST=9.0 -DCALIBER_BUILD_TESTS=OFF \
  ${CALIBER_DEVICE_CMAKE_ARGS:-} >>"$log" 2>&1 || { tail -40 "$log"; exit 1; }

step "build validate_timers"
timeout $(($(left) - 150)) cmake --build "$build" -j 16 --target validate_timers >>"$log" 2>&1 ||
  { tail -40 "$log"; exit 1; }

# What is left after the build, less what the references need (~35 s bench, ~2 x 30 s ncu).
caliber_s=$(($(left) - 130))
step "caliber timers (deadline ${caliber_s} s)"
timeout $((caliber_s + 45)) "$build/bench/validate_timers" --out "$OUT/caliber_timers.json" \
  --repeats 5 --deadline-s "$caliber_s" 2>>"$log"
echo "validate_timers exit $?" >>"$log"

step "do_bench / do_bench_cudagraph"
timeout 70 "$py" "$here/bench/validate_timers_ref.py" bench --out "$OUT/ref_timers.json" \
  --repeats 5 2>>"$log"
echo "reference bench exit $?" >>"$log"

ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for cache in hot cold; do
  control=$([ "$cache" = cold ] && echo all || echo none)
  limit=$(($(left) - 10))
  [ "$cache" = hot ] && limit=$((limit / 2))
  step "ncu --cache-control $control (limit ${limit} s)"
  if [ ! -x "$ncu" ] || [ "$limit" -le 10 ]; then
    echo "ncu skipped (binary: $ncu, time left: $limit s)" >>"$log"
    continue
  fi
  timeout "$limit" "$ncu" --clock-control none --cache-control "$control" \
    --metrics gpu__time_duration.sum --csv --print-units base --log-file "$work/ncu_$cache.log" \
    "$py" "$here/bench/validate_timers_ref.py" ncu-target --calls 3 --plan "$work/plan_$cache.json" \
    >"$OUT/ncu_$cache.csv" 2>>"$log"
  echo "ncu $cache exit $?" >>"$log"
  tail -5 "$work/ncu_$cache.log" >>"$log" 2>/dev/null
done

step "merge"
"$py" "$here/bench/validate_timers_ref.py" merge --caliber "$OUT/caliber_timers.json" \
  --ref "$OUT/ref_timers.json" --ncu-hot "$OUT/ncu_hot.csv" --ncu-cold "$OUT/ncu_cold.csv" \
  --plan-hot "$work/plan_hot.json" --plan-cold "$work/plan_cold.json" \
  --out "$OUT/timers-h200.json" 2>&1 | tee -a "$log"
step "done"
