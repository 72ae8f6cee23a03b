#!/bin/bash
# A stand-in for the caliber binary as `caliber batch` uses it (CALIBER_CHILD_BINARY): answers
# `ops --json`, `run` and `worker` and mimics each outcome by op name, so the batch driver can
# be tested before (and without) the real `caliber run`. Every invocation is logged, one line
# each, to $FAKE_CALIBER_LOG so tests can count what ran where.

log_call() {
  [ -n "$FAKE_CALIBER_LOG" ] && echo "$*" >>"$FAKE_CALIBER_LOG"
  return 0
}

# Writes the artifacts of a successful run: one result row per dtype.
write_results() {
  local op=$1 out=$2 dtypes=$3
  mkdir -p "$out"
  for dtype in ${dtypes//,/ }; do
    echo "{\"op\":\"$op\",\"dtype\":\"$dtype\",\"status\":\"SUCCESS\",\"timer_used\":\"host\"}" \
      >>"$out/results.jsonl"
  done
  echo "{\"op\":\"$op\"}" >"$out/run_identity.json"
}

# Writes TunableOp records for the shapes of shard i/N (shape k belongs to shard k mod N), plus
# one record every shard tunes, which the merge must keep once.
write_records() {
  local file=$1 shard=$2
  local index=${shard%/*} count=${shard#*/}
  mkdir -p "$(dirname "$file")"
  {
    echo "Validator,PT_VERSION,2.11.0"
    echo "Validator,ROCBLAS_VERSION,none"
    for k in 0 1 2 3 4 5; do
      [ $((k % count)) -eq "$index" ] && echo "GemmTunableOp_float_NN,nn_${k}_64_64,Gemm_Cublas_$k,0.0$k"
    done
    echo "GemmTunableOp_float_NN,nn_shared_8_8,Gemm_Cublas_s,0.5"
  } >"$file"
}

# Behaves as `caliber run` would for this op; returns the run's exit code (or never returns).
behave() {
  local op=$1 out=$2 dtypes=$3 tuner=$4 tuner_file=$5 shard=$6
  local state=${CALIBER_SELFTEST_STATE:-/tmp}
  case "$op" in
    selftest_segfault) echo "about to crash"; kill -SEGV $$; sleep 5 ;;
    selftest_hang) echo "hanging"; sleep 600 ;;
    selftest_fail) echo "RuntimeError: selftest_fail fails on purpose" >&2; return 1 ;;
    selftest_flaky)
      if [ ! -e "$state/selftest_flaky.attempted" ]; then
        touch "$state/selftest_flaky.attempted"
        echo "RuntimeError: flaky first attempt" >&2
        return 1
      fi ;;
    selftest_dtype_fail)
      case ",${dtypes:-float16,float32,bfloat16}," in
        *,float16,*) echo "RuntimeError: float16 is not supported" >&2; return 1 ;;
      esac ;;
    selftest_device_fatal)
      echo "CUDA error: an illegal memory access was encountered" >&2
      return 3 ;;
    selftest_orphan)
      sleep 600 &
      echo $! >"$state/orphan.pid" ;;
    slow_*) sleep "${FAKE_SLOW_S:-0.3}" ;;
    rows_*)
      # A run that measures a case every FAKE_ROW_EVERY_S, FAKE_ROWS of them (a slow first call
      # still writing rows), then hangs when FAKE_HANG_AFTER_ROWS=1.
      mkdir -p "$out"
      : >"$out/results.jsonl"
      for _ in $(seq "${FAKE_ROWS:-3}"); do
        sleep "${FAKE_ROW_EVERY_S:-0.3}"
        echo "{\"op\":\"$op\",\"dtype\":\"float32\",\"status\":\"SUCCESS\"}" >>"$out/results.jsonl"
      done
      [ "$FAKE_HANG_AFTER_ROWS" = 1 ] && sleep 600 ;;
  esac
  if [ "$tuner" = record ] && [ -n "$tuner_file" ]; then write_records "$tuner_file" "${shard:-0/1}"; fi
  if [ -n "$FAKE_CANDIDATE_FAILS" ]; then
    write_candidate_results "$op" "$out" "${dtypes:-float16,float32,bfloat16}"
    return $?
  fi
  write_results "$op" "$out" "${dtypes:-float16,float32,bfloat16}"
  return 0
}

# A run with a candidate: a baseline and a candidate row per dtype, the candidate's FAILED in the
# dtypes FAKE_CANDIDATE_FAILS names; the end line `caliber run` prints, and its exit code.
write_candidate_results() {
  local op=$1 out=$2 dtypes=$3 rows=0 failed=0 status
  mkdir -p "$out"
  : >"$out/results.jsonl"
  for dtype in ${dtypes//,/ }; do
    status=SUCCESS
    case ",$FAKE_CANDIDATE_FAILS," in *,$dtype,*) status=FAILED; failed=$((failed + 1)) ;; esac
    echo "{\"op\":\"$op\",\"dtype\":\"$dtype\",\"provider\":\"baseline\",\"status\":\"SUCCESS\"}" \
      >>"$out/results.jsonl"
    echo "{\"op\":\"$op\",\"dtype\":\"$dtype\",\"provider\":\"python:toy\",\"status\":\"$status\"}" \
      >>"$out/results.jsonl"
    rows=$((rows + 2))
  done
  echo "{\"op\":\"$op\"}" >"$out/run_identity.json"
  local code=0
  [ "$failed" -gt 0 ] && code=1
  echo "caliber run end 2026-12-07T00:00:00Z: $rows rows, $failed failed, wall 0.1 s, exit $code"
  return $code
}

ops_json() {
  local list='{"name":"ok_a","family":"pointwise","dtypes":["float16","float32","bfloat16"],"shape_count":3}'
  list+=',{"name":"ok_b","family":"reduction","dtypes":["float16","float32"],"shape_count":3}'
  list+=',{"name":"ok_c","family":"pointwise","dtypes":["float32"],"shape_count":3}'
  for i in 1 2 3 4 5 6; do
    list+=",{\"name\":\"slow_$i\",\"family\":\"pointwise\",\"dtypes\":[\"float32\"],\"shape_count\":1}"
  done
  # Listed only for the tests that set FAKE_ROWS, so the other tests' op counts stay.
  [ -n "$FAKE_ROWS" ] && list+=',{"name":"rows_a","family":"pointwise","dtypes":["float32"],"shape_count":1}'
  list+=',{"name":"mm","family":"BLAS","dtypes":["float16","float32"],"shape_count":6}'
  if [ "$CALIBER_SELFTEST" = 1 ]; then
    list+=',{"name":"leak_a","family":"pointwise","dtypes":["float32"],"shape_count":1}'
    for op in segfault hang fail flaky dtype_fail device_fatal orphan; do
      list+=",{\"name\":\"selftest_$op\",\"family\":\"selftest\",\"dtypes\":[\"float16\",\"float32\",\"bfloat16\"],\"shape_count\":1}"
    done
  fi
  echo "[$list]"
}

json_field() {  # json_field NAME LINE: the string value of "NAME" in a flat-enough JSON line
  sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p" <<<"$2"
}

case "$1" in
  ops)
    log_call "ops $*"
    [ "$FAKE_OPS_FAIL" = 1 ] && { echo "ops listing broken" >&2; exit 1; }
    ops_json ;;
  run)
    shift
    op= out= dtypes= device= tuner= tuner_file= shard=
    while [ $# -gt 0 ]; do
      case "$1" in
        --op) op=$2; shift ;;
        --out) out=$2; shift ;;
        --dtypes) dtypes=$2; shift ;;
        --device) device=$2; shift ;;
        --tuner) tuner=$2; shift ;;
        --tuner-file) tuner_file=$2; shift ;;
        --shard) shard=$2; shift ;;
        --*) shift ;;
      esac
      shift
    done
    log_call "run op=$op dtypes=$dtypes device=$device lane=$CALIBER_BATCH_DEVICE" \
      "visible=$CUDA_VISIBLE_DEVICES tuner=$tuner tuner_file=$tuner_file shard=$shard pid=$$"
    behave "$op" "$out" "$dtypes" "$tuner" "$tuner_file" "$shard"
    exit $? ;;
  worker)
    log_call "worker-start pid=$$ lane=$CALIBER_BATCH_DEVICE"
    while IFS= read -r line; do
      op=$(json_field op "$line")
      out=$(json_field out "$line")
      log=$(json_field log "$line")
      dtypes=$(json_field dtypes "$line")
      log_call "worker-run op=$op dtypes=$dtypes pid=$$ lane=$CALIBER_BATCH_DEVICE"
      mkdir -p "$(dirname "$log")"
      # A subshell so a failure returns an exit code; $$ still names the worker, so a crash or a
      # hang takes the worker down as it would in-process.
      (behave "$op" "$out" "$dtypes" "" "" "") >>"$log" 2>&1
      rc=$?
      # A leaking op keeps FAKE_LEAK_MIB (default 128) of the worker's own memory for good.
      if [[ $op == leak_* ]]; then
        printf -v pad '%*s' $((${FAKE_LEAK_MIB:-128} * 1048576)) ''
        held+=$pad
        pad=
      fi
      echo "{\"op\":\"$op\",\"exit\":$rc}"
      [ $rc -eq 3 ] && exit 3
    done
    # A real worker takes a while to exit (its device context goes down with it).
    sleep "${FAKE_WORKER_EXIT_S:-0}"
    log_call "worker-exit pid=$$ lane=$CALIBER_BATCH_DEVICE"
    exit 0 ;;
  *) echo "fake caliber: unknown command $1" >&2; exit 2 ;;
esac
