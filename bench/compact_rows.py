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

from screen_profile import rows_by_op

DROPPED = ("samples_ms", "quantiles_ms")


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    root = Path(sys.argv[1])
    by_op = rows_by_op(root)  # read whole before the file it may come from is written
    n = 0
    with gzip.open(root / "rows.jsonl.gz", "wt") as out:
        for op, rows in by_op.items():
            for row in rows:
                for key in DROPPED:
                    row.pop(key, None)
                row["op_dir"] = op
                out.write(json.dumps(row, separators=(",", ":")) + "\n")
                n += 1
    print(f"{root / 'rows.jsonl.gz'}: {n} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
