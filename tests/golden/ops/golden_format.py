"""Shared machinery of the op golden generators in this folder: random inputs, the JSON value encoding
documented in gen_shape_ops.py, target resolution, and case recording with torch's result or error."""
import json
import math
import operator
import os
import builtins

import torch
import torch.nn.functional as F

F32, F64, F16, BF16, I64, I32, I16, I8, U8, B = (torch.float32, torch.float64, torch.float16, torch.bfloat16,
                                                 torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8,
                                                 torch.bool)
NAMES = {F32: "f32", F64: "f64", F16: "f16", BF16: "bf16", I64: "i64", I32: "i32", I16: "i16", I8: "i8", U8: "u8",
         B: "bool"}
ALL = [F32, F64, F16, I64, I32, I8, U8, B]
FLOATS = [F32, F64, F16, BF16]


def tensor(shape, dtype=F32, lo=-5, hi=5):
    if dtype == torch.bool:
        return torch.rand(shape) > 0.5
    if dtype.is_floating_point:
        return (torch.rand(shape, dtype=torch.float64) * (hi - lo) + lo).to(dtype)
    if dtype == torch.uint8:
        lo = 0
    return torch.randint(lo, hi, shape).to(dtype)


def fnum(x):
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def tensor_data(t):
    data = t.flatten().tolist()
    return [fnum(x) for x in data] if t.dtype.is_floating_point else data


def encode(v):
    if isinstance(v, torch.Tensor):
        dt = str(v.dtype).replace("torch.", "")
        if v.is_contiguous() and v.storage_offset() == 0:
            return {"tensor": {"dtype": dt, "shape": list(v.shape), "data": tensor_data(v)}}
        storage = torch.tensor([], dtype=v.dtype).set_(v.untyped_storage())
        return {"tensor": {"dtype": dt, "shape": list(v.shape), "data": tensor_data(storage),
                           "strides": list(v.stride()), "offset": v.storage_offset()}}
    if isinstance(v, bool) or v is None or isinstance(v, (int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else {"float": fnum(v)}
    if isinstance(v, torch.dtype):
        return {"dtype": str(v).replace("torch.", "")}
    if isinstance(v, torch.device):
        return {"device": str(v)}
    if isinstance(v, slice):
        return {"slice": [v.start, v.stop, v.step]}
    if v is Ellipsis:
        return {"ellipsis": True}
    if isinstance(v, tuple):
        return {"tuple": [encode(x) for x in v]}
    if isinstance(v, list):
        return [encode(x) for x in v]
    raise TypeError(type(v))


def resolve(call, target):
    if call == "method":
        return lambda self, *a, **k: getattr(self, target)(*a, **k)
    if target.startswith("aten."):
        _, name, overload = target.split(".")
        return getattr(getattr(torch.ops.aten, name), overload)
    module, _, name = target.rpartition(".")
    root = {"torch": torch, "operator": operator, "torch.Tensor": torch.Tensor, "math": math, "builtins": builtins,
            "torch.nn.functional": F}[module]
    return getattr(root, name)


def clone_args(v):
    if isinstance(v, torch.Tensor):
        # Keep the layout (a transposed input stays transposed) but own the storage.
        base = torch.tensor([], dtype=v.dtype).set_(v.untyped_storage()).clone()
        return base.as_strided(v.shape, v.stride(), v.storage_offset())
    if isinstance(v, (list, tuple)):
        return type(v)(clone_args(x) for x in v)
    return v


cases = []


def case(id_, target, args, kwargs=None, call="function", after=(), error_any=False):
    kwargs = kwargs or {}
    c = {"id": id_, "call": call, "target": target, "args": [encode(a) for a in args],
         "kwargs": {k: encode(v) for k, v in kwargs.items()}}
    args = clone_args(list(args))
    try:
        result = resolve(call, target)(*args, **kwargs)
        c["expected"] = encode(result)
        if after:
            c["args_after"] = {str(i): encode(args[i]) for i in after}
    except Exception as e:  # noqa: BLE001 - torch's own error is the expectation
        c["error"] = str(e).split("\n")[0][:60]
        if error_any:  # torch's wording is internal here: any FxError will do, but an error it must be
            c["error_any"] = True
    cases.append(c)


