"""Generates tests/golden/ops/nn_ops.json: the neural-network ops (matmul family, einsum, convolution,
pooling, norms, softmax, reductions, interpolate, pad, embedding, attention) called with the reference
torch, in the case format of tests/golden/op_cases.json (see tests/golden/gen_op_cases.py), float cases with
"rtol"/"atol". Run by tests/cpp/ops/golden_test.cpp with every tests/golden/ops/*.json.

Run with the reference Python:  /root/.cache/fxwasm/venv-torch-2.15.0/bin/python tests/golden/ops/gen_nn_ops.py
Targets may be any dotted name torch resolves: torch.X, torch.nn.functional.X, torch._C._nn.X,
torch.Tensor.X, operator.X, aten.X.overload (torch.ops.aten), or a method name with call="method".
"""
import json
import math
import operator
import os

import torch

torch.manual_seed(0)
F32, F64, I64, I32, B = torch.float32, torch.float64, torch.int64, torch.int32, torch.bool


def r(*shape, dtype=F32):
    return torch.randn(*shape, dtype=torch.float64).to(dtype)


def encode_float(x):
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def encode(v):
    if isinstance(v, torch.Tensor):
        data = v.detach().flatten().tolist()
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
    parts = target.split(".")
    if parts[0] == "torchvision":  # functions torchvision wraps with torch.fx.wrap: module path, then name
        import importlib
        module, _, name = target.rpartition(".")
        return getattr(importlib.import_module(module), name)
    if parts[0] == "aten":
        obj = torch.ops.aten
        parts = parts[1:]
    else:
        import builtins
        obj = {"torch": torch, "operator": operator, "builtins": builtins}[parts[0]]
        parts = parts[1:]
    for p in parts:
        obj = getattr(obj, p)
    return obj


cases = []


def case(id_, target, args, kwargs=None, call="function", tol=None):
    kwargs = kwargs or {}
    c = {"id": id_, "call": call, "target": target, "args": [encode(a) for a in args],
         "kwargs": {k: encode(v) for k, v in kwargs.items()}}
    try:
        result = resolve(call, target)(*args, **kwargs)
        result = tuple(result) if isinstance(result, tuple) else result
        c["expected"] = encode(result)
        # GEMM, convolution and reductions add in another order than torch: float results agree to a
        # few ulps of the summed terms, not of the (possibly cancelled) result, hence an absolute term.
        dtypes = {t.dtype for t in (result if isinstance(result, tuple) else (result,)) if isinstance(t, torch.Tensor)}
        if F32 in dtypes:
            c["rtol"], c["atol"] = 2e-5, 1e-5
        elif F64 in dtypes:
            c["rtol"], c["atol"] = 1e-10, 1e-12
        if tol:  # composites of many float32 ops (attention blocks) drift by more than one op's rounding
            c["rtol"], c["atol"] = tol
    except Exception as e:  # noqa: BLE001 - torch's own error is the expectation
        c["error"] = str(e).split("\n")[0][:60]
    cases.append(c)


# ---- matmul family -------------------------------------------------------------------------------------
MM_SHAPES = [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((5, 2, 3), (3, 4)),
             ((2, 3), (5, 3, 4)), ((2, 1, 3, 4), (5, 4, 2)), ((5, 3, 4), (4,)), ((4,), (2, 4, 3)),
             ((7, 13), (13, 9)), ((1, 17), (17, 33)), ((2, 3), (4, 5))]
for a, b in MM_SHAPES:
    tag = "x".join(map(str, a)) + "_" + "x".join(map(str, b))
    case(f"matmul/{tag}", "torch.matmul", [r(*a), r(*b)])
case("matmul/f64", "torch.matmul", [r(3, 4, dtype=F64), r(4, 2, dtype=F64)])
case("matmul/operator", "operator.matmul", [r(2, 3), r(3, 2)])
case("matmul/method", "matmul", [r(2, 3), r(3, 2)], call="method")
case("matmul/transposed_views", "torch.matmul", [r(5, 3).t(), r(2, 5).t()])
case("matmul/batched_transposed", "torch.matmul", [r(2, 4, 3), r(2, 5, 3).transpose(1, 2)])
case("matmul/dtype_mismatch", "torch.matmul", [r(2, 3), r(3, 2, dtype=F64)])
case("matmul/0d", "torch.matmul", [torch.tensor(2.0), r(3)])
case("mm/aten", "aten.mm.default", [r(4, 6), r(6, 3)])
case("mm/not_matrix", "torch.mm", [r(4), r(4, 3)])
case("bmm/aten", "aten.bmm.default", [r(3, 4, 6), r(3, 6, 2)])
case("bmm/mismatch", "torch.bmm", [r(3, 4, 6), r(2, 6, 2)])
case("addmm/bias", "aten.addmm.default", [r(5), r(3, 4), r(4, 5)])
case("addmm/bias_t", "aten.addmm.default", [r(5), r(3, 4), r(5, 4).t()])
case("addmm/beta_alpha", "torch.addmm", [r(3, 5), r(3, 4), r(4, 5)], {"beta": 0.5, "alpha": 2.0})
case("addmm/beta0_nan", "torch.addmm", [torch.full((3, 5), float("nan")), r(3, 4), r(4, 5)], {"beta": 0})
case("baddbmm/basic", "torch.baddbmm", [r(2, 3, 5), r(2, 3, 4), r(2, 4, 5)], {"alpha": 0.5})
case("linear/bias", "torch.nn.functional.linear", [r(3, 4), r(5, 4), r(5)])
case("linear/no_bias_3d", "torch.nn.functional.linear", [r(2, 3, 4), r(6, 4)])
case("linear/aten", "aten.linear.default", [r(2, 3, 9), r(11, 9), r(11)])
case("linear/c_nn", "torch._C._nn.linear", [r(4), r(3, 4), r(3)])
case("linear/mismatch", "torch.nn.functional.linear", [r(3, 4), r(5, 3)])
case("dot/basic", "torch.dot", [r(6), r(6)])
case("mv/basic", "torch.mv", [r(3, 6), r(6)])

EINSUM = [("ij,jk->ik", [(3, 4), (4, 5)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("i,i->", [(5,), (5,)]),
          ("ij->ji", [(3, 4)]), ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]),
          ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("ijk->", [(2, 3, 4)]),
          ("i,j->ij", [(3,), (4,)]), ("ijk,ikl->jl", [(2, 3, 4), (2, 4, 5)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
          ("bi,i->b", [(3, 4), (4,)]), ("ij->j", [(3, 4)])]
for eq, shapes in EINSUM:
    case(f"einsum/{eq}", "torch.einsum", [eq] + [r(*s) for s in shapes])
case("einsum/list_operands", "torch.einsum", ["ij,jk->ik", [r(2, 3), r(3, 2)]])

# ---- convolution ------------------------------------------------------------------------------------------
x = r(2, 4, 7, 9)
case("conv2d/basic", "torch.conv2d", [x, r(6, 4, 3, 3), r(6)], {"padding": 1})
case("conv2d/F_stride2", "torch.nn.functional.conv2d", [x, r(5, 4, 3, 3)], {"stride": 2})
case("conv2d/stride_tuple_pad_tuple", "torch.conv2d", [x, r(5, 4, 3, 2), r(5), (2, 1), (1, 0)])
case("conv2d/dilation", "torch.conv2d", [x, r(3, 4, 3, 3)], {"dilation": 2, "padding": 2})
case("conv2d/groups", "torch.conv2d", [x, r(6, 2, 3, 3), r(6)], {"groups": 2, "padding": 1})
case("conv2d/depthwise", "torch.conv2d", [x, r(4, 1, 3, 3), r(4)], {"groups": 4, "padding": 1})
case("conv2d/depthwise_mult2_stride2", "torch.conv2d", [x, r(8, 1, 3, 3), r(8)], {"groups": 4, "padding": 1, "stride": 2})
case("conv2d/depthwise_dilated", "torch.conv2d", [x, r(4, 1, 3, 3)], {"groups": 4, "dilation": (2, 1)})
case("conv2d/pointwise", "torch.conv2d", [x, r(8, 4, 1, 1), r(8)])
case("conv2d/pointwise_groups", "torch.conv2d", [x, r(6, 2, 1, 1)], {"groups": 2})
case("conv2d/same_even", "torch.conv2d", [x, r(3, 4, 4, 2), r(3)], {"padding": "same"})
case("conv2d/same_dilated", "torch.conv2d", [x, r(3, 4, 3, 3)], {"padding": "same", "dilation": 2})
case("conv2d/valid", "torch.conv2d", [x, r(3, 4, 3, 3)], {"padding": "valid"})
case("conv2d/unbatched", "torch.conv2d", [r(4, 5, 6), r(2, 4, 3, 3)])
case("conv2d/f64", "torch.conv2d", [r(1, 2, 5, 5, dtype=F64), r(3, 2, 3, 3, dtype=F64), r(3, dtype=F64)], {"padding": 1})
case("conv2d/aten", "aten.conv2d.default", [x, r(3, 4, 3, 3), r(3), [1, 1], [1, 1], [1, 1], 1])
case("conv2d/channel_mismatch", "torch.conv2d", [x, r(3, 5, 3, 3)])
case("conv2d/kernel_too_big", "torch.conv2d", [r(1, 1, 2, 2), r(1, 1, 3, 3)])
case("conv2d/same_strided", "torch.conv2d", [x, r(3, 4, 3, 3)], {"padding": "same", "stride": 2})
case("conv2d/wide", "torch.conv2d", [r(1, 16, 9, 11), r(33, 16, 3, 3), r(33)], {"padding": 1})
x1 = r(2, 3, 11)
case("conv1d/basic", "torch.conv1d", [x1, r(5, 3, 3), r(5)])
case("conv1d/stride_pad_dil", "torch.nn.functional.conv1d", [x1, r(4, 3, 3)], {"stride": 2, "padding": 2, "dilation": 2})
case("conv1d/same", "torch.conv1d", [x1, r(4, 3, 4)], {"padding": "same"})
case("conv1d/groups", "torch.conv1d", [r(2, 4, 9), r(6, 2, 3), r(6)], {"groups": 2})
case("conv1d/unbatched", "torch.conv1d", [r(3, 8), r(2, 3, 3)])
case("conv_transpose2d/basic", "torch.conv_transpose2d", [r(2, 4, 5, 6), r(4, 3, 3, 3), r(3)])
case("conv_transpose2d/stride_outpad", "torch.nn.functional.conv_transpose2d", [r(1, 4, 5, 6), r(4, 2, 3, 3), r(2)],
     {"stride": 2, "padding": 1, "output_padding": 1})
case("conv_transpose2d/groups_dilation", "torch.conv_transpose2d", [r(2, 4, 4, 5), r(4, 3, 3, 2), r(6)],
     {"groups": 2, "dilation": 2, "stride": (2, 1)})
case("conv_transpose2d/bad_outpad", "torch.conv_transpose2d", [r(1, 2, 4, 4), r(2, 2, 3, 3)],
     {"stride": 1, "output_padding": 1})
case("conv_transpose1d/basic", "torch.conv_transpose1d", [r(2, 3, 7), r(3, 4, 3), r(4)], {"stride": 3, "padding": 1})
case("convolution/aten", "aten.convolution.default",
     [x, r(6, 2, 3, 3), r(6), [1, 2], [1, 0], [1, 1], False, [0, 0], 2])
case("convolution/aten_transposed", "aten.convolution.default",
     [r(1, 4, 5, 5), r(4, 3, 3, 3), None, [2, 2], [1, 1], [1, 1], True, [1, 1], 1])
case("convolution/aten_1d", "aten.convolution.default", [x1, r(4, 3, 3), None, [1], [1], [1], False, [0], 1])

# ---- pooling ----------------------------------------------------------------------------------------------------------
p = r(2, 3, 7, 9)
case("max_pool2d/basic", "torch.nn.functional.max_pool2d", [p, 2])
case("max_pool2d/k3s2p1", "torch.nn.functional.max_pool2d", [p, 3, 2, 1])
case("max_pool2d/ceil", "torch.nn.functional.max_pool2d", [p, 3], {"stride": 2, "ceil_mode": True})
case("max_pool2d/dilation", "torch.nn.functional.max_pool2d", [p, (2, 3)], {"stride": 1, "dilation": 2})
case("max_pool2d/indices", "torch.nn.functional.max_pool2d", [p, 3, 2, 1], {"return_indices": True})
case("max_pool2d/torch", "torch.max_pool2d", [p, [3, 3], [2, 2], [1, 1], [1, 1], True])
case("max_pool2d/aten", "aten.max_pool2d.default", [p, [3, 3], [2, 2], [1, 1]])
case("max_pool2d/aten_empty_stride", "aten.max_pool2d.default", [p, [2, 2], []])
case("max_pool2d/with_indices", "aten.max_pool2d_with_indices.default", [p, [3, 3], [2, 2], [1, 1], [1, 1], True])
case("max_pool2d/unbatched", "torch.nn.functional.max_pool2d", [r(3, 6, 6), 2])
case("max_pool2d/nan", "torch.nn.functional.max_pool2d", [torch.tensor([[[[1.0, float("nan")], [3.0, 2.0]]]]), 2])
case("max_pool2d/bad_pad", "torch.nn.functional.max_pool2d", [p, 2, 2, 2])
case("max_pool1d/basic", "torch.nn.functional.max_pool1d", [r(2, 3, 10), 3], {"stride": 2, "padding": 1, "ceil_mode": True})
case("max_pool1d/indices", "torch.nn.functional.max_pool1d", [r(2, 3, 10), 2], {"return_indices": True})
case("avg_pool2d/basic", "torch.nn.functional.avg_pool2d", [p, 2])
case("avg_pool2d/k3s2p1", "torch.nn.functional.avg_pool2d", [p, 3, 2, 1])
case("avg_pool2d/no_pad_count", "torch.nn.functional.avg_pool2d", [p, 3, 2, 1], {"count_include_pad": False})
case("avg_pool2d/ceil", "torch.nn.functional.avg_pool2d", [p, 3, 2, 1], {"ceil_mode": True})
case("avg_pool2d/ceil_nopad", "torch.nn.functional.avg_pool2d", [p, 3, 2, 1, True, False])
case("avg_pool2d/divisor", "torch.nn.functional.avg_pool2d", [p, (2, 3)], {"divisor_override": 5})
case("avg_pool2d/c_nn", "torch._C._nn.avg_pool2d", [p, 2, 1])
case("avg_pool2d/aten", "aten.avg_pool2d.default", [p, [3, 3], [2, 2], [1, 1], True, False])
case("avg_pool1d/basic", "torch.nn.functional.avg_pool1d", [r(2, 3, 10), 3], {"stride": 2, "padding": 1})
case("adaptive_avg_pool2d/basic", "torch.nn.functional.adaptive_avg_pool2d", [p, (3, 4)])
case("adaptive_avg_pool2d/one", "torch.nn.functional.adaptive_avg_pool2d", [p, 1])
case("adaptive_avg_pool2d/none", "torch.nn.functional.adaptive_avg_pool2d", [p, (None, 2)])
case("adaptive_avg_pool2d/bigger", "torch.nn.functional.adaptive_avg_pool2d", [r(1, 2, 3, 3), (5, 4)])
case("adaptive_avg_pool2d/aten", "aten._adaptive_avg_pool2d.default", [p, [2, 2]])
case("adaptive_avg_pool2d/aten_public", "aten.adaptive_avg_pool2d.default", [p, [5, 3]])
case("adaptive_avg_pool1d/basic", "torch.nn.functional.adaptive_avg_pool1d", [r(2, 3, 10), 4])
case("adaptive_max_pool2d/basic", "torch.nn.functional.adaptive_max_pool2d", [p, (3, 4)])
case("adaptive_max_pool2d/indices", "torch.nn.functional.adaptive_max_pool2d", [p, (2, 3)], {"return_indices": True})
case("adaptive_max_pool1d/basic", "torch.nn.functional.adaptive_max_pool1d", [r(2, 3, 10), 3])
case("mean/aten_dim_hw", "aten.mean.dim", [p, [-1, -2], True])

# ---- norms and softmax -------------------------------------------------------------------------------------------------
xb = r(3, 4, 5, 2)
rm, rv, w, bb = r(4), torch.rand(4, dtype=torch.float64).float() + 0.5, r(4), r(4)
case("batch_norm/eval", "torch.nn.functional.batch_norm", [xb, rm, rv, w, bb])
case("batch_norm/eval_no_affine", "torch.nn.functional.batch_norm", [xb, rm, rv], {"eps": 1e-3})
case("batch_norm/training", "torch.nn.functional.batch_norm", [xb, rm.clone(), rv.clone(), w, bb], {"training": True})
case("batch_norm/1d", "torch.nn.functional.batch_norm", [r(6, 4), rm, rv, w, bb])
case("batch_norm/torch", "torch.batch_norm", [xb, w, bb, rm, rv, False, 0.1, 1e-5, False])
case("batch_norm/aten", "aten.batch_norm.default", [xb, w, bb, rm, rv, False, 0.1, 1e-5, False])
case("batch_norm/no_training", "aten._native_batch_norm_legit_no_training.default", [xb, w, bb, rm, rv, 0.1, 1e-5])
case("batch_norm/native_eval", "aten.native_batch_norm.default", [xb, w, bb, rm, rv, False, 0.1, 1e-5])
case("layer_norm/basic", "torch.nn.functional.layer_norm", [r(2, 3, 5), (5,), r(5), r(5)])
case("layer_norm/two_dims_no_affine", "torch.nn.functional.layer_norm", [r(2, 3, 5), [3, 5]], {"eps": 1e-3})
case("layer_norm/bad_shape", "torch.nn.functional.layer_norm", [r(2, 3, 5), [4]])
case("layer_norm/aten", "aten.layer_norm.default", [r(4, 6), [6], r(6), r(6), 1e-5])
case("layer_norm/native", "aten.native_layer_norm.default", [r(2, 3, 4), [3, 4], r(3, 4), r(3, 4), 1e-5])
case("group_norm/basic", "torch.nn.functional.group_norm", [r(2, 6, 3, 4), 3, r(6), r(6)])
case("group_norm/no_affine", "torch.nn.functional.group_norm", [r(2, 6, 5), 2])
case("group_norm/bad_groups", "torch.nn.functional.group_norm", [r(2, 6, 5), 4])
case("group_norm/native", "aten.native_group_norm.default", [r(2, 6, 3, 4), r(6), r(6), 2, 6, 12, 3, 1e-5])
case("instance_norm/basic", "torch.nn.functional.instance_norm", [r(2, 3, 4, 5)], {"weight": r(3), "bias": r(3)})
case("instance_norm/1d", "torch.nn.functional.instance_norm", [r(2, 3, 7)])
sm = r(3, 4, 5)
case("softmax/F_last", "torch.nn.functional.softmax", [sm, -1])
case("softmax/F_dim1", "torch.nn.functional.softmax", [sm], {"dim": 1})
case("softmax/F_dtype", "torch.nn.functional.softmax", [sm, 0], {"dtype": F64})
case("softmax/torch", "torch.softmax", [sm, 2])
case("softmax/method", "softmax", [sm, -2], call="method")
case("softmax/aten", "aten._softmax.default", [sm, -1, False])
case("softmax/aten_int", "aten.softmax.int", [sm, 1])
case("softmax/neg_inf", "torch.softmax", [torch.tensor([[0.0, float("-inf"), 1.0], [float("-inf")] * 3]), -1])
case("softmax/int_input", "torch.softmax", [torch.tensor([1, 2, 3]), 0])
case("log_softmax/F", "torch.nn.functional.log_softmax", [sm, 1])
case("log_softmax/aten", "aten._log_softmax.default", [sm, 2, False])
case("softmin/F", "torch.nn.functional.softmin", [sm, 0])

# ---- reductions --------------------------------------------------------------------------------------------------------
rd = r(3, 4, 5)
case("mean/all", "torch.mean", [rd])
case("mean/dim", "torch.mean", [rd, 1])
case("mean/dims_keepdim", "torch.mean", [rd, (0, 2)], {"keepdim": True})
case("mean/method_neg", "mean", [rd, -1], call="method")
case("mean/int", "torch.mean", [torch.tensor([1, 2])])
case("mean/int_dtype", "torch.mean", [torch.tensor([1, 2])], {"dtype": F32})
case("mean/aten_default", "aten.mean.default", [rd])
case("var/default", "torch.var", [rd])
case("var/dim", "torch.var", [rd, 1])
case("var/unbiased_false", "torch.var", [rd, 1, False, True])
case("var/correction0", "torch.var", [rd], {"dim": (0, 2), "correction": 0})
case("var/bool_unbiased", "torch.var", [rd, False])
case("var/aten_correction", "aten.var.correction", [rd, [1]], {"correction": 1, "keepdim": True})
case("std/default", "torch.std", [rd])
case("std/method", "std", [rd, 2], call="method")
case("std/single", "torch.std", [torch.tensor([1.0])])
case("prod/all", "torch.prod", [r(2, 3)])
case("prod/dim_keep", "torch.prod", [r(2, 3), 1, True])
case("prod/int", "torch.prod", [torch.tensor([[1, 2], [3, 4]], dtype=I32)])
case("logsumexp/basic", "torch.logsumexp", [rd, 1])
case("logsumexp/dims", "torch.logsumexp", [rd, (0, 2), True])
case("norm/default", "torch.norm", [rd])
case("norm/p1_dim", "torch.norm", [rd, 1, 2])
case("norm/inf", "torch.norm", [rd], {"p": float("inf"), "dim": 0})
case("norm/p3", "torch.norm", [rd, 3, (1, 2), True])
case("norm/method", "norm", [rd], {"dim": -1}, call="method")
case("vector_norm/basic", "torch.linalg.vector_norm", [rd], {"ord": 2, "dim": 1})
case("amax/basic", "torch.amax", [rd, 1])
case("amax/dims", "torch.amax", [rd, (0, 2), True])
case("amin/all", "torch.amin", [rd])
case("amax/int", "torch.amax", [torch.tensor([[3, -1], [2, 7]]), 0])
case("any/dim", "torch.any", [torch.tensor([[True, False], [False, False]]), 1])
case("any/all_float", "torch.any", [r(3, 2)])
case("all/dim", "torch.all", [torch.tensor([[True, False], [True, True]]), 0])
case("all/uint8", "torch.all", [torch.tensor([1, 2, 0], dtype=torch.uint8)])
case("max/all", "torch.max", [rd])
case("max/dim", "torch.max", [rd, 1])
case("max/dim_keep", "torch.max", [rd, -1, True])
case("max/method", "max", [rd, 0], call="method")
case("max/nan", "torch.max", [torch.tensor([1.0, float("nan"), 3.0]), 0])
case("max/int", "torch.max", [torch.tensor([[3, 9], [4, 1]]), 1])
case("max/aten_dim", "aten.max.dim", [rd, 2])
case("min/dim", "torch.min", [rd, 1])
case("min/all", "torch.min", [rd])
case("argmax/all", "torch.argmax", [rd])
case("argmax/dim", "torch.argmax", [rd, 1])
case("argmax/keep", "torch.argmax", [rd, -1, True])
case("argmax/ties", "torch.argmax", [torch.tensor([1.0, 3.0, 3.0, 2.0])])
case("argmin/dim", "argmin", [rd, 2], call="method")
case("cumsum/basic", "torch.cumsum", [rd, 1])
case("cumsum/int", "torch.cumsum", [torch.tensor([1, 2, 3], dtype=I32), 0])
case("cumsum/dtype", "torch.cumsum", [rd, -1], {"dtype": F64})
case("cumprod/basic", "torch.cumprod", [r(2, 4), 1])
case("cumsum/method", "cumsum", [rd, 0], call="method")

# ---- resampling, padding, embedding, attention -------------------------------------------------------------
im = r(1, 2, 3, 4)
case("interpolate/nearest_scale2", "torch.nn.functional.interpolate", [im], {"scale_factor": 2})
case("interpolate/nearest_size", "torch.nn.functional.interpolate", [im], {"size": (5, 7)})
case("interpolate/nearest_down", "torch.nn.functional.interpolate", [r(1, 1, 7, 9)], {"size": (3, 4)})
case("interpolate/bilinear", "torch.nn.functional.interpolate", [im], {"scale_factor": 2, "mode": "bilinear"})
case("interpolate/bilinear_align", "torch.nn.functional.interpolate", [im],
     {"size": (5, 7), "mode": "bilinear", "align_corners": True})
case("interpolate/bilinear_scale1.5", "torch.nn.functional.interpolate", [im],
     {"scale_factor": 1.5, "mode": "bilinear"})
case("interpolate/bilinear_recompute", "torch.nn.functional.interpolate", [im],
     {"scale_factor": 1.7, "mode": "bilinear", "recompute_scale_factor": True})
case("interpolate/linear_1d", "torch.nn.functional.interpolate", [r(2, 3, 5)], {"size": 8, "mode": "linear"})
case("interpolate/nearest_exact", "torch.nn.functional.interpolate", [r(1, 1, 5, 5)],
     {"size": (3, 7), "mode": "nearest-exact"})
case("interpolate/nearest_1d", "torch.nn.functional.interpolate", [r(2, 3, 5)], {"scale_factor": 3})
case("upsample_nearest2d/vec", "aten.upsample_nearest2d.vec", [im, None, [2.0, 3.0]])
case("upsample_nearest2d/vec_size", "aten.upsample_nearest2d.vec", [im, [6, 5], None])
case("upsample_bilinear2d/vec", "aten.upsample_bilinear2d.vec", [im, None, False, [2.0, 2.0]])
case("upsample_bilinear2d/vec_align", "aten.upsample_bilinear2d.vec", [im, [4, 6], True, None])
pd = r(1, 2, 3, 4)
case("pad/constant", "torch.nn.functional.pad", [pd, (1, 2)])
case("pad/constant_value", "torch.nn.functional.pad", [pd, (1, 1, 2, 0)], {"value": 3.5})
case("pad/negative", "torch.nn.functional.pad", [pd, (-1, 1, 0, -2)])
case("pad/int", "torch.nn.functional.pad", [torch.tensor([[1, 2], [3, 4]]), (1, 1, 1, 1)], {"value": 7})
case("pad/reflect", "torch.nn.functional.pad", [pd, (2, 1, 1, 2)], {"mode": "reflect"})
case("pad/replicate", "torch.nn.functional.pad", [pd, (2, 1, 1, 3)], {"mode": "replicate"})
case("pad/circular", "torch.nn.functional.pad", [pd, (2, 1, 1, 2)], {"mode": "circular"})
case("pad/reflect_1d", "torch.nn.functional.pad", [r(2, 3, 5), (3, 2)], {"mode": "reflect"})
case("pad/reflect_too_big", "torch.nn.functional.pad", [r(2, 3, 5), (5, 0)], {"mode": "reflect"})
case("pad/c_nn", "torch._C._nn.pad", [pd, [1, 1]])
case("pad/aten_constant", "aten.constant_pad_nd.default", [pd, [0, 1, 2, 0], -1.0])
case("pad/aten_reflect", "aten.reflection_pad2d.default", [pd, [1, 1, 2, 2]])
emb_w = r(10, 4)
case("embedding/F", "torch.nn.functional.embedding", [torch.tensor([[1, 3], [9, 0]]), emb_w])
case("embedding/padding_idx", "torch.nn.functional.embedding", [torch.tensor([2, 0]), emb_w], {"padding_idx": 0})
case("embedding/aten", "aten.embedding.default", [emb_w, torch.tensor([[4, 4, 1]])])
case("embedding/out_of_range", "torch.nn.functional.embedding", [torch.tensor([10]), emb_w])
q, k, v = r(2, 3, 4, 8), r(2, 3, 6, 8), r(2, 3, 6, 5)
sdpa = "torch.nn.functional.scaled_dot_product_attention"
case("sdpa/basic", sdpa, [q, k, v])
case("sdpa/causal", sdpa, [q, r(2, 3, 4, 8), r(2, 3, 4, 5)], {"is_causal": True})
case("sdpa/causal_rect", sdpa, [q, k, v], {"is_causal": True})
case("sdpa/bool_mask", sdpa, [q, k, v], {"attn_mask": torch.rand(4, 6) > 0.3})
case("sdpa/float_mask", sdpa, [q, k, v], {"attn_mask": r(2, 1, 4, 6)})
case("sdpa/scale", sdpa, [q, k, v], {"scale": 0.3})
case("sdpa/3d", sdpa, [r(3, 4, 8), r(3, 6, 8), r(3, 6, 8)])
case("sdpa/gqa", sdpa, [r(1, 4, 3, 8), r(1, 2, 5, 8), r(1, 2, 5, 8)], {"enable_gqa": True})
case("pixel_shuffle/basic", "torch.nn.functional.pixel_shuffle", [r(2, 8, 3, 4), 2])
case("pixel_unshuffle/basic", "torch.nn.functional.pixel_unshuffle", [r(2, 2, 4, 6), 2])
case("bilinear/basic", "torch.nn.functional.bilinear", [r(3, 4), r(3, 5), r(2, 4, 5), r(2)])

# ---- integer matrix products (torch's CPU kernels take every integer dtype, not bool) ----------------------
def ri(*shape, dtype=I64):
    return torch.randint(-4, 5, shape).to(dtype)


I16, I8, U8 = torch.int16, torch.int8, torch.uint8
for dt, nm in ((I64, "i64"), (I32, "i32"), (I16, "i16"), (I8, "i8")):
    case(f"matmul/int_{nm}", "torch.matmul", [ri(2, 3, dtype=dt), ri(3, 4, dtype=dt)])
case("matmul/int_batched_broadcast", "torch.matmul", [ri(2, 1, 3, 4), ri(5, 4, 2)])
case("matmul/int_vec", "torch.matmul", [ri(4), ri(4)])
case("matmul/int_3d_2d", "torch.matmul", [ri(2, 3, 4, dtype=I32), ri(4, 5, dtype=I32)])
case("matmul/uint8", "torch.matmul", [torch.randint(0, 4, (2, 3)).to(U8), torch.randint(0, 4, (3, 2)).to(U8)])
case("matmul/bool", "torch.matmul", [torch.rand(2, 3) > 0.5, torch.rand(3, 2) > 0.5])
case("mm/int64", "torch.mm", [ri(3, 5), ri(5, 2)])
case("mm/int_transposed", "aten.mm.default", [ri(5, 3).t(), ri(2, 5).t()])
case("bmm/int32", "torch.bmm", [ri(2, 3, 4, dtype=I32), ri(2, 4, 5, dtype=I32)])
case("bmm/bool", "torch.bmm", [torch.rand(1, 2, 3) > 0.5, torch.rand(1, 3, 2) > 0.5])
case("addmm/int", "torch.addmm", [ri(4), ri(3, 5), ri(5, 4)], {"beta": 2, "alpha": 3})
case("linear/int", "torch.nn.functional.linear", [ri(2, 3, 4), ri(5, 4), ri(5)])
case("dot/int", "torch.dot", [ri(6), ri(6)])
case("mv/int", "torch.mv", [ri(3, 6, dtype=I32), ri(6, dtype=I32)])
case("baddbmm/int", "torch.baddbmm", [ri(2, 3, 5), ri(2, 3, 4), ri(2, 4, 5)])
case("einsum/int", "torch.einsum", ["ij,jk->ik", ri(2, 3), ri(3, 4)])

# ---- 3-D convolution and pooling ---------------------------------------------------------------------------
v3 = r(2, 4, 5, 6, 7)
case("conv3d/basic", "torch.conv3d", [v3, r(6, 4, 3, 3, 3), r(6)], {"padding": 1})
case("conv3d/F_stride_tuple", "torch.nn.functional.conv3d", [v3, r(3, 4, 3, 2, 3)], {"stride": (2, 1, 3)})
case("conv3d/dilation_groups", "torch.conv3d", [v3, r(6, 2, 2, 3, 2), r(6)], {"groups": 2, "dilation": (2, 1, 2), "padding": (1, 0, 2)})
case("conv3d/depthwise", "torch.conv3d", [v3, r(4, 1, 3, 3, 3)], {"groups": 4, "padding": 1})
case("conv3d/same_even", "torch.conv3d", [v3, r(3, 4, 2, 3, 4), r(3)], {"padding": "same"})
case("conv3d/valid", "torch.conv3d", [v3, r(3, 4, 3, 3, 3)], {"padding": "valid"})
case("conv3d/unbatched", "torch.conv3d", [r(4, 5, 6, 7), r(2, 4, 3, 3, 3)])
case("conv3d/f64", "torch.conv3d", [r(1, 2, 4, 4, 4, dtype=F64), r(3, 2, 3, 3, 3, dtype=F64), r(3, dtype=F64)])
case("conv3d/aten", "aten.conv3d.default", [v3, r(3, 4, 1, 3, 3), r(3), [1, 2, 2], [0, 1, 1], [1, 1, 1], 1])
case("conv3d/channel_mismatch", "torch.conv3d", [v3, r(3, 5, 3, 3, 3)])
case("conv3d/int", "torch.conv3d", [ri(1, 2, 3, 3, 3), ri(1, 2, 1, 1, 1)])
case("conv2d/int_same_even", "torch.conv2d", [ri(1, 2, 5, 6), ri(3, 2, 2, 3), ri(3)], {"padding": "same"})
case("conv2d/int32_groups_stride", "torch.conv2d", [ri(2, 4, 5, 6, dtype=I32), ri(4, 2, 3, 3, dtype=I32)],
     {"groups": 2, "stride": 2, "padding": 1})
case("conv2d/uint8_unbatched", "torch.conv2d", [torch.randint(0, 3, (2, 4, 4)).to(U8), torch.randint(0, 3, (1, 2, 2, 2)).to(U8)])
case("conv2d/bool", "torch.conv2d", [torch.rand(1, 1, 3, 3) > 0.5, torch.rand(1, 1, 2, 2) > 0.5])
case("conv1d/int_dilation", "torch.conv1d", [ri(2, 3, 9), ri(2, 3, 3), ri(2)], {"dilation": 2, "padding": 1})
case("conv_transpose2d/int", "torch.conv_transpose2d", [ri(1, 2, 3, 4), ri(2, 3, 3, 2), ri(3)], {"stride": 2, "output_padding": 1})
case("convolution/aten_3d", "aten.convolution.default",
     [v3, r(6, 2, 3, 3, 3), r(6), [1, 2, 1], [1, 1, 0], [1, 1, 1], False, [0, 0, 0], 2])
case("convolution/aten_3d_transposed", "aten.convolution.default",
     [r(1, 4, 3, 4, 5), r(4, 3, 3, 3, 3), r(3), [2, 1, 2], [1, 1, 0], [1, 1, 1], True, [1, 0, 1], 1])
case("conv_transpose3d/groups_dilation", "torch.nn.functional.conv_transpose3d", [r(2, 4, 3, 3, 4), r(4, 2, 2, 3, 2), r(4)],
     {"groups": 2, "dilation": (1, 2, 1), "stride": 2})
p3 = r(2, 3, 5, 7, 6)
case("max_pool3d/basic", "torch.nn.functional.max_pool3d", [p3, 2])
case("max_pool3d/k3s2p1_ceil", "torch.nn.functional.max_pool3d", [p3, 3, 2, 1], {"ceil_mode": True})
case("max_pool3d/dilation_indices", "torch.nn.functional.max_pool3d", [p3, (2, 2, 3)],
     {"stride": 1, "dilation": (2, 1, 1), "return_indices": True})
case("max_pool3d/unbatched", "torch.nn.functional.max_pool3d", [r(3, 4, 4, 4), 2])
case("max_pool3d/aten_with_indices", "aten.max_pool3d_with_indices.default", [p3, [3, 3, 3], [2, 2, 2], [1, 1, 1]])
case("max_pool3d/nan", "torch.nn.functional.max_pool3d",
     [torch.tensor([1.0, float("nan"), 3.0, 2.0, 0.0, 1.0, 5.0, 4.0]).reshape(1, 1, 2, 2, 2), 2])
case("avg_pool3d/basic", "torch.nn.functional.avg_pool3d", [p3, 2])
case("avg_pool3d/k3s2p1", "torch.nn.functional.avg_pool3d", [p3, 3, 2, 1])
case("avg_pool3d/no_pad_count_ceil", "torch.nn.functional.avg_pool3d", [p3, 3, 2, 1, True, False])
case("avg_pool3d/divisor", "torch.nn.functional.avg_pool3d", [p3, (2, 3, 2)], {"divisor_override": 5})
case("avg_pool3d/aten", "aten.avg_pool3d.default", [p3, [3, 3, 3], [2, 2, 2], [1, 1, 1], False, True])
case("adaptive_avg_pool3d/basic", "torch.nn.functional.adaptive_avg_pool3d", [p3, (2, 3, 4)])
case("adaptive_avg_pool3d/one_none", "torch.nn.functional.adaptive_avg_pool3d", [p3, (1, None, 2)])
case("adaptive_avg_pool3d/aten", "aten._adaptive_avg_pool3d.default", [p3, [3, 3, 3]])
case("adaptive_max_pool3d/indices", "torch.nn.functional.adaptive_max_pool3d", [p3, (2, 3, 4)], {"return_indices": True})
case("adaptive_max_pool3d/basic", "torch.nn.functional.adaptive_max_pool3d", [p3, 3])
case("adaptive_max_pool3d/with_indices", "torch.nn.functional.adaptive_max_pool3d_with_indices", [p3, (1, 2, 3)])

# ---- interpolate: every mode, 1-D to 3-D, align_corners both ways ---------------------------------------------
vol = r(1, 2, 3, 4, 5)
for ac in (False, True):
    case(f"interpolate/bicubic_ac{int(ac)}", "torch.nn.functional.interpolate", [r(1, 2, 4, 5)],
         {"size": (7, 9), "mode": "bicubic", "align_corners": ac})
    case(f"interpolate/bicubic_down_ac{int(ac)}", "torch.nn.functional.interpolate", [r(1, 1, 9, 8)],
         {"scale_factor": 0.5, "mode": "bicubic", "align_corners": ac})
    case(f"interpolate/trilinear_ac{int(ac)}", "torch.nn.functional.interpolate", [vol],
         {"size": (5, 3, 8), "mode": "trilinear", "align_corners": ac})
    case(f"interpolate/linear_ac{int(ac)}", "torch.nn.functional.interpolate", [r(2, 3, 5)],
         {"scale_factor": 2.5, "mode": "linear", "align_corners": ac})
case("interpolate/bicubic_scale", "torch.nn.functional.interpolate", [r(2, 3, 4, 4)], {"scale_factor": 2, "mode": "bicubic"})
case("interpolate/trilinear_scale", "torch.nn.functional.interpolate", [vol], {"scale_factor": (2, 1.5, 0.5), "mode": "trilinear"})
case("interpolate/nearest_3d", "torch.nn.functional.interpolate", [vol], {"size": (6, 2, 7)})
case("interpolate/nearest_3d_scale2", "torch.nn.functional.interpolate", [vol], {"scale_factor": 2})
case("interpolate/nearest_exact_3d", "torch.nn.functional.interpolate", [vol], {"size": (5, 7, 3), "mode": "nearest-exact"})
case("interpolate/nearest_exact_1d", "torch.nn.functional.interpolate", [r(2, 3, 7)], {"scale_factor": 1.7, "mode": "nearest-exact"})
case("interpolate/area_2d", "torch.nn.functional.interpolate", [r(1, 2, 7, 9)], {"size": (3, 4), "mode": "area"})
case("interpolate/area_1d", "torch.nn.functional.interpolate", [r(1, 2, 9)], {"scale_factor": 0.5, "mode": "area"})
case("interpolate/area_3d", "torch.nn.functional.interpolate", [vol], {"size": (2, 2, 3), "mode": "area"})
case("interpolate/f64_bicubic", "torch.nn.functional.interpolate", [r(1, 1, 3, 4, dtype=F64)], {"size": (5, 6), "mode": "bicubic"})
case("interpolate/bilinear_3d_input", "torch.nn.functional.interpolate", [r(1, 2, 5)], {"size": 4, "mode": "bilinear"})
case("interpolate/align_nearest", "torch.nn.functional.interpolate", [r(1, 2, 5)], {"size": 4, "align_corners": True})
case("upsample_bicubic2d/vec", "aten.upsample_bicubic2d.vec", [r(1, 2, 4, 5), [6, 7], False, None])
case("upsample_bicubic2d/vec_align_scale", "aten.upsample_bicubic2d.vec", [r(1, 2, 4, 5), None, True, [1.5, 2.0]])
case("upsample_trilinear3d/vec", "aten.upsample_trilinear3d.vec", [vol, [4, 5, 6], False, None])
case("upsample_nearest3d/vec", "aten.upsample_nearest3d.vec", [vol, None, [2.0, 1.0, 0.5]])
case("upsample_linear1d/vec", "aten.upsample_linear1d.vec", [r(2, 3, 5), [9], True, None])
case("upsample_nearest_exact2d/vec", "aten._upsample_nearest_exact2d.vec", [r(1, 2, 4, 5), [7, 3], None])
case("upsample_bilinear2d/default", "aten.upsample_bilinear2d.default", [r(1, 2, 4, 5), [6, 7], False])
case("upsample_nearest2d/default", "aten.upsample_nearest2d.default", [r(1, 2, 4, 5), [8, 10], 2.0, 2.0])
case("upsample_nearest_exact1d/default", "aten._upsample_nearest_exact1d.default", [r(1, 2, 5), [7]])
case("upsample_bicubic2d/default", "aten.upsample_bicubic2d.default", [r(1, 2, 4, 5), [6, 3], True])
case("upsample_trilinear3d/default_scales", "aten.upsample_trilinear3d.default", [vol, [6, 8, 10], False, 2.0, 2.0, 2.0])

# ---- scatter with reductions, index_add / index_copy / index_fill ------------------------------------------------
sx, sidx = r(4, 5), torch.tensor([[0, 1, 3, 0, 3], [2, 0, 3, 3, 1]])
for red in ("sum", "prod", "mean", "amax", "amin"):
    for inc in (True, False):
        case(f"scatter_reduce/{red}_self{int(inc)}", "torch.scatter_reduce", [sx, 0, sidx, r(2, 5), red],
             {"include_self": inc})
case("scatter_reduce/int_mean", "torch.scatter_reduce", [ri(4, 5), 0, sidx, ri(2, 5), "mean"])
case("scatter_reduce/int_amax_dim1", "torch.scatter_reduce", [ri(3, 4), 1, torch.tensor([[0, 0, 3], [1, 1, 1], [2, 3, 2]]),
                                                              ri(3, 3), "amax"], {"include_self": False})
case("scatter_reduce/method", "scatter_reduce", [sx, 1, torch.tensor([[0, 4], [1, 1], [2, 2], [3, 0]]), r(4, 2), "sum"],
     call="method")
case("scatter_reduce/aten", "aten.scatter_reduce.two", [sx, 0, sidx, r(2, 5), "prod"], {"include_self": False})
case("scatter_reduce/bad", "torch.scatter_reduce", [sx, 0, sidx, r(2, 5), "add"])
case("scatter_reduce/nan_amax", "torch.scatter_reduce",
     [torch.zeros(2), 0, torch.tensor([0, 0, 1]), torch.tensor([1.0, float("nan"), 2.0]), "amax"])
case("scatter_reduce_/inplace", "torch.Tensor.scatter_reduce_", [sx.clone(), 0, sidx, r(2, 5), "amin"])
case("scatter/reduce_add", "torch.scatter", [sx, 0, sidx, r(2, 5)], {"reduce": "add"})
case("scatter/reduce_multiply_value", "torch.scatter", [sx, 0, sidx, 2.0], {"reduce": "multiply"})
case("scatter/reduce_bad", "torch.scatter", [sx, 0, sidx, r(2, 5)], {"reduce": "mean"})
case("scatter/aten_reduce", "aten.scatter.reduce", [ri(4, 5), 0, sidx, ri(2, 5)], {"reduce": "multiply"})
case("scatter_/reduce_add", "torch.Tensor.scatter_", [sx.clone(), 1, sidx, r(2, 5)], {"reduce": "add"})
case("scatter_/aten_value_reduce", "aten.scatter_.value_reduce", [sx.clone(), 0, sidx, 3.0], {"reduce": "multiply"})
ix = torch.tensor([0, 3, 1])
case("index_add/dim0", "torch.index_add", [r(4, 3), 0, ix, r(3, 3)])
case("index_add/alpha_dim1", "torch.index_add", [r(2, 4), 1, ix, r(2, 3)], {"alpha": 2.5})
case("index_add/dup_int32_index", "torch.index_add", [ri(4, 2), 0, torch.tensor([1, 1, 2], dtype=I32), ri(3, 2)])
case("index_add/method_neg_dim", "index_add", [r(2, 3, 4), -1, ix, r(2, 3, 3)], call="method")
case("index_add/aten", "aten.index_add.default", [r(4, 3), 0, ix, r(3, 3)], {"alpha": -1})
case("index_add/dtype_mismatch", "torch.index_add", [r(4, 3), 0, ix, ri(3, 3)])
case("index_add/count_mismatch", "torch.index_add", [r(4, 3), 0, ix, r(2, 3)])
case("index_add_/inplace", "torch.Tensor.index_add_", [r(4, 3), 0, ix, r(3, 3)])
case("index_copy/dim0", "torch.index_copy", [r(4, 3), 0, ix, r(3, 3)])
case("index_copy/dim1_int", "torch.index_copy", [ri(2, 4), 1, ix, ri(2, 3)])
case("index_copy/int32_index", "torch.index_copy", [r(4, 3), 0, ix.to(I32), r(3, 3)])
case("index_copy_/inplace", "torch.Tensor.index_copy_", [r(4, 3), 1, torch.tensor([2, 0]), r(4, 2)])
case("index_fill/scalar", "torch.index_fill", [r(4, 3), 1, torch.tensor([0, 2]), -1.5])
case("index_fill/tensor_value", "torch.index_fill", [r(4, 3), 0, ix, torch.tensor(2.0)])
case("index_fill/int", "torch.index_fill", [ri(3, 4), 0, torch.tensor([1]), 7])
case("index_fill/method_bool", "index_fill", [torch.rand(3, 4) > 0.5, 1, torch.tensor([3]), True], call="method")
case("index_fill/aten", "aten.index_fill.int_Scalar", [r(4, 3), 0, ix, 0.5])
case("index_fill_/inplace", "torch.Tensor.index_fill_", [r(4, 3), 0, ix, 9.0])

# ---- Tensor.view(dtype): the same bytes as another dtype -----------------------------------------------------
vf = r(2, 4)
case("view_dtype/f32_i32", "view", [vf, torch.int32], call="method")
case("view_dtype/f32_i16", "view", [vf, torch.int16], call="method")
case("view_dtype/f32_f64", "view", [vf, torch.float64], call="method")
case("view_dtype/u8_i32", "view", [torch.arange(16, dtype=U8).reshape(2, 8), torch.int32], call="method")
case("view_dtype/i64_u8_kw", "view", [ri(2, 2)], {"dtype": U8}, call="method")
case("view_dtype/f32_bool_error", "view", [r(2, 3), torch.float64], call="method")
case("view_dtype/aten", "aten.view.dtype", [r(3, 2), torch.int32])

# ---- torchvision's fx-wrapped Swin functions --------------------------------------------------------------------
SW = "torchvision.models.swin_transformer."
case("swin/patch_merging_pad_odd", SW + "_patch_merging_pad", [r(2, 5, 7, 3)])
case("swin/patch_merging_pad_even", SW + "_patch_merging_pad", [r(1, 4, 6, 2)])
case("swin/relative_position_bias", SW + "_get_relative_position_bias",
     [r(49, 3), torch.randint(0, 49, (16 * 16,)), [4, 4]])
for tag, shape, ws, shift in (("shifted_pad", (2, 9, 10, 8), [4, 4], [2, 2]), ("plain", (1, 8, 8, 8), [4, 4], [0, 0]),
                              ("window_covers", (1, 3, 3, 8), [4, 4], [2, 2]), ("rect", (1, 6, 9, 8), [3, 4], [1, 2])):
    n = ws[0] * ws[1]
    case(f"swin/shifted_window_attention_{tag}", SW + "shifted_window_attention",
         [r(*shape), r(24, 8), r(8, 8), r(1, 2, n, n), ws, 2],
         {"shift_size": shift, "qkv_bias": r(24), "proj_bias": r(8), "training": False}, tol=(1e-4, 1e-5))
case("swin/shifted_window_attention_f64", SW + "shifted_window_attention",
     [r(2, 9, 10, 8, dtype=F64), r(24, 8, dtype=F64), r(8, 8, dtype=F64), r(1, 2, 16, 16, dtype=F64), [4, 4], 2],
     {"shift_size": [2, 2], "qkv_bias": r(24, dtype=F64), "proj_bias": r(8, dtype=F64), "training": False})
case("swin/shifted_window_attention_no_bias", SW + "shifted_window_attention",
     [r(1, 8, 8, 8), r(24, 8), r(8, 8), r(1, 2, 16, 16), [4, 4], 2, [2, 2]], {"training": False})

# ---- sort / argsort / topk --------------------------------------------------------------------------------------------
st = r(3, 5, 4)
case("sort/last", "torch.sort", [st])
case("sort/dim0_desc", "torch.sort", [st, 0, True])
case("sort/stable_kw", "torch.sort", [st], {"dim": 1, "stable": True})
case("sort/nan", "torch.sort", [torch.tensor([3.0, float("nan"), -1.0, 2.0])])
case("sort/nan_desc", "torch.sort", [torch.tensor([3.0, float("nan"), -1.0, 2.0])], {"descending": True})
case("sort/int_ties_stable", "torch.sort", [torch.tensor([[3, 1, 3, 1, 2], [0, 0, 5, 5, 0]])], {"stable": True})
case("sort/method", "sort", [st, -2], call="method")
case("sort/aten_stable", "aten.sort.stable", [st], {"stable": True, "dim": 0, "descending": True})
case("argsort/basic", "torch.argsort", [st, 1])
case("argsort/desc_stable", "torch.argsort", [torch.tensor([2, 1, 2, 0, 1])], {"descending": True, "stable": True})
case("msort/basic", "torch.msort", [st])
case("topk/basic", "torch.topk", [st, 2])
case("topk/smallest_dim0", "torch.topk", [st, 2, 0, False])
case("topk/method_kw", "topk", [st], {"k": 3, "dim": 1}, call="method")
case("topk/k_too_big", "torch.topk", [st, 5])
case("topk/aten", "aten.topk.default", [st, 1, -1, True, True])

tk = torch.topk(r(3, 4), 2)
case("getattr/return_types_values", "builtins.getattr", [tk, "values"])
case("getattr/return_types_indices", "builtins.getattr", [torch.sort(r(5)), "indices"])
case("getattr/aminmax_max", "builtins.getattr", [torch.aminmax(r(3, 2), dim=0), "max"])

# ---- pointwise: addcmul / addcdiv / logit / xlogy / nan_to_num ---------------------------------------------------------
case("addcmul/basic", "torch.addcmul", [r(3, 4), r(3, 1), r(4)])
case("addcmul/value", "torch.addcmul", [r(3, 4), r(3, 4), r(3, 4)], {"value": 0.5})
case("addcmul/int", "torch.addcmul", [ri(2, 3), ri(2, 3), ri(2, 3)], {"value": 2})
case("addcmul/method", "addcmul", [r(2, 3), r(2, 3), r(2, 3)], {"value": -1}, call="method")
case("addcdiv/basic", "torch.addcdiv", [r(3, 4), r(3, 4), r(3, 4).abs() + 0.5], {"value": 2})
case("addcdiv/int", "torch.addcdiv", [ri(2, 3), ri(2, 3), ri(2, 3)])
case("logit/basic", "torch.logit", [torch.rand(3, 4, dtype=torch.float64).float()])
case("logit/eps", "torch.logit", [torch.tensor([0.0, 0.3, 1.0])], {"eps": 0.1})
case("logit/int", "torch.logit", [torch.tensor([0, 1])])
case("xlogy/basic", "torch.xlogy", [torch.tensor([0.0, 1.0, 2.0, 0.0]), torch.tensor([float("nan"), 0.0, 3.0, 2.0])])
case("xlogy/int", "torch.xlogy", [torch.tensor([0, 1, 2]), torch.tensor([0, 2, 3])])
case("xlogy/scalar_self", "torch.xlogy", [2, r(3).abs()])
case("xlogy/special", "torch.special.xlogy", [r(2, 3), r(3).abs()])
nanx = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5])
case("nan_to_num/default", "torch.nan_to_num", [nanx])
case("nan_to_num/values", "torch.nan_to_num", [nanx], {"nan": 1.0, "posinf": 2.0, "neginf": -3.0})
case("nan_to_num/f16", "torch.nan_to_num", [nanx.half()])
case("nan_to_num/f64", "torch.nan_to_num", [nanx.double()])
case("nan_to_num/int", "torch.nan_to_num", [ri(3)])
case("nan_to_num_/inplace", "torch.Tensor.nan_to_num_", [nanx.clone()], {"nan": 9.0})

# ---- reductions returning pairs ---------------------------------------------------------------------------------------
case("var_mean/all", "torch.var_mean", [rd])
case("var_mean/dim_unbiased_keep", "torch.var_mean", [rd, 1, True, True])
case("var_mean/unbiased_false", "torch.var_mean", [rd, False])
case("var_mean/correction", "torch.var_mean", [rd], {"dim": (0, 2), "correction": 0})
case("std_mean/dim", "torch.std_mean", [rd, 2])
case("std_mean/keepdim_kw", "torch.std_mean", [rd], {"dim": 1, "keepdim": True})
case("aminmax/all", "torch.aminmax", [rd])
case("aminmax/dim_keep", "torch.aminmax", [rd], {"dim": 1, "keepdim": True})
case("aminmax/int", "torch.aminmax", [ri(3, 4)], {"dim": 0})
case("aminmax/empty", "torch.aminmax", [torch.tensor([])])

# ---- normalisation and distances ---------------------------------------------------------------------------------------
case("normalize/default", "torch.nn.functional.normalize", [r(3, 4)])
case("normalize/p1_dim", "torch.nn.functional.normalize", [r(2, 3, 4)], {"p": 1.0, "dim": -1})
case("normalize/zero_row", "torch.nn.functional.normalize", [torch.zeros(2, 3)])
case("cosine_similarity/basic", "torch.nn.functional.cosine_similarity", [r(3, 5), r(3, 5)])
case("cosine_similarity/broadcast_dim", "torch.nn.functional.cosine_similarity", [r(2, 3, 4), r(3, 4)], {"dim": -1})
case("cosine_similarity/zero", "torch.cosine_similarity", [torch.zeros(2, 3), r(2, 3)])
case("pairwise_distance/basic", "torch.nn.functional.pairwise_distance", [r(4, 6), r(4, 6)])
case("pairwise_distance/p1_keep", "torch.nn.functional.pairwise_distance", [r(4, 6), r(6)], {"p": 1.0, "keepdim": True})
case("pairwise_distance/torch", "torch.pairwise_distance", [r(3, 2, 5), r(3, 2, 5), 3.0])
case("rms_norm/basic", "torch.nn.functional.rms_norm", [r(2, 3, 6), [6], r(6)])
case("rms_norm/two_dims_eps", "torch.nn.functional.rms_norm", [r(2, 3, 6), [3, 6]], {"eps": 1e-3})
case("rms_norm/f64", "torch.nn.functional.rms_norm", [r(4, 5, dtype=F64), (5,)])
case("local_response_norm/3d", "torch.nn.functional.local_response_norm", [r(2, 6, 5), 3])
case("local_response_norm/4d", "torch.nn.functional.local_response_norm", [r(2, 6, 4, 5), 4],
     {"alpha": 0.01, "beta": 0.5, "k": 2.0})
case("local_response_norm/5d", "torch.nn.functional.local_response_norm", [r(1, 5, 2, 3, 4), 2])
lp = r(2, 3, 6, 7).abs() + 0.1
case("lp_pool2d/basic", "torch.nn.functional.lp_pool2d", [lp, 2, 2])
case("lp_pool2d/p3_stride_ceil", "torch.nn.functional.lp_pool2d", [lp, 3.0, (3, 2)], {"stride": 2, "ceil_mode": True})
case("lp_pool1d/basic", "torch.nn.functional.lp_pool1d", [r(2, 3, 9), 2, 3])
case("lp_pool3d/basic", "torch.nn.functional.lp_pool3d", [r(1, 2, 4, 4, 6).abs(), 1.5, 2])

# ---- fold / unfold / one_hot --------------------------------------------------------------------------------------------
case("unfold/basic", "torch.nn.functional.unfold", [r(2, 3, 5, 6), 3])
case("unfold/all_params", "torch.nn.functional.unfold", [r(1, 2, 7, 6), (2, 3)],
     {"dilation": (2, 1), "padding": 1, "stride": (2, 2)})
case("unfold/unbatched", "torch.nn.functional.unfold", [r(2, 4, 4), 2], {"stride": 2})
case("unfold/aten_im2col", "aten.im2col.default", [r(1, 2, 5, 5), [3, 3], [1, 1], [1, 1], [1, 1]])
case("fold/basic", "torch.nn.functional.fold", [r(2, 27, 12), (5, 6), 3])
case("fold/overlap_params", "torch.nn.functional.fold", [r(1, 12, 12), (7, 6), (2, 3)],
     {"dilation": (2, 1), "padding": 1, "stride": (2, 2)})
case("fold/bad_blocks", "torch.nn.functional.fold", [r(1, 18, 10), (5, 6), 3])
case("fold/aten_col2im", "aten.col2im.default", [r(1, 18, 9), [5, 5], [3, 3], [1, 1], [0, 0], [1, 1]])
# (num_classes=-1 counts classes from the values: not a case, as inference cannot know the shape)
case("one_hot/classes", "torch.nn.functional.one_hot", [torch.tensor([1, 0, 2]), 5])
case("one_hot/too_small", "torch.nn.functional.one_hot", [torch.tensor([1, 0, 3]), 2])
case("one_hot/float", "torch.nn.functional.one_hot", [torch.tensor([1.0, 0.0]), 2])

# ---- broadcasting, tiling and scatter-by-view ---------------------------------------------------------------------------
case("broadcast_to/basic", "torch.broadcast_to", [r(3, 1), (2, 3, 4)])
case("broadcast_to/method", "broadcast_to", [r(4), [3, 4]], call="method")
case("broadcast_tensors/three", "torch.broadcast_tensors", [r(3, 1), r(4), r(2, 1, 1)])
case("tile/basic", "torch.tile", [r(2, 3), (2, 1, 2)])
case("tile/method_short", "tile", [r(2, 3), (2,)], call="method")
case("repeat_interleave/int_dim", "torch.repeat_interleave", [r(2, 3), 2], {"dim": 1})
case("repeat_interleave/flat", "torch.repeat_interleave", [r(2, 3), 3])
case("repeat_interleave/tensor", "torch.repeat_interleave", [r(3, 2), torch.tensor([1, 0, 2])],
     {"dim": 0, "output_size": 3})
case("repeat_interleave/repeats_only", "torch.repeat_interleave", [torch.tensor([2, 0, 3])], {"output_size": 5})
case("repeat_interleave/method", "repeat_interleave", [ri(4), 2], call="method")
case("meshgrid/ij", "torch.meshgrid", [r(3), r(4)], {"indexing": "ij"})
case("meshgrid/xy_three", "torch.meshgrid", [r(3), r(4), r(2)], {"indexing": "xy"})
case("outer/basic", "torch.outer", [r(3), r(4)])
case("outer/int", "torch.outer", [ri(3), ri(2)])
case("atleast_1d/zero_dim", "torch.atleast_1d", [torch.tensor(2.0)])
case("atleast_2d/one", "torch.atleast_2d", [r(3)])
case("atleast_3d/many", "torch.atleast_3d", [r(3), r(2, 3), torch.tensor(1.0)])
case("diagonal/basic", "torch.diagonal", [r(3, 4)])
case("diagonal/offset_dims", "torch.diagonal", [r(2, 3, 4)], {"offset": -1, "dim1": 2, "dim2": 1})
case("diagonal/method_pos", "diagonal", [r(4, 3), 1], call="method")
case("take_along_dim/dim", "torch.take_along_dim", [r(3, 4), torch.tensor([[0], [3], [1]]), 1])
case("take_along_dim/flat", "torch.take_along_dim", [r(3, 4), torch.tensor([5, 0, 11])])
case("select_scatter/basic", "torch.select_scatter", [r(3, 4), r(4), 0, 1])
case("select_scatter/neg", "torch.select_scatter", [r(2, 3, 4), r(2, 3), -1, -2])
case("slice_scatter/basic", "torch.slice_scatter", [r(6, 3), r(2, 3)], {"start": 1, "end": 5, "step": 2})
case("slice_scatter/dim1", "torch.slice_scatter", [r(3, 6), r(3, 3), 1, 3])

q2, k2, v2 = r(2, 3, 4, 8), r(2, 3, 6, 8), r(2, 3, 6, 5)
# masks read through their broadcast view: a column broadcast (last stride 0), a transposed (strided) one
case("sdpa/mask_col_broadcast", sdpa, [q2, k2, v2], {"attn_mask": r(4, 1)})
case("sdpa/mask_transposed", sdpa, [q2, k2, v2], {"attn_mask": r(2, 3, 6, 4).transpose(-1, -2)})
case("sdpa/bool_mask_heads", sdpa, [q2, k2, v2], {"attn_mask": torch.rand(2, 1, 1, 6) > 0.5})
case("sdpa/one_query_long", sdpa, [r(1, 2, 1, 8), r(1, 2, 33, 8), r(1, 2, 33, 8)])
case("sdpa/flash_cpu_lse", "aten._scaled_dot_product_flash_attention_for_cpu.default", [q2, k2, r(2, 3, 6, 8)],
     {"attn_mask": r(2, 1, 4, 6)})

out = {"torch": torch.__version__, "cases": cases}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nn_ops.json")
with open(path, "w") as f:
    json.dump(out, f, indent=None, separators=(",", ":"))
    f.write("\n")
print(f"wrote {len(cases)} cases to {path}")
