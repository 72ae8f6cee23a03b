#!/usr/bin/env bash
# Prepared for the next session's device calls on one H200 (issue 19): --graph-warm-each 1 (each
# graph replayed once untimed before its timed replays) under the 2 ms floor, against the
# defaults, A B A on one machine. The twenty-third session found that a replay following another
# graph's reads up to 5% slower, and that one round a graph (the 2 ms floor) reads only such
# replays: 35 of 2,672 rows stayed apart from the 5 ms floor after --confirm (docs/results.md).
# A graph's warming replay is also its first launch, so no upload is asked for.
#   DEADLINE_S=590 bash bench/session24.sh warm   # build; corpus321-first160.txt three times:
#                                                 # s1 the defaults, w2 --graph-warm-each 1
#                                                 # --min-time 0.002, s2 as s1; first replays;
#                                                 # s1-s2 plain, s1-w2 plain then --confirm
#   DEADLINE_S=590 bash bench/session24.sh w5     # w5: --graph-warm-each 1 at the 5 ms floor;
#                                                 # s1-w5 plain then --confirm
#   DEADLINE_S=590 WC_FLAGS="..." bash bench/session24.sh wc   # the whole corpus with WC_FLAGS
#   DEADLINE_S=590 WC_FLAGS="..." bash bench/session24.sh resume
# What to read: g2..G/g1 near 1.000 in every bucket for w2 (no first launch, no switch timed), and
# switched_replays' first/next of w5 near its graph 1 control for grown rows too;
# s1-w2 after --confirm near the A/A's 0.19%, captures of w2 no more grown than s1's, and its
# batch wall near the twenty-third session's u3 (91.7 s against 98.7 s at 5 ms). If so, the
# whole corpus with WC_FLAGS="--graph-warm-each 1 --min-time 0.002" (about 850 s projected).
# Each stage builds only when the warm machine has no build (CALIBER_SKIP_BUILD=1 skips it).
set -uo pipefail
source "$(dirname "$0")/screen_calls.sh"

first160=(--ops-file "$here/bench/screen_ops/corpus321-first160.txt")
warm=(--graph-warm-each 1)

case ${1:-} in
  warm)
    build_once
    rm -rf "${screens:?}"/s1 "$screens"/w2 "$screens"/s2 "$screens"/cmp_*
    batch s1 $(($(left) - 20)) "${first160[@]}"
    batch w2 $(($(left) - 20)) "${first160[@]}" "${warm[@]}" --min-time 0.002
    batch s2 $(($(left) - 20)) "${first160[@]}"
    first_replays s1 w2 s2
    switched_replays s1 w2 s2
    judge s1 s2 0
    judge s1 w2 $(($(left) - 40)) --allow-mismatch graph_warm_each
    pack_checks warm-s1-w2-s2.tgz s1 w2 s2
    finish "$1" ;;
  w5)
    build_once
    rm -rf "${screens:?}"/w5 "$screens"/cmp_*w5
    batch w5 $(($(left) - 20)) "${first160[@]}" "${warm[@]}"
    first_replays s1 w5
    switched_replays s1 w5
    judge s1 w5 $(($(left) - 40)) --allow-mismatch graph_warm_each
    pack_checks w5.tgz w5
    finish "$1" ;;
  wc | resume)
    [ "$1" = wc ] && { build_once; rm -rf "${screens:?}"/wc; }
    whole_corpus
    finish "$1" ;;
  *)
    echo "usage: $0 warm|w5|wc|resume" >&2
    exit 2 ;;
esac
