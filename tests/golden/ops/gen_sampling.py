"""Generates tests/golden/ops/sampling.json: spatial sampling ops called with the reference torch —
F.grid_sample (4-d/5-d; bilinear, nearest, bicubic; zeros/border/reflection padding; align_corners),
torch.grid_sampler / aten.grid_sampler_2d / grid_sampler_3d, F.affine_grid / aten.affine_grid_generator,
and F.max_unpool1d/2d/3d / aten.max_unpool2d / max_unpool3d fed from max_pool*(return_indices=True).
Run with the reference Python:  npm run -s python -- tests/golden/ops/gen_sampling.py
(case format: gen_shape_ops.py)."""
import json
import os
import sys
import warnings

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden_format import F32, F64, I32, I64, case, cases, tensor  # noqa: E402

warnings.filterwarnings("ignore")
torch.manual_seed(0)


def grid(*shape, dtype=F32):
    return tensor(list(shape), dtype, lo=-1.3, hi=1.3)


# grid_sample, 4-d: every mode x padding x align_corners.
x4, g4 = tensor([2, 3, 5, 6]), grid(2, 4, 3, 2)
for mode in ["bilinear", "nearest", "bicubic"]:
    for pad in ["zeros", "border", "reflection"]:
        for align in [False, True]:
            case(f"grid_sample/2d_{mode}_{pad}_{'ac' if align else 'noac'}", "torch.nn.functional.grid_sample",
                 [x4, g4], {"mode": mode, "padding_mode": pad, "align_corners": align})
# 5-d: bilinear (trilinear) and nearest.
x5, g5 = tensor([2, 2, 3, 4, 5]), grid(2, 2, 3, 2, 3)
for mode in ["bilinear", "nearest"]:
    for pad in ["zeros", "border", "reflection"]:
        for align in [False, True]:
            case(f"grid_sample/3d_{mode}_{pad}_{'ac' if align else 'noac'}", "torch.nn.functional.grid_sample",
                 [x5, g5], {"mode": mode, "padding_mode": pad, "align_corners": align})
case("grid_sample/default_align_none", "torch.nn.functional.grid_sample", [x4, g4])
case("grid_sample/positional", "torch.nn.functional.grid_sample", [x4, g4, "nearest", "border", True])
case("grid_sample/f64_bicubic", "torch.nn.functional.grid_sample", [x4.to(F64), g4.to(F64)],
     {"mode": "bicubic", "padding_mode": "reflection", "align_corners": False})
case("grid_sample/f64_3d", "torch.nn.functional.grid_sample", [x5.to(F64), g5.to(F64)], {"align_corners": True})
case("grid_sample/f16", "torch.nn.functional.grid_sample", [x4.half(), g4.half()], {"align_corners": True})
case("grid_sample/noncontiguous", "torch.nn.functional.grid_sample",
     [tensor([2, 3, 6, 5]).transpose(2, 3), grid(2, 3, 4, 2).transpose(1, 2)], {"align_corners": False})
case("grid_sample/unit_input", "torch.nn.functional.grid_sample", [tensor([1, 2, 1, 1]), grid(1, 2, 2, 2)],
     {"padding_mode": "reflection", "align_corners": True})
case("grid_sample/empty_batch", "torch.nn.functional.grid_sample", [tensor([0, 3, 4, 4]), grid(0, 2, 2, 2)],
     {"align_corners": False})
case("grid_sample/empty_grid", "torch.nn.functional.grid_sample", [x4, grid(2, 0, 3, 2)], {"align_corners": False})
case("grid_sample/zero_channels", "torch.nn.functional.grid_sample", [tensor([2, 0, 4, 4]), g4], {"align_corners": False})
case("grid_sample/bad_mode", "torch.nn.functional.grid_sample", [x4, g4], {"mode": "area"})
case("grid_sample/bad_padding", "torch.nn.functional.grid_sample", [x4, g4], {"padding_mode": "circular"})
case("grid_sample/dtype_mismatch", "torch.nn.functional.grid_sample", [x4, g4.to(F64)], {"align_corners": False})
case("grid_sample/batch_mismatch", "torch.nn.functional.grid_sample", [x4, grid(3, 4, 3, 2)], {"align_corners": False})
case("grid_sample/last_dim", "torch.nn.functional.grid_sample", [x4, grid(2, 4, 3, 3)], {"align_corners": False})
case("grid_sample/3d_input", "torch.nn.functional.grid_sample", [tensor([2, 3, 4]), grid(2, 3, 1)], {"align_corners": False})
case("grid_sample/int_3d", "aten.grid_sampler_3d.default", [tensor([2, 2, 3, 4, 5], I64), grid(2, 2, 3, 2, 3).to(I64), 0, 0, False])
case("grid_sample/rank_mismatch", "torch.nn.functional.grid_sample", [x4, g5], {"align_corners": False})
case("grid_sample/empty_spatial", "torch.nn.functional.grid_sample", [tensor([2, 3, 0, 4]), g4], {"align_corners": False})
case("grid_sample/int_input", "torch.nn.functional.grid_sample", [tensor([2, 3, 5, 6], I64), grid(2, 4, 3, 2).to(I64)],
     {"align_corners": False})
case("grid_sampler/int_modes", "torch.grid_sampler", [x4, g4, 2, 1, False])
case("grid_sampler/3d", "torch.grid_sampler", [x5, g5, 1, 2, True])
case("grid_sampler/aten", "aten.grid_sampler.default", [x4, g4, 0, 0, True])
case("grid_sampler_2d/aten", "aten.grid_sampler_2d.default", [x4, g4, 0, 2, False])
case("grid_sampler_2d/aten_bicubic", "aten.grid_sampler_2d.default", [x4, g4, 2, 0, True])
case("grid_sampler_2d/aten_5d_input", "aten.grid_sampler_2d.default", [x5, g5, 0, 0, True])
case("grid_sampler_3d/aten", "aten.grid_sampler_3d.default", [x5, g5, 0, 1, False])
case("grid_sampler_3d/aten_nearest", "aten.grid_sampler_3d.default", [x5.to(F64), g5.to(F64), 1, 0, True])

# affine_grid.
th2, th3 = tensor([2, 2, 3], lo=-1, hi=1), tensor([2, 3, 4], lo=-1, hi=1)
for align in [False, True]:
    tag = "ac" if align else "noac"
    case(f"affine_grid/2d_{tag}", "torch.nn.functional.affine_grid", [th2, [2, 3, 4, 5]], {"align_corners": align})
    case(f"affine_grid/3d_{tag}", "torch.nn.functional.affine_grid", [th3, [2, 1, 3, 4, 2]], {"align_corners": align})
    case(f"affine_grid/unit_{tag}", "torch.nn.functional.affine_grid", [th2, [2, 1, 1, 3]], {"align_corners": align})
    case(f"affine_grid_generator/2d_{tag}", "aten.affine_grid_generator.default", [th2, [2, 3, 4, 5], align])
    case(f"affine_grid_generator/3d_{tag}", "torch.affine_grid_generator", [th3, [2, 2, 3, 4, 5], align])
case("affine_grid/f16", "torch.nn.functional.affine_grid", [th2.half(), [2, 3, 4, 5]], {"align_corners": False})
case("affine_grid/f64", "torch.nn.functional.affine_grid", [th2.to(F64), [2, 3, 6, 4]], {"align_corners": False})
case("affine_grid/tuple_size", "torch.nn.functional.affine_grid", [th2, (2, 3, 4, 5)], {"align_corners": True})
case("affine_grid/default_align", "torch.nn.functional.affine_grid", [th2, [2, 3, 4, 5]])
case("affine_grid/noncontiguous", "torch.nn.functional.affine_grid",
     [tensor([2, 3, 2], lo=-1, hi=1).transpose(1, 2), [2, 3, 4, 5]], {"align_corners": False})
case("affine_grid/empty_batch", "aten.affine_grid_generator.default", [tensor([0, 2, 3]), [0, 3, 4, 5], False])
case("affine_grid/int_theta", "torch.nn.functional.affine_grid", [tensor([2, 2, 3], I64), [2, 3, 4, 5]],
     {"align_corners": False})
case("affine_grid/bad_theta", "torch.nn.functional.affine_grid", [th3, [2, 3, 4, 5]], {"align_corners": False})
case("affine_grid/bad_theta_3d", "torch.nn.functional.affine_grid", [th2, [2, 3, 4, 5, 6]], {"align_corners": False})
case("affine_grid/bad_rank", "torch.nn.functional.affine_grid", [th2, [2, 3, 4]], {"align_corners": False})
case("affine_grid/zero_size", "torch.nn.functional.affine_grid", [th2, [2, 3, 0, 5]], {"align_corners": False})
# affine_grid feeding grid_sample (a spatial transformer).
case("grid_sample/from_affine_grid", "torch.nn.functional.grid_sample",
     [x4, F.affine_grid(th2, [2, 3, 4, 4], align_corners=False)], {"align_corners": False})

# max_unpool, fed from max_pool with indices.
def pooled(pool, x, *a, **k):
    y, i = pool(x, *a, return_indices=True, **k)
    return y, i


y1, i1 = pooled(F.max_pool1d, tensor([2, 3, 8]), 2)
case("max_unpool1d/basic", "torch.nn.functional.max_unpool1d", [y1, i1, 2])
case("max_unpool1d/output_size", "torch.nn.functional.max_unpool1d", [y1, i1, 2], {"output_size": [9]})
case("max_unpool1d/output_size_full", "torch.nn.functional.max_unpool1d", [y1, i1, 2], {"output_size": [2, 3, 9]})
yu, iu = pooled(F.max_pool1d, tensor([3, 9]), 3, 2, 1)
case("max_unpool1d/unbatched_stride_pad", "torch.nn.functional.max_unpool1d", [yu, iu, 3, 2, 1])
y2, i2 = pooled(F.max_pool2d, tensor([2, 3, 6, 8]), 2)
case("max_unpool2d/basic", "torch.nn.functional.max_unpool2d", [y2, i2, 2])
case("max_unpool2d/kwargs", "torch.nn.functional.max_unpool2d", [y2, i2], {"kernel_size": 2, "stride": 2, "padding": 0})
case("max_unpool2d/output_size", "torch.nn.functional.max_unpool2d", [y2, i2, 2], {"output_size": [7, 9]})
case("max_unpool2d/bad_output_size", "torch.nn.functional.max_unpool2d", [y2, i2, 2], {"output_size": [9, 7]})
case("max_unpool2d/bad_output_len", "torch.nn.functional.max_unpool2d", [y2, i2, 2], {"output_size": [7, 7, 7]})
ys, is_ = pooled(F.max_pool2d, tensor([1, 2, 7, 7]), 3, 2, 1)
case("max_unpool2d/stride_pad", "torch.nn.functional.max_unpool2d", [ys, is_, 3, 2, 1])
case("max_unpool2d/stride_pad_size", "torch.nn.functional.max_unpool2d", [ys, is_, 3, 2, 1], {"output_size": [7, 7]})
yb, ib = pooled(F.max_pool2d, tensor([3, 4, 4]), 2)
case("max_unpool2d/unbatched", "torch.nn.functional.max_unpool2d", [yb, ib, 2])
case("max_unpool2d/f64", "torch.nn.functional.max_unpool2d", [y2.to(F64), i2, 2])
case("max_unpool2d/int_values", "torch.nn.functional.max_unpool2d", [y2.round().to(I64), i2, 2])
case("max_unpool2d/noncontiguous", "torch.nn.functional.max_unpool2d", [y2.transpose(2, 3), i2.transpose(2, 3), 2])
case("max_unpool2d/empty_spatial", "aten.max_unpool2d.default", [tensor([2, 3, 0, 2]), torch.zeros(2, 3, 0, 2, dtype=I64), [0, 4]])
case("max_unpool2d/empty_batch", "torch.nn.functional.max_unpool2d",
     list(pooled(F.max_pool2d, tensor([0, 2, 4, 4]), 2)) + [2])
case("max_unpool2d/int32_indices", "torch.nn.functional.max_unpool2d", [y2, i2.to(I32), 2])
case("max_unpool2d/shape_mismatch", "torch.nn.functional.max_unpool2d", [y2, i2[:, :2], 2])
bad = i2.clone()
bad[1, 2, 1, 3] = 100
case("max_unpool2d/bad_index", "torch.nn.functional.max_unpool2d", [y2, bad, 2])
case("max_unpool2d/aten", "aten.max_unpool2d.default", [y2, i2, [6, 8]])
case("max_unpool2d/half", "torch.nn.functional.max_unpool2d", [y2.half(), i2, 2])
case("max_unpool2d/aten_bad_rank", "aten.max_unpool2d.default", [y1, i1, [6, 7]])
y3, i3 = pooled(F.max_pool3d, tensor([2, 2, 4, 4, 6]), 2)
case("max_unpool3d/basic", "torch.nn.functional.max_unpool3d", [y3, i3, 2])
case("max_unpool3d/output_size", "torch.nn.functional.max_unpool3d", [y3, i3, 2], {"output_size": [5, 4, 7]})
y3s, i3s = pooled(F.max_pool3d, tensor([2, 5, 5, 5]), 3, 2, 1)
case("max_unpool3d/unbatched_stride_pad", "torch.nn.functional.max_unpool3d", [y3s, i3s, 3, 2, 1])
case("max_unpool3d/f64", "torch.nn.functional.max_unpool3d", [y3.to(F64), i3, (2, 2, 2)])
case("max_unpool3d/aten", "aten.max_unpool3d.default", [y3, i3, [4, 4, 6], [2, 2, 2], [0, 0, 0]])
case("max_unpool3d/int_values", "torch.nn.functional.max_unpool3d", [y3.round().to(I64), i3, 2])
case("max_unpool3d/aten_bad_stride", "aten.max_unpool3d.default", [y3, i3, [4, 5, 6], [0, 2, 2], [0, 0, 0]])
case("max_unpool3d/bad_index", "torch.nn.functional.max_unpool3d", [y3, i3 * 0 - 1, 2])

for c in cases:  # float32 interpolation: torch's vectorised CPU kernels round differently
    dtypes = {a["tensor"]["dtype"] for a in c["args"] if isinstance(a, dict) and "tensor" in a}
    if not dtypes & {"float64", "float16"}:
        c["rtol"], c["atol"] = 1e-4, 1e-5
    elif "float16" in dtypes:  # torch rounds each intermediate (the source coordinate too) to half; fxwasm
        # computes in float32 and rounds once: a coordinate off by a half ulp moves the value by slope x ulp
        c["rtol"], c["atol"] = 4e-3, 3e-2
out = {"torch": torch.__version__, "cases": cases}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sampling.json")
with open(path, "w") as f:
    json.dump(out, f, indent=None, separators=(",", ":"))
    f.write("\n")
print(f"wrote {len(cases)} cases to {path}")
