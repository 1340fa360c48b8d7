"""Generates tests/golden/ops/bags_distances.json: F.embedding_bag (sum/mean/max; 2-d input or 1-d input
with offsets; include_last_offset; per_sample_weights; padding_idx) and aten._embedding_bag /
_embedding_bag_forward_only / embedding_bag(.padding_idx) with torch's CPU 4-tuple; torch.cdist (p = 0, 1,
2, inf, fractional; batched and broadcast; compute_mode), aten._cdist_forward / _euclidean_dist;
torch.pdist / F.pdist / aten._pdist_forward, called with the reference torch.
Run with the reference Python:  npm run -s python -- tests/golden/ops/gen_bags_distances.py
(case format: gen_shape_ops.py)."""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden_format import F16, F32, F64, I32, I64, case, cases, tensor  # noqa: E402

torch.manual_seed(0)
EB = "torch.nn.functional.embedding_bag"

w = tensor([10, 3])
ind = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
off = torch.tensor([0, 4, 4])
ind2 = torch.tensor([[1, 2, 4], [5, 4, 3], [2, 9, 9]])
for mode in ["sum", "mean", "max"]:
    case(f"embedding_bag/{mode}_offsets", EB, [ind, w, off], {"mode": mode})
    case(f"embedding_bag/{mode}_2d", EB, [ind2, w], {"mode": mode})
    case(f"embedding_bag/{mode}_last_offset", EB, [ind, w, torch.tensor([0, 3, 6, 8])],
         {"mode": mode, "include_last_offset": True})
    case(f"embedding_bag/{mode}_padding_idx", EB, [ind, w, off], {"mode": mode, "padding_idx": 2})
    case(f"embedding_bag/{mode}_f64_int32", EB, [ind.to(I32), w.to(F64), off.to(I32)], {"mode": mode})
    case(f"embedding_bag/{mode}_noncontiguous_weight", EB, [ind, tensor([3, 10]).t(), off], {"mode": mode})
case("embedding_bag/default_mean", EB, [ind, w, off])
case("embedding_bag/positional", EB, [ind, w, off, None, 2, False, "sum"])
case("embedding_bag/negative_padding_idx", EB, [ind, w, off], {"mode": "mean", "padding_idx": -1})
case("embedding_bag/per_sample_weights", EB, [ind, w, off], {"mode": "sum", "per_sample_weights": tensor([8])})
case("embedding_bag/per_sample_weights_2d", EB, [ind2, w], {"mode": "sum", "per_sample_weights": tensor([3, 3])})
case("embedding_bag/per_sample_weights_f64", EB, [ind, w.to(F64), off],
     {"mode": "sum", "per_sample_weights": tensor([8], F64)})
case("embedding_bag/last_offset_short", EB, [ind, w, torch.tensor([0, 3, 5])], {"mode": "mean", "include_last_offset": True})
case("embedding_bag/empty_indices", EB, [torch.tensor([], dtype=I64), w, torch.tensor([0, 0])], {"mode": "sum"})
case("embedding_bag/empty_bags", EB, [torch.zeros(0, 3, dtype=I64), w], {"mode": "mean"})
case("embedding_bag/int32_2d", EB, [ind2.to(I32), w], {"mode": "max"})
case("embedding_bag/half_weight", EB, [ind, w.to(F16), off], {"mode": "sum"})
case("embedding_bag/psw_mean", EB, [ind, w, off], {"mode": "mean", "per_sample_weights": tensor([8])})
case("embedding_bag/psw_shape", EB, [ind, w, off], {"mode": "sum", "per_sample_weights": tensor([7])})
case("embedding_bag/offsets_2d_input", EB, [ind2, w, off])
case("embedding_bag/no_offsets", EB, [ind, w])
case("embedding_bag/3d_input", EB, [ind2[None], w])
case("embedding_bag/bad_mode", EB, [ind, w, off], {"mode": "min"})
case("embedding_bag/weight_1d", EB, [ind, tensor([10]), off])
case("embedding_bag/bad_first_offset", EB, [ind, w, torch.tensor([1, 4])])
case("embedding_bag/index_out_of_range", EB, [torch.tensor([1, 10]), w, torch.tensor([0])])
case("embedding_bag/float_indices", EB, [ind.float(), w, off])
case("embedding_bag/max_sparse", EB, [ind, w, off], {"mode": "max", "sparse": True})
for target in ["aten._embedding_bag_forward_only.default", "aten._embedding_bag.default"]:
    short = target.split(".")[1]
    for mode in [0, 1, 2]:
        case(f"{short}/mode{mode}", target, [w, ind, off, False, mode])
        case(f"{short}/mode{mode}_padding", target, [w, ind, off, False, mode, False, None, False, 2])
    case(f"{short}/psw", target, [w, ind, off], {"mode": 0, "per_sample_weights": tensor([8])})
    case(f"{short}/int32_last_offset", target, [w, ind.to(I32), torch.tensor([0, 4, 6], dtype=I32)],
         {"mode": 1, "include_last_offset": True})
    case(f"{short}/f64_sum", target, [w.to(F64), ind, off])
case("embedding_bag_aten/plain", "aten.embedding_bag.default", [w, ind, off, False, 2])
case("embedding_bag_aten/padding_idx", "aten.embedding_bag.padding_idx", [w, ind, off, False, 1, False, None, False, 4])
case("embedding_bag_aten/padding_idx_none", "aten.embedding_bag.padding_idx", [w, ind, off, False, 0, False, None, False, None])
case("embedding_bag_aten/torch", "torch.embedding_bag", [w, ind, off, False, 1, False, None, False, -2])

# cdist.
a, b = tensor([2, 4, 3]), tensor([2, 5, 3])
for p in [0.0, 1.0, 2.0, float("inf"), 0.5, 3.0, 1.5]:
    case(f"cdist/p{p}", "torch.cdist", [a, b], {"p": p})
case("cdist/int_values_p0", "torch.cdist", [a.round(), b.round()], {"p": 0.0})
case("cdist/f16", "torch.cdist", [a.half(), b.half()])
case("cdist/2d", "torch.cdist", [tensor([4, 3]), tensor([6, 3])])
case("cdist/broadcast_batch", "torch.cdist", [tensor([2, 1, 4, 3]), tensor([3, 5, 3])])
case("cdist/f64", "torch.cdist", [a.to(F64), b.to(F64)], {"p": 1.5})
case("cdist/noncontiguous", "torch.cdist", [tensor([2, 3, 4]).transpose(1, 2), b])
case("cdist/mm_large", "torch.cdist", [tensor([30, 4]), tensor([27, 4])])
case("cdist/mm_forced", "torch.cdist", [a, b], {"compute_mode": "use_mm_for_euclid_dist"})
case("cdist/mm_never", "torch.cdist", [tensor([30, 4]), tensor([27, 4])], {"compute_mode": "donot_use_mm_for_euclid_dist"})
case("cdist/mm_if_necessary", "torch.cdist", [a, b, 2.0, "use_mm_for_euclid_dist_if_necessary"])
case("cdist/mm_f64", "torch.cdist", [tensor([26, 5], F64), tensor([3, 5], F64)])
case("cdist/empty_rows", "torch.cdist", [tensor([2, 0, 3]), b])
case("cdist/empty_cols", "torch.cdist", [tensor([2, 4, 0]), tensor([2, 5, 0])])
case("cdist/empty_batch", "torch.cdist", [tensor([0, 4, 3]), tensor([0, 5, 3])])
case("cdist/bad_mode", "torch.cdist", [a, b], {"compute_mode": "fast"})
case("cdist/negative_p", "torch.cdist", [a, b], {"p": -1.0})
case("cdist/cols_mismatch", "torch.cdist", [a, tensor([2, 5, 4])])
case("cdist/one_dim", "torch.cdist", [tensor([3]), b])
case("cdist/int", "torch.cdist", [a.to(I64), b.to(I64)])
case("cdist/batch_mismatch", "torch.cdist", [tensor([2, 4, 3]), tensor([3, 5, 3])])
case("_cdist_forward/none", "aten._cdist_forward.default", [a, b, 2.0, None])
case("_cdist_forward/p1", "aten._cdist_forward.default", [a, b, 1.0, None])
case("_cdist_forward/mm", "aten._cdist_forward.default", [a, b, 2.0, 1])
case("_cdist_forward/inf", "aten._cdist_forward.default", [a, b, float("inf"), 2])
case("cdist_aten/default", "aten.cdist.default", [a, b])
case("_euclidean_dist/batched", "aten._euclidean_dist.default", [a, b])
case("_euclidean_dist/f64", "aten._euclidean_dist.default", [tensor([4, 3], F64), tensor([6, 3], F64)])

# pdist.
x = tensor([5, 3])
for p in [0.0, 1.0, 2.0, float("inf"), 0.5, 3.0]:
    case(f"pdist/p{p}", "torch.pdist", [x], {"p": p})
case("pdist/f16", "torch.pdist", [x.half()])
case("pdist/functional", "torch.nn.functional.pdist", [x, 1.0])
case("pdist/default", "torch.nn.functional.pdist", [x])
case("pdist/f64", "torch.pdist", [x.to(F64)], {"p": 2.5})
case("pdist/noncontiguous", "torch.pdist", [tensor([3, 5]).t()])
case("pdist/one_row", "torch.pdist", [tensor([1, 3])])
case("pdist/no_rows", "torch.pdist", [tensor([0, 3])])
case("pdist/no_cols", "torch.pdist", [tensor([4, 0])])
case("pdist/3d", "torch.pdist", [tensor([2, 4, 3])])
case("pdist/int", "torch.pdist", [x.to(I64)])
case("pdist/negative_p", "torch.pdist", [x], {"p": -2.0})
case("_pdist_forward/p2", "aten._pdist_forward.default", [x])
case("_pdist_forward/p1", "aten._pdist_forward.default", [x, 1.0])
case("_pdist_forward/noncontiguous", "aten._pdist_forward.default", [tensor([3, 5]).t()])
case("pdist_aten/default", "aten.pdist.default", [x, 2.0])

for c in cases:  # float32 sums (and the product form of cdist) round differently from torch's vector kernels
    if "expected" in c:
        c["rtol"], c["atol"] = 1e-4, 1e-5
out = {"torch": torch.__version__, "cases": cases}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bags_distances.json")
with open(path, "w") as f:
    json.dump(out, f, indent=None, separators=(",", ":"))
    f.write("\n")
print(f"wrote {len(cases)} cases to {path}")
