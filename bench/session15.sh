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
source "$(dirname "$0")/screen_calls.sh"

case ${1:-} in
  call1)
    build
    rm -rf "${screens:?}/wc"
    batch wc $(($(left) - 45))
    pack_screen wc
    finish "$1" ;;
  resume)
    [ -n "${CALIBER_BUILD:-}" ] && build
    batch wc $(($(left) - 45))
    pack_screen wc
    finish "$1" ;;
  checks)
    [ -n "${CALIBER_BUILD:-}" ] && build
    if ! batch_done wc; then
      batch wc $(($(left) - 300))
      pack_screen wc
    fi
    rm -rf "$screens/aa" "$screens/p5" "$screens/fx" "$screens"/cmp_*
    batch aa $(($(left) - 60)) --ops-file "$here/bench/screen_ops/aa71.txt"
    batch p5 $(($(left) - 60)) --ops-file "$here/bench/screen_ops/power14.txt" \
      --selftest-delay 0.05
    # The A/A pass first, half of what is left; the power pass then takes what remains but the
    # fixed screen's share.
    judge wc aa $((($(left) - 60) / 2))
    judge wc p5 $(($(left) - ${FX_S:-120} - 40)) --allow-mismatch selftest_delay
    if [ "$(left)" -gt 60 ]; then
      batch fx $(($(left) - 25)) --ops-file "$here/bench/screen_ops/aa71.txt" --isolation op \
        --policy fixed
      judge wc fx 0 --allow-mismatch policy
    fi
    pack_checks checks.tgz aa p5 fx
    finish "$1" ;;
  *)
    echo "usage: $0 call1|resume|checks" >&2
    exit 2 ;;
esac
