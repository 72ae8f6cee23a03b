#!/usr/bin/env bash
# One device call for issue 15: ops --verify on the device for every op (VERIFY=0 skips it), then
# default screens of the op lists in LISTS (names of bench/screen_ops/*.txt), within one deadline;
# everything packed into $OUT/issue15.tgz.
#   DEADLINE_S=540 bash bench/issue15_device.sh                                 # eighth session
#   LISTS=corpus1022-rest427 DEADLINE_S=560 bash bench/issue15_device.sh        # ninth session
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
final=${OUT:-$here/bench/out}
work=/tmp/issue15
rm -rf "$work" && mkdir -p "$work" "$final"
start=$(date +%s)
left() { echo $((${DEADLINE_S:-540} - ($(date +%s) - start))); }
skip_build=
if [ "${VERIFY:-1}" != 0 ]; then
  OUT=$work DEADLINE_S=$(left) bash "$here/bench/device.sh" verify
  skip_build=1
fi
for list in ${LISTS:-corpus995-new87 corpus908-unreached442}; do
  [ "$(left)" -lt 60 ] && { echo "== $list skipped: $(left) s left"; continue; }
  OUT=$work CALIBER_SKIP_BUILD=$skip_build RESULTS=0 OPS_FILE=$here/bench/screen_ops/$list.txt \
    DEADLINE_S=$(left) bash "$here/bench/device.sh" "screen:0:${list#corpus*-}"
  skip_build=1
done
tar -czf "$final/issue15.tgz" -C "$work" .
ls -la "$final"
