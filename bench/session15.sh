#!/usr/bin/env bash
# The fifteenth session's device calls on one H200 (issue 19). One argument per call; calls after
# the first need its build on a machine still warm (else build again first: CALIBER_BUILD=1).
#   DEADLINE_S=590 bash bench/session15.sh call1   # build, then the whole corpus with caliber
#                                                  # batch's default flags (`wc`) until the deadline
#   DEADLINE_S=590 bash bench/session15.sh resume  # the same batch command again: it goes on
#                                                  # where it stopped, until done or the deadline
#   DEADLINE_S=590 bash bench/session15.sh checks  # resume first if wc is unfinished, then:
#     aa    bench/screen_ops/aa71.txt with the default flags, judged against wc's rows of the same
#           ops (A/A), plain and --confirm
#     p5    bench/screen_ops/power14.txt with --selftest-delay 0.05, judged against wc's rows of the
#           same ops, plain and --confirm (power)
#     fx    aa71 with --isolation op --policy fixed, judged against wc plainly (the defaults
#           against a process per op and the fixed policy), if time is left
# Every call packs what it has: the screen's status, batch.log, run.log and identities of every
# op and its rows without samples (bench/compact_rows.py), the profile, and the comparisons. At
# most 8 files come back from a call, so the texts go into one logs tgz.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
final=${OUT:-$here/bench/out}
logs=$final/logs
mkdir -p "$logs"
start=$(date +%s)
left() { echo $((${DEADLINE_S:-590} - ($(date +%s) - start))); }
caliber=$here/.device_build/caliber
screens=$here/runs/device
say() { echo "== $* (at $(($(date +%s) - start)) s, $(left) s left)"; }

build() {
  say "build"
  OUT=$logs/build DEADLINE_S=$(left) bash "$here/bench/device.sh" devices >"$logs/build.txt" 2>&1
  local rc=$?
  tail -5 "$logs/build.txt"
  [ -x "$caliber" ] || { echo "no caliber build"; exit 1; }
  return $rc
}

# batch NAME SECONDS [ARGS...]: caliber batch on device 0 into runs/device/NAME, cut at SECONDS.
batch() {
  local name=$1 limit=$2
  shift 2
  say "batch $name $* (limit $limit s)"
  local t0; t0=$(date +%s%N)
  timeout -s INT "$limit" "$caliber" batch --devices 0 --no-progress "$@" --out "$screens/$name" \
    >"$logs/batch_${name}_$(date +%H%M%S).txt" 2>&1
  echo "$name rc=$? wall=$((($(date +%s%N) - t0) / 1000000)) ms" | tee -a "$logs/walls.txt"
  tail -2 "$screens/$name/batch.log"
}

wc_done() {  # the last summary line of batch.log says whether it was cut
  [ -f "$screens/wc/batch.log" ] && ! tail -1 "$screens/wc/batch.log" | grep -q "rerun to resume"
}

pack_wc() {
  say "pack wc"
  python3 "$here/bench/compact_rows.py" "$screens/wc"
  python3 "$here/bench/screen_profile.py" "$screens/wc" | tee "$logs/profile_wc.txt" | head -45
  awk -F, 'NR>1{print $2}' "$screens/wc/ops_status.csv" | sort | uniq -c
  (cd "$screens" && find wc -maxdepth 3 \( -name ops_status.csv -o -name batch.log \
    -o -name run.log -o -name run_identity.json -o -name 'attempt-*.log' -o -name rows.jsonl.gz \
    \) -print0 | tar -czf "$final/wc.tgz" --null -T -)
}

# judge B BUDGET [ARGS...]: wc against B, plain, then --confirm within BUDGET seconds (none: 0).
judge() {
  local b=$1 budget=$2
  shift 2
  say "compare wc $b $*"
  "$caliber" compare "$screens/wc" "$screens/$b" --calibration none "$@" \
    -o "$screens/cmp_plain_$b" >"$logs/compare_plain_$b.txt" 2>&1
  echo "rc=$?"; grep -E "rows|FAST|SLOW|UNSURE|SAME" "$logs/compare_plain_$b.txt" | head -12
  [ "$budget" -gt 30 ] || return 0
  say "compare wc $b --confirm (budget $budget s)"
  "$caliber" compare "$screens/wc" "$screens/$b" --calibration none "$@" --confirm \
    --confirm-deadline-s "$budget" -o "$screens/cmp_confirm_$b" 2>&1 |
    grep -v "CUDA Graph is empty" >"$logs/compare_confirm_$b.txt"
  echo "rc=${PIPESTATUS[0]}"; grep -E "rows|FAST|SLOW|UNSURE|SAME|confirm" \
    "$logs/compare_confirm_$b.txt" | head -14
}

pack_checks() {
  (cd "$screens" && find aa p5 fx cmp_plain_* cmp_confirm_* -maxdepth 3 \( -name results.jsonl \
    -o -name run_identity.json -o -name ops_status.csv -o -name batch.log -o -name 'compare.*' \
    -o -name confirmations.jsonl \) -print0 2>/dev/null |
    tar -czf "$final/checks.tgz" --null -T -)
}

finish() {  # finish CASE: the texts in one file, then what comes back
  tar -czf "$final/logs-${1:-call}-$(date +%H%M%S).tgz" -C "$final" logs && rm -rf "$logs"
  ls -la "$final"
}

case ${1:-} in
  call1)
    build
    rm -rf "${screens:?}/wc"
    batch wc $(($(left) - 45))
    pack_wc
    finish "$1" ;;
  resume)
    [ -n "${CALIBER_BUILD:-}" ] && build
    batch wc $(($(left) - 45))
    pack_wc
    finish "$1" ;;
  checks)
    [ -n "${CALIBER_BUILD:-}" ] && build
    if ! wc_done; then
      batch wc $(($(left) - 300))
      pack_wc
    fi
    rm -rf "$screens/aa" "$screens/p5" "$screens/fx" "$screens"/cmp_*
    batch aa $(($(left) - 60)) --ops-file "$here/bench/screen_ops/aa71.txt"
    batch p5 $(($(left) - 60)) --ops-file "$here/bench/screen_ops/power14.txt" \
      --selftest-delay 0.05
    # The A/A pass first, half of what is left; the power pass then takes what remains but the
    # fixed screen's share.
    judge aa $((($(left) - 60) / 2))
    judge p5 $(($(left) - ${FX_S:-120} - 40)) --allow-mismatch selftest_delay
    if [ "$(left)" -gt 60 ]; then
      batch fx $(($(left) - 25)) --ops-file "$here/bench/screen_ops/aa71.txt" --isolation op \
        --policy fixed
      judge fx 0 --allow-mismatch policy
    fi
    pack_checks
    finish "$1" ;;
  *)
    echo "usage: $0 call1|resume|checks" >&2
    exit 2 ;;
esac
