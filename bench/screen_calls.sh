#!/usr/bin/env bash
# Helpers of the sessions' device calls on one H200 (bench/session14.sh to session16.sh),
# sourced, not run. The caller sets DEADLINE_S (the whole call) before sourcing. Screens go to
# runs/device/NAME, which stays on a warm machine for the next call; texts go to $OUT/logs and
# finish() packs them into one tgz (at most 8 files come back from a call).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
final=${OUT:-$here/bench/out}
logs=$final/logs
mkdir -p "$logs"
start=$(date +%s)
left() { echo $((${DEADLINE_S:-590} - ($(date +%s) - start))); }
caliber=$here/.device_build/caliber
screens=$here/runs/device
say() { echo "== $* (at $(($(date +%s) - start)) s, $(left) s left)"; }

build() {
  say "build"
  CALIBER_SKIP_BUILD=0 OUT=$logs/build DEADLINE_S=$(left) bash "$here/bench/device.sh" devices \
    >"$logs/build.txt" 2>&1
  local rc=$?
  tail -5 "$logs/build.txt"
  [ -x "$caliber" ] || { echo "no caliber build"; exit 1; }
  return $rc
}

# build_once: build, unless CALIBER_SKIP_BUILD=1 and this (warm) machine has a build already.
build_once() {
  if [ -x "$caliber" ] && [ "${CALIBER_SKIP_BUILD:-}" = 1 ]; then return 0; fi
  build
}

# batch NAME SECONDS [ARGS...]: caliber batch on device 0 into runs/device/NAME, cut at SECONDS.
batch() {
  local name=$1 limit=$2
  shift 2
  say "batch $name $* (limit $limit s)"
  local t0; t0=$(date +%s%N)
  timeout -s INT "$limit" "$caliber" batch --devices 0 --no-progress "$@" --out "$screens/$name" \
    >"$logs/batch_${name}_$(date +%H%M%S).txt" 2>&1
  echo "$name rc=$? wall=$((($(date +%s%N) - t0) / 1000000)) ms" | tee -a "$logs/walls.txt"
  tail -2 "$screens/$name/batch.log"
}

# whole_corpus: the whole corpus (runs/device/wc, the default flags and WC_FLAGS) until 25 s
# before the deadline, then packed, and how many ops the workers answered; the same command
# resumes it on a warm machine.
whole_corpus() {
  # shellcheck disable=SC2086  # WC_FLAGS is a list of flags
  batch wc $(($(left) - 25)) ${WC_FLAGS:-}
  pack_screen wc
  grep -c '' "$screens/wc/workers/device-0.log" 2>/dev/null
}

batch_done() {  # batch_done NAME: the last summary line of batch.log says whether it was cut
  [ -f "$screens/$1/batch.log" ] && ! tail -1 "$screens/$1/batch.log" | grep -q "rerun to resume"
}

# pack_screen NAME: the screen's status, logs, identities and rows without samples
# (bench/compact_rows.py) into $final/NAME.tgz, its profile into the logs.
pack_screen() {
  local name=$1
  say "pack $name"
  python3 "$here/bench/compact_rows.py" "$screens/$name"
  python3 "$here/bench/screen_profile.py" "$screens/$name" | tee "$logs/profile_$name.txt" |
    head -45
  awk -F, 'NR>1{print $2}' "$screens/$name/ops_status.csv" | sort | uniq -c
  (cd "$screens" && find "$name" -maxdepth 3 \( -name ops_status.csv -o -name batch.log \
    -o -name run.log -o -name run_identity.json -o -name 'attempt-*.log' -o -name rows.jsonl.gz \
    -o -path "$name/workers/*.log" \) -print0 | tar -czf "$final/$name.tgz" --null -T -)
}

# pack_warm_pass NAME: a batch's warm pass (NAME/warm: status, batch.log, run.logs, attempt logs)
# into $final/NAME_warm_pass.tgz, when it had one.
pack_warm_pass() {
  [ -d "$screens/$1/warm" ] || return 0
  (cd "$screens" && find "$1/warm" -maxdepth 3 \( -name ops_status.csv -o -name batch.log \
    -o -name run.log -o -name 'attempt-*.log' \) -print0 |
    tar -czf "$final/${1}_warm_pass.tgz" --null -T -)
}

# judge A B BUDGET [ARGS...]: A against B, plain into cmp_plain_A-B, then --confirm within BUDGET
# seconds into cmp_confirm_A-B (none when BUDGET is 30 or less). Before the sixteenth session's
# fourth call the folders were cmp_plain_B and cmp_confirm_B.
judge() {
  local a=$1 b=$2 budget=$3
  shift 3
  say "compare $a $b $*"
  "$caliber" compare "$screens/$a" "$screens/$b" --calibration none "$@" \
    -o "$screens/cmp_plain_$a-$b" >"$logs/compare_plain_$a-$b.txt" 2>&1
  echo "rc=$?"
  grep -E "rows|FAST|SLOW|UNSURE|SAME" "$logs/compare_plain_$a-$b.txt" | grep -v "^SAME" | head -12
  [ "$budget" -gt 30 ] || return 0
  say "compare $a $b --confirm (budget $budget s)"
  "$caliber" compare "$screens/$a" "$screens/$b" --calibration none "$@" --confirm \
    --confirm-deadline-s "$budget" -o "$screens/cmp_confirm_$a-$b" 2>&1 |
    grep -v "CUDA Graph is empty" >"$logs/compare_confirm_$a-$b.txt"
  echo "rc=${PIPESTATUS[0]}"; grep -E "rows|FAST|SLOW|UNSURE|SAME|confirm" \
    "$logs/compare_confirm_$a-$b.txt" | grep -v "^confirm [0-9]" | head -14
}

# first_replays SCREEN...: bench/first_replays.py on the screens, into the logs.
first_replays() {
  (cd "$screens" && python3 "$here/bench/first_replays.py" "$@") | tee "$logs/first_replays.txt"
}

# switched_replays SCREEN...: bench/switched_replays.py on the screens, into the logs.
switched_replays() {
  (cd "$screens" && python3 "$here/bench/switched_replays.py" "$@") |
    tee "$logs/switched_replays.txt"
}

# pack_checks TGZ NAME...: the named screens' rows with samples and the comparisons into TGZ.
pack_checks() {
  local tgz=$1
  shift
  (cd "$screens" && find "$@" cmp_plain_* cmp_confirm_* -maxdepth 3 \( -name results.jsonl \
    -o -name run_identity.json -o -name ops_status.csv -o -name batch.log -o -name 'compare.*' \
    -o -name confirmations.jsonl \) -print0 2>/dev/null |
    tar -czf "$final/$tgz" --null -T -)
}

# flaggems_setup: FlagGems from the carried third_party_fetched/flaggems.tgz
# (bench/prepare_flaggems.sh), sqlalchemy from the carried .whl into /tmp/site.
flaggems_setup() {
  say "FlagGems from third_party_fetched/flaggems.tgz, sqlalchemy from .whl"
  tar -xzf "$here/third_party_fetched/flaggems.tgz" -C "$here/third_party_fetched" || return 1
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site "$here"/.whl/*.whl >"$logs/pip.txt" 2>&1 || {
    tail -5 "$logs/pip.txt"
    return 1
  }
}

# flaggems_env CACHES: the environment of a FlagGems candidate (flaggems_setup's FlagGems and
# sqlalchemy), with Triton's and FlagGems' caches in /tmp/caches_CACHES.
flaggems_env() {
  mkdir -p "/tmp/caches_$1"
  # FlagGems takes any FLAGGEMS_DB_URL that is set, even an empty one, as its database.
  unset FLAGGEMS_DB_URL
  export PYTHONPATH=$here/third_party_fetched/FlagGems/src:/tmp/site
  export TRITON_CACHE_DIR=/tmp/caches_$1/triton FLAGGEMS_CACHE_DIR=/tmp/caches_$1/gems
}

# flaggems_batch NAME CACHES LIMIT [ARGS...]: batch NAME with --candidate python:flag_gems, Triton's
# and FlagGems' caches in /tmp/caches_CACHES (emptied first when CACHES is NAME).
flaggems_batch() {
  local name=$1 caches=$2 limit=$3
  [ "$1" = "$2" ] && rm -rf "/tmp/caches_$caches"
  shift 3
  (
    flaggems_env "$caches"
    batch "$name" "$limit" --candidate python:flag_gems "$@"
  )
  grep -E "warm pass|selected|finished|stopped" "$screens/$name/batch.log" | head -8
}

finish() {  # finish CASE: the texts in one file, then what comes back
  tar -czf "$final/logs-${1:-call}-$(date +%H%M%S).tgz" -C "$final" logs && rm -rf "$logs"
  ls -la "$final"
}
