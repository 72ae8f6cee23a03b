#!/usr/bin/env python3
"""A batch directory's rows without their samples, in one gzip file, for screens too large to
bring back whole (the whole corpus's results.jsonl run to hundreds of MiB with samples).

  python3 bench/compact_rows.py runs/device/NAME    # writes runs/device/NAME/rows.jsonl.gz

Each line is a row of ops/<op>/results.jsonl with `op_dir` added and `samples_ms` and
`quantiles_ms` dropped (sample_count, median, noise, phases, captures and markers stay), so that
bench/screen_profile.py reads the phases from it as from the rows themselves.
"""
import gzip
import json
import sys
from pathlib import Path

DROPPED = ("samples_ms", "quantiles_ms")


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    root = Path(sys.argv[1])
    n = 0
    with gzip.open(root / "rows.jsonl.gz", "wt") as out:
        for results in sorted(root.glob("ops/*/results.jsonl")):
            for line in results.read_text().splitlines():
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:
                    continue
                for key in DROPPED:
                    row.pop(key, None)
                row["op_dir"] = results.parent.name
                out.write(json.dumps(row, separators=(",", ":")) + "\n")
                n += 1
    print(f"{root / 'rows.jsonl.gz'}: {n} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
