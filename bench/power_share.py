#!/usr/bin/env python3
"""Power of a self-test comparison: the verdicts of graph-timed rows of 10 us or more.

  python3 bench/power_share.py runs/device/cmp_confirm_qa-q5 [more comparison folders]

Issue 19's power target counts the rows of `caliber compare A B` (B screened with
`--selftest-delay F`) whose A and B were both timed by the graph timer and whose A median is
10 us or more, and asks SLOW on >= 95% of them at F = 0.05 and >= 50% at F = 0.02. Reads each
folder's compare.csv; prints the rows counted, the verdict counts and the SLOW share.
"""
import collections
import csv
import sys
from pathlib import Path

MIN_MS = 0.01


def counted(compare_csv):
    with open(compare_csv, newline="") as f:
        return [r for r in csv.DictReader(f)
                if r["a_timer_used"] == "graph" and r["b_timer_used"] == "graph"
                and r["a_median_ms"] and float(r["a_median_ms"]) >= MIN_MS]


def main(folders):
    if not folders:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for folder in folders:
        rows = counted(Path(folder) / "compare.csv")
        verdicts = collections.Counter(r["verdict"] for r in rows)
        share = 100 * verdicts["SLOW"] / len(rows) if rows else 0
        print(f"{folder}: {len(rows)} rows, " +
              ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())) + f"; SLOW {share:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
