"""Generates tests/golden/ops/coverage.json: cases for registered op names that no other op family file
(and no model) checks — in-place spellings (torch.Tensor.pow_, torch.abs_, aten.gelu_...), math.* on
Python numbers, aten forms make_fx leaves (lift_fresh, copy, native_dropout, std.correction, ...), and a
few plain torch functions (torch.cos, torch.log, torch.rsqrt...). op_infer_test reports the names still
unchecked. Run with the reference Python:  npm run -s python -- tests/golden/ops/gen_coverage.py
(case format: gen_shape_ops.py)."""
import json
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_format  # noqa: E402
from golden_format import B, F16, F64, I32, I64, U8, case, cases, tensor  # noqa: E402

try:
    import torchvision  # noqa: F401
    from torchvision.ops import stochastic_depth
except ImportError:  # the reference venv may lack it: those cases are then left out
    stochastic_depth = None
EXTRA = {"torchvision.ops.stochastic_depth.stochastic_depth": stochastic_depth}
torch_resolve = golden_format.resolve
golden_format.resolve = lambda call, target: EXTRA.get(target) or torch_resolve(call, target)

torch.manual_seed(0)
x = tensor([3, 4])
pos = tensor([3, 4], lo=0.5, hi=4)
unit = tensor([3, 4], lo=-0.9, hi=0.9)

# Plain functions.
for name, arg in [("cos", x), ("sin", x), ("log", pos), ("rsqrt", pos)]:
    case(f"{name}/f32", f"torch.{name}", [arg])
    case(f"{name}/f64_noncontiguous", f"torch.{name}", [arg.to(F64).t()])
    case(f"{name}/int", f"torch.{name}", [torch.tensor([[1, 2], [3, 4]])])
    case(f"{name}/empty", f"torch.{name}", [tensor([0, 3])])
case("clamp_max/scalar", "torch.clamp_max", [x, 1.5])
case("clamp_max/tensor_broadcast", "torch.clamp_max", [x, tensor([4])])
case("clamp_max/int", "torch.clamp_max", [torch.tensor([1, 5, -3]), 2])
case("fill/scalar", "torch.fill", [x, 2.5])
case("fill/int_tensor_value", "torch.fill", [torch.tensor([1, 2, 3]), torch.tensor(7)])
case("is_floating_point/f32", "torch.is_floating_point", [x])
case("is_floating_point/i64", "torch.is_floating_point", [torch.tensor([1])])
case("bitwise_left_shift/int", "torch.bitwise_left_shift", [torch.tensor([1, 2, 3]), torch.tensor([1, 2, 0])])
case("bitwise_left_shift/scalar", "torch.bitwise_left_shift", [torch.tensor([1, -2, 3], dtype=I32), 2])
case("bitwise_right_shift/int", "torch.bitwise_right_shift", [torch.tensor([16, -8, 3]), torch.tensor([1, 2, 0])])
case("bitwise_right_shift/u8", "torch.bitwise_right_shift", [torch.tensor([200, 7], dtype=U8), 1])
idx = (torch.tensor([0, 2, 0]),)
case("index_put/put", "torch.index_put", [x, idx, tensor([3, 4])])
case("index_put/broadcast_value", "torch.index_put", [x, idx, tensor([4])], {"accumulate": False})
case("index_put_/rows", "torch.index_put_", [x, (torch.tensor([2, 1]),), tensor([2, 4])], after=(0,))
case("index_put/accumulate_repeated", "torch.index_put", [x, idx, tensor([4])], {"accumulate": True})
case("index_put_/accumulate_repeated", "torch.index_put_", [x, idx, tensor([3, 4])], {"accumulate": True}, after=(0,))
case("index_put/accumulate_2d_int", "aten.index_put.default",
     [torch.arange(12).reshape(3, 4), (torch.tensor([0, 0, 2]), torch.tensor([1, 1, 3])), torch.tensor([5, 6, 7]), True])
case("index_put/accumulate_none_index", "aten.index_put.default",
     [x, (None, torch.tensor([3, 3])), tensor([3, 1]), True])
case("adaptive_max_pool1d_with_indices/basic", "torch.nn.functional.adaptive_max_pool1d_with_indices",
     [tensor([2, 3, 7]), 3])
case("adaptive_max_pool2d_with_indices/basic", "torch.nn.functional.adaptive_max_pool2d_with_indices",
     [tensor([2, 3, 5, 7]), (2, 3)])

# In-place functions and methods: the result and what the argument holds after.
for name, arg in [("abs_", x), ("ceil_", x), ("floor_", x), ("round_", x), ("trunc_", x), ("neg_", x),
                  ("exp_", unit), ("log_", pos), ("erf_", x), ("reciprocal_", pos), ("rsqrt_", pos),
                  ("square_", x), ("clamp_max_", x)]:
    args = [arg, 1.0] if name == "clamp_max_" else [arg]
    case(f"{name}/f32", f"torch.{name}", args, after=(0,))
case("abs_/int", "torch.abs_", [torch.tensor([-3, 2])], after=(0,))
for name, arg in [("elu_", x), ("leaky_relu_", x)]:
    case(f"F.{name}/f32", f"torch.nn.functional.{name}", [arg], after=(0,))
case("F.threshold_/f32", "torch.nn.functional.threshold_", [x, 0.5, -1.0], after=(0,))
for name, args in [("sign_", [x]), ("logical_not_", [torch.tensor([True, False])]),
                   ("pow_", [pos, 2.0]), ("pow_", [pos, tensor([4], lo=0, hi=2)]),
                   ("remainder_", [x, 1.5]), ("fmod_", [x, -1.5]), ("floor_divide_", [x, 2.0]),
                   ("lerp_", [x, tensor([3, 4]), 0.25]),
                   ("bitwise_and_", [torch.tensor([12, 10]), torch.tensor([10, 6])]),
                   ("bitwise_or_", [torch.tensor([12, 10]), 3]),
                   ("bitwise_xor_", [torch.tensor([True, False]), torch.tensor([True, True])]),
                   ("scatter_add_", [torch.zeros(3, 4), 0, torch.tensor([[0, 1, 2, 0]]), tensor([1, 4])])]:
    tag = "/".join([name, "tensor" if len(args) > 1 and isinstance(args[1], torch.Tensor) else "scalar"])
    case(f"Tensor.{tag}", f"torch.Tensor.{name}", args, after=(0,))
for name in ("gelu_", "silu_", "hardswish_", "hardsigmoid_"):
    case(f"aten.{name}/f32", f"aten.{name}.default", [x], after=(0,))
# Packed inputs only: shape inference's meta inputs are packed (passes/shape_prop.h to_meta), so the
# strides of a transposed input are not known there.
case("Tensor.is_contiguous/packed", "torch.Tensor.is_contiguous", [x])
case("Tensor.stride/packed", "torch.Tensor.stride", [tensor([2, 3, 4])])
case("Tensor.stride/dim", "torch.Tensor.stride", [x, -1])
case("Tensor.new_empty/empty", "torch.Tensor.new_empty", [x, (0, 3)])
case("Tensor.new_empty/dtype", "torch.Tensor.new_empty", [x, (2, 0)], {"dtype": I64})

# aten forms make_fx leaves in graphs.
case("aten.lift_fresh/basic", "aten.lift_fresh.default", [x])
case("aten.copy/broadcast", "aten.copy.default", [x, tensor([4], F64)])
case("aten.native_dropout/eval", "aten.native_dropout.default", [x, 0.5, False])
case("aten.std.correction/dim", "aten.std.correction", [x, [1]], {"correction": 0, "keepdim": True})
case("aten.std.correction/all", "aten.std.correction", [x])
case("aten.tensor_split.sections/uneven", "aten.tensor_split.sections", [tensor([7, 2]), 3])
case("aten.tensor_split.sections/dim1", "aten.tensor_split.sections", [x, 3, 1])
case("aten._pad_circular/2d", "aten._pad_circular.default", [tensor([1, 2, 3, 4]), [1, 2, 2, 1]])
case("aten.as_strided_/basic", "aten.as_strided_.default", [tensor([6]), [2, 2], [1, 2]])
case("aten.squeeze_.dim/basic", "aten.squeeze_.dim", [tensor([3, 1, 2]), 1])
case("aten.unsqueeze_/basic", "aten.unsqueeze_.default", [tensor([3, 2]), -1])

# math.* on Python numbers, and bool() of a one-element tensor.
for name, args in [("acos", [0.3]), ("asin", [-0.4]), ("atan", [2.0]), ("cosh", [1.5]), ("sinh", [-0.7]),
                   ("tan", [0.9]), ("degrees", [1.0]), ("radians", [90]), ("erfc", [0.5]), ("expm1", [1e-5]),
                   ("log1p", [1e-6]), ("copysign", [3, -0.0]), ("fmod", [-7.5, 2]), ("hypot", [3, 4]),
                   ("isfinite", [float("inf")]), ("isfinite", [2])]:
    case(f"math.{name}/{args[0]}", f"math.{name}", args)
case("math.acos/domain_error", "math.acos", [2.0])
case("builtins.bool/tensor", "builtins.bool", [torch.tensor([0.5])])
case("builtins.bool/zero", "builtins.bool", [torch.tensor(0)])
case("builtins.bool/ambiguous", "builtins.bool", [torch.tensor([1, 2])])

# operator.setitem: in place, returns None.
case("operator.setitem/slice", "operator.setitem", [x, (slice(None), 1), 9.0], after=(0,))
case("operator.setitem/mask_tensor", "operator.setitem", [torch.zeros(3), torch.tensor([True, False, True]),
                                                           tensor([2])], after=(0,))
if stochastic_depth is not None:
    case("stochastic_depth/eval", "torchvision.ops.stochastic_depth.stochastic_depth", [x, 0.5, "row", False])
    case("stochastic_depth/bad_mode", "torchvision.ops.stochastic_depth.stochastic_depth", [x, 0.5, "col", False])

out = {"torch": torch.__version__, "cases": cases}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "coverage.json")
with open(path, "w") as f:
    json.dump(out, f, indent=None, separators=(",", ":"))
    f.write("\n")
print(f"wrote {len(cases)} cases to {path}")
