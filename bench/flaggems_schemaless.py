#!/usr/bin/env python3
"""FlagGems' registrations under an ATen name that has no schema, and what each corpus op of that
name reaches instead.

  python3 bench/flaggems_schemaless.py FLAGGEMS_CHECKOUT CALIBER_BINARY

A kernel registered under a name no one has def()ed (the bare aten::bitwise_left_shift, whose
overloads are .Tensor, .Scalar_Tensor and .Tensor_Scalar) is never called: torch's Python layer
and ATen's C++ functions both dispatch to a real overload. FlagGems' own benchmark then times ATen
under `use_gems()` unless it calls the flag_gems function itself, and caliber reads such an op as
not covered unless it declares that function (OpDef::python_fn). Reads FlagGems'
`_FULL_CONFIG` names from src/flag_gems/__init__.py, needs torch (CPU is enough).
"""
import json
import re
import subprocess
import sys
from pathlib import Path

import torch


def has_schema(name):
    base, _, overload = name.partition(".")
    try:
        torch._C._get_schema("aten::" + base, overload)
        return True
    except RuntimeError:
        return False


def main(checkout, caliber):
    source = (Path(checkout) / "src/flag_gems/__init__.py").read_text()
    config = re.search(r"^_FULL_CONFIG = \((.*?)^\)", source, re.M | re.S).group(1)
    names = sorted(set(re.findall(r'^\s*\(\s*"([A-Za-z0-9_.]+)",', config, re.M)))
    ops = {o["op"]: o for o in json.loads(subprocess.run(
        [caliber, "ops", "--json", "--level", "comprehensive"], check=True,
        capture_output=True, text=True).stdout)}
    orphans = [n for n in names if not has_schema(n)]
    print(f"{len(names)} registered names, {len(orphans)} without a schema\n")
    print("| registered as | corpus op | op declares | python_fn |")
    print("| --- | --- | --- | --- |")
    for name in orphans:
        op = ops.get(name) or ops.get(name.split(".")[0])
        if op is None:
            print(f"| {name} | - | - | - |")
            continue
        aten = ", ".join(a.removeprefix("aten::") for a in op.get("aten") or [])
        print(f"| {name} | {op['op']} | {aten} | {op.get('python_fn') or '-'} |")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
