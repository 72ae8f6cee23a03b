#!/usr/bin/env python3
"""What a screen's rows say rules would save, replayed over their phases: a projection, not a
measurement (the rows were taken under the rules of their own build).

  python3 bench/project_screen.py DIR    # DIR: a batch directory, or one with rows.jsonl.gz

Rules (each as docs/measurement.md states it):
  growth  the adaptive growth ceiling counts the captures' host time: graphs double from 8 only
          while the row's captures and replays so far, plus the doubling's, stay within 1 s
  views   rows reading under 0.01 ns a call without `no_device_work`: judged again at their
          resized graph, they would be marked and stop at the floor (their wall is counted saved)
  floor   non-graph rows whose 10 floor samples pass 1 s take max(5, what fits) samples
  warmup  rows of 50 ms a call or more warm up with 2 calls, not 3
Savings overlap where a row is under two rules (views and growth share rows); the total counts
each row once, at the larger of its savings.

Fifteenth-session rules (each in another phase of the row, so they add up, to at most the row's
wall; the total adds them to the largest of the four above):
  lead     graph rows of 1 ms a replay or more: the sizing replay's lead and each batch's (one,
           two where the captures grew) become a 0.25 ms delay instead of a replay
  sample   graph rows: the sizing replay is the first graph's first sample, one replay fewer
  warmup2  rows of 1-50 ms a call warm up with max(2, ceil(5 ms / call)) calls, not 3 or more
  made     baseline rows of ops not named *_backward, 5 ms a call or more: the instance's untimed
           call counts as the warmup's first, one call fewer
  mintime  graph rows not marked no_device_work: sampling ends after one round of the captures or
           5 ms of it, whichever is longer, where the 10 ms floor sampled longer
"""
import csv
import sys
from pathlib import Path

from screen_profile import rows_by_op

CEILING_MS = 1000.0


def growth_saving_ms(r):
    n_final = r.get("graph_captures") or 0
    if r.get("timer_used") != "graph" or n_final <= 8:
        return 0.0
    if not any(m.startswith("captures_grown") for m in r.get("markers") or []):
        return 0.0
    p = r.get("phases_ms") or {}
    capture = p.get("capture", 0.0)
    sampling = max(p.get("measure", 0.0) - p.get("warmup", 0.0) - capture, 0.0)
    per_graph = capture / n_final + sampling / n_final
    n, spent = 8, 8 * per_graph
    while n < n_final and spent + n * per_graph <= CEILING_MS:
        spent += n * per_graph
        n *= 2
    return (n_final - n) * per_graph if n < n_final else 0.0


def views_saving_ms(r):
    if r.get("timer_used") != "graph" or "no_device_work" in (r.get("markers") or []):
        return 0.0
    if (r.get("median_ms") or 1.0) >= 1e-5:
        return 0.0
    return 1e3 * r.get("wall_s", 0.0)


def floor_saving_ms(r):
    median = r.get("median_ms") or 0.0
    if r.get("timer_used") == "graph" or r.get("policy") != "adaptive" or median <= 0:
        return 0.0
    have = r.get("sample_count") or 0
    if have * median <= CEILING_MS or have <= 5:
        return 0.0
    keep = max(5, int(CEILING_MS / median))
    return max(have - keep, 0) * median if 10 * median > CEILING_MS else 0.0


def warmup_saving_ms(r):
    median = r.get("median_ms") or 0.0
    calls = r.get("warmup_calls") or 0
    return median if median >= 50 and calls >= 3 else 0.0


LEAD_MS = 0.25


def _graph(r):
    return r.get("timer_used") == "graph" and "no_device_work" not in (r.get("markers") or [])


def lead_saving_ms(r):
    median = r.get("median_ms") or 0.0
    if not _graph(r) or median < 1.0:
        return 0.0
    leads = 2 + any(m.startswith("captures_grown") for m in r.get("markers") or [])
    return leads * (median - LEAD_MS)


def sample_saving_ms(r):
    if r.get("timer_used") != "graph":
        return 0.0
    return max(r.get("median_ms") or 0.0, LEAD_MS)


def warmup2_saving_ms(r):
    median = r.get("median_ms") or 0.0
    calls = r.get("warmup_calls") or 0
    if not 1.0 <= median < 50.0 or calls < 3:
        return 0.0
    return max(calls - max(2, -(-5.0 // median)), 0) * median


def made_saving_ms(r):
    median = r.get("median_ms") or 0.0
    if r.get("provider") != "baseline" or r.get("op", "").endswith("_backward") or median < 5.0:
        return 0.0
    return median


def mintime_saving_ms(r):
    if not _graph(r) or any(m.startswith("captures_grown") for m in r.get("markers") or []):
        return 0.0
    p = r.get("phases_ms") or {}
    sampling = p.get("measure", 0.0) - p.get("warmup", 0.0) - p.get("capture", 0.0)
    count = r.get("sample_count") or 0
    if sampling <= 0 or count <= 0:
        return 0.0
    per_sample = sampling / count
    kept = max((r.get("graph_captures") or 8) * per_sample, 5.0)
    return max(sampling - kept, 0.0)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    root = Path(sys.argv[1])
    ok = None
    if (root / "ops_status.csv").exists():
        with open(root / "ops_status.csv", newline="") as f:
            ok = {r["op"] for r in csv.DictReader(f) if r["status"] == "ok"}
    rows = [r for op, op_rows in rows_by_op(root).items() if ok is None or op in ok
            for r in op_rows]
    rules = {"growth": growth_saving_ms, "views": views_saving_ms, "floor": floor_saving_ms,
             "warmup": warmup_saving_ms}
    added = {"lead": lead_saving_ms, "sample": sample_saving_ms, "warmup2": warmup2_saving_ms,
             "made": made_saving_ms, "mintime": mintime_saving_ms}
    total = {name: 0.0 for name in {**rules, **added}}
    counted = {name: 0 for name in total}
    once = with_added = 0.0
    for r in rows:
        savings = {name: rule(r) for name, rule in rules.items()}
        more = {name: rule(r) for name, rule in added.items()}
        for name, ms in {**savings, **more}.items():
            if ms > 0:
                total[name] += ms
                counted[name] += 1
        once += max(savings.values())
        with_added += min(max(savings.values()) + sum(more.values()), 1e3 * r.get("wall_s", 0.0))
    wall = sum(r.get("wall_s", 0.0) for r in rows)
    print(f"{root}: {len(rows)} rows of ok ops, their cases' wall {wall:.1f} s")
    for name in rules:
        print(f"  {name:<7} {counted[name]:5d} rows  {total[name] / 1e3:6.1f} s")
    print(f"  each row once, at its largest saving: {once / 1e3:.1f} s")
    for name in added:
        print(f"  {name:<7} {counted[name]:5d} rows  {total[name] / 1e3:6.1f} s")
    print(f"  with the fifteenth session's rules, added: {with_added / 1e3:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
