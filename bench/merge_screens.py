#!/usr/bin/env python3
"""One batch directory from a screen measured in pieces, for bench/screen_profile.py.

  python3 bench/merge_screens.py OUT FIRST LATER...

FIRST is the screen that selected every op (its ops_status.csv gives the order); each LATER one
screened some of them again (a piece on another machine, say). Every op's status, run.log and
rows come from the last piece in which it is ok, else from FIRST. The directories are what
bench/screen_calls.sh's pack_screen brings back, unpacked: ops_status.csv, ops/*/run.log and a
compact rows.jsonl.gz. Then `python3 bench/screen_profile.py OUT`.
"""
import csv
import gzip
import json
import shutil
import sys
from pathlib import Path


def status_rows(root):
    with open(root / "ops_status.csv", newline="") as f:
        return list(csv.DictReader(f))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    first = Path(sys.argv[2])
    later = [Path(p) for p in sys.argv[3:]]
    if out.exists():
        sys.exit(f"merge_screens: {out} exists; give a new directory")
    order = status_rows(first)
    source = {r["op"]: first for r in order}
    chosen = {r["op"]: r for r in order}
    for piece in later:
        for r in status_rows(piece):
            if r["op"] not in chosen:
                sys.exit(f"merge_screens: {piece} has {r['op']}, which {first} did not select")
            if r["status"] == "ok":
                source[r["op"]] = piece
                chosen[r["op"]] = r
    (out / "ops").mkdir(parents=True)
    with open(out / "ops_status.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(order[0].keys()))
        writer.writeheader()
        for r in order:
            writer.writerow(chosen[r["op"]])
            op_dir = source[r["op"]] / "ops" / r["op"]
            if op_dir.is_dir():
                shutil.copytree(op_dir, out / "ops" / r["op"])
    rows = 0
    with gzip.open(out / "rows.jsonl.gz", "wt") as merged:
        for piece in [first] + later:
            with gzip.open(piece / "rows.jsonl.gz", "rt") as f:
                for line in f:
                    row = json.loads(line)
                    if source.get(row.get("op_dir") or row.get("op")) == piece:
                        merged.write(line)
                        rows += 1
    counts = {}
    for r in chosen.values():
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    print(f"{out}: {len(order)} ops ({counts}), {rows} rows")


if __name__ == "__main__":
    main()
