#!/usr/bin/env python3
"""Where a screen's time went: per phase, from a batch directory's rows and ops_status.csv.

  python3 bench/screen_profile.py runs/device/NAME [--batch-wall SECONDS]

Each row of results.jsonl (or of a compact rows.jsonl.gz from bench/compact_rows.py) carries
`phases_ms` (inputs, warmup, capture, measure) and `wall_s` (the whole case); ops_status.csv
carries each op's wall time in its process or worker. The difference between an op's wall and its
cases' is the op's own setup (process start or worker hand-off, the peaks probe, shape
resolution, writing its files); run.log's `time:` line, where the build writes one, splits the
part inside the run. Then the ops that took longest, with their phases.
"""
import csv
import gzip
import json
import re
import sys
from pathlib import Path

TOP = 25

TIME_LINE = re.compile(r"time: ([\d.]+) s before the first case \(plan and files ([\d.]+), "
                       r"device ([\d.]+), peaks and tuner ([\d.]+), op ([\d.]+)\), ([\d.]+) s "
                       r"in cases, ([\d.]+) s around them"
                       r"(?: \(([\d.]+) releasing cached memory\))?")


RUN_LINE = re.compile(r"^caliber run (?:end .*?: (\d+) rows|\S+ )", re.M)


def run_rows(run_dir):
    """The rows of a run directory's last run. Before 2026-12-07 a run appended to the rows an
    earlier run into the same directory had left (a batch's retry after an attempt killed at its
    timeout), so when run.log's last run ended, its rows are the file's last N, N from its end
    line (`caliber run end ...: N rows`)."""
    rows = []
    for line in (run_dir / "results.jsonl").read_text().splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    log = run_dir / "run.log"
    if log.exists():
        runs = RUN_LINE.findall(log.read_text(errors="replace"))
        if runs and runs[-1] and int(runs[-1]) <= len(rows):
            rows = rows[len(rows) - int(runs[-1]):]
    return rows


def final_run_dirs(op_dir):
    """An op's dtype-by-dtype reruns (ops/OP/dtypes/DTYPE, after its all-dtypes run failed)
    stand in for its own run, as in caliber's readers (src/core/op_run_dirs.h)."""
    reruns = sorted(d for d in (op_dir / "dtypes").glob("*") if d.is_dir())
    return reruns or [op_dir]


def rows_by_op(root):
    """{op: [row, ...]} from the ops' final runs (ops/*/results.jsonl or their dtype reruns),
    else from rows.jsonl.gz beside the status."""
    out = {}
    ops = sorted(d for d in root.glob("ops/*") if d.is_dir())
    if any((d / "results.jsonl").exists() for d in ops):
        for op in ops:
            for run_dir in final_run_dirs(op):
                if (run_dir / "results.jsonl").exists():
                    out.setdefault(op.name, []).extend(run_rows(run_dir))
    elif (root / "rows.jsonl.gz").exists():
        with gzip.open(root / "rows.jsonl.gz", "rt") as f:
            for line in f:
                r = json.loads(line)
                out.setdefault(r.get("op_dir") or r.get("op", "?"), []).append(r)
    return out


def setup_split(root):
    """Summed parts of run.log's `time:` lines, and how many ops had one."""
    names = ["before first case", "plan and files", "device", "peaks and tuner", "op",
             "in cases", "around cases", "of which releasing cached memory"]
    sums = [0.0] * len(names)
    n = released = 0
    for log in root.glob("ops/*/run.log"):
        for m in TIME_LINE.finditer(log.read_text(errors="replace")):
            n += 1
            released += m.group(8) is not None
            for i, v in enumerate(m.groups()):
                sums[i] += float(v or 0)
    split = dict(zip(names, sums))
    if not released:  # builds before 2026-12-02 print no release time
        del split[names[-1]]
    return n, split


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
    per_op = {}
    for op, op_rows in sorted(rows_by_op(root).items()):
        seen = set()
        mine = per_op.setdefault(op, {"cases": 0, "case wall": 0.0, "inputs": 0.0, "warmup": 0.0,
                                      "capture": 0.0, "sampling": 0.0, "max captures": 0})
        for r in op_rows:
            rows += 1
            p = r.get("phases_ms") or {}
            key = (json.dumps(r.get("shape")), r.get("size_detail"), r.get("dtype"))
            measure = p.get("measure", 0.0) / 1e3
            warm = p.get("warmup", 0.0) / 1e3
            cap = p.get("capture", 0.0) / 1e3
            phases["warmup"] += warm
            phases["capture"] += cap
            phases["sampling"] += max(measure - warm - cap, 0.0)
            mine["warmup"] += warm
            mine["capture"] += cap
            mine["sampling"] += max(measure - warm - cap, 0.0)
            mine["max captures"] = max(mine["max captures"], r.get("graph_captures") or 0)
            t = r.get("timer_used") or "?"
            by_timer[t] = by_timer.get(t, 0.0) + measure
            if key not in seen:  # the case's wall and inputs are shared by its providers' rows
                seen.add(key)
                cases += 1
                case_wall += r.get("wall_s", 0.0)
                phases["inputs"] += p.get("inputs", 0.0) / 1e3
                mine["cases"] += 1
                mine["case wall"] += r.get("wall_s", 0.0)
                mine["inputs"] += p.get("inputs", 0.0) / 1e3
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
    n, split = setup_split(root)
    if n:
        print(f"run.log time lines: {n} ops; " +
              ", ".join(f"{k} {v:.1f} s ({1e3 * v / n:.0f} ms/op)" for k, v in split.items()))
    top = sorted(((w, op) for op, w in op_wall.items()), reverse=True)[:int(TOP)]
    print(f"\n{'slowest ops':<44} {'wall s':>7} {'cases':>5} {'inputs':>7} {'warmup':>7} "
          f"{'capture':>7} {'sampling':>8} {'setup':>6} {'graphs':>6}")
    for w, op in top:
        m = per_op.get(op, {})
        setup = w - m.get("case wall", 0.0)
        print(f"{op:<44} {w:7.1f} {m.get('cases', 0):5d} {m.get('inputs', 0):7.1f} "
              f"{m.get('warmup', 0):7.1f} {m.get('capture', 0):7.1f} {m.get('sampling', 0):8.1f} "
              f"{setup:6.1f} {m.get('max captures', 0):6d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
