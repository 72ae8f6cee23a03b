#!/usr/bin/env bash
# The twenty-third session's device calls on one H200 (issue 19). They ran on the tree of 2fcf694,
# which made --graph-upload 1 and --min-time 0.002 the defaults as a trial (back to off and 5 ms in
# 2d46e46, docs/results.md); the stages name every flag, so they measure the same on any tree.
# `pick` screens the old defaults against upload with the 2 ms floor and against upload alone,
# A B C on one machine. The twenty-second session found every graph but the first timed at its
# first launch, 0.8-3.8% slower under 100 us (docs/measurement.md).
#   DEADLINE_S=590 bash bench/session23.sh pick    # build; corpus321-first160.txt three times:
#                                                  # s1 the defaults (--graph-upload 0
#                                                  # --min-time 0.005), u3 --graph-upload 1
#                                                  # --min-time 0.002, u2 --graph-upload 1
#                                                  # --min-time 0.005; first replays; s1 against
#                                                  # u2 plain, s1 against u3 with --confirm
#   DEADLINE_S=590 bash bench/session23.sh up      # (the twenty-second session's plan) s1, u2
#                                                  # --graph-upload 1, s2 as s1, all at 5 ms
#   DEADLINE_S=590 bash bench/session23.sh floor   # u3: --graph-upload 1 --min-time 0.002
#   DEADLINE_S=590 WC_FLAGS="..." bash bench/session23.sh wc   # the whole corpus with WC_FLAGS
#   DEADLINE_S=590 WC_FLAGS="..." bash bench/session23.sh resume
# What to read: upload should bring round 1 of graphs 2..G to the first graph's (g2..G/g1 near
# 1.000 in every bucket), and stop the captures growing for their first launches under the 2 ms
# floor (capture seconds of u3 near u2's); s1 against u3 after --confirm within 0.5%.
# Each stage builds only when the warm machine has no build (CALIBER_SKIP_BUILD=1 skips it).
set -uo pipefail
source "$(dirname "$0")/screen_calls.sh"

first160=(--ops-file "$here/bench/screen_ops/corpus321-first160.txt")
# Warming each graph and the 2 ms floor became defaults in the twenty-fourth session: every screen
# here names its warming and its floor, so that it measures what it measured then.
upload=(--graph-upload 1 --graph-warm-each 0)
old_defaults=(--graph-upload 0 --min-time 0.005 --graph-warm-each 0)

case ${1:-} in
  pick)
    build_once
    rm -rf "${screens:?}"/s1 "$screens"/u2 "$screens"/u3 "$screens"/cmp_*
    batch s1 $(($(left) - 20)) "${first160[@]}" "${old_defaults[@]}"
    batch u3 $(($(left) - 20)) "${first160[@]}" "${upload[@]}" --min-time 0.002
    batch u2 $(($(left) - 20)) "${first160[@]}" "${upload[@]}" --min-time 0.005
    first_replays s1 u2 u3
    judge s1 u2 0 --allow-mismatch graph_upload
    judge s1 u3 $(($(left) - 40)) --allow-mismatch graph_upload
    pack_checks pick-s1-u3-u2.tgz s1 u3 u2
    finish "$1" ;;
  up)
    build_once
    rm -rf "${screens:?}"/s1 "$screens"/u2 "$screens"/s2 "$screens"/u3 "$screens"/cmp_*
    batch s1 $(($(left) - 20)) "${first160[@]}" "${old_defaults[@]}"
    batch u2 $(($(left) - 20)) "${first160[@]}" "${upload[@]}" --min-time 0.005
    batch s2 $(($(left) - 20)) "${first160[@]}" "${old_defaults[@]}"
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
    whole_corpus
    finish "$1" ;;
  *)
    echo "usage: $0 pick|up|floor|wc|resume" >&2
    exit 2 ;;
esac
