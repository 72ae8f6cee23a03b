#!/usr/bin/env python3
"""How closely screens agree row by row, and where their time went, by latency and timer.

  python3 bench/screen_agreement.py A B [C ...]

A, B, C: batch directories (ops/*/results.jsonl, or a compact rows.jsonl.gz). Rows are joined by
op, dtype, provider and size; each later screen is set against the first: per bucket of A's
median (and the timer A used), the rows both measured, the geometric mean of B/A, the median and
90th percentile of |B/A - 1|, and the share within 2% and 5%; then each screen's warmup, capture
and sampling seconds in that bucket. Rows A marked no_device_work form a bucket of their own.
`caliber compare` judges rows with their samples; this says how far the medians moved.
"""
import math
import sys
from pathlib import Path

from screen_profile import rows_by_op

BUCKETS = [(1e-3, "< 1 us"), (1e-2, "1-10 us"), (1e-1, "10-100 us"), (1.0, "0.1-1 ms"),
           (10.0, "1-10 ms"), (100.0, "10-100 ms"), (math.inf, ">= 100 ms")]


def keyed(root):
    out = {}
    for op, rows in rows_by_op(Path(root)).items():
        for r in rows:
            if r.get("status") != "SUCCESS" or not (r.get("median_ms") or 0) > 0:
                continue
            out[(op, r.get("dtype"), r.get("provider"), r.get("size_detail"))] = r
    return out


def graph_rows_with_samples(root):
    """The graph-timed SUCCESS rows of a screen that kept their samples, as (row, samples, graphs)."""
    for rows in rows_by_op(Path(root)).values():
        for r in rows:
            samples = r.get("samples_ms") or []
            if r.get("timer_used") == "graph" and r.get("status") == "SUCCESS" and samples:
                yield r, samples, r.get("graph_captures") or 0


def share_above(ratios, fraction):
    """The share of `ratios` above 1 + fraction."""
    return sum(v > 1 + fraction for v in ratios) / len(ratios)


def bucket_of(row):
    if any(m.startswith("no_device_work") for m in row.get("markers", [])):
        return "no_device_work"
    for limit, name in BUCKETS:
        if row["median_ms"] < limit:
            return name
    return BUCKETS[-1][1]


def phases(row):
    p = row.get("phases_ms") or {}
    warm, cap = p.get("warmup", 0.0), p.get("capture", 0.0)
    return warm / 1e3, cap / 1e3, max(p.get("measure", 0.0) - warm - cap, 0.0) / 1e3


def quantile(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    names = sys.argv[1:]
    screens = [keyed(n) for n in names]
    first = screens[0]
    order = ["no_device_work"] + [b for _, b in BUCKETS]
    groups = {}
    for key, a in first.items():
        if all(key in s for s in screens[1:]):
            groups.setdefault((a.get("timer_used"), bucket_of(a)), []).append(key)
    print(f"A = {names[0]}; " + "; ".join(f"{chr(66 + i)} = {n}" for i, n in enumerate(names[1:])))
    head = f"{'timer':<7} {'latency':<15} {'rows':>5}"
    for i in range(1, len(names)):
        b = chr(65 + i)
        head += f" | {b}/A gmean  med|d|  p90|d|  <=2%  <=5%"
    print(head)
    for (timer, bucket), keys in sorted(groups.items(),
                                        key=lambda kv: (str(kv[0][0]), order.index(kv[0][1]))):
        line = f"{str(timer):<7} {bucket:<15} {len(keys):>5}"
        for s in screens[1:]:
            ratios = [s[k]["median_ms"] / first[k]["median_ms"] for k in keys]
            dev = [abs(r - 1) for r in ratios]
            gmean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
            within2 = sum(d <= 0.02 for d in dev) / len(dev)
            within5 = sum(d <= 0.05 for d in dev) / len(dev)
            line += (f" | {gmean:10.4f} {100 * quantile(dev, 0.5):6.2f}% {100 * quantile(dev, 0.9):6.2f}%"
                     f" {100 * within2:4.0f}% {100 * within5:4.0f}%")
        print(line)
    print(f"\n{'timer':<7} {'latency':<15} " +
          " ".join(f"{'warmup ' + chr(65 + i):>9} {'capture ' + chr(65 + i):>10} "
                   f"{'sampling ' + chr(65 + i):>11}" for i in range(len(names))))
    totals = [[0.0, 0.0, 0.0] for _ in names]
    for (timer, bucket), keys in sorted(groups.items(),
                                        key=lambda kv: (str(kv[0][0]), order.index(kv[0][1]))):
        line = f"{str(timer):<7} {bucket:<15} "
        for i, s in enumerate(screens):
            sums = [sum(phases(s[k])[j] for k in keys) for j in range(3)]
            totals[i] = [t + v for t, v in zip(totals[i], sums)]
            line += f"{sums[0]:9.1f} {sums[1]:10.1f} {sums[2]:11.1f} "
        print(line)
    print(f"{'all':<23} " + " ".join(f"{t[0]:9.1f} {t[1]:10.1f} {t[2]:11.1f}" for t in totals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
