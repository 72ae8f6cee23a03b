#!/usr/bin/env python3
"""Where a screen's time went: per phase, from a batch directory's rows and ops_status.csv.

  python3 bench/screen_profile.py runs/device/NAME [--batch-wall SECONDS]

Each row of results.jsonl carries `phases_ms` (inputs, warmup, capture, measure) and `wall_s`
(the whole case); ops_status.csv carries each op's wall time in its process or worker. The
difference between an op's wall and its cases' is the op's own setup (process start or worker
hand-off, the peaks probe, shape resolution, writing its files).
"""
import csv
import json
import sys
from pathlib import Path


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    root = Path(sys.argv[1])
    batch_wall = float(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--batch-wall" else None
    op_wall = {}
    with open(root / "ops_status.csv", newline="") as f:
        for row in csv.DictReader(f):
            try:
                op_wall[row["op"]] = float(row["wall_s"] or 0)
            except ValueError:
                pass
    phases = {"inputs": 0.0, "warmup": 0.0, "capture": 0.0, "sampling": 0.0, "case other": 0.0}
    cases = rows = 0
    case_wall = 0.0
    by_timer = {}
    for results in sorted(root.glob("ops/*/results.jsonl")):
        seen = set()
        for line in results.read_text().splitlines():
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue
            rows += 1
            p = r.get("phases_ms") or {}
            key = (json.dumps(r.get("shape")), r.get("size_detail"), r.get("dtype"))
            measure = p.get("measure", 0.0) / 1e3
            warm = p.get("warmup", 0.0) / 1e3
            cap = p.get("capture", 0.0) / 1e3
            phases["warmup"] += warm
            phases["capture"] += cap
            phases["sampling"] += max(measure - warm - cap, 0.0)
            t = r.get("timer_used") or "?"
            by_timer[t] = by_timer.get(t, 0.0) + measure
            if key not in seen:  # the case's wall and inputs are shared by its providers' rows
                seen.add(key)
                cases += 1
                case_wall += r.get("wall_s", 0.0)
                phases["inputs"] += p.get("inputs", 0.0) / 1e3
    measured = sum(v for k, v in phases.items() if k != "case other")
    phases["case other"] = max(case_wall - measured, 0.0)
    total_op = sum(op_wall.values())
    phases["op setup (op wall - its cases)"] = max(total_op - case_wall, 0.0)
    print(f"{root}: {len(op_wall)} ops, {cases} cases, {rows} rows; summed op wall {total_op:.1f} s")
    if batch_wall:
        print(f"batch wall {batch_wall:.1f} s ({batch_wall / max(cases, 1) * 1e3:.1f} ms per case)")
    print(f"{'phase':<34} {'s':>9} {'share':>7} {'ms/case':>8}")
    for name, s in phases.items():
        share = 100 * s / total_op if total_op else 0
        print(f"{name:<34} {s:9.1f} {share:6.1f}% {1e3 * s / max(cases, 1):8.1f}")
    print("measurement wall by timer used: " +
          ", ".join(f"{t} {s:.1f} s" for t, s in sorted(by_timer.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
