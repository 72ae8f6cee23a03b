#!/usr/bin/env bash
# The ninth session's last device call, on one H200: build, ops --verify of the whole corpus, a
# default screen of the ops in bench/screen_ops/session9-new.txt (the ops added this session and
# those the earlier calls left unscreened), then issue 19's held-out A/A pair (t1, t2) and the 5%
# selftest (p5) on bench/screen_ops/aa71.txt with the default flags, now 8 graph captures.
# Everything is packed into $OUT/session9.tgz.
#   DEADLINE_S=560 bash bench/session9_device.sh
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
final=${OUT:-$here/bench/out}
work=/tmp/session9
rm -rf "$work" && mkdir -p "$work" "$final"
start=$(date +%s)
left() { echo $((${DEADLINE_S:-560} - ($(date +%s) - start))); }
OUT=$work/verify DEADLINE_S=$(left) bash "$here/bench/device.sh" verify
export CALIBER_SKIP_BUILD=1
OUT=$work/new RESULTS=0 OPS_FILE=$here/bench/screen_ops/session9-new.txt \
  DEADLINE_S=$(($(left) - 150)) bash "$here/bench/device.sh" screen:0:new
for spec in t1 t2 "p5=--selftest-delay 0.05"; do
  name=${spec%%=*} args=""
  [ "$spec" != "$name" ] && args=${spec#*=}
  [ "$(left)" -lt 45 ] && { echo "== $name skipped: $(left) s left"; continue; }
  OUT=$work/aa SCREEN_ARGS=$args OPS_FILE=$here/bench/screen_ops/aa71.txt DEADLINE_S=$(left) \
    bash "$here/bench/device.sh" "screen:0:$name"
done
rm -rf "$work"/aa/work/screen_* "$work"/new/work/screen_*/*.tgz 2>/dev/null
tar -czf "$final/session9.tgz" -C "$work" .
ls -la "$final"
