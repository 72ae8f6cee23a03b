#!/usr/bin/env bash
# Host (and device) memory of one persistent worker running the same op N times: a leak shows as
# a trend in the resident set, allocator noise does not. Prints one line per run.
#   bench/worker_memory.sh [OP] [N] [BACKEND]      (defaults: softmax 40 cpu)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
caliber=${CALIBER:-$here/build/caliber}
op=${1:-softmax}
n=${2:-40}
backend=${3:-cpu}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 "$n"); do
  printf '{"op":"%s","out":"%s/r%d","log":"%s/r%d.log","flags":{"backend":"%s","policy":"adaptive","dtypes":"float32"}}\n' \
    "$op" "$work" "$i" "$work" "$i" "$backend"
done | "$caliber" worker >"$work/replies.txt"
echo "run host_rss_mib device_allocated_mib device_reserved_mib"
for i in $(seq 1 "$n"); do
  sed -n 's/.*host rss \([0-9.]*\) MiB, device allocated \([0-9.]*\) MiB, reserved \([0-9.]*\) MiB.*/\1 \2 \3/p' \
    "$work/r$i.log" | sed "s/^/$i /"
done
