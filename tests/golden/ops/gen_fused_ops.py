"""Generates tests/golden/ops/fused_ops.json: calls of fxwasm's fused ops (ops/nn/fused.cpp, written by the
fusion pass passes/fuse.h) with the results torch gives for what each stands for:
    fxwasm.fused_conv2d(x, w, b, stride, padding, dilation, groups, residual, activation, ...)
        = activation(F.conv2d(x, w, b, stride, padding, dilation, groups) + residual)
    fxwasm.fused_linear(x, w, b, residual, activation, ...) = activation(F.linear(x, w, b) + residual)
Run with the reference Python:  npm run -s python -- tests/golden/ops/gen_fused_ops.py
(case format: gen_shape_ops.py)."""
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_format  # noqa: E402
from golden_format import F64, case, cases, tensor  # noqa: E402

torch.manual_seed(0)

ACTIVATIONS = {
    None: lambda y, kw: y,
    "relu": lambda y, kw: F.relu(y),
    "relu6": lambda y, kw: F.relu6(y),
    "hardtanh": lambda y, kw: F.hardtanh(y, kw.get("min_val", -1.0), kw.get("max_val", 1.0)),
    "gelu": lambda y, kw: F.gelu(y, approximate=kw.get("approximate", "none")),
    "silu": lambda y, kw: F.silu(y),
}


def epilogue(y, residual=None, activation=None, **kw):
    if residual is not None:
        y = y + residual
    return ACTIVATIONS[activation](y, kw)


def fused_conv2d(x, w, b=None, stride=1, padding=0, dilation=1, groups=1, **kw):
    return epilogue(F.conv2d(x, w, b, stride, padding, dilation, groups), **kw)


def fused_linear(x, w, b=None, **kw):
    return epilogue(F.linear(x, w, b), **kw)


FUSED = {"fxwasm.fused_conv2d": fused_conv2d, "fxwasm.fused_linear": fused_linear}
torch_resolve = golden_format.resolve
golden_format.resolve = lambda call, target: FUSED.get(target) or torch_resolve(call, target)

x, w, b = tensor([2, 4, 7, 7]), tensor([6, 4, 3, 3], lo=-1, hi=1), tensor([6])
r = tensor([2, 6, 7, 7])
for act, extra in [(None, {}), ("relu", {}), ("relu6", {}), ("hardtanh", {"min_val": -0.5, "max_val": 2.0}),
                   ("gelu", {}), ("gelu", {"approximate": "tanh"}), ("silu", {})]:
    tag = act or "none"
    if extra.get("approximate"):
        tag += "_tanh"
    case(f"fused_conv2d/{tag}", "fxwasm.fused_conv2d", [x, w, b, 1, 1, 1, 1], {"activation": act, **extra})
    case(f"fused_conv2d/residual_{tag}", "fxwasm.fused_conv2d", [x, w, b, 1, 1, 1, 1],
         {"residual": r, "activation": act, **extra})
case("fused_conv2d/stride2_nobias_residual_relu", "fxwasm.fused_conv2d", [x, w, None, 2, 1, 1, 1],
     {"residual": tensor([2, 6, 4, 4]), "activation": "relu"})
case("fused_conv2d/depthwise_relu6", "fxwasm.fused_conv2d",
     [x, tensor([4, 1, 3, 3], lo=-1, hi=1), tensor([4]), 1, 1, 1, 4], {"activation": "relu6"})
case("fused_conv2d/residual_broadcasts", "fxwasm.fused_conv2d", [x, w, b, 1, 1, 1, 1],
     {"residual": tensor([6, 1, 1]), "activation": "relu"})
case("fused_conv2d/f64_residual_relu", "fxwasm.fused_conv2d",
     [x.to(F64), w.to(F64), b.to(F64), 1, 1, 1, 1], {"residual": r.to(F64), "activation": "relu"})
case("fused_conv2d/padding_same_silu", "fxwasm.fused_conv2d", [x, w, b, 1, "same", 1, 1], {"activation": "silu"})

v, lw, lb = tensor([3, 5, 8]), tensor([6, 8], lo=-1, hi=1), tensor([6])
for act in [None, "relu", "gelu", "silu"]:
    case(f"fused_linear/{act or 'none'}", "fxwasm.fused_linear", [v, lw, lb], {"activation": act})
    case(f"fused_linear/residual_{act or 'none'}", "fxwasm.fused_linear", [v, lw, lb],
         {"residual": tensor([3, 5, 6]), "activation": act})
case("fused_linear/nobias_hardtanh", "fxwasm.fused_linear", [v, lw],
     {"activation": "hardtanh", "min_val": -1.0, "max_val": 1.0})
case("fused_linear/residual_broadcasts", "fxwasm.fused_linear", [v, lw, lb], {"residual": tensor([6]), "activation": "relu"})
case("fused_linear/f64_gelu", "fxwasm.fused_linear", [v.to(F64), lw.to(F64), lb.to(F64)], {"activation": "gelu"})
case("fused_linear/shape_error", "fxwasm.fused_linear", [v, tensor([6, 7])], {"activation": "relu"})

for c in cases:  # float32 sums of 36-72 products of values up to 5: compare as the pass tests do
    c["rtol"], c["atol"] = 1e-4, 1e-5
out = {"torch": torch.__version__, "cases": cases}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fused_ops.json")
with open(path, "w") as f:
    json.dump(out, f, indent=None, separators=(",", ":"))
    f.write("\n")
print(f"wrote {len(cases)} cases to {path}")
