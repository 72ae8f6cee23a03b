#!/usr/bin/env bash
# FlagGems' own benchmark run for its printed "Size Detail" only (issue 15): every listed test
# file under pytest with `--warmup 1 --iter 1` (1 ms each: the latencies mean nothing, the cases
# are what `caliber ops --fidelity` reads), PROCS_PER_GPU pytest processes per GPU, the files
# dealt round-robin over every process of every GPU. The logs come back packed in one archive
# for bench/results/flaggems-inputs/, which `caliber ops --fidelity` reads as it lies.
#
# First, on the networked machine: bench/prepare_flaggems.sh. Then, on the device:
#   run(command="bash bench/device.sh flaggems_inputs",
#       carry=["third_party_fetched/FlagGems", ".whl"])
# or this script alone (it needs no caliber build).
#
# Knobs (environment):
#   FILES           test files, relative to benchmark/ (test_abs.py,test_FLA/test_x.py); or
#   FILES_FROM      a file listing them one per line; default: every benchmark/**/test_*.py
#   PROCS_PER_GPU   8
#   GPUS            how many GPUs to use (default: all that nvidia-smi lists)
#   LEVEL           core (FlagGems' own default is comprehensive)
#   DEADLINE_S      540: seconds for the whole script; pytest gets SIGINT in time to pack
#   NAME            the archive's name: $OUT/flaggems-inputs-$NAME.tgz (default: the date)
#
# The archive holds shard-G-P.log (pytest's output, FlagGems' tables), shard-G-P.files (what
# the shard was given) and run.txt (commit, versions, exit status and wall time per shard).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$here/bench/out}
flaggems=${FLAGGEMS_DIR:-$here/third_party_fetched/FlagGems}
procs=${PROCS_PER_GPU:-8}
level=${LEVEL:-core}
deadline=${DEADLINE_S:-540}
name=${NAME:-$(date -u +%Y%m%dT%H%MZ)}
py=${PYTHON:-$(command -v python3)}
start=$(date +%s)
work=$(mktemp -d)
logs=$work/flaggems-inputs-$name
mkdir -p "$OUT" "$logs"
left() { echo $((deadline - ($(date +%s) - start) - 20)); }

case $level in core | comprehensive) ;; *)
  echo "LEVEL: '$level' is not a level (accepted: core, comprehensive)" >&2; exit 2 ;;
esac
case $procs in '' | *[!0-9]* | 0)
  echo "PROCS_PER_GPU: '$procs' is not a positive integer" >&2; exit 2 ;;
esac
if [ ! -d "$flaggems/benchmark" ]; then
  echo "no FlagGems at $flaggems: run bench/prepare_flaggems.sh and carry third_party_fetched/FlagGems" >&2
  exit 2
fi

files=()
if [ -n "${FILES:-}" ]; then
  IFS=', ' read -r -a files <<<"$FILES"
elif [ -n "${FILES_FROM:-}" ]; then
  mapfile -t files < <(grep -v '^\s*\(#\|$\)' "$FILES_FROM")
else
  mapfile -t files < <(cd "$flaggems/benchmark" && find . -name 'test_*.py' | sed 's|^\./||' | sort)
fi
for f in "${files[@]}"; do
  [ -f "$flaggems/benchmark/$f" ] || { echo "FILES: no benchmark/$f in $flaggems" >&2; exit 2; }
done
[ ${#files[@]} -gt 0 ] || { echo "FILES: no test file to run" >&2; exit 2; }

if [ -n "${GPUS:-}" ]; then
  gpus=$GPUS
else
  gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
fi
case $gpus in '' | *[!0-9]* | 0)
  echo "GPUS: '$gpus' GPUs (accepted: a positive integer; nvidia-smi lists none)" >&2; exit 2 ;;
esac
shards=$((gpus * procs))

# sqlalchemy (FlagGems imports it; the device image lacks it) from the carried .whl/.
site=$work/site
if ls "$here"/.whl/*.whl >/dev/null 2>&1; then
  "$py" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target "$site" \
    "$here"/.whl/*.whl >"$logs/pip.txt" 2>&1 || { cat "$logs/pip.txt"; exit 1; }
fi
export PYTHONPATH=$site:$flaggems/src${PYTHONPATH:+:$PYTHONPATH}

{
  echo "FlagGems commit $(cat "$flaggems/COMMIT" 2>/dev/null || echo unknown)"
  "$py" -c 'import sys, torch; print("python", sys.version.split()[0], "torch", torch.__version__)' 2>&1
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1
  echo "level $level, --warmup 1 --iter 1, ${#files[@]} files over $gpus GPU(s) x $procs processes"
} >"$logs/run.txt"

# Deal the files round-robin: neighbours in the sorted list (one op's variants) land on
# different processes, so no shard holds all the slow ones.
for ((s = 0; s < shards; ++s)); do : >"$logs/shard-$((s / procs))-$((s % procs)).files"; done
for i in "${!files[@]}"; do
  s=$((i % shards))
  echo "${files[$i]}" >>"$logs/shard-$((s / procs))-$((s % procs)).files"
done

limit=$(left)
pids=()
for ((s = 0; s < shards; ++s)); do
  g=$((s / procs)) p=$((s % procs))
  list=$logs/shard-$g-$p.files
  [ -s "$list" ] || continue
  mapfile -t mine < <(sed 's|^|benchmark/|' "$list")
  (
    t0=$(date +%s)
    cd "$flaggems" && CUDA_VISIBLE_DEVICES=$g timeout -s INT -k 15 "$limit" "$py" -m pytest \
      "${mine[@]}" --level "$level" --mode kernel --warmup 1 --iter 1 -s -p no:cacheprovider \
      >"$logs/shard-$g-$p.log" 2>&1
    echo "shard $g-$p: ${#mine[@]} files, exit $?, $(($(date +%s) - t0)) s" >"$logs/shard-$g-$p.status"
  ) &
  pids+=($!)
done
wait "${pids[@]}"
cat "$logs"/shard-*.status >>"$logs/run.txt" 2>/dev/null
rm -f "$logs"/shard-*.status
tables=$(cat "$logs"/shard-*.log 2>/dev/null | grep -c 'Operator: ')
echo "$tables tables printed in $(($(date +%s) - start)) s" | tee -a "$logs/run.txt"
tar -czf "$OUT/flaggems-inputs-$name.tgz" -C "$work" "flaggems-inputs-$name"
rm -rf "$work"
echo "packed $OUT/flaggems-inputs-$name.tgz"
