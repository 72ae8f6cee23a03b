#!/usr/bin/env bash
# What a python: candidate's first calls cost, split into compiling and tuning (issue 16: how a
# warm pass should share the work). Each op runs three times in fresh processes, its caches in
# folders of their own:
#   cold      Triton's kernel cache and FlagGems' tuned configs both empty
#   compiled  the kernels cold's run compiled, a tuned-config database of its own (empty)
#   warm      both of cold's caches
# cold - compiled is the compiling, compiled - warm the tuning. Each run's run_identity.json
# records the caches' state as it began (`candidate_caches`). Prints a table; the runs stay in
# $OUT/first_calls.
#   OPS=abs,softmax,mm bash bench/candidate_first_calls.sh       # on the device, FlagGems carried
#   CANDIDATE=python:toy_override BACKEND=cpu PYTHONPATH=tests/providers OPS=add \
#     bash bench/candidate_first_calls.sh                         # the script itself, on the CPU
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
caliber=${CALIBER:-$here/.device_build/caliber}
candidate=${CANDIDATE:-python:flag_gems}
backend=${BACKEND:-cuda}
dtypes=${DTYPES:-float16}
work=${OUT:-$here/bench/out}/first_calls
if [ -d "$here/third_party_fetched/FlagGems/src" ]; then
  export PYTHONPATH=$here/third_party_fetched/FlagGems/src${PYTHONPATH:+:$PYTHONPATH}
fi
rm -rf "$work" && mkdir -p "$work"
# One peaks probe for all the runs, outside their walls.
export CALIBER_PEAKS_FILE=$work/device_peaks.json
"$caliber" run --op add --backend "$backend" --dtypes float32 --no-progress --out "$work/peaks" \
  >"$work/peaks.log" 2>&1

run() {  # run OP STATE TRITON_DIR GEMS_DIR: one caliber run; prints its wall in seconds
  local op=$1 state=$2
  local t0; t0=$(date +%s%N)
  # FlagGems takes any FLAGGEMS_DB_URL that is set, even an empty one, as its database.
  env -u FLAGGEMS_DB_URL TRITON_CACHE_DIR="$3" FLAGGEMS_CACHE_DIR="$4" "$caliber" run --op "$op" \
    --backend "$backend" --candidate "$candidate" --dtypes "$dtypes" --no-progress \
    --out "$work/$op/$state" >"$work/$op/$state.log" 2>&1
  local rc=$?
  echo "$((($(date +%s%N) - t0) / 1000000)) $rc"
}

printf '%-24s %10s %10s %10s %12s %10s\n' op cold_s compiled_s warm_s compiling_s tuning_s
IFS=, read -ra ops <<<"${OPS:-abs,softmax,mm}"
for op in "${ops[@]}"; do
  mkdir -p "$work/$op"
  read -r cold rc1 < <(run "$op" cold "$work/$op/triton" "$work/$op/gems")
  read -r compiled rc2 < <(run "$op" compiled "$work/$op/triton" "$work/$op/gems_compiled")
  read -r warm rc3 < <(run "$op" warm "$work/$op/triton" "$work/$op/gems")
  awk -v op="$op" -v a="$cold" -v b="$compiled" -v c="$warm" -v rc="$rc1$rc2$rc3" 'BEGIN {
    printf "%-24s %10.1f %10.1f %10.1f %12.1f %10.1f%s\n", op, a / 1e3, b / 1e3, c / 1e3,
      (a - b) / 1e3, (b - c) / 1e3, rc == "000" ? "" : "  exit codes " rc }'
done
