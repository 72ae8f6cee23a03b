#!/usr/bin/env bash
# The twentieth session's device calls on one H200: the whole corpus with default flags on the
# current build (issue 19), then the warm pass with FlagGems (issue 16).
#   DEADLINE_S=590 bash bench/session20.sh wc       # build; the whole corpus (wc) until the
#                                                   # deadline
#   DEADLINE_S=590 bash bench/session20.sh resume   # wc again, the same command (it resumes)
#   run(command="DEADLINE_S=... bash bench/session20.sh warm",
#       carry=["third_party_fetched/flaggems.tgz", ".whl"])
#                                                   # FlagGems from the carried archive; WARM_OPS
#                                                   # screened with python:flag_gems twice, each
#                                                   # with empty caches of its own: without a warm
#                                                   # pass (fg_cold), then with --warm-pass 8
#                                                   # (fg_warm), then at FlagGems' --mode kernel
#                                                   # on fg_warm's caches (fg_direct)
# Each stage builds only when the warm machine has no build (CALIBER_SKIP_BUILD=1 skips it).
set -uo pipefail
source "$(dirname "$0")/screen_calls.sh"

# The eighteenth session's ops less silu_and_mul (26.7 s of cases with both caches warm).
warm_ops=${WARM_OPS:-abs,softmax,mm,layer_norm,sum,add,mul,exp,gelu,rms_norm,cumsum,argmax,log_softmax,bmm,addmm,max,where}

case ${1:-} in
  wc)
    build_once
    rm -rf "${screens:?}"/wc
    whole_corpus
    finish "$1" ;;
  resume)
    whole_corpus
    finish "$1" ;;
  warm)
    build_once
    flaggems_setup || exit 1
    third=$((($(left) - 60) / 3))
    rm -rf "${screens:?}"/fg_cold "$screens"/fg_warm "$screens"/fg_direct
    fg=(--ops "$warm_ops" --dtypes float16)
    flaggems_batch fg_cold fg_cold $((3 * third / 2)) "${fg[@]}"
    flaggems_batch fg_warm fg_warm "$third" "${fg[@]}" --warm-pass 8
    # do_bench's caliber (FlagGems' --mode kernel) on fg_warm's caches: every kernel compiled.
    flaggems_batch fg_direct fg_warm $(($(left) - 40)) "${fg[@]}" --mode kernel
    for n in fg_cold fg_warm fg_direct; do pack_screen "$n" >/dev/null; done
    pack_warm_pass fg_warm
    finish "$1" ;;
  *)
    echo "usage: $0 wc|resume|warm" >&2
    exit 2 ;;
esac
