#!/usr/bin/env python3
"""Per-op speedups of a candidate screen, at one caliber or two, as a markdown table.

  python3 bench/candidate_speedups.py GRAPH_DIR [KERNEL_DIR]

GRAPH_DIR is a `caliber batch --candidate ...` screen at the default caliber (graph timer),
KERNEL_DIR the same ops at FlagGems' `--mode kernel` (do_bench's caliber: direct timer, 256 MB
flush before each call). Each may be a batch directory or what bench/screen_calls.sh's
pack_screen brings back (rows.jsonl.gz), or several pieces joined with commas (piece by piece,
a later piece's op replacing an earlier one's). Per op and dtype: the cases whose candidate row
has a speedup, the geometric mean of those speedups (torch latency / candidate latency, each
row's own baseline measured in the same process), and the candidate rows NOT_COVERED or failed.
"""
import csv
import json
import statistics
import sys
from pathlib import Path

from screen_profile import rows_by_op


UNFINISHED = ("pending", "interrupted", "task_ended", "dismissed")


def finished(root):
    """Ops whose run a screen finished (ok, partial, failed or another final state), or None for
    a directory with neither completion markers nor ops_status.csv. A cut batch leaves an op
    interrupted or pending (a Slurm task's end, task_ended); either may keep rows of an
    unfinished attempt, which a resumed batch throws away, so they are not counted.
    Each op's ops/<op>/.complete marker is read first: it is what the batch resumes from, and it
    outlives a later call. ops_status.csv lists only the ops of the directory's last batch, so an
    ONLY_OPS call into a piece's directory (fgc_1x) would otherwise hide the ops its earlier
    calls finished. ops_status.csv serves a directory without markers (a Slurm merge's view)."""
    root = Path(root)
    done = set()
    markers = list(root.glob("ops/*/.complete"))
    for marker in markers:
        try:
            state = json.loads(marker.read_text())
        except ValueError:
            continue  # the batch redoes an op whose marker it cannot read; so do we
        if state.get("status") not in UNFINISHED:
            done.add(state.get("op", marker.parent.name))
    if markers:
        return done
    status = root / "ops_status.csv"
    if not status.exists():
        return None
    with open(status, newline="") as f:
        return {r["op"] for r in csv.DictReader(f) if r["status"] not in UNFINISHED}


def load(spec):
    """{(op, dtype): [candidate rows]} of the comma-joined screen directories in `spec`."""
    out = {}
    for part in spec.split(","):
        per_piece = {}
        done = finished(part)
        for op, rows in rows_by_op(Path(part)).items():
            if done is not None and op not in done:
                continue
            for r in rows:
                if r.get("provider", "baseline") == "baseline":
                    continue
                per_piece.setdefault((r.get("op", op), r.get("dtype", "?")), []).append(r)
        out.update(per_piece)
    return out


def summary(rows):
    speedups = [r["speedup"] for r in rows if r.get("speedup")]
    not_covered = sum(1 for r in rows if r.get("status") == "NOT_COVERED")
    failed = sum(1 for r in rows if r.get("status") == "FAILED")
    geomean = statistics.geometric_mean(speedups) if speedups else None
    return len(speedups), geomean, not_covered, failed


def cell(value):
    return "-" if value is None else f"{value:.3f}"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    graph = load(sys.argv[1])
    kernel = load(sys.argv[2]) if len(sys.argv) == 3 else {}
    header = "| op | dtype | cases | speedup, graph | not covered | failed |"
    rule = "| --- | --- | ---: | ---: | ---: | ---: |"
    if kernel:
        header = ("| op | dtype | cases | speedup, graph | speedup, do_bench (`--mode kernel`) "
                  "| not covered | failed |")
        rule = "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
    print(header)
    print(rule)
    totals = [0, 0, 0]
    for key in sorted(set(graph) | set(kernel)):
        n, g, not_covered, failed = summary(graph.get(key, []))
        totals = [totals[0] + n, totals[1] + not_covered, totals[2] + failed]
        cells = [key[0], key[1], str(n), cell(g)]
        if kernel:
            cells.append(cell(summary(kernel.get(key, []))[1]))
        cells += [str(not_covered), str(failed)]
        print("| " + " | ".join(cells) + " |")
    print(f"\n{len(set(graph) | set(kernel))} op x dtype pairs; at the graph caliber {totals[0]} "
          f"cases with a speedup, {totals[1]} not covered, {totals[2]} failed")


if __name__ == "__main__":
    main()
