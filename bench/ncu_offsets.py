#!/usr/bin/env python3
"""How far ncu and caliber's kernel timer each move from run to run, case by case.

  python3 bench/ncu_offsets.py bench/results/timers-h200-run{3,4,5,6,7,9,11}.json

For every case whose call is one kernel, hot and cold (the `read` flush, caliber's default), the
kernel timer's fixed-policy `kernel_only_us` and ncu's `ncu_us` of each merged run, their ranges
over the runs, and ncu - kernel_only (min / median / max). Rows with throttled samples are left
out. Issue 22's target allows |kernel_only_us - ncu_us| <= max(2% of ncu_us, 1.2 us) a kernel.
"""
import json
import re
import statistics
import sys


def run_name(path):
    m = re.search(r"run(\d+)", path)
    return f"run{m.group(1)}" if m else path


def single_kernel_rows(path):
    data = json.load(open(path))
    rows = data["rows"] if isinstance(data, dict) else data
    for r in rows:
        if r.get("timer") != "kernel" or r.get("policy") != "fixed" or "error" in r:
            continue
        if r.get("ncu_us") is None or r.get("kernel_only_us") is None:
            continue
        if (r.get("ncu_kernels") or 1) != 1 or sum(r.get("throttled_per_repeat") or [0]):
            continue
        if r["cache"] == "cold" and r.get("flush_method") != "read":
            continue
        yield (r["case"], r["cache"]), r["kernel_only_us"], r["ncu_us"]


def main(paths):
    if not paths:
        print(__doc__)
        return 2
    table = {}
    for path in paths:
        for key, kernel_only, ncu in single_kernel_rows(path):
            table.setdefault(key, []).append((run_name(path), kernel_only, ncu))
    print(f"{'case':27} {'cache':5} {'runs':>4}  {'kernel_only range':>19}  {'ncu range':>17}"
          f"  {'ncu - kernel_only min/median/max':>32}  over 1.2 us in")
    for (case, cache), runs in sorted(table.items()):
        k = [r[1] for r in runs]
        n = [r[2] for r in runs]
        d = [r[2] - r[1] for r in runs]
        over = [r[0] for r in runs if abs(r[2] - r[1]) > max(0.02 * r[2], 1.2)]
        print(f"{case:27} {cache:5} {len(runs):4}  {min(k):8.2f}-{max(k):<8.2f} ({max(k) - min(k):.2f})"
              f"  {min(n):7.2f}-{max(n):<7.2f} ({max(n) - min(n):.2f})"
              f"  {min(d):10.2f} {statistics.median(d):10.2f} {max(d):10.2f}  {' '.join(over) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
