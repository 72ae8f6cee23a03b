#!/usr/bin/env python3
"""Whether a graph's replay reads slower right after another graph's than after its own.

  python3 bench/switched_replays.py SCREEN [SCREEN ...]

SCREEN: a batch directory whose rows keep their samples (ops/*/results.jsonl). The graph timer
queues each batch graph after graph, `each` replays of one graph back to back, behind one untimed
lead of the batch's first graph. Under the adaptive policy's 5 ms floor a row of 8 graphs of
0.25 ms replays takes a first batch of one replay each and a second of two each (24 samples, the
second laid out g1 g1 g2 g2 ... g8 g8); graphs added for the captures' spread (8, then 16) take
three each in a batch of their own (g9 g9 g9 g10 g10 g10 ...). This reads rows of that layout
only: 8, 16 or 32 graphs, three samples a graph, no marker but captures_grown. For each graph
that does not lead its batch, its first replay of the batch against its next one; per row the
median over those graphs; per bucket of the row's median and for rows kept at 8 graphs and grown
apart: the median over rows, the share of rows above 1% and 3%, and graph 1's own pair (both
behind its lead) as the control. With every graph warmed before its timed replays
(--graph-warm-each 1) the first replays are no longer switched and the ratio reads the control.
"""
import statistics
import sys

from screen_agreement import BUCKETS, bucket_of, graph_rows_with_samples, share_above

FIRST = 8  # the captures asked for; levels of 8 and 16 graphs are added to them


def first_over_next(samples, graphs):
    """Per graph that does not lead its batch: its first replay of the batch over its next."""
    second = samples[FIRST:3 * FIRST]  # g1 g1 g2 g2 ... g8 g8
    out = [second[2 * g] / second[2 * g + 1] for g in range(1, FIRST)]
    start, level = 3 * FIRST, FIRST
    while level < graphs:  # g9 g9 g9 g10 g10 g10 ...: the first of the level leads it
        added = samples[start:start + 3 * level]
        out += [added[3 * g] / added[3 * g + 1] for g in range(1, level)]
        start, level = start + 3 * level, 2 * level
    return out


def ratios(root):
    switched, control = {}, {}
    for r, samples, graphs in graph_rows_with_samples(root):
        markers = [m for m in r.get("markers", []) if not m.startswith("captures_grown")]
        if (graphs not in (FIRST, 2 * FIRST, 4 * FIRST) or len(samples) != 3 * graphs or
                markers or not min(samples) > 0):
            continue
        key = (bucket_of(r), "8" if graphs == FIRST else "grown")
        switched.setdefault(key, []).append(statistics.median(first_over_next(samples, graphs)))
        control.setdefault(key, []).append(samples[FIRST] / samples[FIRST + 1])
    return switched, control


def main(screens):
    for root in screens:
        switched, control = ratios(root)
        print(f"{root}")
        print(f"  {'latency':10} {'graphs':>6} {'rows':>5} {'first/next':>10} {'>1%':>5} "
              f"{'>3%':>5} {'graph 1':>8}")
        for _, name in BUCKETS:
            for kept in ("8", "grown"):
                if (name, kept) not in switched:
                    continue
                s, c = switched[(name, kept)], control[(name, kept)]
                print(f"  {name:10} {kept:>6} {len(s):5} {statistics.median(s):10.4f} "
                      f"{share_above(s, 0.01):5.0%} {share_above(s, 0.03):5.0%} "
                      f"{statistics.median(c):8.4f}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
