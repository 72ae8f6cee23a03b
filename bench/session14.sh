#!/usr/bin/env bash
# The fourteenth session's device calls on one H200 (issue 19): the whole corpus with caliber
# batch's default flags, one screen resumed over calls until done. One argument per call; calls
# after the first need its build on a machine still warm (else: build again first, CALIBER_BUILD=1).
#   DEADLINE_S=590 bash bench/session14.sh call1   # build, then screen `wc` until the deadline
#   DEADLINE_S=590 bash bench/session14.sh resume  # the same batch command again: it goes on
#                                                  # where it stopped, until done or the deadline
#   DEADLINE_S=590 bash bench/session14.sh power   # bench/screen_ops/power14.txt: a default
#                                                  # screen pa, the 5% and 2% selftest screens,
#                                                  # each judged against pa with --confirm
# Every call packs what the screen holds so far: status, batch.log, run.log and identities of
# every op, and the rows without samples (bench/compact_rows.py), with the profile. At most 8 files
# come back from a call: the texts go into one logs.tgz (call 3 of the fourteenth session lost its
# wc.tgz to that count).
set -uo pipefail
source "$(dirname "$0")/screen_calls.sh"
name=${NAME:-wc}

power() {
  local ops=$here/bench/screen_ops/power14.txt work=$screens/power
  rm -rf "$work" && mkdir -p "$work"
  for spec in "pa:" "p5:--selftest-delay 0.05" "p2:--selftest-delay 0.02"; do
    local n=${spec%%:*} args=${spec#*:}
    say "screen $n $args"
    # shellcheck disable=SC2086
    timeout -s INT "$(($(left) - 60))" "$caliber" batch --devices 0 --ops-file "$ops" \
      --no-progress $args --out "$work/$n" >"$logs/power_batch_$n.txt" 2>&1
    tail -1 "$logs/power_batch_$n.txt"
  done
  for b in p5 p2; do
    say "compare pa $b --confirm"
    "$caliber" compare "$work/pa" "$work/$b" --calibration none --allow-mismatch selftest_delay \
      -o "$work/plain_$b" >"$logs/power_plain_$b.txt" 2>&1
    # p2's pass gets what is left; p5's half of it.
    local budget=$(($(left) - 40))
    [ $b = p5 ] && budget=$((budget / 2))
    "$caliber" compare "$work/pa" "$work/$b" --calibration none --allow-mismatch selftest_delay \
      --confirm --confirm-deadline-s "$budget" -o "$work/confirm_$b" 2>&1 |
      grep -v "CUDA Graph is empty" >"$logs/power_confirm_$b.txt"
    grep -E "rows:|confirmation|FAST|SLOW" "$logs/power_confirm_$b.txt" | head -8
  done
  (cd "$work" && find . -maxdepth 4 \( -name results.jsonl -o -name run_identity.json \
    -o -name ops_status.csv -o -name 'compare.*' -o -name confirmations.jsonl \) -print0 |
    tar -czf "$final/power14.tgz" --null -T -)
}

case ${1:-} in
  call1)
    build
    rm -rf "${screens:?}/$name"
    batch "$name" $(($(left) - 45))
    pack_screen "$name"
    finish "$1" ;;
  resume)
    [ -n "${CALIBER_BUILD:-}" ] && build
    batch "$name" $(($(left) - 45))
    pack_screen "$name"
    finish "$1" ;;
  power)
    [ -n "${CALIBER_BUILD:-}" ] && build
    power
    finish "$1" ;;
  *)
    echo "usage: $0 call1|resume|power" >&2
    exit 2 ;;
esac
