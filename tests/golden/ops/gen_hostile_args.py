"""Generates tests/golden/ops/hostile_args.json: op calls with extreme arguments (zero or huge strides,
dilations, factors and scales, int64-overflowing sizes and pads, fill values a dtype cannot hold, NaN/inf in
grid_sample grids) and what the reference torch does with them: mostly its error, which fxwasm must raise
too (a division by zero in shape arithmetic is a trap that kills a wasm runtime; a wrapped size is a silent
wrong result). Run with the reference Python:
    /root/.cache/fxwasm/venv-torch-2.15.0/bin/python tests/golden/ops/gen_hostile_args.py

Format: as gen_shape_ops.py. A case with "error_any": true (torch's own message there is an internal
one, e.g. "SymIntArrayRef expected to contain only concrete integers") needs some error, not its wording.
"""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden_format import (B, BF16, F16, F32, F64, I8, I16, I32, I64, U8, case, cases, tensor)  # noqa: E402

torch.manual_seed(0)
BIG = 2**63 - 1
MIN = -2**63

x3, w3 = tensor([1, 2, 5]), tensor([2, 2, 3])
x4, w4 = tensor([1, 2, 5, 5]), tensor([2, 2, 3, 3])
x5, w5 = tensor([1, 2, 4, 4, 4]), tensor([2, 2, 3, 3, 3])
conv = "torch.nn.functional."

# --- convolutions: zero/negative/huge stride, dilation, groups, padding ----------------------------
for name, x, w in [("conv1d", x3, w3), ("conv2d", x4, w4), ("conv3d", x5, w5)]:
    case(f"{name}/stride0", conv + name, [x, w], {"stride": 0})
    case(f"{name}/stride_neg", conv + name, [x, w], {"stride": -1})
    case(f"{name}/dilation0", conv + name, [x, w], {"dilation": 0})
    case(f"{name}/groups0", conv + name, [x, w], {"groups": 0})
    case(f"{name}/padding_neg", conv + name, [x, w], {"padding": -1})
    case(f"{name}/stride_huge", conv + name, [x, w], {"stride": BIG})
    # (torch's message there comes from its wrapped int64 arithmetic: "calculated output size -92233...")
    case(f"{name}/dilation_huge", conv + name, [x, w], {"dilation": 2**62}, error_any=True)
    case(f"{name}/groups_2_32", conv + name, [x, w], {"groups": 2**32})
case("conv2d/stride_one_axis0", conv + "conv2d", [x4, w4], {"stride": (1, 0)})
case("conv3d/stride_one_axis0", conv + "conv3d", [x5, w5], {"stride": (1, 0, 1)})
case("conv3d/int_stride0", conv + "conv3d", [torch.ones(1, 1, 2, 2, 2, dtype=I64), torch.ones(1, 1, 1, 1, 1, dtype=I64)],
     {"stride": 0})
case("conv2d/int_stride0", conv + "conv2d", [torch.ones(1, 1, 2, 2, dtype=I32), torch.ones(1, 1, 1, 1, dtype=I32)],
     {"stride": 0})
case("convolution/aten_stride0", "aten.convolution.default", [x4, w4, None, [0, 0], [0, 0], [1, 1], False, [0, 0], 1])
case("conv3d/aten_stride0", "aten.convolution.default", [x5, w5, None, [0, 0, 0], [0, 0, 0], [1, 1, 1], False,
                                                          [0, 0, 0], 1])
for name, x, w in [("conv_transpose1d", x3, w3), ("conv_transpose2d", x4, w4), ("conv_transpose3d", x5, w5)]:
    case(f"{name}/stride0", conv + name, [x, w], {"stride": 0})
    case(f"{name}/groups0", conv + name, [x, w], {"groups": 0})
case("conv_transpose2d/output_padding_huge", conv + "conv_transpose2d", [x4, w4], {"stride": 2, "output_padding": 2**62},
     error_any=True)

# --- pooling ------------------------------------------------------------------------------------
for name, x in [("max_pool2d", x4), ("avg_pool2d", x4), ("max_pool3d", x5), ("avg_pool3d", x5), ("avg_pool1d", x3),
                ("lp_pool2d", x4)]:
    pre = [x, 2, 2] if name.startswith("lp") else [x, 2]
    case(f"{name}/stride0", conv + name, pre, {"stride": 0})
    case(f"{name}/kernel0", conv + name, [x, 2, 0] if name.startswith("lp") else [x, 0])
    case(f"{name}/stride_huge", conv + name, pre, {"stride": BIG})
    case(f"{name}/kernel_huge", conv + name, [x, 2, 2**62] if name.startswith("lp") else [x, 2**62])
for name, x in [("max_pool2d", x4), ("max_pool3d", x5)]:
    case(f"{name}/dilation0", conv + name, [x, 2], {"dilation": 0})
case("avg_pool2d/padding_huge", conv + "avg_pool2d", [x4, 2], {"padding": 2**62})
case("max_pool2d/padding_half", conv + "max_pool2d", [x4, 2], {"padding": 2})
case("adaptive_avg_pool2d/zero", conv + "adaptive_avg_pool2d", [x4, 0])

# --- pixel/channel shuffles, fold/unfold, group_norm ---------------------------------------------
p4 = tensor([1, 4, 2, 2])
for r in [0, -1, 2**31, 2**32, 3037000499, 3037000500, BIG]:
    case(f"pixel_shuffle/{r}", conv + "pixel_shuffle", [p4, r])
    case(f"pixel_unshuffle/{r}", conv + "pixel_unshuffle", [p4, r])
case("pixel_unshuffle/width", conv + "pixel_unshuffle", [tensor([1, 1, 4, 2]), 4])
for g in [0, -2, 2**32]:
    case(f"channel_shuffle/{g}", conv + "channel_shuffle", [p4, g])
for key in ["kernel_size", "stride", "dilation"]:
    kw = {"kernel_size": 2, "stride": 1, "dilation": 1}
    kw[key] = 0
    case(f"unfold/{key}0", conv + "unfold", [x4], kw)
    case(f"fold/{key}0", conv + "fold", [tensor([1, 8, 16]), (5, 5)], kw)
case("unfold/padding_huge", conv + "unfold", [x4, 2], {"padding": 2**62}, error_any=True)
case("fold/output_huge", conv + "fold", [tensor([1, 4, 1]), (2**62, 2**62), 2], error_any=True)
case("fold/kernel_2_32", conv + "fold", [tensor([1, 4, 1]), (2**33, 2**33), (2**32, 2**32)], error_any=True)
case("group_norm/0", conv + "group_norm", [p4, 0], error_any=True)  # torch: a Python ZeroDivisionError
case("group_norm/neg", conv + "group_norm", [p4, -2])
case("group_norm/huge", conv + "group_norm", [p4, 2**62])

# --- interpolate: scale 0, tiny, negative, inf, nan, huge ----------------------------------------
for sf in [0.0, 1e-9, -1.0, float("inf"), float("nan"), 1e30]:
    for mode in ["nearest", "bilinear"]:
        case(f"interpolate/{mode}_scale_{sf}", conv + "interpolate", [x4], {"scale_factor": sf, "mode": mode})
case("interpolate/1d_scale0", conv + "interpolate", [x3], {"scale_factor": 0.0})
case("interpolate/3d_scale0", conv + "interpolate", [x5], {"scale_factor": 0.0})
case("interpolate/size0", conv + "interpolate", [x4], {"size": 0})
case("interpolate/size_neg", conv + "interpolate", [x3], {"size": -1})
case("interpolate/empty_input", conv + "interpolate", [torch.ones(1, 1, 0)], {"size": 2})
case("interpolate/size_huge", conv + "interpolate", [x4], {"size": (2**31, 2**31)})

# --- view/reshape with 0 in -1 inference, unflatten, repeat, expand ------------------------------
e03 = torch.zeros(0, 3)
case("view/zero_infer", "view", [e03, 0, -1], call="method")
case("view/zero_infer_first", "view", [e03, -1, 0], call="method")
case("reshape/zero_infer", "torch.reshape", [e03, (0, -1)])
case("reshape/zero_infer_nonempty", "torch.reshape", [tensor([2, 3]), (0, -1)])
case("reshape/huge", "torch.reshape", [torch.zeros(0), (2**62, 2**62, 0)])
case("view/huge", "view", [torch.zeros(4), 2**62, 2**62, 0], call="method")
case("unflatten/zero", "unflatten", [torch.zeros(6), 0, (0, -1)], call="method")
case("unflatten/huge", "unflatten", [torch.zeros(4), 0, (2**62, -1)], call="method")
case("repeat/huge", "repeat", [tensor([2, 3]), 2**62, 2**62], call="method", error_any=True)
case("repeat/neg", "repeat", [tensor([2, 3]), -1, 1], call="method")
case("expand/huge", "expand", [torch.zeros(1, 1), 2**40, 2**40], call="method", error_any=True)
case("tile/huge", "torch.tile", [tensor([2, 3]), (2**62, 2**62)], error_any=True)
case("repeat_interleave/huge", "torch.repeat_interleave", [torch.arange(2), 2**62], error_any=True)

# --- element counts that overflow int64 -----------------------------------------------------------
for shape in [(2**40, 2**40), (2**62, 4), (2**31, 2**31, 4)]:
    case(f"zeros/{shape}", "torch.zeros", [shape], error_any=True)
    case(f"ones/{shape}", "torch.ones", [shape], error_any=True)
    case(f"full/{shape}", "torch.full", [shape, 1.0], error_any=True)
case("empty/neg", "torch.empty", [-1])
case("eye/huge", "torch.eye", [3, 2**62], error_any=True)
case("one_hot/huge", conv + "one_hot", [torch.tensor([0]), 2**62], error_any=True)

# --- F.pad and narrow with int64-overflowing sizes -------------------------------------------------
z2 = torch.zeros(2)
case("pad/2^63-1", conv + "pad", [z2, (BIG, 0)])
case("pad/2^62_both", conv + "pad", [z2, (2**62, 2**62)])
case("pad/-2^63", conv + "pad", [z2, (MIN, 0)], error_any=True)
case("pad/neg_crop", conv + "pad", [z2, (-3, 0)], error_any=True)
case("pad/reflect_huge", conv + "pad", [torch.zeros(1, 2, 2), (BIG, 0)], {"mode": "reflect"})
case("pad/circular_huge", conv + "pad", [torch.zeros(1, 2, 2), (BIG, 0)], {"mode": "circular"})
case("pad/replicate_huge", conv + "pad", [torch.zeros(1, 2, 2), (BIG, 0)], {"mode": "replicate"}, error_any=True)
z5 = tensor([5])
case("narrow/huge_length", "narrow", [z5, 0, 1, BIG], call="method")
case("narrow/huge_start", "narrow", [z5, 0, BIG, 1], call="method")
case("narrow/min_start", "narrow", [z5, 0, MIN, 1], call="method")
case("narrow/neg_length", "narrow", [z5, 0, 1, -1], call="method")
case("narrow/min_length", "narrow", [z5, 0, 2, MIN], call="method")
case("narrow/neg_start_past_end", "narrow", [z5, 0, -1, 2], call="method")
case("narrow/end", "narrow", [z5, 0, 5, 0], call="method")
case("narrow/whole_from_neg", "narrow", [z5, 0, -5, 5], call="method")
case("slice/huge_end", "aten.slice.Tensor", [z5, 0, 1, BIG])
# (Not here: x[0:5:2**63-1], arange(-2**63, 2**63-1, 2**62) and arange(0, -10, -2**63), where the reference
# torch's own int64 arithmetic wraps and it returns an empty tensor; fxwasm returns the exact result, as
# Python's range and list slicing do.)
case("slice/huge_step_from_1", "aten.slice.Tensor", [z5, 0, 1, 5, 2**62])
case("getitem/huge_slice", "operator.getitem", [z5, slice(2**62, BIG, 2**62)])
case("select/huge", "operator.getitem", [z5, BIG])
case("split/huge", "torch.split", [z5, BIG])
case("split/zero", "torch.split", [z5, 0])
case("split_with_sizes/overflow", "torch.split", [z5, [BIG, 2**62, 2**62 + 7]], error_any=True)
case("chunk/huge", "torch.chunk", [z5, BIG])
case("chunk/zero", "torch.chunk", [z5, 0])
case("tensor_split/zero", "torch.tensor_split", [z5, 0])
case("tensor_split/huge_index", "torch.tensor_split", [z5, [BIG]])
case("roll/huge", "torch.roll", [torch.arange(5), BIG])
case("roll/empty", "torch.roll", [torch.zeros(0), 1, 0])
case("diagonal/huge", "torch.diagonal", [tensor([3, 3]), BIG])
case("diagonal/min", "torch.diagonal", [tensor([3, 3]), MIN])
case("tril/huge", "torch.tril", [tensor([2, 2]), BIG])
case("triu/min", "torch.triu", [tensor([2, 2]), MIN])
case("topk/huge", "torch.topk", [z5, BIG])

# --- fill values a dtype cannot hold (torch: "value cannot be converted to type int8_t without overflow") --
FILL_DTYPES = [I8, U8, I16, I32, I64, F16, BF16, F32, F64, B]
FILL_VALUES = [1000, -1, -255, -256, 256, 40000, 2**40, BIG, MIN, 127.5, 127.9, -128.5, -0.5, 255.5, 65504.0,
               65504.5, 1e6, 3.4e38, 3.5e38, 1e300, 2.0**63, -2.0**63, float("inf"), float("-inf"), float("nan"), True]
for dt in FILL_DTYPES:
    for v in FILL_VALUES:
        case(f"full/{str(dt)[6:]}_{v}", "torch.full", [(3,), v], {"dtype": dt})
for v in [1000, -1, -256, 127.5, -128.5, float("nan"), 1e6]:
    for dt in [I8, U8, F16, I32]:
        n = str(dt)[6:]
        z = torch.zeros(3, dtype=dt)
        case(f"fill_/{n}_{v}", "fill_", [z, v], call="method", after=(0,))
        case(f"full_like/{n}_{v}", "torch.full_like", [z, v])
        case(f"new_full/{n}_{v}", "new_full", [z, (2,), v], call="method")
        case(f"masked_fill/{n}_{v}", "masked_fill", [z, torch.tensor([True, False, True]), v], call="method")
        case(f"index_fill/{n}_{v}", "index_fill", [z, 0, torch.tensor([0]), v], call="method")
        case(f"where/{n}_{v}", "torch.where", [torch.tensor([True, False, True]), z, v])
        case(f"pad_value/{n}_{v}", conv + "pad", [z, (1, 1)], {"value": v})
        case(f"scalar_tensor/{n}_{v}", "torch.scalar_tensor", [v], {"dtype": dt})
case("full/empty_int8_1000", "torch.full", [(0,), 1000], {"dtype": I8})
case("fill_/int8_tensor_value", "fill_", [torch.zeros(3, dtype=I8), torch.tensor(1000)], call="method", after=(0,))
case("masked_fill/f32_1e300", "masked_fill", [torch.zeros(4), torch.tensor([True, False, True, False]), 1e300],
     call="method")
case("masked_fill/f32_1e300_2d", "masked_fill", [torch.zeros(2, 4), torch.tensor([True, False, True, False]), 1e300],
     call="method")
case("where/two_numbers_1e300", "torch.where", [torch.tensor([True, False]), 1e300, 2])
case("add/int8_1000_wraps", "operator.add", [torch.zeros(3, dtype=I8), 1000])

# --- arange with huge or non-finite counts --------------------------------------------------------
case("arange/huge", "torch.arange", [0, 2**62], error_any=True)
case("arange/float_huge", "torch.arange", [0, 1e30, 1.0])
case("arange/float_overflow", "torch.arange", [-1e308, 1e308, 1e-300])
case("arange/inf", "torch.arange", [0, float("inf")])
case("arange/nan", "torch.arange", [0, float("nan")])
case("arange/step0", "torch.arange", [0, 10, 0])
case("arange/int8_wraps", "torch.arange", [0, 1000.0, 100], {"dtype": I8})
case("linspace/neg", "torch.linspace", [0, 1, -1])

# --- grid_sample with NaN, +-inf and huge coordinates, every mode x padding_mode x align_corners ------
nan, inf = float("nan"), float("inf")
SPECIAL = [nan, inf, -inf, 1e30, -1e30, 0.5, -1.0, 1.0]
g2 = torch.tensor([[[[a, b] for a in SPECIAL] for b in [nan, inf, 0.25]]])  # [1, 3, 8, 2]
g3 = torch.tensor([[[[a, b, c] for a in [nan, inf, -inf, 1e30, 0.5]] for b in [nan, 0.25]] for c in [inf, 0.0]])[None]
for dt in [F32, F64]:
    img2, img3 = tensor([1, 2, 3, 4], dt), tensor([1, 2, 2, 3, 4], dt)
    for mode in ["bilinear", "nearest", "bicubic"]:
        for pad in ["zeros", "border", "reflection"]:
            for align in [False, True]:
                tag = f"{str(dt)[6:]}_{mode}_{pad}_{'ac' if align else 'noac'}"
                case(f"grid_sample/2d_{tag}", conv + "grid_sample", [img2, g2.to(dt)],
                     {"mode": mode, "padding_mode": pad, "align_corners": align})
                if mode != "bicubic":
                    case(f"grid_sample/3d_{tag}", conv + "grid_sample", [img3, g3.to(dt)],
                         {"mode": mode, "padding_mode": pad, "align_corners": align})

# --- torch.tensor checks integer dtypes only ("value cannot be converted to type int8 without overflow") --
for v in [1000, -1, -129, 300.5, 1e300, float("nan"), 2**40, 1e6]:
    for dt in [I8, U8, I32, F16, F32, BF16, B]:
        case(f"tensor/{str(dt)[6:]}_{v}", "torch.tensor", [v], {"dtype": dt})
case("tensor/list_int8_1000", "torch.tensor", [[1, 1000]], {"dtype": I8})

# --- pools and unfold: an empty batch is fine, any other empty dim is torch's error --------------------
for name, shape, args in [("max_pool2d", (0, 6, 6), [2]), ("max_pool2d", (1, 0, 6, 6), [2]), ("max_pool2d", (0, 2, 6, 6), [2]),
                          ("avg_pool2d", (0, 6, 6), [2]), ("avg_pool2d", (1, 0, 6, 6), [2]), ("max_pool1d", (0, 6), [2]),
                          ("avg_pool1d", (0, 6), [2]), ("max_pool3d", (0, 2, 2, 2), [1]), ("max_pool3d", (1, 0, 2, 2, 2), [1]),
                          ("avg_pool3d", (0, 2, 2, 2), [1]), ("unfold", (0, 4, 4), [2]), ("unfold", (1, 0, 4, 4), [2]),
                          ("unfold", (0, 1, 4, 4), [2])]:
    case(f"{name}/empty_{'x'.join(map(str, shape))}", conv + name, [torch.zeros(shape)] + args)

# --- norms without an identity on empty reductions; repeat_interleave with no repeats ---------------------
for ordv in [float("inf"), float("-inf"), -1.0, 0.0, 2.0]:
    case(f"norm/empty_{ordv}", "torch.norm", [torch.zeros(0, 4)], {"p": ordv})
    case(f"norm/empty_dim0_{ordv}", "torch.norm", [torch.zeros(0, 4)], {"p": ordv, "dim": 0})
    case(f"norm/empty_dim1_{ordv}", "torch.norm", [torch.zeros(0, 4)], {"p": ordv, "dim": 1})
case("repeat_interleave/no_repeats_output_size", "torch.repeat_interleave", [torch.zeros(0, dtype=I64)],
     {"output_size": 5})
case("repeat_interleave/empty_input_output_size", "torch.repeat_interleave",
     [torch.zeros(0, 2), torch.zeros(0, dtype=I64)], {"dim": 0, "output_size": 3})

# --- relu-like clamps keep NaN (std::max(0, NaN) is 0): the RNN relu layer, margin and hinge losses -------
xr = torch.tensor([[[nan, 1.0]], [[-inf, inf]], [[0.5, -2.0]]])
wih, whh, bih, bhh = tensor([3, 2]), tensor([3, 3]), tensor([3]), tensor([3])
case("rnn_relu/nan_input", "aten.rnn_relu.input", [xr, torch.zeros(1, 1, 3), [wih, whh, bih, bhh], True, 1, 0.0, False,
                                                   False, False])
nanv = torch.tensor([nan, inf, -inf, 1.0, -1.0, 0.0])
case("margin_ranking_loss/nan", conv + "margin_ranking_loss", [nanv, nanv.flip(0), torch.ones(6)], {"reduction": "none"})
case("hinge_embedding_loss/nan", conv + "hinge_embedding_loss", [nanv, -torch.ones(6)], {"reduction": "none"})
case("cosine_embedding_loss/nan", conv + "cosine_embedding_loss", [nanv.reshape(3, 2), torch.ones(3, 2), -torch.ones(3)],
     {"reduction": "none"})

out = {"torch": torch.__version__, "cases": cases}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hostile_args.json")
with open(path, "w") as f:
    json_text = __import__("json").dumps(out, indent=None, separators=(",", ":"))
    f.write(json_text + "\n")
print(f"wrote {len(cases)} cases to {path}")
