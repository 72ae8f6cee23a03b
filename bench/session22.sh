#!/usr/bin/env bash
# The twenty-second session's device calls on one H200 (issue 19): the adaptive policy's time
# floor of 2 ms (one round of the 8 captures' 0.25 ms replays) against the default 5 ms on one
# machine, A B A, as bench/session21.sh did for the warmup. The session ran `mt`, then `judge s1
# m2 190` (--confirm) and the 321-op screen (bench/results/README.md). The 2 ms floor read rows
# under 100 us slower and was not kept (docs/results.md, twenty-second session); `wc`, `resume`
# and `jit` were not run.
#   DEADLINE_S=590 bash bench/session22.sh mt        # build; corpus321-first160.txt three times:
#                                                    # s1 --min-time 0.005, m2 --min-time 0.002,
#                                                    # s2 as s1; plain comparisons s1-s2, s1-m2
#   DEADLINE_S=590 bash bench/session22.sh confirm   # s1 against m2 with --confirm, on the warm
#                                                    # machine that ran mt (the screens stay there)
#   DEADLINE_S=590 bash bench/session22.sh wc        # the whole corpus (wc) until the deadline
#   DEADLINE_S=590 bash bench/session22.sh resume    # wc again, the same command (it resumes);
#                                                    # then s1 against m2 with --confirm, then
#                                                    # the jit stage, in what is left
#   DEADLINE_S=590 bash bench/session22.sh jit       # bench/screen_ops/first-call-compile24.txt
#                                                    # once more, after wc on this machine
# Each stage builds only when the warm machine has no build (CALIBER_SKIP_BUILD=1 skips it).
set -uo pipefail
source "$(dirname "$0")/screen_calls.sh"

first160=(--ops-file "$here/bench/screen_ops/corpus321-first160.txt")

second_compile_screen() {  # the first-call-compile ops again; their cold screen is inside wc
  batch jit $(($(left) - 20)) --ops-file "$here/bench/screen_ops/first-call-compile24.txt"
  pack_screen jit >/dev/null
}

case ${1:-} in
  mt)
    build_once
    rm -rf "${screens:?}"/s1 "$screens"/m2 "$screens"/s2 "$screens"/cmp_*
    batch s1 $(($(left) - 20)) "${first160[@]}" --min-time 0.005
    batch m2 $(($(left) - 20)) "${first160[@]}" --min-time 0.002
    batch s2 $(($(left) - 20)) "${first160[@]}" --min-time 0.005
    judge s1 s2 0
    judge s1 m2 0
    pack_checks mt-s1-m2-s2.tgz s1 m2 s2
    finish "$1" ;;
  confirm)
    build_once
    judge s1 m2 $(($(left) - 40))
    pack_checks confirm-s1-m2.tgz
    finish "$1" ;;
  wc)
    build_once
    rm -rf "${screens:?}"/wc "$screens"/jit
    whole_corpus
    finish "$1" ;;
  resume)
    whole_corpus
    if batch_done wc && [ -d "$screens/s1" ] && [ "$(left)" -gt 200 ]; then
      judge s1 m2 $(($(left) - 40))
      pack_checks confirm-s1-m2.tgz
    fi
    if batch_done wc && [ "$(left)" -gt 120 ]; then second_compile_screen; fi
    finish "$1" ;;
  jit)
    build_once
    second_compile_screen
    finish "$1" ;;
  *)
    echo "usage: $0 mt|confirm|wc|resume|jit" >&2
    exit 2 ;;
esac
