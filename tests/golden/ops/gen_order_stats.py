"""Generates tests/golden/ops/order_stats.json: running scans and order statistics (cummax, cummin,
logcumsumexp, median, nanmedian, kthvalue, mode, quantile, nanquantile) and their aten forms, with ties
(the index torch picks among equal values is part of the result), NaNs, every dtype torch accepts, 0-size,
non-contiguous inputs, negative dims and error cases.
Run with the reference Python:  npm run -s python -- tests/golden/ops/gen_order_stats.py
(case format: gen_shape_ops.py)."""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden_format import B, F16, F32, F64, I8, I32, I64, U8, case, cases, tensor  # noqa: E402

torch.manual_seed(0)
nan = float("nan")


def ties(shape, dtype=F32):  # small integers: many equal values
    return torch.randint(0, 3, shape).to(dtype)


withnan = torch.tensor([[1., nan, 3., 2., nan, 0.], [2., 2., 1., 2., 1., 5.], [nan, nan, nan, nan, nan, nan]])
x = tensor([3, 5])
xt = tensor([5, 3]).t()  # non-contiguous

# cummax / cummin
for op in ["cummax", "cummin"]:
    for dt in [F32, F64, I64, I32, I8, U8, B, F16]:
        case(f"{op}/ties_{dt}", f"torch.{op}", [ties([4, 9], dt), 1])
    case(f"{op}/dim0", f"torch.{op}", [x, 0])
    case(f"{op}/negdim_noncontig", f"torch.{op}", [xt, -1])
    case(f"{op}/nan", f"torch.{op}", [withnan, 1])
    case(f"{op}/scalar", f"torch.{op}", [torch.tensor(2.5), 0])
    case(f"{op}/empty", f"torch.{op}", [torch.zeros(0, 3), 0])
    case(f"{op}/method", op, [ties([6]), 0], call="method")
    case(f"{op}/aten", f"aten.{op}.default", [ties([2, 7]), 1])
    case(f"{op}/kw", f"torch.{op}", [x], {"dim": -2})
    case(f"{op}/bad_dim", f"torch.{op}", [x, 2])

# logcumsumexp
for dt in [F32, F64]:
    case(f"logcumsumexp/{dt}", "torch.logcumsumexp", [tensor([3, 6], dt), 1])
case("logcumsumexp/inf", "torch.logcumsumexp",
     [torch.tensor([[-float("inf"), -float("inf"), 1.0, float("inf"), 2.0], [nan, 1.0, 2.0, 3.0, 4.0]]), 1])
case("logcumsumexp/large", "torch.logcumsumexp", [torch.tensor([1000., 1000., -1000., 999.]), 0])
case("logcumsumexp/noncontig", "torch.logcumsumexp", [xt, 0])
case("logcumsumexp/f16", "torch.logcumsumexp", [tensor([7], F16), 0])
case("logcumsumexp/int", "torch.logcumsumexp", [tensor([5], I64), 0])
case("logcumsumexp/method", "logcumsumexp", [x, -1], call="method")
case("logcumsumexp/aten", "aten.logcumsumexp.default", [x, 0])

# median / nanmedian
for op in ["median", "nanmedian"]:
    for dt in [F32, F64, I64, I32, U8, F16]:
        case(f"{op}/all_{dt}", f"torch.{op}", [ties([5, 7], dt)])
        case(f"{op}/dim_ties_{dt}", f"torch.{op}", [ties([5, 8], dt), 1])
    case(f"{op}/dim_ties_long", f"torch.{op}", [ties([3, 40]), 1])
    case(f"{op}/nan_all", f"torch.{op}", [withnan])
    case(f"{op}/nan_dim", f"torch.{op}", [withnan, 1])
    case(f"{op}/keepdim", f"torch.{op}", [x, 0, True])
    case(f"{op}/kw", f"torch.{op}", [xt], {"dim": -1, "keepdim": True})
    case(f"{op}/scalar", f"torch.{op}", [torch.tensor(1.5), 0])
    case(f"{op}/method", op, [ties([9]), 0], call="method")
    case(f"{op}/aten", f"aten.{op}.default", [ties([4, 4])])
    case(f"{op}/aten_dim", f"aten.{op}.dim", [ties([4, 6]), 0, True])
    case(f"{op}/empty", f"torch.{op}", [torch.zeros(0)])
    case(f"{op}/empty_dim", f"torch.{op}", [torch.zeros(2, 0), 1])
    case(f"{op}/empty_other_dim", f"torch.{op}", [torch.zeros(0, 3), 1])
    case(f"{op}/bool", f"torch.{op}", [tensor([4], B)])

# kthvalue
for dt in [F32, F64, I64, I32, I8, U8, F16]:
    case(f"kthvalue/ties_{dt}", "torch.kthvalue", [ties([4, 9], dt), 3, 1])
for k in [1, 5, 13, 20, 40]:
    case(f"kthvalue/ties_long_k{k}", "torch.kthvalue", [ties([3, 40]), k])
case("kthvalue/nan", "torch.kthvalue", [withnan, 5, 1])
case("kthvalue/keepdim_dim0", "torch.kthvalue", [x, 2, 0, True])
case("kthvalue/kw", "torch.kthvalue", [xt], {"k": 2, "dim": -1, "keepdim": False})
case("kthvalue/scalar", "torch.kthvalue", [torch.tensor(3.0), 1])
case("kthvalue/method", "kthvalue", [x, 4], call="method")
case("kthvalue/aten", "aten.kthvalue.default", [ties([5, 6]), 2, 0])
case("kthvalue/k0", "torch.kthvalue", [x, 0])
case("kthvalue/k_big", "torch.kthvalue", [x, 6])
case("kthvalue/empty", "torch.kthvalue", [torch.zeros(0, 3), 1, 1])
case("kthvalue/bool", "torch.kthvalue", [tensor([4], B), 1])

# mode
for dt in [F32, F64, I64, I32, I8, U8, F16, B]:
    case(f"mode/ties_{dt}", "torch.mode", [ties([4, 9], dt)])
case("mode/ties_long", "torch.mode", [ties([3, 40]), 1])
case("mode/ties_long_dim0", "torch.mode", [ties([40, 3]), 0])
case("mode/equal_counts", "torch.mode", [torch.tensor([[3., 1., 2., 1., 3., 2.], [5., 4., 4., 5., 0., 0.]])])
case("mode/keepdim", "torch.mode", [x, 0, True])
case("mode/kw", "torch.mode", [xt], {"dim": 0, "keepdim": True})
case("mode/scalar", "torch.mode", [torch.tensor(3.0)])
case("mode/method", "mode", [ties([7])], call="method")
case("mode/aten", "aten.mode.default", [ties([5, 6]), 0])
case("mode/empty_dim", "torch.mode", [torch.zeros(2, 0), 1])
case("mode/empty_other", "torch.mode", [torch.zeros(0, 3), 1])

# quantile / nanquantile
q3 = torch.tensor([0.0, 0.3, 0.5, 0.75, 1.0])
for op in ["quantile", "nanquantile"]:
    for interp in ["linear", "lower", "higher", "midpoint", "nearest"]:
        case(f"{op}/{interp}", f"torch.{op}", [tensor([3, 7]), q3, 1], {"interpolation": interp})
        case(f"{op}/{interp}_scalar_all", f"torch.{op}", [tensor([4, 5]), 0.35], {"interpolation": interp})
        case(f"{op}/{interp}_nan", f"torch.{op}", [withnan, q3, 1], {"interpolation": interp})
    case(f"{op}/f64", f"torch.{op}", [tensor([4, 6], F64), q3.to(F64), 0, True])
    case(f"{op}/keepdim_nodim", f"torch.{op}", [x, 0.5], {"keepdim": True})
    case(f"{op}/q0d_tensor", f"torch.{op}", [x, torch.tensor(0.25), -1])
    case(f"{op}/noncontig", f"torch.{op}", [xt, q3, 0])
    case(f"{op}/scalar_input", f"torch.{op}", [torch.tensor(2.0), 0.5, 0])
    case(f"{op}/method", op, [x, 0.9], call="method")
    case(f"{op}/aten", f"aten.{op}.default", [x, q3, 1])
    case(f"{op}/aten_scalar", f"aten.{op}.scalar", [x, 0.4, None, False], {"interpolation": "midpoint"})
    case(f"{op}/q_out_of_range", f"torch.{op}", [x, 1.5])
    case(f"{op}/q_tensor_out_of_range", f"torch.{op}", [x, torch.tensor([0.5, -0.1])])
    case(f"{op}/int_input", f"torch.{op}", [tensor([5], I64), 0.5])
    case(f"{op}/q_dtype", f"torch.{op}", [x, q3.to(F64)])
    case(f"{op}/q_2d", f"torch.{op}", [x, torch.rand(2, 2)])
    case(f"{op}/empty", f"torch.{op}", [torch.zeros(0), 0.5])
    case(f"{op}/bad_interp", f"torch.{op}", [x, 0.5], {"interpolation": "cubic"})

out = {"torch": torch.__version__, "cases": cases}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "order_stats.json")
with open(path, "w") as f:
    json.dump(out, f, indent=None, separators=(",", ":"))
    f.write("\n")
print(f"wrote {len(cases)} cases to {path}")
