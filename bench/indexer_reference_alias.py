#!/usr/bin/env python3
"""Why caliber refuses flag_gems.fused_indexer_q_rope_quant: FlagGems' benchmark reference and its
unit test's reference rotate the rope tail differently, and the kernel follows the unit test.

Both files define `_rotate_tail_gptj`. The benchmark's
(benchmark/test_fused_indexer_q_rope_quant.py) writes the rotated even lanes into q_rot before
computing the odd ones from `even`, a view of q_rot, so the odd lanes read the rotated values.
The unit test's (tests/test_fused_indexer_q_rope_quant.py) computes both from the inputs before
writing, as the kernel does (src/flag_gems/fused/fused_indexer_q_rope_quant.py: r_odd from
x_even). caliber's baseline ports the benchmark's reference, as issue 16 asks.

This runs the two functions as FlagGems wrote them (read from its git repository at the pinned
commit, on the CPU), on the benchmark's inputs and fp8 quantization, and counts the elements
outside caliber's bfloat16 tolerance (rtol = atol = 0.125):

  .venv/bin/python bench/indexer_reference_alias.py [FLAGGEMS_GIT [COMMIT]]
"""
import ast
import subprocess
import sys

import torch

GIT = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/flagos-ai+FlagGems/repo"
COMMIT = sys.argv[2] if len(sys.argv) > 2 else "ed2508bcb5a03000e9774734201d840ba362cd11"
NAMES = {"HEAD_DIM", "ROPE_DIM", "NUM_HEADS", "MAX_POS", "_rotate_tail_gptj", "_make_cos_sin_cache"}


def definitions(path):
    """The file's constants and the two functions, executed without its imports (flag_gems)."""
    source = subprocess.run(["git", "--git-dir", GIT, "show", f"{COMMIT}:{path}"], check=True,
                            capture_output=True, text=True).stdout
    tree = ast.parse(source)
    def wanted(node):
        if isinstance(node, ast.FunctionDef):
            return node.name in NAMES
        return isinstance(node, ast.Assign) and any(getattr(t, "id", "") in NAMES
                                                    for t in node.targets)
    keep = [n for n in tree.body if wanted(n)]
    space = {"torch": torch}
    exec(compile(ast.Module(body=keep, type_ignores=[]), path, "exec"), space)
    return space


def quantize(q_rot):  # _reference_op's fp8 path, both files alike
    amax = q_rot.abs().amax(dim=-1)
    q_scale = torch.exp2(torch.ceil(torch.log2(amax.clamp(min=1e-4) / 448.0)))
    return (q_rot / q_scale.unsqueeze(-1)).to(torch.float8_e4m3fn).float()


bench = definitions("benchmark/test_fused_indexer_q_rope_quant.py")
unit = definitions("tests/test_fused_indexer_q_rope_quant.py")
torch.manual_seed(0)
cache = bench["_make_cos_sin_cache"](bench["MAX_POS"], bench["ROPE_DIM"], "cpu", torch.bfloat16)
for tokens in (1, 32):  # FusedIndexerQRopeQuantBenchmark's fp8 shapes
    q = torch.randn(tokens, bench["NUM_HEADS"], bench["HEAD_DIM"], dtype=torch.bfloat16)
    positions = torch.randint(0, bench["MAX_POS"], (tokens,), dtype=torch.int64)
    b = quantize(bench["_rotate_tail_gptj"](q, positions, cache))
    u = quantize(unit["_rotate_tail_gptj"](q, positions, cache))
    outside = ((b - u).abs() > 0.125 + 0.125 * u.abs()).sum().item()
    lanes = tokens * bench["NUM_HEADS"] * bench["ROPE_DIM"] // 2
    print(f"num_tokens {tokens}: max |diff| {(b - u).abs().max().item():g}, {outside} of "
          f"{b.numel()} elements outside (the odd rope lanes are {lanes})")
