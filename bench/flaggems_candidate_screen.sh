#!/usr/bin/env bash
# Issue 16's `--candidate python:flag_gems` screen of every corpus op that answers a mark of
# FlagGems' benchmark (bench/screen_ops/flaggems-marked.txt, 1,005 ops), in pieces that fit the
# device's calls. Piece K is the list's ops K*PIECE_OPS+1 to (K+1)*PIECE_OPS (default 120, so
# pieces 0 to 8), every dtype of each op at level core, screened as one batch into
# runs/device/fgc_K; then, when MODE=kernel, FlagGems' --mode kernel (do_bench's caliber) into
# runs/device/fgk_K on the same caches. WARM_PASS=N first runs the batch's warm pass of N lanes
# (default none: on an H100 in the twenty-eighth session piece 0's warm pass of 8 lanes used
# 2,715 s of lane time and had not ended after 386 s, held by addmv's and addbmm's tuning).
# A piece outlives its machine: each call brings back the piece's whole directory
# (NAME-state.tgz, samples and markers included); committed under bench/results/issue16/, it
# travels with the tree, and STATE=that file makes a fresh machine resume from it (the compiled
# kernels and tuned configs are lost with the machine, so only their first calls are paid
# again). A state from another GPU model is refused (exit 2): one screen, one model; leave STATE
# out to start the piece afresh. A call cut at its deadline on a warm machine is resumed by the
# same command without STATE.
# bench/candidate_speedups.py reads the pieces together (fgc_0,fgc_1,...).
# The carry, made here first (git-ignored; `fetch` github:flagos-ai/FlagGems gives the mirror):
#   bash bench/prepare_flaggems.sh
#   tar -czf third_party_fetched/flaggems.tgz -C third_party_fetched FlagGems/src FlagGems/COMMIT
#   (add FlagGems/benchmark FlagGems/pytest.ini FlagGems/pyproject.toml, 0.3 MB more, and the same
#   carry serves bench/flaggems_compare.sh after a `tar -xzf` of it into third_party_fetched)
#   run(command="DEADLINE_S=590 PIECE=0 bash bench/flaggems_candidate_screen.sh",
#       carry=["third_party_fetched/flaggems.tgz", ".whl"])
#   run(command="DEADLINE_S=590 CALIBER_SKIP_BUILD=1 PIECE=0 MODE=kernel bash ...", carry=[...])
#   run(command="DEADLINE_S=400 PIECE=all ONLY_OPS=a,b NAME=fgc_r37 bash ...") rechecks ops of
#   several pieces after a fix
#   the piece's ops listed in bench/screen_ops/flaggems-slow.txt (addmv's family in piece 0,
#   whose tuning outlives the scaled timeout; conv1d_padding in piece 1), alone:
#   run(command="DEADLINE_S=590 PIECE=0 SLOW=1 bash ...")
set -uo pipefail
source "$(dirname "$0")/screen_calls.sh"

piece=${PIECE:?PIECE=K names the piece (0-based)}
size=${PIECE_OPS:-120}
list=$here/bench/screen_ops/flaggems-marked.txt
# SKIP_OPS=a,b leaves those ops of the piece for another call (ops whose first FlagGems call
# outlives the op timeout would spend a call's minutes on their retries). The ops listed in
# bench/screen_ops/flaggems-slow.txt are left out always; SLOW=1 runs the piece's listed ops
# alone (as ONLY_OPS with their listed TIMEOUT_S).
# ONLY_OPS=a,b runs just those ops of the piece, in a directory of their own (fgc_Kx), with
# TIMEOUT_S=N as their fixed per-op timeout when given: the ops SKIP_OPS left out, with the time
# their first calls need.
slow_list=$here/bench/screen_ops/flaggems-slow.txt
slow_ops=$(grep -v '^#' "$slow_list" | awk 'NF {print $1}')
# PIECE=all with ONLY_OPS=a,b picks ops from anywhere in the list, into fgc_allx (or NAME=dir):
# a recheck of ops from several pieces after a fix, read after the pieces (a later directory's
# op replaces an earlier one's in bench/candidate_speedups.py).
if [ "$piece" = all ]; then
  [ -n "${ONLY_OPS:-}" ] || { echo "PIECE=all needs ONLY_OPS=a,b" >&2; exit 2; }
  piece_ops=$(grep -v '^#' "$list")
else
  [[ $piece =~ ^[0-9]+$ ]] || { echo "PIECE=$piece: a piece number (0-based) or all" >&2; exit 2; }
  piece_ops=$(grep -v '^#' "$list" | sed -n "$((piece * size + 1)),$(((piece + 1) * size))p")
fi
if [ "${SLOW:-0}" = 1 ]; then
  [ -z "${ONLY_OPS:-}" ] || { echo "SLOW=1 and ONLY_OPS: name one of them" >&2; exit 2; }
  ONLY_OPS=$(grep -xF -f <(echo "$slow_ops") <<<"$piece_ops" | paste -sd,)
  [ -n "$ONLY_OPS" ] || { echo "piece $piece has no op listed in $slow_list" >&2; exit 2; }
  : "${TIMEOUT_S:=$(grep -v '^#' "$slow_list" | awk -v ops=",$ONLY_OPS," \
    'NF && index(ops, "," $1 ",") && $2 > t {t = $2} END {print t}')}"
  say "slow ops of piece $piece: $ONLY_OPS (timeout $TIMEOUT_S s)"
fi
left_out=$(printf '%s\n' "$slow_ops" $(tr , ' ' <<<"${SKIP_OPS:-}") | grep .)
ops=$(grep -vxF -f <(echo "$left_out") <<<"$piece_ops")
if [ -n "${ONLY_OPS:-}" ]; then
  missing=$(tr , '\n' <<<"$ONLY_OPS" | grep . | grep -vxF -f <(echo "$piece_ops"))
  [ -z "$missing" ] || { echo "ONLY_OPS: not in piece $piece: $(paste -sd, <<<"$missing")" >&2; exit 2; }
  ops=$(tr , '\n' <<<"$ONLY_OPS" | grep .)
fi
ops=$(paste -sd, <<<"$ops")
[ -n "$ops" ] || { echo "piece $piece of $size ops is past the list's end" >&2; exit 2; }

name=fgc_$piece
[ "${MODE:-graph}" = kernel ] && name=fgk_$piece
[ -n "${ONLY_OPS:-}" ] && name=${NAME:-${name}x}
if [ ! -d "$screens/$name" ] && [ -n "${STATE:-}" ]; then
  case $STATE in /*) ;; *) STATE=$here/$STATE ;; esac
  # The batch re-measures a lane's peaks on another model, but would mix two models' rows.
  model=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0)
  was=$(tar -xzOf "$STATE" "$name/device_peaks-0.json" | python3 -c \
    'import json, sys; print(json.load(sys.stdin)["device"])') || exit 2
  if [ "$was" != "$model" ]; then
    echo "STATE=$STATE ran on $was, this machine has $model: leave STATE out" >&2
    exit 2
  fi
  say "resume $name from $STATE ($was)"
  mkdir -p "$screens" && tar -xzf "$STATE" -C "$screens" || exit 1
fi
build_once
flaggems_setup || exit 1
extra=()
[ "${MODE:-graph}" = kernel ] && extra+=(--mode kernel)
[ "${WARM_PASS:-0}" -gt 0 ] && extra+=(--warm-pass "$WARM_PASS")
[ -n "${TIMEOUT_S:-}" ] && extra+=(--timeout-s "$TIMEOUT_S")
# One cache folder for every piece on this machine: Triton's kernels and FlagGems' tuned configs
# carry over from piece to piece, as they would in one long screen.
flaggems_batch "$name" fgc $(($(left) - 40)) --ops "$ops" "${extra[@]}"
pack_screen "$name" | head -12
pack_warm_pass "$name"
# The whole directory, for a fresh machine to resume from (the warm pass's lanes stay behind).
tar -czf "$final/$name-state.tgz" -C "$screens" --exclude="$name/warm" "$name"
ls -la "$final/$name-state.tgz"
finish "$name"
