#!/usr/bin/env bash
# The twenty-first session's device calls on one H200 (issue 19): the adaptive policy's default
# warmup of 2 ms (5 ms before) against 5 ms on one machine, then the whole corpus on it.
#   DEADLINE_S=590 bash bench/session21.sh aa       # build; bench/screen_ops/corpus321-first160.txt
#                                                   # three times, A B A: s1 with the old warmup
#                                                   # (--policy adaptive --warmup-ms 5), w2 with the
#                                                   # defaults, s2 as s1; plain comparisons of s1
#                                                   # against s2 (A/A) and w2 (A/B)
#   DEADLINE_S=590 bash bench/session21.sh wc       # the whole corpus (wc) until the deadline
#   DEADLINE_S=590 bash bench/session21.sh resume   # wc again, the same command (it resumes);
#                                                   # then s1 against w2 with --confirm in what
#                                                   # time is left
# Each stage builds only when the warm machine has no build (CALIBER_SKIP_BUILD=1 skips it).
set -uo pipefail
source "$(dirname "$0")/screen_calls.sh"

first160=(--ops-file "$here/bench/screen_ops/corpus321-first160.txt")
old_warmup=(--policy adaptive --warmup-ms 5)

case ${1:-} in
  aa)
    build_once
    rm -rf "${screens:?}"/s1 "$screens"/w2 "$screens"/s2 "$screens"/cmp_*
    batch s1 $(($(left) - 20)) "${first160[@]}" "${old_warmup[@]}"
    batch w2 $(($(left) - 20)) "${first160[@]}"
    batch s2 $(($(left) - 20)) "${first160[@]}" "${old_warmup[@]}"
    judge s1 s2 0
    judge s1 w2 0
    for n in s1 w2 s2; do pack_screen "$n" >/dev/null; done
    pack_checks aa-s1-w2-s2.tgz s1 w2 s2
    finish "$1" ;;
  wc)
    build_once
    rm -rf "${screens:?}"/wc
    whole_corpus
    finish "$1" ;;
  resume)
    whole_corpus
    if batch_done wc && [ "$(left)" -gt 90 ]; then
      judge s1 w2 $(($(left) - 40))
      pack_checks confirm-s1-w2.tgz
    fi
    finish "$1" ;;
  *)
    echo "usage: $0 aa|wc|resume" >&2
    exit 2 ;;
esac
