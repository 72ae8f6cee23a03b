#!/usr/bin/env bash
# Issue 19 on one GPU with today's defaults (--graph-warm-each 1, the 2 ms floor): the whole
# corpus in one uninterrupted batch, and power (a 5% and a 2% self-test delay) on power17.txt.
# A call lasts at most 600 s, so the whole corpus runs in its own process session (setsid): it
# goes on between calls while the machine is held, and its wall is one batch's, not a sum of cut
# and resumed parts. Chain the calls within the machine's 30 s idle window.
#   DEADLINE_S=590 bash bench/session25.sh wc_start  # build; start runs/device/wc in the
#                                                    # background; wait for it until the deadline
#   DEADLINE_S=590 CALIBER_SKIP_BUILD=1 bash bench/session25.sh wc_wait
#                                                    # wait again; once it has finished, pack it,
#                                                    # then power if 260 s are left
#   DEADLINE_S=330 CALIBER_SKIP_BUILD=1 bash bench/session25.sh power
#   DEADLINE_S=585 bash bench/session25.sh power_c321  # build; power; then the 321-op corpus
#                                                      # (corpus321.txt) as c321 until the deadline
#   DEADLINE_S=300 CALIBER_SKIP_BUILD=1 bash bench/session25.sh c321  # c321 again (it resumes)
#   DEADLINE_S=590 bash bench/session25.sh power_wc  # build; power with each --confirm cut at
#                                                    # CONFIRM_S (90); then wc_start's batch
#   DEADLINE_S=590 bash bench/session25.sh auto  # power_wc on an H200, states on another card
#   DEADLINE_S=400 bash bench/session25.sh states  # build; power17 twice (sa, sb), clocks logged every
#                                                  # 10 ms, then with --warmup-ms 50 (qw) and with
#                                                  # the earlier defaults (qo): is the H100's slow
#                                                  # state a clock, and does a longer warmup end it?
#                                                  # Then power at 5% warmed 50 ms (qw against q5w).
# What to read: wc_done.txt (rc and the batch's wall), profile_wc.txt (per-case phases), power's
# SLOW share of graph rows of 10 us or more after --confirm (>= 95% at 5%, >= 50% at 2%).
set -uo pipefail
source "$(dirname "$0")/screen_calls.sh"
ops=$here/bench/screen_ops
done_file=$screens/wc_done.txt

wc_start() {
  rm -rf "${screens:?}"/wc "$done_file" "$screens"/wc_batch.txt
  mkdir -p "$screens"
  say "batch wc in the background (default flags)"
  setsid bash -c 't0=$(date +%s%N); "$0" batch --devices 0 --no-progress --out "$1/wc" \
      >"$1/wc_batch.txt" 2>&1; rc=$?
    echo "wc rc=$rc wall=$((($(date +%s%N) - t0) / 1000000)) ms" >"$2"' \
    "$caliber" "$screens" "$done_file" </dev/null >/dev/null 2>&1 &
}

wc_wait() {  # until the batch has finished or 45 s before the deadline; true once finished
  while [ ! -f "$done_file" ] && [ "$(left)" -gt 45 ]; do sleep 5; done
  [ -f "$screens/wc/ops_status.csv" ] &&
    echo "ops ok so far: $(grep -c ',ok,' "$screens/wc/ops_status.csv")"
  [ -f "$done_file" ] || { say "wc still running"; return 1; }
  tee -a "$logs/walls.txt" <"$done_file"
  cp "$screens/wc_batch.txt" "$logs/" 2>/dev/null
  pack_screen wc
}

# capped SECONDS: SECONDS, or CONFIRM_S when that is set and smaller.
capped() {
  if [ -n "${CONFIRM_S:-}" ] && [ "$1" -gt "$CONFIRM_S" ]; then echo "$CONFIRM_S"; else echo "$1"; fi
}

power() {
  rm -rf "${screens:?}"/qa "$screens"/q5 "$screens"/q2 "$screens"/cmp_* "$screens"/power_done
  batch qa 60 --ops-file "$ops/power17.txt"
  batch q5 60 --ops-file "$ops/power17.txt" --selftest-delay 0.05
  batch q2 60 --ops-file "$ops/power17.txt" --selftest-delay 0.02
  judge qa q5 "$(capped $((($(left) - 40) / 2)))" --allow-mismatch selftest_delay
  judge qa q2 "$(capped $(($(left) - 30)))" --allow-mismatch selftest_delay
  pack_checks power.tgz qa q5 q2
  touch "$screens/power_done"
}

# states: the twenty-sixth session's H100 read rows in a state 15% slower that ends after some
# milliseconds of load (docs/results.md); nvidia-smi's own log of the clocks, power and event
# reasons beside the screens tells whether a clock moves with it.
states() {
  rm -rf "${screens:?}"/sa "$screens"/sb "$screens"/qw "$screens"/qo
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,\
clocks_event_reasons.active --format=csv -lms 10 >"$logs/clocks.csv" 2>&1 &
  local smi=$!
  batch sa 60 --ops-file "$ops/power17.txt"
  batch sb 60 --ops-file "$ops/power17.txt"
  batch qw 60 --ops-file "$ops/power17.txt" --warmup-ms 50
  batch qo 60 --ops-file "$ops/power17.txt" --graph-warm-each 0 --min-time 0.005
  kill "$smi"
  judge sa sb 0
  judge sa qw 0  # warmup_ms is not a gated field
  # power once the warmup outlasts the slow state: the 5% delay against qw, both warmed 50 ms
  batch q5w 60 --ops-file "$ops/power17.txt" --warmup-ms 50 --selftest-delay 0.05
  judge qw q5w 0 --allow-mismatch selftest_delay
  pack_checks states.tgz sa sb qw qo q5w
}

c321() {  # the 321-op corpus with the default flags until 25 s before the deadline
  batch c321 $(($(left) - 25)) --ops-file "$ops/corpus321.txt"
  pack_screen c321
}

case ${1:-} in
  wc_start)
    build_once
    wc_start
    wc_wait
    finish "$1" ;;
  wc_wait)
    wc_wait && [ ! -f "$screens/power_done" ] && [ "$(left)" -gt 260 ] && power
    finish "$1" ;;
  power)
    build_once
    power
    finish "$1" ;;
  power_wc)
    nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu \
      --format=csv | tee "$logs/gpu.txt"
    build_once
    CONFIRM_S=${CONFIRM_S:-90} power
    wc_start
    wc_wait
    finish "$1" ;;
  states)
    build_once
    states
    finish "$1" ;;
  auto)  # power_wc on an H200, states on any other card
    name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
    say "card: $name"
    if [[ $name == *H200* ]]; then exec bash "$0" power_wc; fi
    build_once
    states
    finish states ;;
  power_c321)
    build_once
    power
    rm -rf "${screens:?}"/c321
    c321
    finish "$1" ;;
  c321)
    build_once
    c321
    finish "$1" ;;
  *)
    echo "usage: $0 wc_start|wc_wait|power|power_wc|auto|states|power_c321|c321" >&2
    exit 2 ;;
esac
