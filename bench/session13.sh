#!/usr/bin/env bash
# The thirteenth session's device calls on one H200 (issues 22 and 19), one argument per call;
# calls 2 and 3 need call 1's build and screens on a machine still warm.
#   DEADLINE_S=585 bash bench/session13.sh call1  # build, timer validation (run 11), an fdatasync
#                                                 # probe, then screen c321f until the deadline
#   DEADLINE_S=590 bash bench/session13.sh call2  # screen c321e whole, then c321f resumed
#   DEADLINE_S=590 bash bench/session13.sh call3  # compare c321e c321f, then --confirm until the
#                                                 # deadline (journaled: call3 again goes on)
# Screens: caliber batch with its default flags over bench/screen_ops/corpus321.txt.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
final=${OUT:-$here/bench/out}
mkdir -p "$final"
start=$(date +%s)
left() { echo $((${DEADLINE_S:-585} - ($(date +%s) - start))); }
caliber=$here/.device_build/caliber
screens=$here/runs/device
ops=$here/bench/screen_ops/corpus321.txt
say() { echo "== $* (at $(($(date +%s) - start)) s, $(left) s left)"; }

pack_results() {  # pack_results NAME: a screen's rows, status and log
  (cd "$screens" && find "$1" -maxdepth 3 \( -name ops_status.csv -o -name batch.log \
    -o -name results.jsonl -o -name run_identity.json \) -print0 |
    tar -czf "$final/$1-results.tgz" --null -T -)
}

resume() {  # resume NAME SECONDS: the same batch command again (it goes on where it stopped)
  say "batch $1 (limit $2 s)"
  local t0; t0=$(date +%s%N)
  timeout -s INT "$2" "$caliber" batch --devices 0 --ops-file "$ops" --no-progress \
    --out "$screens/$1" >"$final/batch_$1_resume.txt" 2>&1
  echo "rc=$? wall=$((($(date +%s%N) - t0) / 1000000)) ms" | tee -a "$final/batch_$1_resume.txt"
  tail -3 "$final/batch_$1_resume.txt"
}

fsync_probe() {  # what one durable append and one atomic rewrite cost on this disk
  python3 - "$screens/fsync-probe" <<'PY'
import os, statistics, sys, time
d = sys.argv[1]
os.makedirs(d, exist_ok=True)
path = os.path.join(d, "lines.jsonl")
appends, rewrites = [], []
for i in range(200):
    t = time.perf_counter()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.write(fd, (b'{"row": %d, "pad": "%s"}\n' % (i, b"x" * 900)))
    os.fdatasync(fd)
    os.close(fd)
    appends.append((time.perf_counter() - t) * 1e3)
for i in range(50):
    t = time.perf_counter()
    tmp = os.path.join(d, "status.csv.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.write(fd, b"op,status\n" * 300)
    os.fsync(fd)
    os.close(fd)
    os.rename(tmp, os.path.join(d, "status.csv"))
    rewrites.append((time.perf_counter() - t) * 1e3)
q = lambda v, p: sorted(v)[int(p * (len(v) - 1))]
for name, v in (("append+fdatasync", appends), ("write+fsync+rename", rewrites)):
    print(f"fsync probe {name}: n={len(v)} median {statistics.median(v):.3f} ms, "
          f"p10 {q(v, .1):.3f}, p90 {q(v, .9):.3f}, max {max(v):.3f}")
PY
  df -hT "$screens" | tail -1
}

case ${1:-} in
  call1)
    say "timers (build included)"
    OUT=$final/timers TIMERS_BUDGET_S=${TIMERS_BUDGET_S:-260} DEADLINE_S=$(left) \
      bash "$here/bench/device.sh" timers
    tar -czf "$final/timers.tgz" -C "$final" timers && rm -rf "$final/timers"
    fsync_probe | tee "$final/fsync_probe.txt"
    rm -rf "${screens:?}/c321f"
    resume c321f $(($(left) - 20))
    pack_results c321f ;;
  call2)
    rm -rf "${screens:?}/c321e"
    resume c321e $(($(left) - 60))
    python3 "$here/bench/screen_profile.py" "$screens/c321e" | tee "$final/profile_c321e.txt"
    pack_results c321e
    resume c321f $(($(left) - 20))
    pack_results c321f ;;
  call3)
    say "compare"
    "$caliber" compare "$screens/c321e" "$screens/c321f" --calibration none \
      -o "$screens/cmp_plain" >"$final/compare_plain.txt" 2>&1
    echo "rc=$?"; head -40 "$final/compare_plain.txt"
    say "compare --confirm"
    "$caliber" compare "$screens/c321e" "$screens/c321f" --calibration none --confirm \
      --confirm-deadline-s $(($(left) - 30)) -o "$screens/cmp_confirm" 2>&1 |
      grep -v "CUDA Graph is empty" >"$final/compare_confirm.txt"
    echo "rc=${PIPESTATUS[0]}"; tail -40 "$final/compare_confirm.txt"
    (cd "$screens" && find cmp_plain cmp_confirm -maxdepth 2 \( -name 'compare.*' \
      -o -name confirmations.jsonl \) -print0 | tar -czf "$final/aa321-compare.tgz" --null -T -) ;;
  *)
    echo "usage: $0 call1|call2|call3" >&2
    exit 2 ;;
esac
ls -la "$final"
