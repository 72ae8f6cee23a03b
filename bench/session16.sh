#!/usr/bin/env bash
# The sixteenth session's device calls on one H200 (issue 19): the default flags of the tree
# after the fifteenth session's speed levers (df68c83), judged as a CI would. Calls after the
# first need its build and screens on a machine still warm.
#   DEADLINE_S=585 bash bench/session16.sh call1  # build; c321a: bench/screen_ops/corpus321.txt
#                                                 # with caliber batch's default flags; then pa,
#                                                 # p5, p2: power14.txt plain, --selftest-delay
#                                                 # 0.05 and 0.02
#   DEADLINE_S=590 bash bench/session16.sh call2  # c321a finished if cut; c321b, the same screen
#                                                 # again; compare c321a c321b, plain and --confirm
#                                                 # (A/A) in what is left
#   DEADLINE_S=580 bash bench/session16.sh call3  # the A/A pass resumed from its journal if it was
#                                                 # cut (CONFIRM_AA_S); pa against p5 and p2, plain
#                                                 # and --confirm (power); then fx: confirm16.txt
#                                                 # with --isolation op --policy fixed, judged
#                                                 # plainly against c321a, if time is left
#   DEADLINE_S=288 bash bench/session16.sh call4  # a fresh machine: build; isolation8.txt with the
#                                                 # defaults (wa), --isolation op (oa), --policy
#                                                 # fixed (wf) and both (of); wa against each
set -uo pipefail
source "$(dirname "$0")/screen_calls.sh"
ops=$here/bench/screen_ops

case ${1:-} in
  call1)
    build
    rm -rf "${screens:?}"/c321a "$screens"/c321b "$screens"/pa "$screens"/p5 "$screens"/p2 \
      "$screens"/fx "$screens"/cmp_*
    batch c321a $(($(left) - 130)) --ops-file "$ops/corpus321.txt"
    batch pa $(($(left) - 90)) --ops-file "$ops/power14.txt"
    batch p5 $(($(left) - 65)) --ops-file "$ops/power14.txt" --selftest-delay 0.05
    batch p2 $(($(left) - 40)) --ops-file "$ops/power14.txt" --selftest-delay 0.02
    pack_screen c321a
    pack_checks power.tgz pa p5 p2
    finish "$1" ;;
  call2)
    batch_done c321a || batch c321a $(($(left) - 400)) --ops-file "$ops/corpus321.txt"
    batch c321b $(($(left) - 100)) --ops-file "$ops/corpus321.txt"
    pack_screen c321a
    pack_screen c321b
    judge c321a c321b $(($(left) - 40))
    pack_checks aa.tgz
    finish "$1" ;;
  call3)
    # The pass goes on from its journal (compare's --confirm), the same command.
    if [ -d "$screens/cmp_confirm_c321a-c321b" ] &&
      ! grep -q '"complete": true' "$screens"/cmp_confirm_c321a-c321b/compare.json 2>/dev/null; then
      judge c321a c321b "${CONFIRM_AA_S:-120}"
    fi
    judge pa p5 $((($(left) - ${FX_S:-150}) / 2)) --allow-mismatch selftest_delay
    judge pa p2 $(($(left) - ${FX_S:-150} - 30)) --allow-mismatch selftest_delay
    if [ "$(left)" -gt 60 ]; then
      batch fx $(($(left) - 30)) --ops-file "$ops/confirm16.txt" --isolation op --policy fixed
      judge c321a fx 0 --allow-mismatch policy
    fi
    pack_checks checks.tgz pa p5 p2 fx
    finish "$1" ;;
  call4)
    # A fresh machine: the isolation's share and the policy's in what call 3's fx showed, each
    # screen of isolation8.txt on this one device, judged plainly against the defaults (wa).
    build
    rm -rf "${screens:?}"/wa "$screens"/oa "$screens"/wf "$screens"/of "$screens"/cmp_*
    batch wa 15 --ops-file "$ops/isolation8.txt"
    batch oa 28 --ops-file "$ops/isolation8.txt" --isolation op
    batch wf 22 --ops-file "$ops/isolation8.txt" --policy fixed
    batch of $(($(left) - 12)) --ops-file "$ops/isolation8.txt" --isolation op --policy fixed
    judge wa oa 0
    judge wa wf 0 --allow-mismatch policy
    judge wa of 0 --allow-mismatch policy
    pack_checks isolation.tgz wa oa wf of
    finish "$1" ;;
  *)
    echo "usage: $0 call1|call2|call3|call4" >&2
    exit 2 ;;
esac
