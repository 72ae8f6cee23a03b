#!/usr/bin/env python3
"""Joins caliber's summary of a `--candidate python:flag_gems` batch with caliber's summary of
FlagGems' own printed tables (`caliber summary` reads FlagGems-worded logs), op by op and case by
case, and writes the side-by-side CSV and a Markdown table.

Both harnesses walk the same core shapes (caliber reads FlagGems' shape file and fallback chain)
in the same order, but print a case's arguments differently (FlagGems' Size Detail lists its
input_fn's arguments), so cases pair by position within the op's table; an op whose two tables
differ in length is left out and named. FlagGems names some tables after the overload
(div_tensor, pow_tensor_tensor): TABLE_OF maps caliber's op to that table.

  bench/flaggems_table.py CALIBER_SUMMARY.csv FLAGGEMS_SUMMARY.csv OUT_PREFIX

Latencies in microseconds; `delta` columns are caliber / FlagGems - 1 for the same column."""
import csv
import sys
from collections import defaultdict


TABLE_OF = {"div": "div_tensor", "where": "where_self"}
# FlagGems' pow_tensor_tensor table times torch.pow(0.001, tensor) (its Size Detail reads
# [0.001, torch.Size(...)]), a scalar base: not caliber's pow (tensor ** tensor), so never joined.
NOT_THE_SAME_CALL = {"pow"}


def cases_by_op(path, candidate):
    """(op, dtype) -> [(shape, base_us, cand_us)] in table order."""
    sides = defaultdict(lambda: {"base": [], "cand": []})
    for r in csv.DictReader(open(path)):
        if r["status"] != "SUCCESS":
            continue
        side = {"baseline": "base", candidate: "cand"}.get(r["provider"])
        if side:
            sides[(r["op"], r["dtype"])][side].append((r["shape"], float(r["median_ms"]) * 1e3))
    out = {}
    for key, s in sides.items():
        out[key] = [(b[0], b[1], c[1]) for b, c in zip(s["base"], s["cand"])]
    return out


def main():
    cal_path, fg_path, prefix = sys.argv[1:4]
    cal = cases_by_op(cal_path, "python:flag_gems")
    fg = cases_by_op(fg_path, "gems")
    header = ["op", "dtype", "case", "shape", "caliber_torch_us", "caliber_gems_us",
              "caliber_speedup", "flaggems_torch_us", "flaggems_gems_us", "flaggems_speedup",
              "torch_delta", "gems_delta", "speedup_delta"]
    joined, unmatched = [], []
    for (op, dtype), cases in sorted(cal.items()):
        if op in NOT_THE_SAME_CALL:
            unmatched.append(f"{op} (FlagGems' table of that name times another call)")
            continue
        theirs = fg.get((TABLE_OF.get(op, op), dtype))
        if not theirs or len(theirs) != len(cases):
            unmatched.append(f"{op} ({len(cases)} vs {len(theirs) if theirs else 0} cases)")
            continue
        for i, ((shape, cb, cc), (_, fb, fc)) in enumerate(zip(cases, theirs)):
            joined.append([op, dtype, i, shape, cb, cc, cb / cc, fb, fc, fb / fc,
                           cb / fb - 1, cc / fc - 1, (cb / cc) / (fb / fc) - 1])
    with open(prefix + ".csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for row in joined:
            w.writerow(row[:4] + [f"{x:.4f}" for x in row[4:]])
    with open(prefix + ".md", "w") as f:
        f.write("| op | shape | caliber torch us | caliber gems us | caliber speedup | "
                "FlagGems torch us | FlagGems gems us | FlagGems speedup | torch delta | "
                "gems delta |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
        for r in joined:
            shape = r[3].replace("torch.Size(", "").replace(")", "")
            if len(shape) > 48:
                shape = shape[:45] + "..."
            f.write(f"| {r[0]} | {shape} | {r[4]:.2f} | {r[5]:.2f} | {r[6]:.3f} | {r[7]:.2f} | "
                    f"{r[8]:.2f} | {r[9]:.3f} | {100 * r[10]:+.1f}% | {100 * r[11]:+.1f}% |\n")
    ops = sorted({r[0] for r in joined})
    print(f"{len(joined)} cases joined over {len(ops)} ops: {', '.join(ops)}")
    print(f"not joined: {', '.join(unmatched)}")


if __name__ == "__main__":
    main()
