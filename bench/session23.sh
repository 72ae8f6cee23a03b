#!/usr/bin/env bash
# Prepared for the next session's device calls on one H200 (issue 19): `--graph-upload 1` (each
# graph uploaded as it is captured) against the default on one machine, A B A, then the 2 ms
# floor on top of it. The twenty-second session found every graph but the first timed at its
# first launch, 0.8-3.8% slower under 100 us (docs/measurement.md, Sampling policy).
#   DEADLINE_S=590 bash bench/session23.sh up      # build; corpus321-first160.txt three times:
#                                                  # s1 defaults, u2 --graph-upload 1, s2 as s1;
#                                                  # plain comparisons s1-s2, s1-u2; the first
#                                                  # replays of each (bench/first_replays.py)
#   DEADLINE_S=590 bash bench/session23.sh floor   # u3: --graph-upload 1 --min-time 0.002;
#                                                  # u2 against u3 plain, then --confirm in what
#                                                  # is left (the screens of `up` stay on the
#                                                  # warm machine)
#   DEADLINE_S=590 WC_FLAGS="..." bash bench/session23.sh wc   # the whole corpus with WC_FLAGS
#   DEADLINE_S=590 WC_FLAGS="..." bash bench/session23.sh resume
# What to read: upload should bring round 1 of graphs 2..G to the first graph's (g2..G/g1 near
# 1.000 in every bucket), leave s1-u2 as close as s1-s2 from 1 ms on, and stop the captures
# growing for their first launches under the 2 ms floor (capture seconds of u3 near u2's).
# Each stage builds only when the warm machine has no build (CALIBER_SKIP_BUILD=1 skips it).
set -uo pipefail
source "$(dirname "$0")/screen_calls.sh"

first160=(--ops-file "$here/bench/screen_ops/corpus321-first160.txt")
upload=(--graph-upload 1)

first_replays() {  # first_replays SCREEN...: bench/first_replays.py into the logs
  (cd "$screens" && python3 "$here/bench/first_replays.py" "$@") | tee "$logs/first_replays.txt"
}

case ${1:-} in
  up)
    build_once
    rm -rf "${screens:?}"/s1 "$screens"/u2 "$screens"/s2 "$screens"/u3 "$screens"/cmp_*
    batch s1 $(($(left) - 20)) "${first160[@]}"
    batch u2 $(($(left) - 20)) "${first160[@]}" "${upload[@]}"
    batch s2 $(($(left) - 20)) "${first160[@]}"
    judge s1 s2 0
    judge s1 u2 0 --allow-mismatch graph_upload
    first_replays s1 u2 s2
    pack_checks up-s1-u2-s2.tgz s1 u2 s2
    finish "$1" ;;
  floor)
    build_once
    rm -rf "${screens:?}"/u3 "$screens"/cmp_*u3
    batch u3 $(($(left) - 20)) "${first160[@]}" "${upload[@]}" --min-time 0.002
    first_replays u2 u3
    judge u2 u3 $(($(left) - 40))
    pack_checks floor-u3.tgz u3
    finish "$1" ;;
  wc | resume)
    [ "$1" = wc ] && { build_once; rm -rf "${screens:?}"/wc; }
    # shellcheck disable=SC2086  # WC_FLAGS is a list of flags
    batch wc $(($(left) - 25)) ${WC_FLAGS:-}
    pack_screen wc
    finish "$1" ;;
  *)
    echo "usage: $0 up|floor|wc|resume" >&2
    exit 2 ;;
esac
