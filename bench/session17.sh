#!/usr/bin/env bash
# The seventeenth session's device calls on one H200 (issue 19). Calls after the first need its
# build and screens on a machine still warm.
#   DEADLINE_S=590 bash bench/session17.sh call1  # build; qa, q5, q2: power17.txt plain,
#                                                 # --selftest-delay 0.05 and 0.02, each judged
#                                                 # against qa, plain and --confirm (power under
#                                                 # 56d1db6's rule); then the whole corpus (wc)
#                                                 # with the default flags until the deadline
#   DEADLINE_S=590 bash bench/session17.sh resume # wc again, the same command (it resumes)
#   DEADLINE_S=330 bash bench/session17.sh rest   # a fresh machine (the warm one was given back
#                                                 # after call 2, with wc on it): build, then the
#                                                 # 109 ops wc had not finished as wc_rest
set -uo pipefail
source "$(dirname "$0")/screen_calls.sh"
ops=$here/bench/screen_ops

whole_corpus() {  # whole_corpus: wc until 25 s before the deadline, then packed
  batch wc $(($(left) - 25))
  pack_screen wc
}

case ${1:-} in
  call1)
    build
    rm -rf "${screens:?}"/qa "$screens"/q5 "$screens"/q2 "$screens"/wc "$screens"/cmp_*
    batch qa 40 --ops-file "$ops/power17.txt"
    batch q5 40 --ops-file "$ops/power17.txt" --selftest-delay 0.05
    batch q2 40 --ops-file "$ops/power17.txt" --selftest-delay 0.02
    judge qa q5 130 --allow-mismatch selftest_delay
    judge qa q2 130 --allow-mismatch selftest_delay
    pack_checks power.tgz qa q5 q2
    whole_corpus
    finish "$1" ;;
  resume)
    whole_corpus
    finish "$1" ;;
  rest)
    build
    batch wc_rest $(($(left) - 25)) --ops-file "$ops/wc17-rest109.txt"
    pack_screen wc_rest
    finish "$1" ;;
  *)
    echo "usage: $0 call1|resume|rest" >&2
    exit 2 ;;
esac
