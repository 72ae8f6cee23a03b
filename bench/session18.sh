#!/usr/bin/env bash
# The eighteenth session's device call on one H200 (issue 16): build, FlagGems from the carried
# archive, then bench/candidate_first_calls.sh on OPS until the deadline (what a python:flag_gems
# candidate's first calls cost, compiling against tuning). The runs' logs and identities come
# back, not their Triton and tuned-config caches.
#   bash bench/prepare_flaggems.sh
#   tar -czf third_party_fetched/flaggems.tgz -C third_party_fetched FlagGems/src FlagGems/COMMIT
#   run(command="DEADLINE_S=590 OPS=abs,softmax,mm bash bench/session18.sh",
#       carry=["third_party_fetched/flaggems.tgz", ".whl"])
set -uo pipefail
source "$(dirname "$0")/screen_calls.sh"

build
say "FlagGems from third_party_fetched/flaggems.tgz, sqlalchemy from .whl"
tar -xzf "$here/third_party_fetched/flaggems.tgz" -C "$here/third_party_fetched" || exit 1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site "$here"/.whl/*.whl >"$logs/pip.txt" 2>&1 || { tail -5 "$logs/pip.txt"; exit 1; }
say "candidate first calls: ${OPS:-abs,softmax,mm}"
PYTHONPATH=/tmp/site OUT=$final/fc timeout -s INT $(($(left) - 20)) \
  bash "$here/bench/candidate_first_calls.sh" 2>&1 | tee "$logs/first_calls.txt"
(cd "$final/fc" && find first_calls \( -name '*.log' -o -name run_identity.json -o -name results.jsonl \) \
  -not -path '*/triton/*' -not -path '*/gems/*' -not -path '*/gems_compiled/*' -print0 |
  tar -czf "$final/first_calls.tgz" --null -T -)
rm -rf "$final/fc"
finish first_calls
