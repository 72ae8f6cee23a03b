#!/usr/bin/env bash
# One device call: configure and build caliber on the GPU machine (its image's python3 has torch),
# then run the named stages, logging under $OUT. At most 8 files come back from a device call, so
# each stage writes into $OUT/work/<stage>/ and the folder is packed into $OUT/<stage>.tgz.
#
#   bench/device.sh verify runs          # stages: devices verify runs tuner timers screen
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$here/bench/out}
build=${CALIBER_DEVICE_BUILD:-$here/.device_build}
caliber=$build/caliber
mkdir -p "$OUT/work"
start=$(date +%s)
say() { echo "== $* (at $(($(date +%s) - start)) s)"; }

say "configure + build"
cmake -S "$here" -B "$build" -G Ninja -DCALIBER_PYTHON="$(command -v python3)" -DCALIBER_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DTORCH_CUDA_ARCH_LIST=9.0 -DCALIBER_BUILD_TESTS=OFF \
  >"$OUT/work/build.log" 2>&1 &&
  ninja -C "$build" -j 16 -k 0 caliber >>"$OUT/work/build.log" 2>&1 ||
  { grep -E "error|Error" -A5 "$OUT/work/build.log" | head -60; exit 1; }

timed() {  # timed NAME CMD...: runs CMD, its output in work/<stage>/NAME.txt, wall time reported
  local name=$1; shift
  local t0; t0=$(date +%s%N)
  "$@" >"$dir/$name.txt" 2>&1
  local rc=$?
  local ms=$((($(date +%s%N) - t0) / 1000000))
  printf '%-40s rc=%-3s wall=%d.%03d s\n' "$name" "$rc" $((ms / 1000)) $((ms % 1000)) |
    tee -a "$dir/summary.txt"
}

for stage in "$@"; do
  dir=$OUT/work/$stage
  mkdir -p "$dir"
  say "stage $stage"
  case $stage in
    devices)
      timed devices "$caliber" devices
      timed devices_json "$caliber" devices --json
      timed devices_rocm "$caliber" devices --backend rocm
      timed devices_bogus env ZL_BACKEND=bogus "$caliber" devices
      cat "$dir/devices.txt" "$dir/devices_rocm.txt" "$dir/devices_bogus.txt" ;;
    verify)
      timed ops_verify_cuda "$caliber" ops --verify --backend cuda
      tail -25 "$dir/ops_verify_cuda.txt" ;;
    runs)
      timed run_mm_comprehensive_bf16 "$caliber" run --op mm --level comprehensive \
        --dtypes bfloat16 --no-progress --out "$dir/mm_comprehensive"
      timed run_dropout "$caliber" run --op dropout --no-progress --out "$dir/dropout"
      timed run_nonzero_graph "$caliber" run --op nonzero --timer graph --dtypes float16 \
        --no-progress --out "$dir/nonzero_graph"
      timed run_nonzero_batch "$caliber" run --op nonzero --timer batch --dtypes float16 \
        --no-progress --out "$dir/nonzero_batch"
      for f in "$dir"/run_*.txt; do echo "--- $f"; grep -E "timer:|shapes:|markers|fallback|run end|FAILED" "$f" | head -12; done ;;
    tuner)
      timed run_mm_tuner_record "$caliber" run --op mm --dtypes bfloat16 --tuner record \
        --tuner-file "$dir/tunableop.csv" --no-progress --out "$dir/mm_record"
      timed run_mm_tuner_replay "$caliber" run --op mm --dtypes bfloat16 --tuner replay \
        --tuner-file "$dir/tunableop.csv" --no-progress --out "$dir/mm_replay"
      timed run_mm_tuner_off "$caliber" run --op mm --dtypes bfloat16 --no-progress \
        --out "$dir/mm_off"
      wc -l "$dir/tunableop.csv"; head -5 "$dir/tunableop.csv"
      grep -h "SUCCESS\|FAILED" "$dir"/run_mm_tuner_*.txt | head -20 ;;
    timers)
      OUT=$dir CALIBER_DEVICE_BUILD=$build CALIBER_VALIDATE_BUDGET_S=${TIMERS_BUDGET_S:-300} \
        "$here/bench/validate_timers.sh" ;;
    *)
      echo "unknown stage $stage" ;;
  esac
  tar -czf "$OUT/$stage.tgz" -C "$OUT/work" "$stage"
done
cat "$OUT"/work/*/summary.txt 2>/dev/null
say "done"
