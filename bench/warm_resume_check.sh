#!/usr/bin/env bash
# The twenty-eighth session's segfault, on the device: `caliber batch --candidate python:flag_gems
# --warm-pass 8` of the candidate screen's piece 0, cut by SIGINT during its warm pass (addmv's
# warm runs hung), died with SIGSEGV 2 s into the same command's resume, before the warm pass
# logged its selection. This cuts a small warm pass the same way (addmv hangs in its warm lanes
# on an H100) and resumes it twice: plain (its exit status) and under cuda-gdb (the image has no
# gdb; cuda-gdb debugs host code too) for the backtrace.
#   run(command="DEADLINE_S=400 bash bench/warm_resume_check.sh",
#       carry=["third_party_fetched/flaggems.tgz", ".whl"])
set -uo pipefail
source "$(dirname "$0")/screen_calls.sh"
ops=${CHECK_OPS:-abs,addmv,add,addmv_out,mul}
build_once
flaggems_setup || exit 1
flaggems_env check
args=(batch --devices 0 --no-progress --candidate python:flag_gems --ops "$ops" --warm-pass 4
  --out "$screens/warm_check")
say "batch cut at ${CUT_S:-100} s"
timeout -s INT "${CUT_S:-100}" "$caliber" "${args[@]}" >"$logs/cut.txt" 2>&1
echo "cut rc=$?"
cat "$screens/warm_check/warm/ops_status.csv"
rm -rf "$screens/warm_check_cut" && cp -a "$screens/warm_check" "$screens/warm_check_cut"
say "resume"
timeout -s INT 60 "$caliber" "${args[@]}" >"$logs/resume.txt" 2>&1
echo "resume rc=$?"
tail -5 "$logs/resume.txt"
tail -4 "$screens/warm_check/warm/batch.log"
say "resume again under cuda-gdb"
mv "$screens/warm_check" "$screens/warm_check_resumed"
cp -a "$screens/warm_check_cut" "$screens/warm_check"
timeout -s INT 90 cuda-gdb -batch -ex 'set pagination off' -ex run -ex bt \
  -ex 'thread apply all bt 12' --args "$caliber" "${args[@]}" >"$logs/gdb.txt" 2>&1
echo "gdb rc=$?"
grep -n -E 'SIGSEGV|^#[0-9]' "$logs/gdb.txt" | head -60
(cd "$screens" && tar -czf "$final/warm_check.tgz" warm_check warm_check_resumed)
finish warm_check
