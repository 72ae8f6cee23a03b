#!/usr/bin/env python3
"""Whether a graph's first timed replay reads slower than its later ones, by latency.

  python3 bench/first_replays.py SCREEN [SCREEN ...]

SCREEN: a batch directory whose rows keep their samples (ops/*/results.jsonl). The graph timer
samples its captures in rounds, graph after graph; the first graph's first launch is the untimed
lead of its sizing replay, every other graph's first launch is its first timed sample. Per bucket
of the row's median, over graph-timed rows of at least 2 captures: the median over rows of
(median of round 1's samples of graphs 2..G) / (graph 1's first sample), the share of rows where
that is above 1%, and, for rows sampled 2 rounds or more, round 1 of graphs 2..G against all the
later rounds. A value near 1.000 says the first launches are like the others.
"""
import statistics
import sys

from screen_agreement import BUCKETS, bucket_of, graph_rows_with_samples, share_above


def ratios(root):
    first, later = {}, {}
    for r, samples, graphs in graph_rows_with_samples(root):
        if (graphs < 2 or len(samples) < graphs or not samples[0] > 0 or
                any(m.startswith("no_device_work") for m in r.get("markers", []))):
            continue
        name = bucket_of(r)
        round1 = statistics.median(samples[1:graphs])
        first.setdefault(name, []).append(round1 / samples[0])
        if len(samples) >= 2 * graphs:
            later.setdefault(name, []).append(round1 / statistics.median(samples[graphs:]))
    return first, later


def main(screens):
    for root in screens:
        first, later = ratios(root)
        print(f"{root}")
        print(f"  {'latency':10} {'rows':>5} {'g2..G/g1':>9} {'>1%':>5} {'rows 2+':>8} "
              f"{'r1/rest':>8} {'>1%':>5}")
        for _, name in BUCKETS:
            if name not in first:
                continue
            f, l = first[name], later.get(name, [])
            line = (f"  {name:10} {len(f):5} {statistics.median(f):9.4f} "
                    f"{share_above(f, 0.01):5.0%} {len(l):8}")
            if l:
                line += f" {statistics.median(l):8.4f} {share_above(l, 0.01):5.0%}"
            print(line)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
