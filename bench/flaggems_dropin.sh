#!/usr/bin/env bash
# Issue 20 on one GPU: caliber as a drop-in for FlagGems' benchmark, with FlagGems imported
# unmodified (`--candidate python:flag_gems`) from the checkout bench/prepare_flaggems.sh puts in
# third_party_fetched/FlagGems (sqlalchemy from .whl). Run through `bench/device.sh
# flaggems_dropin` (carry third_party_fetched/FlagGems and .whl). A few minutes: two ops.
#
# Shows, on the device:
#   - USE_FLAGTUNE=0 and GEMS_VENDOR (from the backend) in every run_identity.json, and
#     SHAPE_MODE=upstream's shape file (FlagGems' benchmark/core_shapes.yaml) with its digest;
#   - FlagGems' flags as typed by its users (--mode kernel --warmup --iter --dtypes twice);
#   - `--record log` of a batch read by FlagGems' own summary_for_plot.py, printed beside the
#     same per-op, per-dtype means computed from `caliber summary`'s summary.csv; and one run's
#     `--record json`.
# Files under $OUT: dropin.log (every step and output), batch/ (the batch directory),
# run_add_json/ (one run with --record json).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$here/bench/out}
build=${CALIBER_DEVICE_BUILD:-$here/.device_build}
caliber=$build/caliber
flaggems=${FLAGGEMS_DIR:-$here/third_party_fetched/FlagGems}
ops=${DROPIN_OPS:-add,mm}
limit=${DROPIN_LIMIT_S:-300}
py=$(command -v python3)
mkdir -p "$OUT"
log=$OUT/dropin.log
: >"$log"
step() { echo "== $* (at $SECONDS s)" | tee -a "$log"; }

if [ ! -d "$flaggems/src/flag_gems" ]; then
  echo "no FlagGems at $flaggems: run bench/prepare_flaggems.sh and carry third_party_fetched/FlagGems" |
    tee -a "$log"
  exit 2
fi
site=/tmp/site-dropin
"$py" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target "$site" "$here"/.whl/*.whl >>"$log" 2>&1 || { tail -20 "$log"; exit 1; }
export PYTHONPATH=$site:$flaggems/src${PYTHONPATH:+:$PYTHONPATH}
unset GEMS_VENDOR FLAGGEMS_VENDOR GEMS_BACKEND FLAGGEMS_BACKEND
echo "FlagGems commit $(cat "$flaggems/COMMIT" 2>/dev/null || echo unknown)" >>"$log"

step "caliber batch, FlagGems' flags, USE_FLAGTUNE=0 SHAPE_MODE=upstream --record log"
rm -rf "$OUT/batch"
USE_FLAGTUNE=0 SHAPE_MODE=upstream timeout -s INT "$limit" "$caliber" batch --ops "$ops" \
  --level core --mode kernel --warmup 25 --iter 100 --dtypes float16 --dtypes bfloat16 \
  --devices 0 --isolation worker --candidate python:flag_gems --record log --no-progress \
  --out "$OUT/batch" >>"$log" 2>&1
echo "caliber batch exit $?" | tee -a "$log"

step "identities: use_flagtune, gems_vendor, shape source and digest"
"$py" - "$OUT/batch" <<'PY' 2>&1 | tee -a "$log"
import json, pathlib, sys
for path in sorted(pathlib.Path(sys.argv[1]).glob("ops/*/run_identity.json")):
    i = json.loads(path.read_text())
    print(path.parent.name, {k: i.get(k) for k in ("timer", "cache", "shape_mode", "use_flagtune",
          "gems_vendor", "gems_vendor_source", "shape_source", "shape_source_sha256",
          "provider_version")})
PY
sha256sum "$flaggems/benchmark/core_shapes.yaml" | tee -a "$log"
grep -h -B1 "Performance Test" "$OUT"/batch/ops/*/run.log | head -8 | tee -a "$log"

step "FlagGems' summary_for_plot.py on caliber's record.log"
(cd "$flaggems" && "$py" -m benchmark.summary_for_plot "$OUT/batch/record.log") 2>&1 |
  tee "$OUT/summary_for_plot.txt" | tee -a "$log"

step "caliber summary, and the same means from its summary.csv"
"$caliber" summary "$OUT/batch" 2>&1 | tee -a "$log"
"$py" - "$OUT/batch/summary.csv" <<'PY' 2>&1 | tee "$OUT/caliber_means.txt" | tee -a "$log"
import csv, collections, sys
by = collections.defaultdict(list)
for row in csv.DictReader(open(sys.argv[1])):
    if row.get("speedup") and row.get("status") == "SUCCESS":
        by[(row["op"], row["dtype"])].append(float(row["speedup"]))
print(f"{'op_name':<30} {'dtype':<12} {'mean speedup':<14} shapes")
for (op, dtype), v in sorted(by.items()):
    print(f"{op:<30} {dtype:<12} {sum(v) / len(v):<14.6f} {len(v)}")
PY

step "caliber run --record json (OP_FILE=test_add.py names the op)"
rm -rf "$OUT/run_add_json"
OP_FILE=test_add.py USE_FLAGTUNE=0 SHAPE_MODE=upstream timeout -s INT 120 "$caliber" run \
  --mode kernel --warmup 25 --iter 100 --dtypes float16 --candidate python:flag_gems \
  --record json --no-progress --out "$OUT/run_add_json" >>"$log" 2>&1
echo "caliber run exit $?" | tee -a "$log"
head -c 1500 "$OUT/run_add_json/benchmark_result.json" | tee -a "$log"
echo | tee -a "$log"
step "done"
