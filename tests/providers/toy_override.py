"""A toy candidate for caliber's python: provider tests (`--candidate python:toy_override`).

Inside `caliber_context()` it overrides aten::add.Tensor and aten::relu for CPU through
torch.library; the overrides compute ATen's values through other operators and count their
calls in `calls`, which is how a test sees that they ran. `raising_context()` (used as
`python:toy_override:raising_context`) installs an add that raises, for the failure path, and
`sleeping_context()` an add that takes at least a millisecond, so that a timing shows from the
outside of a `caliber run` process which rows ran the override.

It also offers functions for ops the dispatcher never reaches, as FlagGems does for its fused
kernels (caliber's OpDef::python_fn declares their names and arguments): `silu_and_mul` (right,
computed another way than the baseline), `moe_sum` (writes its output and returns None), and
`gelu_and_mul`, deliberately twice the right result, which caliber must refuse to time. It has no
`reglu`, so that op is not covered although the context overrides aten::relu. `rwkv_ka_fusion`
returns a tuple whose third element is the op's result, as FlagGems' does; `mrope` keeps what it
was passed in `last_mrope` (booleans, and an axis_map that is None on the non-GLM rows).

`overloads_context()` overrides operators under the overload FlagGems registers, which an op
must declare to be covered: aten::conv2d, aten::conv2d.padding and aten::conv3d, with kernels
that unpack stride, padding and dilation as FlagGems' conv2d does (`h, w = stride` for a list),
so that a list of one entry fails in them as it does in FlagGems, aten::count_nonzero (the
default overload, not dim_IntList), aten::ne_.Tensor (which not_equal_ reaches through ATen's
composite), aten::_linalg_eigvals (linalg_eigvals' composite calls it) and aten::exponential_
(the functional exponential's composite calls it).

The functions `_add_relu_`, `igammac`, `igammac_out`, `cross_entropy_loss` and `instance_norm`
have the signatures of FlagGems' functions of those names (parsed from its source), which its
benchmark calls itself; they compute torch's values.

`orphans_context()` registers kernels as FlagGems does under names without a schema: the bare
aten::bitwise_left_shift (its overloads are .Tensor, .Scalar_Tensor and .Tensor_Scalar) and
aten::conv_transpose2d (.input). No call reaches them, so the ops stay not covered, except
conv_transpose2d, whose `conv_transpose2d` function here covers it as FlagGems' benchmark calls
flag_gems.conv_transpose2d.

With TOY_OVERRIDE_CALL_LOG set, a process's first call of the add or relu override appends one
line to that file: its pid and the FLAGGEMS_DB_URL it runs under (how a test sees which processes
of a batch's warm pass and screen called the candidate, and with which tuned-config database).
"""

import contextlib
import os
import time

import torch

__version__ = "0.1.toy"

calls = {"add": 0, "relu": 0, "silu_and_mul": 0, "moe_sum": 0, "gelu_and_mul": 0}
last_mrope = {}


def _note_first_call():
    path = os.environ.get("TOY_OVERRIDE_CALL_LOG")
    if not path or calls["add"] + calls["relu"] > 1:
        return
    with open(path, "a") as log:
        log.write(f"pid={os.getpid()} FLAGGEMS_DB_URL={os.environ.get('FLAGGEMS_DB_URL', '')}\n")


def _add(self, other, *, alpha=1):
    calls["add"] += 1
    _note_first_call()
    return torch.sub(self, other, alpha=-alpha)


def _relu(self):
    calls["relu"] += 1
    _note_first_call()
    return torch.clamp_min(self, 0)


def silu_and_mul(x, y):
    calls["silu_and_mul"] += 1
    return x * torch.sigmoid(x) * y


def moe_sum(input, output):
    calls["moe_sum"] += 1
    torch.sum(input, dim=1, out=output)


def gelu_and_mul(x, y):
    calls["gelu_and_mul"] += 1
    return 2 * torch.nn.functional.gelu(x) * y


def rwkv_ka_fusion(k, kk, a, ka, H, N):
    T = k.shape[0]
    o_kk = torch.nn.functional.normalize((k * kk).view(T, H, N), dim=-1).view(T, H * N)
    return k * (1 + (a - 1) * ka), o_kk, o_kk * a


def mrope(query, key, cos_sin_cache, positions, section_t, section_h, section_w, head_size,
          rotary_dim, is_interleaved=False, is_interleaved_glm=False, is_neox_style=True,
          axis_map=None):
    last_mrope.clear()
    last_mrope.update(sections=(section_t, section_h, section_w), head_size=head_size,
                      rotary_dim=rotary_dim, is_interleaved=is_interleaved,
                      is_interleaved_glm=is_interleaved_glm, is_neox_style=is_neox_style,
                      axis_map=axis_map)
    return query, key


def _per_dim(value, dims):
    if isinstance(value, (list, tuple)):
        # FlagGems' conv2d: `stride_height, stride_width = stride`.
        first, *rest = value
        if len(rest) != dims - 1:
            raise ValueError(f"not enough values to unpack (expected {dims}, got {len(value)})")
        return [first, *rest]
    return [value] * dims


def _conv(dims):
    def kernel(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
        stride, dilation = _per_dim(stride, dims), _per_dim(dilation, dims)
        if padding == "valid":
            padding = 0
        elif padding == "same":
            if stride != [1] * dims:
                raise ValueError("padding='same' needs stride 1")
            padding = [d * (k - 1) // 2 for d, k in zip(dilation, weight.shape[2:])]
        return torch.ops.aten.convolution(input, weight, bias, stride, _per_dim(padding, dims),
                                          dilation, False, [0] * dims, groups)
    return kernel


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    return torch.ops.aten.convolution(input, weight, bias, _per_dim(stride, 2),
                                      _per_dim(padding, 2), _per_dim(dilation, 2), True,
                                      _per_dim(output_padding, 2), groups)


def _refusing_add(self, other, *, alpha=1):
    raise ValueError("toy_override refuses to add")


def _sleeping_add(self, other, *, alpha=1):
    time.sleep(0.001)
    return _add(self, other, alpha=alpha)


@contextlib.contextmanager
def _overriding(kernels):
    # One Library per scope, destroyed on the way out: that restores ATen's kernels and leaves
    # no registration for the interpreter's shutdown.
    library = torch.library.Library("aten", "IMPL")
    try:
        for name, kernel in kernels.items():
            library.impl(name, kernel, "CPU")
        yield
    finally:
        library._destroy()


def caliber_context():
    return _overriding({"add.Tensor": _add, "relu": _relu})


def _count_nonzero(self, dim=None):
    return torch.ne(self, 0).sum(dim)


def _ne_(self, other):
    return self.copy_(torch.ne(self, other))


def _exponential_(self, lambd=1.0, *, generator=None):
    # Not through exponential_ itself, which this scope overrides.
    return self.copy_(-torch.log1p(-torch.rand_like(self)) / lambd)


def overloads_context():
    return _overriding({"conv2d": _conv(2), "conv2d.padding": _conv(2), "conv3d": _conv(3),
                        "count_nonzero": _count_nonzero, "ne_.Tensor": _ne_,
                        "_linalg_eigvals": lambda self: torch.linalg.eig(self)[0],
                        "exponential_": _exponential_})


def _add_relu_(A, B, *, alpha=1):
    return A.copy_(torch.relu(A + alpha * B))


def igammac(a, x, *, out=None):
    return torch.special.gammaincc(a, x, out=out)


def igammac_out(a, x, out):
    return igammac(a, x, out=out)


def cross_entropy_loss(inp, target, weight=None, reduction="mean", ignore_index=-100,
                       label_smoothing=0.0):
    return torch.nn.functional.cross_entropy(inp, target, weight, reduction=reduction,
                                             ignore_index=ignore_index,
                                             label_smoothing=label_smoothing)


def instance_norm(input, weight=None, bias=None, running_mean=None, running_var=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5, cudnn_enable=False):
    return torch.instance_norm(input, weight, bias, running_mean, running_var, use_input_stats,
                               momentum, eps, cudnn_enable)


def orphans_context():
    return _overriding({"bitwise_left_shift": lambda self, other: self << other,
                        "conv_transpose2d": conv_transpose2d})


def raising_context():
    return _overriding({"add.Tensor": _refusing_add})


def sleeping_context():
    return _overriding({"add.Tensor": _sleeping_add})
