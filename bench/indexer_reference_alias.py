#!/usr/bin/env python3
"""Why caliber refuses flag_gems.fused_indexer_q_rope_quant: FlagGems' benchmark reference and its
unit test's reference rotate the rope tail differently, and the kernel follows the unit test.

Both files define `_rotate_tail_gptj`. The benchmark's
(benchmark/test_fused_indexer_q_rope_quant.py) writes the rotated even lanes into q_rot before
computing the odd ones from `even`, a view of q_rot, so the odd lanes read the rotated values.
The unit test's (tests/test_fused_indexer_q_rope_quant.py) computes both from the inputs before
writing, as the kernel does (src/flag_gems/fused/fused_indexer_q_rope_quant.py: r_odd from
x_even). caliber's baseline ports the benchmark's reference, as issue 16 asks.

This runs both files' fp8 references as FlagGems wrote them (the benchmark's `_reference_op`,
the unit test's `_rotate_tail_gptj` then `_reference_fp8`; read from its git repository at the
pinned commit, on the CPU) on the benchmark's `_input_fn`, and counts the fp8 elements outside
caliber's bfloat16 tolerance (rtol = atol = 0.125):

  .venv/bin/python bench/indexer_reference_alias.py [FLAGGEMS_GIT [COMMIT]]
"""
import ast
import subprocess
import sys

import torch

GIT = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/flagos-ai+FlagGems/repo"
COMMIT = sys.argv[2] if len(sys.argv) > 2 else "ed2508bcb5a03000e9774734201d840ba362cd11"
NAMES = {"HEAD_DIM", "ROPE_DIM", "NUM_HEADS", "MAX_POS", "_make_cos_sin_cache", "_rotate_tail_gptj",
         "_quantize_to_mxfp4", "_reference_op", "_reference_fp8", "_input_fn"}


def definitions(path):
    """The file's constants and functions in NAMES, executed without its imports (flag_gems)."""
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


bench = definitions("benchmark/test_fused_indexer_q_rope_quant.py")
unit = definitions("tests/test_fused_indexer_q_rope_quant.py")
torch.manual_seed(0)
for tokens in (1, 32):  # FusedIndexerQRopeQuantBenchmark's fp8 shapes
    args = next(bench["_input_fn"]((tokens, bench["NUM_HEADS"], False), torch.bfloat16, "cpu"))
    positions, q, cache, weights, softmax_scale, head_scale, _ = args
    b = bench["_reference_op"](*args)[0].float()
    u = unit["_reference_fp8"](unit["_rotate_tail_gptj"](q, positions, cache), weights,
                               softmax_scale, head_scale)[0].float()
    outside = ((b - u).abs() > 0.125 + 0.125 * u.abs()).sum().item()
    lanes = tokens * bench["NUM_HEADS"] * bench["ROPE_DIM"] // 2
    print(f"num_tokens {tokens}: max |diff| {(b - u).abs().max().item():g}, {outside} of "
          f"{b.numel()} elements outside (the odd rope lanes are {lanes})")
