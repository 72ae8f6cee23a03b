#!/usr/bin/env bash
# One device call: configure and build caliber on the GPU machine (its image's python3 has torch),
# then run the named stages, logging under $OUT. At most 8 files come back from a device call, so
# each stage writes into $OUT/work/<stage>/ and the folder is packed into $OUT/<stage>.tgz.
#
#   bench/device.sh verify runs          # stages: devices verify runs backward tuner timers screen blas_ab flaggems flaggems_dropin flaggems_inputs warmup_blas sync_memory generic_ab build_before use:before|current families:ISO:DEVS:NAME
#   bench/device.sh core:worker:0,1:w2a core:op:0,1:op2 compare:w2a:op2 flaggems
#
# Screens (`core:ISOLATION:DEVICES:NAME`) go to runs/device/NAME, a git-ignored folder that stays
# on a warm machine, so a later call can compare against them; only their small files come back.
# DEADLINE_S (default 570) is the whole call: a long stage gets SIGINT in time for the packing
# (an interrupted batch writes its status and resumes), never the device tool's kill.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$here/bench/out}
build=${CALIBER_DEVICE_BUILD:-$here/.device_build}
caliber=$build/caliber
mkdir -p "$OUT/work"
start=$(date +%s)
deadline=${DEADLINE_S:-570}
screens=$here/runs/device
mkdir -p "$screens"
say() { echo "== $* (at $(($(date +%s) - start)) s)"; }
left() { echo $((deadline - ($(date +%s) - start) - 25)); }

say "configure + build"
# CALIBER_SKIP_BUILD=1 skips configure and build alike (a stage that needs no caliber, or a warm
# machine whose build is current).
# Line tables only (-g1): a crash report's frames keep their file and line, and the compiles a
# fresh machine pays every call are about a third shorter than with full debug info (-g;
# bench/compile_debug_info.sh).
if [ "${CALIBER_SKIP_BUILD:-}" != 1 ]; then
  cmake -S "$here" -B "$build" -G Ninja -DCALIBER_PYTHON="$(command -v python3)" -DCALIBER_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DTORCH_CUDA_ARCH_LIST=9.0 -DCALIBER_BUILD_TESTS=OFF \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    >"$OUT/work/build.log" 2>&1 &&
    ninja -C "$build" -j 16 -k 0 caliber validate_timers >>"$OUT/work/build.log" 2>&1 ||
    { grep -E "error|Error" -A5 "$OUT/work/build.log" | head -60; exit 1; }
  # Which C++ runtime the binary loads (the device builds with /opt/gcc's GCC 13): a crash report's
  # frames in libstdc++ are read against this one.
  ldd "$caliber" | grep -E "libstdc\+\+|libgcc_s" >>"$OUT/work/build.log" 2>&1 || true
  # And which library its std::filesystem calls bind to (libtorch.so exports copies of them; the
  # link names libstdc++ first so that they bind there, which the H100 image's build did not do):
  # bindings per library, and the first entries of the binary's NEEDED list.
  {
    LD_BIND_NOW=1 LD_DEBUG=bindings "$caliber" --version 2>&1 |
      grep -E "binding file [^ ]*caliber .*10filesystem" |
      sed -E 's/.* to ([^ ]+) .*/std::filesystem of caliber bound to \1/' | sort | uniq -c
    readelf -d "$caliber" | grep NEEDED | grep -nE '' | grep -E '^[1-4]:|stdc\+\+'
    # The H100 image's binary lists libtorch.so first, not libstdc++: where do -lstdc++ and the
    # torch libraries stand on the link line ninja ran?
    ninja -C "$build" -t commands caliber | tail -1 | tr ' ' '\n' |
      grep -nE 'stdc\+\+|libtorch(_cpu)?\.so|as-needed|^-fuse-ld|^-B' | head -12
  } >>"$OUT/work/build.log" 2>&1 || true
fi

timed() {  # timed NAME CMD...: runs CMD, its output in work/<stage>/NAME.txt, wall time reported
  local name=$1; shift
  local t0; t0=$(date +%s%N)
  "$@" >"$dir/$name.txt" 2>&1
  local rc=$?
  local ms=$((($(date +%s%N) - t0) / 1000000))
  printf '%-40s rc=%-3s wall=%d.%03d s\n' "$name" "$rc" $((ms / 1000)) $((ms % 1000)) |
    tee -a "$dir/summary.txt"
}

# The small files of a batch directory (status, summary, per-op logs and identities), packed into
# the current stage's folder.
pack_screen() {  # pack_screen NAME
  (cd "$screens" && find "$1" -maxdepth 3 \( -name ops_status.csv -o -name summary.csv \
    -o -name batch.log -o -name run.log -o -name run_identity.json -o -name 'attempt-*.log' \
    -o -name 'compare*' -o -name '*.html' \) -print0 |
    tar -czf "$dir/$1.tgz" --null -T -)
}

for stage in "$@"; do
  label=${stage//[:,]/_}
  dir=$OUT/work/$label
  mkdir -p "$dir"
  say "stage $stage ($(left) s left)"
  case $stage in
    core:*)
      # core:ISOLATION:DEVICES:NAME, the whole corpus at level core.
      IFS=: read -r _ iso devs name <<<"$stage"
      rm -rf "${screens:?}/$name"
      timed "batch_$name" timeout -s INT "$(left)" "$caliber" batch --level core \
        --devices "$devs" --isolation "$iso" --policy "${POLICY:-adaptive}" --no-progress \
        ${SCREEN_ARGS:-} --out "$screens/$name"
      tail -4 "$dir/batch_$name.txt"
      awk -F, 'NR>1{print $2}' "$screens/$name/ops_status.csv" | sort | uniq -c
      "$caliber" summary "$screens/$name" -q >"$dir/summary_$name.txt" 2>&1
      echo "cases measured: $(($(wc -l <"$screens/$name/summary.csv") - 1)) summary rows"
      grep -H -e "caliber run end" -e "memory after the run" "$screens/$name"/ops/*/run.log \
        >"$dir/memory_$name.txt"
      pack_screen "$name" ;;
    compare:*)
      IFS=: read -r _ a b <<<"$stage"
      timed "compare_${a}_$b" "$caliber" compare "$screens/$a" "$screens/$b" \
        ${ALLOW:+--allow-mismatch "$ALLOW"} -o "$dir/compare"
      timed "report_${a}_$b" "$caliber" report "$screens/$a" --compare "$screens/$b" \
        -o "$dir/report.html"
      head -60 "$dir/compare_${a}_$b.txt" ;;
    flaggems)
      # Issue 8: caliber --candidate python:flag_gems and FlagGems' own pytest on the same ops,
      # at once on two GPUs when there are two (one after the other otherwise).
      budget=$(left)
      # FLUSH_MB=N: GPU 0 then runs caliber's part again with --flush-mb N (do_bench flushes
      # 256 MB), each of the two with half the time.
      if [ "$(nvidia-smi -L | wc -l)" -ge 2 ]; then
        (
          first=$budget
          [ -n "${FLUSH_MB:-}" ] && first=$((budget / 2))
          CUDA_VISIBLE_DEVICES=0 PART=caliber OUT=$dir/caliber CALIBER_VALIDATE_BUDGET_S=$first \
            CALIBER_DEVICE_BUILD=$build bash "$here/bench/flaggems_compare.sh"
          [ -z "${FLUSH_MB:-}" ] || CUDA_VISIBLE_DEVICES=0 PART=caliber OUT=$dir/caliber_flush \
            CALIBER_VALIDATE_BUDGET_S=$(($(left) + 15)) CALIBER_DEVICE_BUILD=$build \
            CALIBER_FLAGS="--timer direct --cache cold --flush-mb $FLUSH_MB" \
            bash "$here/bench/flaggems_compare.sh"
        ) &
        CUDA_VISIBLE_DEVICES=1 PART=flaggems OUT=$dir/flaggems CALIBER_VALIDATE_BUDGET_S=$budget \
          bash "$here/bench/flaggems_compare.sh"
        wait
      else
        OUT=$dir CALIBER_VALIDATE_BUDGET_S=$budget CALIBER_DEVICE_BUILD=$build \
          bash "$here/bench/flaggems_compare.sh"
      fi
      cat "$dir"/*/compare.log "$dir"/compare.log 2>/dev/null | tail -40 ;;
    flaggems_dropin)
      # Issue 20: caliber as a drop-in for FlagGems' benchmark users, on GPU 0 (a few minutes).
      CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0} OUT=$dir CALIBER_DEVICE_BUILD=$build \
        DROPIN_LIMIT_S=$(($(left) - 150)) bash "$here/bench/flaggems_dropin.sh"
      tail -60 "$dir/dropin.log" ;;
    flaggems_inputs)
      # Issue 15: FlagGems' own benchmark for its Size Detail (bench/flaggems_inputs.sh; FILES or
      # FILES_FROM pick the test files, default all). Needs no caliber build: run it with
      # CALIBER_SKIP_BUILD=1. The archive is for bench/results/flaggems-inputs/.
      OUT=$dir DEADLINE_S=$(left) bash "$here/bench/flaggems_inputs.sh" 2>&1 | tail -20
      mv "$dir"/flaggems-inputs-*.tgz "$OUT/" 2>/dev/null ;;
    warmup_blas)
      # Parallel tuner warmup: mm's comprehensive record pass sharded over WARMUP_GPUS GPUs
      # (default every GPU; WARMUP_GPUS=1 is the one-GPU reference).
      gpus=${WARMUP_GPUS:-$(nvidia-smi -L | wc -l)}
      name=warmup_mm_${gpus}gpu
      rm -rf "${screens:?}/$name"
      timed "$name" timeout -s INT "$(left)" "$caliber" batch --ops mm --level comprehensive \
        --dtypes bfloat16 --tuner record --parallel-warmup-gpus "$gpus" \
        --devices "$(seq -s, 0 $((gpus - 1)))" --isolation worker --policy adaptive \
        --no-progress --out "$screens/$name"
      tail -6 "$dir/$name.txt"
      find "$screens/$name" -name 'tunableop_results*.csv' -exec wc -l {} +
      pack_screen "$name" ;;
    sync_memory)
      # The host-synchronising ops whose captures are refused, in one worker between two ops
      # that capture: device memory reserved after each op, in the order they ran, shows whether
      # a refused capture's pool is handed back (it kept 12-25 GiB before abandon_capture).
      sync_ops="add isin unique unique_consecutive nonzero masked_select mul"
      timed batch_sync_memory timeout -s INT "$(left)" "$caliber" batch --level core \
        --ops "${sync_ops// /,}" --devices 0 \
        --isolation worker --policy adaptive --no-progress --out "$screens/sync_memory"
      tail -4 "$dir/batch_sync_memory.txt"
      for op in $sync_ops; do
        grep -H "memory after the run" "$screens/sync_memory/ops/$op/run.log"
      done | tee "$dir/memory_sync.txt"
      pack_screen sync_memory ;;
    backward)
      # Backward ops under the graph timer: captured (timer used: graph) or refused (fallback).
      for op in ${BACKWARD_OPS:-softmax_backward mm_backward layer_norm_backward}; do
        timed "run_$op" "$caliber" run --op "$op" --timer graph --dtypes float16 --no-progress \
          --out "$dir/$op"
        grep -c '"timer_used":"graph"' "$dir/$op/results.jsonl"
        grep -o 'fallback\[[^]]*\]' "$dir/$op/results.jsonl" | sort | uniq -c
      done ;;
    build_before)
      # The A/B of a refactor: the tree before it, carried in .ab/before (git archive of the
      # commit, git-ignored), built beside the current one; `use:before` then runs it.
      timed build_before bash -c "cmake -S '$here/.ab/before' -B '$here/.ab/build' -G Ninja \
        -DCALIBER_PYTHON=$(command -v python3) -DCALIBER_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DTORCH_CUDA_ARCH_LIST=9.0 -DCALIBER_BUILD_TESTS=OFF && ninja -C '$here/.ab/build' -j 16 caliber"
      tail -3 "$dir/build_before.txt" ;;
    use:*)
      # use:before | use:current: which build the stages after it run.
      case ${stage#use:} in
        before) caliber=$here/.ab/build/caliber ;;
        *) caliber=$build/caliber ;;
      esac
      echo "stages from here run $caliber" ;;
    screen:*)
      # screen:DEVICES:NAME, `caliber batch` with its default flags (issue 19) over OPS_FILE (the
      # whole core corpus when unset), plus SCREEN_ARGS; the rows' samples come back too
      # (results.jsonl), for calibrate and compare here, and screen_profile.py's phases.
      IFS=: read -r _ devs name <<<"$stage"
      rm -rf "${screens:?}/$name"
      timed "batch_$name" timeout -s INT "$(left)" "$caliber" batch --devices "$devs" \
        ${OPS_FILE:+--ops-file "$OPS_FILE"} --no-progress ${SCREEN_ARGS:-} --out "$screens/$name"
      tail -3 "$dir/batch_$name.txt"
      awk -F, 'NR>1{print $2}' "$screens/$name/ops_status.csv" | sort | uniq -c
      python3 "$here/bench/screen_profile.py" "$screens/$name" >"$dir/profile_$name.txt" 2>&1
      cat "$dir/profile_$name.txt"
      # RESULTS=0: the status, logs and summary only (a whole corpus's samples are too large).
      if [ "${RESULTS:-1}" = 0 ]; then
        "$caliber" summary "$screens/$name" -q >/dev/null 2>&1
        pack_screen "$name"
      else
        (cd "$screens" && find "$name" -maxdepth 3 \( -name ops_status.csv -o -name batch.log \
          -o -name results.jsonl -o -name run_identity.json \) -print0 |
          tar -czf "$dir/$name-results.tgz" --null -T -)
      fi ;;
    families:*)
      # families:ISOLATION:DEVICES:NAME, the families in FAMILIES at level core (default: those
      # of the architecture A/B, softmax,norm,reduction,blas).
      IFS=: read -r _ iso devs name <<<"$stage"
      rm -rf "${screens:?}/$name"
      timed "batch_$name" timeout -s INT "$(left)" "$caliber" batch --level core \
        --family "${FAMILIES:-softmax,norm,reduction,blas}" --devices "$devs" --isolation "$iso" \
        --policy "${POLICY:-adaptive}" --no-progress ${SCREEN_ARGS:-} --out "$screens/$name"
      tail -4 "$dir/batch_$name.txt"
      awk -F, 'NR>1{print $2}' "$screens/$name/ops_status.csv" | sort | uniq -c
      pack_screen "$name" ;;
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
      # Issues 3 and 22. validate_timers.sh builds its own target inside its budget, so that
      # `CALIBER_SKIP_BUILD=1 TIMERS_BUDGET_S=450 bash bench/device.sh timers` is one call of
      # about 460 s on a fresh machine. Run 3 used `TIMERS_BUDGET_S=430 DEADLINE_S=590 bash
      # bench/device.sh timers` (284 s: the build above, 121 s, then the stage).
      OUT=$dir CALIBER_DEVICE_BUILD=$build CALIBER_VALIDATE_BUDGET_S=${TIMERS_BUDGET_S:-450} \
        "$here/bench/validate_timers.sh" ;;
    screen)
      # Two screens of the same ops back to back (process per op, then persistent workers):
      # start-up cost per isolation mode, and the A/B gate + verdicts on identical calibers.
      subset=${SCREEN_FAMILIES:-softmax,norm,reduction}
      for mode in op worker; do
        timed "batch_$mode" "$caliber" batch --level core --family "$subset" --dtypes float16 \
          --isolation "$mode" --no-progress --out "$dir/$mode"
      done
      timed compare_op_worker "$caliber" compare "$dir/op" "$dir/worker" -o "$dir/compare"
      timed report "$caliber" report "$dir/op" --compare "$dir/worker" -o "$dir/report.html"
      tail -n 3 "$dir/batch_op.txt" "$dir/batch_worker.txt"; head -30 "$dir/compare_op_worker.txt" ;;
    blas_ab)
      # A real A/B: TunableOp off against a replay of records taken just before.
      fam=--family=blas
      timed blas_off "$caliber" batch --level core $fam --dtypes bfloat16 --no-progress \
        --out "$dir/off"
      timed blas_record "$caliber" batch --level core $fam --dtypes bfloat16 --tuner record \
        --no-progress --out "$dir/record"
      timed blas_replay "$caliber" batch --level core $fam --dtypes bfloat16 --tuner replay \
        --replay-from "$dir/record" --no-progress --out "$dir/replay"
      timed compare_off_replay "$caliber" compare "$dir/off" "$dir/replay" \
        --allow-mismatch tuner_mode -o "$dir/compare"
      head -40 "$dir/compare_off_replay.txt" ;;
    generic_ab)
      # Issue 18: the same ops through PyTorch's device-generic runtime (--device-api generic)
      # and through the CUDA glue, all --timer direct on GPU 0, the CUDA path before and after
      # (A/A): generic against cuda should agree as closely as cuda agrees with itself.
      families=${GENERIC_FAMILIES:-softmax norm reduction}
      { "$caliber" ops | awk -v f=" $families " 'index(f, " " $2 " ") {print $1}'
        echo add; echo mm; } | sort -u >"$dir/ops.txt"
      echo "$(wc -l <"$dir/ops.txt") ops: $(tr '\n' ' ' <"$dir/ops.txt")"
      timed devices_generic "$caliber" devices --backend cuda --device-api generic
      cat "$dir/devices_generic.txt"
      for name in cuda_a generic cuda_b; do
        api=native
        [ "$name" = generic ] && api=generic
        timed "batch_$name" timeout -s INT "$(left)" "$caliber" batch --backend cuda \
          --ops-file "$dir/ops.txt" --level core --dtypes float16 --timer direct \
          --device-api "$api" --devices 0 --isolation worker --no-progress --out "$dir/$name"
        tail -3 "$dir/batch_$name.txt"
      done
      grep -h "device api" "$dir"/generic/ops/*/run.log | sort | uniq -c | head -3
      timed compare_generic_cuda "$caliber" compare "$dir/generic" "$dir/cuda_a" \
        -o "$dir/compare_generic_cuda"
      timed compare_cuda_cuda "$caliber" compare "$dir/cuda_b" "$dir/cuda_a" \
        -o "$dir/compare_cuda_cuda"
      head -30 "$dir/compare_generic_cuda.txt"
      head -30 "$dir/compare_cuda_cuda.txt" ;;
    *)
      echo "unknown stage $stage" ;;
  esac
  tar -czf "$OUT/$label.tgz" -C "$OUT/work" "$label"
done
cat "$OUT"/work/*/summary.txt 2>/dev/null
say "done"
