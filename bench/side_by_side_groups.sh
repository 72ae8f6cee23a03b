#!/usr/bin/env bash
# Several bench/flaggems_compare.sh groups in one device call (issue 16's side-by-side of the new
# ops): every group's caliber part first (the build is paid once, by the first), then every
# group's FlagGems part, each part packed into $OUT/<group>-<part>.tgz as it ends, so that a call
# cut short still brings back what finished (at most 8 files come back: up to 3 groups).
#
#   SBS_GROUPS="float16:silu_and_mul,dgeglu bfloat16:mrope,router_gemm" DEADLINE_S=575 \
#     bash bench/side_by_side_groups.sh
#
# A group is DTYPES:OPS (DTYPES as flaggems_compare.sh's: one dtype, or `all` for each op's own;
# FlagGems refuses a list holding a dtype one of its tests lacks). The caliber parts share the
# time left after FLAGGEMS_S per group (default 90), in proportion to their op counts; the first
# also pays the build (BUILD_S, default 170). On an H100 in the thirty-third session the build
# took 144 s after 20 s of configure, caliber's ops 12-68 s each at one dtype (the first pays
# FlagGems' import), and a FlagGems process of 12 files did not end in 34 s (one of 1 file took
# 18 s). A part left less than 70 s is skipped and says so. Here, afterwards: unpack each tgz,
# then `caliber summary` and bench/flaggems_table.py as docs/flaggems.md says.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$here/bench/out}
deadline=${DEADLINE_S:-575}
fg_s=${FLAGGEMS_S:-90}
build_s=${BUILD_S:-170}
start=$(date +%s)
work=$(mktemp -d)
mkdir -p "$OUT"
elapsed() { echo $(($(date +%s) - start)); }
say() { echo "== $* (at $(elapsed) s)" | tee -a "$OUT/groups.log"; }

read -r -a groups <<<"${SBS_GROUPS:?SBS_GROUPS=\"DTYPES:OPS ...\" names the groups}"
if [ "${#groups[@]}" -gt 3 ]; then
  echo "SBS_GROUPS: ${#groups[@]} groups, at most 3 fit a call's 8 files" >&2
  exit 2
fi
count() { tr , '\n' <<<"${1#*:}" | grep -c .; }
total=0
for g in "${groups[@]}"; do
  [[ $g == *:* ]] || { echo "SBS_GROUPS: '$g' is not DTYPES:OPS" >&2; exit 2; }
  total=$((total + $(count "$g")))
done
[ -d "$here/third_party_fetched/FlagGems/src" ] ||
  tar -xzf "$here/third_party_fetched/flaggems.tgz" -C "$here/third_party_fetched" || exit 1

part() {  # part N GROUP PART BUDGET
  local n=$1 g=$2 p=$3 budget=$4
  say "group $n ${p}: ${g%%:*} $(count "$g") ops, budget $budget s"
  if [ "$budget" -lt 70 ]; then
    echo "group $n $p skipped: $budget s is too little" | tee -a "$OUT/groups.log"
    return
  fi
  OUT=$work/$n-$p PART=$p DTYPES=${g%%:*} OPS=${g#*:} CALIBER_VALIDATE_BUDGET_S=$budget \
    bash "$here/bench/flaggems_compare.sh" >>"$OUT/groups.log" 2>&1
  echo "group $n $p exit $?" | tee -a "$OUT/groups.log"
  tar -czf "$OUT/$n-$p.tgz" -C "$work" "$n-$p"
}

left_ops=$total
n=0
for g in "${groups[@]}"; do
  n=$((n + 1))
  avail=$((deadline - fg_s * ${#groups[@]} - $(elapsed)))
  extra=0
  [ "$n" = 1 ] && extra=$build_s && avail=$((avail - build_s))
  part "$n" "$g" caliber $((extra + avail * $(count "$g") / left_ops))
  left_ops=$((left_ops - $(count "$g")))
done
n=0
for g in "${groups[@]}"; do
  n=$((n + 1))
  part "$n" "$g" flaggems $(((deadline - 5 - $(elapsed)) / (${#groups[@]} - n + 1)))
done
say "done"
