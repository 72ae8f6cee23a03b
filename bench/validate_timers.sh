#!/usr/bin/env bash
# The H200 validation of issues 3 and 22, in one device call: builds validate_timers, runs ncu
# and triton's do_bench / do_bench_cudagraph on the cases, then times them with every caliber timer
# (the kernel timer cold under each flush method first, so that a deadline cuts the rest), and
# merges everything into $OUT/timers-h200.json (copy it to bench/results/ to commit it).
#
#   OUT=/some/dir CALIBER_VALIDATE_BUDGET_S=450 bench/validate_timers.sh   # defaults: bench/out, 450
#
# The budget is the whole script, its build included. The references run before caliber because
# their cost is bounded (about 90 s on the H200: ncu self-test, ncu hot and cold, do_bench);
# caliber's timers then get what is left, less the merge, and skip what the deadline leaves out
# (rows with "error": "skipped: deadline").
#
# Files written under $OUT, four so that they come back from the device machine next to others:
#   timers-h200.json     merged rows: case, timer, policy, cache, flush_method, median_us, cv_pct,
#                        wall_s, kernel_only_us, activities_per_call, ncu_us, ncu_kernels
#                        (validate_timers_ref.py's docstring says what each field means)
#   caliber_timers.json  validate_timers' raw output (per-repeat latencies, markers, clocks)
#   ncu.log              everything ncu printed: the self-test, then the hot and cold runs (their
#                        CSV rows and any ==ERROR== lines)
#   validate_timers.log  build and run log, do_bench rows (one JSON object a line), merged table
# Standard output carries only the step lines, the ncu self-test and a short summary against the
# issue's targets, so that it stays readable in the tail of a bigger device call.
# Each step has its own time limit, sized from CALIBER_VALIDATE_BUDGET_S, so that a slow build or
# a hang still leaves the files of the steps that finished.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$here/bench/out}
mkdir -p "$OUT"
budget=${CALIBER_VALIDATE_BUDGET_S:-450}
build=${CALIBER_DEVICE_BUILD:-$here/.device_build}
py=$(command -v python3)
ref="$here/bench/validate_timers_ref.py"
log="$OUT/validate_timers.log"
ncu_log="$OUT/ncu.log"
work=$(mktemp -d)
start=$(date +%s)
: >"$log"
: >"$ncu_log"

elapsed() { echo $(($(date +%s) - start)); }
step() { echo "== $* (at $(elapsed) s)" | tee -a "$log"; }
left() { echo $((budget - $(elapsed))); }
# What the build leaves at least: the references (bench 50, ncu self-test 35, 2 x ncu 40, at most
# 165 s, about 90 s in practice) and some caliber time. A slow build eats into caliber's time
# rather than failing the call: its first pass (the issue's five cases first) still lands.
reserve=150

step "configure"
generator=$(command -v ninja >/dev/null && echo Ninja || echo "Unix Makefiles")
# CALIBER_DEVICE_CMAKE_ARGS is split into words on purpose (several -D options).
# shellcheck disable=SC2086
cmake -S "$here" -B "$build" -G "$generator" -DCALIBER_PYTHON="$py" -DCALIBER_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DTORCH_CUDA_ARCH_LIST=9.0 -DCALIBER_BUILD_TESTS=OFF \
  ${CALIBER_DEVICE_CMAKE_ARGS:-} >>"$log" 2>&1 || { tail -40 "$log"; exit 1; }

step "build validate_timers"
timeout $(($(left) - reserve - 20)) cmake --build "$build" -j 16 --target validate_timers \
  >>"$log" 2>&1 || { tail -40 "$log"; exit 1; }

step "do_bench / do_bench_cudagraph"
timeout 50 "$py" "$ref" bench --out "$work/ref_timers.json" --repeats 5 2>>"$log"
rc=$?
echo "reference bench exit $rc" | tee -a "$log"
[ "$rc" = 0 ] || tail -3 "$log" | cut -c1-300

# ncu prints its results (the --csv rows) and its errors on standard output unless --log-file
# sends them elsewhere; the first run had --log-file pointing into a temporary folder and its
# stdout redirected to the CSV, which stayed empty. Each run's whole output now goes to one file.
ncu=${CALIBER_NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
ncu_args=(--target-processes all --clock-control none --metrics gpu__time_duration.sum --csv
  --print-units base)
ncu_ok=0
step "ncu self-test"
if [ ! -x "$ncu" ]; then
  echo "ncu: no binary at $ncu (set CALIBER_NCU); ncu_us stays empty" | tee -a "$log"
else
  { echo "#### ncu --version"; "$ncu" --version 2>&1; } >>"$ncu_log"
  "$ncu" --version 2>&1 | tail -1
  echo "#### ncu self-test: one torch add kernel" >>"$ncu_log"
  timeout 35 "$ncu" "${ncu_args[@]}" "$py" -c \
    "import torch; x = torch.ones(1 << 20, device='cuda'); y = x + 1; torch.cuda.synchronize()" \
    >"$work/ncu_selftest.txt" 2>&1
  rc=$?
  cat "$work/ncu_selftest.txt" >>"$ncu_log"
  rows=$(grep -c '"gpu__time_duration.sum"' "$work/ncu_selftest.txt")
  echo "ncu self-test: exit $rc, $rows gpu__time_duration rows" | tee -a "$log"
  if [ "$rows" -gt 0 ]; then
    ncu_ok=1
    grep '"gpu__time_duration.sum"' "$work/ncu_selftest.txt" | head -1 | cut -c1-200
  else
    echo "ncu self-test produced no metric; its output (also in ncu.log):"
    grep -v '^\s*$' "$work/ncu_selftest.txt" | tail -15
    grep -q ERR_NVGPUCTRPERM "$work/ncu_selftest.txt" &&
      echo "ncu: performance counters are restricted to admin users on this machine" \
        "(NVreg_RestrictProfilingToAdminUsers); ncu_us stays empty"
  fi
fi

for cache in hot cold; do
  [ "$ncu_ok" = 1 ] || break
  control=$([ "$cache" = cold ] && echo all || echo none)
  limit=$(($(left) - 15))
  [ "$cache" = hot ] && limit=$((limit / 2))
  [ "$limit" -gt 40 ] && limit=40
  step "ncu --cache-control $control (limit ${limit} s)"
  if [ "$limit" -le 10 ]; then
    echo "ncu $cache skipped: $limit s left" | tee -a "$log"
    continue
  fi
  timeout "$limit" "$ncu" "${ncu_args[@]}" --cache-control "$control" \
    "$py" "$ref" ncu-target --calls 3 --plan "$work/plan_$cache.json" >"$work/ncu_$cache.txt" 2>&1
  rc=$?
  { echo "#### ncu --cache-control $control (exit $rc)"; cat "$work/ncu_$cache.txt"; } >>"$ncu_log"
  rows=$(grep -c '"gpu__time_duration.sum"' "$work/ncu_$cache.txt")
  echo "ncu $cache: exit $rc, $rows kernel rows" | tee -a "$log"
  [ "$rows" -gt 0 ] || grep -E '==(ERROR|WARNING)==' "$work/ncu_$cache.txt" | head -5
done

# Caliber's timers take what is left but the merge's 15 s and one variant's overrun past the
# deadline (checked before each variant; the longest, 5 cold repeats of a tiny op, takes ~6 s).
caliber_s=$(($(left) - 25))
step "caliber timers (deadline ${caliber_s} s)"
if [ "$caliber_s" -le 10 ]; then
  echo "caliber timers skipped: ${caliber_s} s left" | tee -a "$log"
else
  timeout $((caliber_s + 12)) "$build/bench/validate_timers" --out "$OUT/caliber_timers.json" \
    --repeats 5 --deadline-s "$caliber_s" 2>>"$log"
  echo "validate_timers exit $?" | tee -a "$log"
fi

step "merge"
"$py" "$ref" merge --caliber "$OUT/caliber_timers.json" --ref "$work/ref_timers.json" \
  --ncu-hot "$work/ncu_hot.txt" --ncu-cold "$work/ncu_cold.txt" \
  --plan-hot "$work/plan_hot.json" --plan-cold "$work/plan_cold.json" \
  --out "$OUT/timers-h200.json" >>"$log" 2>&1
echo "merge exit $?" | tee -a "$log"
grep '^merge:' "$log"
"$py" "$ref" summary --merged "$OUT/timers-h200.json" 2>&1 | tee -a "$log"
step "done"
rm -rf "$work"
