#!/usr/bin/env bash
# The FlagGems comparison of issue 8, run on the H200 by the lead: caliber's core level with
# `--candidate python:flag_gems`, then FlagGems' own `pytest benchmark/test_<op>.py --level core
# --mode kernel` on the same ops, all files in one pytest process (its imports are paid once).
#
# First, on the networked machine, in the repo root: bench/prepare_flaggems.sh (FlagGems at the
# pinned commit into third_party_fetched/FlagGems, sqlalchemy's wheel into .whl). Then:
#   run(command="bash bench/flaggems_compare.sh", carry=["third_party_fetched/FlagGems", ".whl"])
#   PART=caliber | PART=flaggems splits it over two device calls when one is too short.
#
# Knobs (environment): OPS (comma list, caliber's op names; FlagGems' file is test_<op>.py, else
# the test file that carries the op's pytest mark),
# DTYPES (float16; `all` passes no --dtypes to either side, so each op runs the dtypes it has:
# FlagGems refuses a --dtypes list with one its test lacks, test_amin.py's parametrized dtypes
# refuse any list of two), WARMUP_MS / ITER_MS (25 / 100: do_bench's defaults and caliber's;
# FlagGems' own default warmup is 1000 ms, too long for one device call, and is part of its
# caliber, so the values are printed in the logs), CALIBER_FLAGS (default "--timer direct
# --cache cold": events around each call with L2 cleared before it, which is what do_bench in
# --mode kernel does),
# CALIBER_VALIDATE_BUDGET_S (540 s for the whole call).
#
# Files under $OUT (at most six, so that they all come back):
#   compare.log          every step, versions, settings and timings
#   caliber.log          caliber batch's output
#   caliber_runs.tgz     caliber's batch directory (results.jsonl, run_identity.json per op)
#   flaggems.log         pytest's output (FlagGems' printed tables; `caliber summary` reads them)
# No --record: FlagGems names that log file after the whole command line, too long for 36 files.
# Then, here: bench/flaggems_table.py joins the two summaries case by case (docs/flaggems.md).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$here/bench/out}
mkdir -p "$OUT"
part=${PART:-all}
budget=${CALIBER_VALIDATE_BUDGET_S:-540}
build=${CALIBER_DEVICE_BUILD:-$here/.device_build}
flaggems=${FLAGGEMS_DIR:-$here/third_party_fetched/FlagGems}
ops=${OPS:-mm,bmm,addmm,softmax,log_softmax,layer_norm,rms_norm,group_norm,sum,mean,amax,max,argmax,cumsum,var_mean,add,sub,mul,div,pow,exp,rsqrt,abs,neg,relu,gelu,silu,sigmoid,tanh,where,sort,topk,rand,randn,normal,uniform_}
dtypes=${DTYPES:-float16}
warmup_ms=${WARMUP_MS:-25}
iter_ms=${ITER_MS:-100}
caliber_flags=${CALIBER_FLAGS:---timer direct --cache cold}
py=$(command -v python3)
log="$OUT/compare.log"
start=$(date +%s)
: >"$log"

elapsed() { echo $(($(date +%s) - start)); }
step() { echo "== $* (at $(elapsed) s)" | tee -a "$log"; }
left() { echo $((budget - $(elapsed))); }

if [ ! -d "$flaggems/src/flag_gems" ]; then
  echo "no FlagGems at $flaggems: run bench/prepare_flaggems.sh and carry third_party_fetched/FlagGems" |
    tee -a "$log"
  exit 2
fi
step "sqlalchemy from .whl (FlagGems imports it; the image lacks it)"
# One target per part: the two parts may run at once, each on its own GPU.
site=/tmp/site-$part
"$py" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target "$site" "$here"/.whl/*.whl >>"$log" 2>&1 || { tail -20 "$log"; exit 1; }
# The embedded interpreter of `caliber --candidate python:` reads PYTHONPATH as python3 does.
export PYTHONPATH=$site:$flaggems/src${PYTHONPATH:+:$PYTHONPATH}
{
  echo "FlagGems commit $(cat "$flaggems/COMMIT" 2>/dev/null || echo unknown)"
  echo "python $("$py" -c 'import sys; print(sys.version.split()[0])'), $("$py" -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)')"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  echo "ops: $ops"
  echo "dtypes: $dtypes  warmup_ms: $warmup_ms  iter_ms: $iter_ms  caliber flags: $caliber_flags"
} >>"$log" 2>&1

run_caliber() {
  step "configure caliber"
  generator=$(command -v ninja >/dev/null && echo Ninja || echo "Unix Makefiles")
  cmake -S "$here" -B "$build" -G "$generator" -DCALIBER_PYTHON="$py" -DCALIBER_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DTORCH_CUDA_ARCH_LIST=9.0 -DCALIBER_BUILD_TESTS=OFF \
    >>"$log" 2>&1 || { tail -40 "$log"; return 1; }
  step "build caliber"
  if [ "$(left)" -le 60 ]; then
    echo "build caliber: $(left) s left in the budget, too little" | tee -a "$log"
    return 1
  fi
  timeout $(($(left) - 60)) cmake --build "$build" -j 16 --target caliber >>"$log" 2>&1 ||
    { tail -40 "$log"; return 1; }
  # FlagGems keeps the rest of the budget when both parts run in this call.
  local limit=$(($(left) - 10))
  [ "$part" = all ] && limit=$((limit / 2))
  if [ "$limit" -le 0 ]; then
    echo "caliber batch: no time left in the budget ($limit s)" | tee -a "$log"
    return 1
  fi
  local dtype_flag=(--dtypes "$dtypes")
  [ "$dtypes" = all ] && dtype_flag=()
  step "caliber batch --candidate python:flag_gems (limit ${limit} s)"
  local runs
  runs=$(mktemp -d)
  # caliber_flags is split into words on purpose (several flags).
  # shellcheck disable=SC2086
  # One worker process: FlagGems' import (about 11 s) is paid once, not once per op. SIGINT at
  # the limit: the batch stops its worker and writes its status.
  timeout -s INT "$limit" "$build/caliber" batch --ops "$ops" --level core "${dtype_flag[@]}" \
    --warmup-ms "$warmup_ms" --rep-ms "$iter_ms" $caliber_flags --isolation worker \
    --candidate python:flag_gems --no-progress --out "$runs/batch" >"$OUT/caliber.log" 2>&1
  echo "caliber batch exit $?" | tee -a "$log"
  "$build/caliber" summary "$runs/batch" -q >>"$log" 2>&1
  tar -czf "$OUT/caliber_runs.tgz" -C "$runs" batch 2>>"$log"
}

run_flaggems() {
  local files=() op
  IFS=, read -r -a op_list <<<"$ops"
  for op in "${op_list[@]}"; do
    local file="benchmark/test_$op.py"
    # Else the file that carries the op's pytest mark (test_mhc.py holds mhc_pre and mhc_post,
    # test_FLA/ the gated delta rules).
    [ -f "$flaggems/$file" ] || file=$(cd "$flaggems" && grep -rlE --include='test_*.py' \
      "pytest\.mark\.$op(\$|[^A-Za-z0-9_])" benchmark | sort | head -1)
    if [ -z "$file" ]; then
      echo "FlagGems has no benchmark/test_$op.py and no file marked $op: left out of its run" |
        tee -a "$log"
    elif [[ " ${files[*]} " != *" $file "* ]]; then
      files+=("$file")  # a file that several ops share runs once
    fi
  done
  local dtype_flags=() d
  IFS=, read -r -a dtype_list <<<"$dtypes"
  [ "$dtypes" = all ] && dtype_list=()
  for d in "${dtype_list[@]}"; do dtype_flags+=(--dtypes "$d"); done
  local limit=$(($(left) - 10))
  if [ "$limit" -le 0 ]; then
    echo "FlagGems pytest: no time left in the budget ($limit s)" | tee -a "$log"
    return 1
  fi
  step "FlagGems pytest, ${#files[@]} files in one process (limit ${limit} s)"
  (cd "$flaggems" && timeout -s INT "$limit" "$py" -m pytest "${files[@]}" --level core --mode kernel \
    --warmup "$warmup_ms" --iter "$iter_ms" "${dtype_flags[@]}" -s -p no:cacheprovider \
    >"$OUT/flaggems.log" 2>&1)
  echo "FlagGems pytest exit $?" | tee -a "$log"
}

case "$part" in
  all) run_caliber; run_flaggems ;;
  caliber) run_caliber ;;
  flaggems) run_flaggems ;;
  *) echo "PART: '$part' is not a part (accepted: all, caliber, flaggems)" >&2; exit 2 ;;
esac
step "done"
