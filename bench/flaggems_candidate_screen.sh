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
# (NAME-state.tgz, samples and markers included); put it at runs/carry/NAME-state.tgz and name
# that file in the next call's carry, and a fresh machine resumes from it (the compiled kernels
# and tuned configs are lost with the machine, so only their first calls are paid again). A call
# cut at its deadline on a warm machine is resumed by the same command without the carry.
# bench/candidate_speedups.py reads the pieces together (fgc_0,fgc_1,...).
# The carry, made here first (git-ignored; `fetch` github:flagos-ai/FlagGems gives the mirror):
#   bash bench/prepare_flaggems.sh
#   tar -czf third_party_fetched/flaggems.tgz -C third_party_fetched FlagGems/src FlagGems/COMMIT
#   run(command="DEADLINE_S=590 PIECE=0 bash bench/flaggems_candidate_screen.sh",
#       carry=["third_party_fetched/flaggems.tgz", ".whl"])
#   run(command="DEADLINE_S=590 CALIBER_SKIP_BUILD=1 PIECE=0 MODE=kernel bash ...", carry=[...])
set -uo pipefail
source "$(dirname "$0")/screen_calls.sh"

piece=${PIECE:?PIECE=K names the piece (0-based)}
size=${PIECE_OPS:-120}
list=$here/bench/screen_ops/flaggems-marked.txt
ops=$(grep -v '^#' "$list" | sed -n "$((piece * size + 1)),$(((piece + 1) * size))p" | paste -sd,)
[ -n "$ops" ] || { echo "piece $piece of $size ops is past the list's end" >&2; exit 2; }

build_once
flaggems_setup || exit 1
name=fgc_$piece
[ "${MODE:-graph}" = kernel ] && name=fgk_$piece
carried=$here/runs/carry/$name-state.tgz
if [ ! -d "$screens/$name" ] && [ -f "$carried" ]; then
  say "resume $name from the carried $(basename "$carried")"
  mkdir -p "$screens" && tar -xzf "$carried" -C "$screens" || exit 1
fi
# One cache folder for every piece on this machine: Triton's kernels and FlagGems' tuned configs
# carry over from piece to piece, as they would in one long screen.
warm=()
[ "${WARM_PASS:-0}" -gt 0 ] && warm=(--warm-pass "$WARM_PASS")
if [ "${MODE:-graph}" = kernel ]; then
  flaggems_batch "$name" fgc $(($(left) - 40)) --ops "$ops" --mode kernel "${warm[@]}"
else
  flaggems_batch "$name" fgc $(($(left) - 40)) --ops "$ops" "${warm[@]}"
fi
pack_screen "$name" | head -12
pack_warm_pass "$name"
# The whole directory, for a fresh machine to resume from (the warm pass's lanes stay behind).
tar -czf "$final/$name-state.tgz" -C "$screens" --exclude="$name/warm" "$name"
ls -la "$final/$name-state.tgz"
finish "$name"
