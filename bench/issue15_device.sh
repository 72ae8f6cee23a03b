#!/usr/bin/env bash
# One device call for issue 15 after the corpus grew to 995 ops: ops --verify on the device for
# every op, then default screens of the 87 new ops and of the 442 ops the first whole-corpus
# screen did not reach, within one deadline; everything packed into $OUT/issue15.tgz.
#   DEADLINE_S=540 bash bench/issue15_device.sh
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
final=${OUT:-$here/bench/out}
work=/tmp/issue15
rm -rf "$work" && mkdir -p "$work" "$final"
start=$(date +%s)
left() { echo $((${DEADLINE_S:-540} - ($(date +%s) - start))); }
OUT=$work DEADLINE_S=$(left) bash "$here/bench/device.sh" verify
for list in corpus995-new87 corpus908-unreached442; do
  [ "$(left)" -lt 60 ] && { echo "== $list skipped: $(left) s left"; continue; }
  OUT=$work CALIBER_SKIP_BUILD=1 RESULTS=0 OPS_FILE=$here/bench/screen_ops/$list.txt \
    DEADLINE_S=$(left) bash "$here/bench/device.sh" "screen:0:${list#corpus*-}"
done
tar -czf "$final/issue15.tgz" -C "$work" .
ls -la "$final"
