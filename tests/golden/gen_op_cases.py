"""Generates tests/golden/op_cases.json: op calls with inputs and the outputs the reference torch gives.

Shared by the C++ op tests (tests/cpp/ops/golden_test.cpp) and, later, the JS tests. Run with the
reference Python:  /root/.cache/fxwasm/venv-torch-2.15.0/bin/python tests/golden/gen_op_cases.py

Encoding: a tensor is {"tensor": {"dtype", "shape", "data"}} with data flat in row-major order
(floats "nan"/"inf"/"-inf" as strings); Python numbers are JSON numbers (ints without a point, floats
with one); a float that is not finite is {"float": "nan"}; a dtype is {"dtype": "float64"}; a tuple is
{"tuple": [...]}; a list is a JSON array; None is null. A case either has "expected" or "error" (a
substring of torch's message).
"""
import json
import math
import operator
import os

import torch

torch.manual_seed(0)
F32, F64, F16, I64, I32, I8, U8, B = (torch.float32, torch.float64, torch.float16, torch.int64, torch.int32,
                                      torch.int8, torch.uint8, torch.bool)


def tensor(shape, dtype, lo=-5, hi=5):
    if dtype == torch.bool:
        return torch.rand(shape) > 0.5
    if dtype.is_floating_point:
        return (torch.rand(shape, dtype=torch.float64) * (hi - lo) + lo).to(dtype)
    if dtype == torch.uint8:
        lo = 0
    return torch.randint(lo, hi, shape).to(dtype)


def nonzero(shape, dtype):
    t = tensor(shape, dtype, 1, 6)
    if dtype != torch.uint8:
        t = t * torch.where(torch.rand(shape) > 0.5, 1, -1).to(dtype)
    return t


def encode_float(x):
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def encode(v):
    if isinstance(v, torch.Tensor):
        data = v.flatten().tolist()
        if v.dtype.is_floating_point:
            data = [encode_float(x) for x in data]
        return {"tensor": {"dtype": str(v.dtype).replace("torch.", ""), "shape": list(v.shape), "data": data}}
    if isinstance(v, bool) or v is None or isinstance(v, int) or isinstance(v, str):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else {"float": encode_float(v)}
    if isinstance(v, torch.dtype):
        return {"dtype": str(v).replace("torch.", "")}
    if isinstance(v, tuple):
        return {"tuple": [encode(x) for x in v]}
    if isinstance(v, list):
        return [encode(x) for x in v]
    raise TypeError(type(v))


def resolve(call, target):
    if call == "method":
        return lambda self, *a, **k: getattr(self, target)(*a, **k)
    module, _, name = target.rpartition(".")
    root = {"torch": torch, "operator": operator, "torch.Tensor": torch.Tensor,
            "torch.nn.functional": torch.nn.functional}[module]
    return getattr(root, name)


cases = []


def case(id_, target, args, kwargs=None, call="function"):
    kwargs = kwargs or {}
    c = {"id": id_, "call": call, "target": target, "args": [encode(a) for a in args],
         "kwargs": {k: encode(v) for k, v in kwargs.items()}}
    try:
        result = resolve(call, target)(*args, **kwargs)
        if isinstance(result, complex):
            raise ValueError("complex")  # fxwasm has no complex numbers; it must refuse
        c["expected"] = encode(result)
    except Exception as e:  # noqa: BLE001 - torch's own error is the expectation
        c["error"] = str(e).split("\n")[0][:60]
    cases.append(c)


ALL = [F32, F64, F16, I64, I32, I8, U8, B]
NAMES = {F32: "f32", F64: "f64", F16: "f16", I64: "i64", I32: "i32", I8: "i8", U8: "u8", B: "bool"}

# Unary ops over every dtype (torch's errors included: abs/neg of bool).
for dt in ALL:
    x = tensor([2, 3], dt)
    for op in ["abs", "neg"]:
        case(f"{op}/{NAMES[dt]}", f"torch.{op}", [x])
    case(f"exp/{NAMES[dt]}", "torch.exp", [tensor([5], dt, -3, 3)])
    case(f"sigmoid/{NAMES[dt]}", "torch.sigmoid", [x])
case("abs/method_strided", "abs", [tensor([3, 4], F32).t()], call="method")
case("relu/F", "torch.nn.functional.relu", [tensor([7], F32)])
case("sqrt/nan", "torch.sqrt", [torch.tensor([4.0, -1.0, 0.0, float("inf")])])
case("abs/operator_int", "operator.abs", [-7])
case("neg/operator_float", "operator.neg", [2.5])

# Binary arithmetic: every dtype pair among a representative set, with broadcasting.
PAIRS = [(F32, F32), (F32, F64), (I64, F32), (I32, I64), (I8, U8), (B, B), (B, I32), (F16, F32), (F16, F16),
         (U8, U8)]
for a_dt, b_dt in PAIRS:
    a, b = tensor([2, 1, 3], a_dt), tensor([4, 1], b_dt)
    tag = f"{NAMES[a_dt]}_{NAMES[b_dt]}"
    case(f"add/{tag}", "operator.add", [a, b])
    case(f"sub/{tag}", "torch.sub", [a, b])
    case(f"mul/{tag}", "operator.mul", [a, b])
    bz = nonzero([4, 1], b_dt) if b_dt != B else b
    case(f"truediv/{tag}", "operator.truediv", [a, bz])
    case(f"floordiv/{tag}", "operator.floordiv", [a, bz])
    case(f"remainder/{tag}", "operator.mod", [a, bz])
    for op in ["lt", "le", "gt", "ge", "eq", "ne"]:
        case(f"{op}/{tag}", f"operator.{op}", [a, b])

# Tensor with Python scalars and zero-dim tensors (the promotion tiers).
for dt in [F32, F64, F16, I64, I32, U8, B]:
    x = tensor([5], dt)
    n = NAMES[dt]
    case(f"add/{n}_int", "operator.add", [x, 3])
    case(f"add/{n}_float", "operator.add", [x, 2.5])
    case(f"add/int_{n}", "operator.add", [1, x])
    case(f"add/{n}_bool", "operator.add", [x, True])
    case(f"truediv/{n}_int", "operator.truediv", [x, 2])
    case(f"truediv/float_{n}", "operator.truediv", [1.5, nonzero([5], dt) if dt != B else x])
    case(f"lt/{n}_float", "operator.lt", [x, 0.5])
    case(f"lt/{n}_int", "operator.lt", [x, 0])
    case(f"mul/{n}_0dim_f64", "torch.mul", [x, torch.tensor(1.5, dtype=F64)])
    case(f"mul/{n}_0dim_i64", "torch.mul", [x, torch.tensor(3)])
    case(f"pow/{n}_2", "operator.pow", [x, 2])
    case(f"pow/{n}_half", "operator.pow", [x.abs() if dt != B else x, 0.5])
case("add/alpha", "torch.add", [tensor([3], F32), tensor([3], F32)], {"alpha": 2})
case("add/alpha_int", "torch.add", [tensor([3], I64), tensor([3], I64)], {"alpha": -3})
case("add/alpha_float_on_int", "torch.add", [tensor([3], I64), tensor([3], I64)], {"alpha": 0.5})
case("sub/alpha_method", "sub", [tensor([3], F32), 1.0], {"alpha": 0.5}, call="method")
case("sub/bool", "operator.sub", [tensor([3], B), tensor([3], B)])
case("add/bcast_error", "operator.add", [tensor([2, 3], F32), tensor([4], F32)])
case("div/trunc", "torch.div", [tensor([6], F32), tensor([6], F32)], {"rounding_mode": "trunc"})
case("div/floor_int", "torch.div", [tensor([6], I64), nonzero([6], I64)], {"rounding_mode": "floor"})
case("div/float_by_zero", "operator.truediv", [torch.tensor([1.0, -1.0, 0.0]), 0.0])
case("floordiv/float_by_zero", "operator.floordiv", [torch.tensor([1.0, -1.0, 0.0]), 0.0])
case("floordiv/int_by_zero", "operator.floordiv", [torch.tensor([1, 2]), 0])
case("pow/int_neg_scalar", "operator.pow", [torch.tensor([1, 2]), -1])
case("pow/int_neg_tensor", "torch.pow", [torch.tensor([1, -1, 2, -1]), torch.tensor([-1, -3, -2, -2])])
case("pow/scalar_base", "operator.pow", [2, tensor([4], F32)])
case("pow/bool", "torch.pow", [tensor([2], B), tensor([2], B)])
case("ne/nan", "operator.ne", [torch.tensor([float("nan"), 1.0]), torch.tensor([float("nan"), 1.0])])

# Python numbers on both sides follow Python.
for a, b in [(7, 2), (-7, 2), (7, -2), (7.5, -2), (-7, 2.5), (True, 3), (2, 10), (3, 0.5), (0, 1)]:
    for op in ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lt", "eq", "ge"]:
        case(f"py_{op}/{a}_{b}", f"operator.{op}", [a, b])
case("py_truediv/zero", "operator.truediv", [1, 0])
case("py_floordiv/zero", "operator.floordiv", [1, 0])

# sum: all dims, dim lists, keepdim, dtype, integer promotion, strided input, empty tensors.
x = tensor([2, 3, 4], F32)
case("sum/all", "torch.sum", [x])
case("sum/method", "sum", [x], call="method")
case("sum/dim1", "torch.sum", [x, 1])
case("sum/dim_neg_keep", "sum", [x], {"dim": -1, "keepdim": True}, call="method")
case("sum/dims_0_2", "torch.sum", [x, (0, 2)])
case("sum/dims_list", "sum", [x, [2, 0], True], call="method")
case("sum/dtype_f64", "torch.sum", [x], {"dtype": F64})
case("sum/strided", "sum", [x.transpose(0, 2), 1], call="method")
case("sum/dup_dim", "torch.sum", [x, (1, 1)])
case("sum/bad_dim", "torch.sum", [x, 3])
case("sum/empty", "torch.sum", [torch.zeros(0, 3)])
case("sum/empty_dim0", "torch.sum", [torch.zeros(0, 3), 0])
case("sum/zero_dim", "torch.sum", [torch.tensor(2.5), 0])
for dt in [I64, I32, I8, U8, B, F16, F64]:
    case(f"sum/{NAMES[dt]}", "torch.sum", [tensor([3, 5], dt)])
    case(f"sum/{NAMES[dt]}_dim0", "sum", [tensor([3, 5], dt), 0], call="method")
case("sum/int_dtype_f32", "torch.sum", [tensor([4], I32)], {"dtype": F32})

out = {"torch": torch.__version__, "cases": cases}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "op_cases.json")
with open(path, "w") as f:
    json.dump(out, f, indent=None, separators=(",", ":"))
    f.write("\n")
print(f"wrote {len(cases)} cases to {path}")
