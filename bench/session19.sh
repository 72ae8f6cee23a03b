#!/usr/bin/env bash
# The nineteenth session's device calls on one H200 (issue 19): the default screen on the build
# that shares the device context and the parsed op lists across a worker's ops, and that sharing
# against a context per run on one machine.
#   DEADLINE_S=420 bash bench/session19.sh c321    # build; the disk's sync latency; the 321-op
#                                                  # screen (c321), against the trial of session 18
#   DEADLINE_S=560 bash bench/session19.sh aba     # build; the first 160 ops of corpus321.txt
#                                                  # three times: shared device context (s1),
#                                                  # CALIBER_FRESH_DEVICE_CONTEXT=1 (f1), shared
#                                                  # (s2), on one machine
# Calls 3 and 4 (the comparisons, the second c321) were one-line commands over
# bench/screen_calls.sh, in bench/results/README.md.
set -uo pipefail
source "$(dirname "$0")/screen_calls.sh"

# sync_latency: what one durable append (write + fdatasync, as append_line_durable does) and one
# atomic replace (write + fsync + rename) cost on the disk the screens are written to.
sync_latency() {
  say "sync latency"
  mkdir -p "$screens"
  python3 - "$screens" <<'PY' | tee "$logs/sync_latency.txt"
import os, statistics, sys, time
d = sys.argv[1]
line = b"x" * 20000 + b"\n"
def timed(fn, n=200):
    t = []
    for _ in range(n):
        s = time.perf_counter(); fn(); t.append((time.perf_counter() - s) * 1e3)
    return statistics.median(t), sorted(t)[int(0.9 * n)]
path = os.path.join(d, ".sync_probe")
def append():
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.write(fd, line); os.fdatasync(fd); os.close(fd)
def replace():
    tmp = path + ".tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.write(fd, line[:2000]); os.fsync(fd); os.close(fd); os.rename(tmp, path + ".r")
for name, fn in (("append 20 kB + fdatasync", append), ("replace 2 kB + fsync + rename", replace)):
    med, p90 = timed(fn)
    print(f"{name}: median {med:.3f} ms, p90 {p90:.3f} ms (200 times, {d})")
for p in (path, path + ".r"):
    os.remove(p)
PY
}

case ${1:-} in
  c321)
    build
    rm -rf "${screens:?}"/c321
    sync_latency
    batch c321 $(($(left) - 30)) --ops-file "$here/bench/screen_ops/corpus321.txt"
    pack_screen c321
    finish "$1" ;;
  aba)
    build
    rm -rf "${screens:?}"/s1 "$screens"/f1 "$screens"/s2
    half=$here/bench/screen_ops/corpus321-first160.txt
    batch s1 150 --ops-file "$half"
    CALIBER_FRESH_DEVICE_CONTEXT=1 batch f1 150 --ops-file "$half"
    batch s2 $(($(left) - 30)) --ops-file "$half"
    for n in s1 f1 s2; do
      pack_screen "$n" >/dev/null
      grep -E "summed op wall|run.log time" "$logs/profile_$n.txt"
    done
    finish "$1" ;;
  *)
    echo "usage: $0 c321|aba" >&2
    exit 2 ;;
esac
