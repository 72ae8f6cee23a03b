#!/usr/bin/env bash
# Issue 16's `--candidate python:flag_gems` screen of every corpus op that answers a mark of
# FlagGems' benchmark (bench/screen_ops/flaggems-marked.txt, 1,005 ops), in pieces that fit the
# device's calls. Piece K is the list's ops K*PIECE_OPS+1 to (K+1)*PIECE_OPS (default 120, so
# pieces 0 to 8), every dtype of each op at level core, screened as one batch with a warm pass of
# 8 lanes into runs/device/fgc_K; then, when MODE=kernel, FlagGems' --mode kernel (do_bench's
# caliber) into runs/device/fgk_K on the same caches. A call cut at its deadline is resumed by the
# same command on the warm machine (the batch and its warm pass both resume); a fresh machine
# starts the piece again. bench/candidate_speedups.py reads the pieces together (fgc_0,fgc_1,...).
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
# One cache folder for every piece on this machine: Triton's kernels and FlagGems' tuned configs
# carry over from piece to piece, as they would in one long screen.
if [ "${MODE:-graph}" = kernel ]; then
  name=fgk_$piece
  flaggems_batch "$name" fgc $(($(left) - 30)) --ops "$ops" --mode kernel
else
  name=fgc_$piece
  flaggems_batch "$name" fgc $(($(left) - 30)) --ops "$ops" --warm-pass 8
fi
pack_screen "$name" | head -12
pack_warm_pass "$name"
finish "$name"
