"""Generates tests/golden/ops/losses.json: the loss functions of torch.nn.functional and the aten forms
make_fx / torch.export emit for them (aten.mse_loss, aten.nll_loss_forward, aten.cross_entropy_loss, ...),
with every reduction, weights, ignore_index, label smoothing, class probabilities, [C] / [N, C] /
[N, C, d1, ...] shapes, broadcasting, float32/float64 (and integer inputs where torch takes them), 0-size,
non-contiguous inputs, the legacy size_average/reduce flags and error cases.
Run with the reference Python:  npm run -s python -- tests/golden/ops/gen_losses.py
(case format: gen_shape_ops.py)."""
import json
import os
import sys
import warnings

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden_format import F16, F32, F64, I32, I64, U8, case, cases, tensor  # noqa: E402

warnings.filterwarnings("ignore")
torch.manual_seed(0)
F = "torch.nn.functional."
R = ["none", "mean", "sum"]
AR = {"none": 0, "mean": 1, "sum": 2}


def prob(shape, dtype=F32):
    return torch.rand(shape, dtype=torch.float64).clamp(0.02, 0.98).to(dtype)


def sign(shape, dtype=F32):
    return (torch.randint(0, 2, shape) * 2 - 1).to(dtype)


x, y = tensor([3, 4]), tensor([3, 4])
xt = tensor([4, 3]).t()

# regression losses
for name, extra in [("mse_loss", {}), ("l1_loss", {}), ("smooth_l1_loss", {"beta": 0.5}),
                    ("huber_loss", {"delta": 0.7})]:
    for r in R:
        for dt in [F32, F64]:
            case(f"{name}/{r}_{dt}", F + name, [x.to(dt), y.to(dt)], {"reduction": r, **extra})
        case(f"{name}/aten_{r}", f"aten.{name}.default", [x, y, AR[r], *extra.values()])
    case(f"{name}/default", F + name, [x, y])
    case(f"{name}/broadcast", F + name, [x, tensor([4])])
    case(f"{name}/noncontig", F + name, [xt, y], {"reduction": "sum"})
    case(f"{name}/empty_mean", F + name, [torch.zeros(0, 3), torch.zeros(0, 3)])
    case(f"{name}/empty_sum", F + name, [torch.zeros(0, 3), torch.zeros(0, 3)], {"reduction": "sum"})
    case(f"{name}/f32_f64", F + name, [x, y.to(F64)])
    case(f"{name}/f16", F + name, [x.to(F16), y.to(F16)])
    case(f"{name}/int", F + name, [tensor([5], I64), tensor([5], I64)])
    case(f"{name}/bad_reduction", F + name, [x, y], {"reduction": "avg"})
    case(f"{name}/bad_broadcast", F + name, [x, tensor([3])])
    if name != "huber_loss":
        case(f"{name}/legacy_size_average", F + name, [x, y], {"size_average": False})
        case(f"{name}/legacy_reduce", F + name, [x, y], {"reduce": False})
    if name != "smooth_l1_loss":
        w = prob([3, 4])
        for r in R:
            case(f"{name}/weight_{r}", F + name, [x, y], {"reduction": r, "weight": w})
        case(f"{name}/weight_bad", F + name, [x, y], {"weight": prob([4])})
case("smooth_l1_loss/beta0", F + "smooth_l1_loss", [x, y], {"beta": 0.0})
case("smooth_l1_loss/beta_neg", F + "smooth_l1_loss", [x, y], {"beta": -1.0})
case("huber_loss/delta0", F + "huber_loss", [x, y], {"delta": 0.0})
case("smooth_l1_loss/positional", F + "smooth_l1_loss", [x, y, None, None, "sum", 2.0])

# soft margin
for r in R:
    case(f"soft_margin_loss/{r}", F + "soft_margin_loss", [x, sign([3, 4])], {"reduction": r})
    case(f"soft_margin_loss/aten_{r}", "aten.soft_margin_loss.default", [x, sign([3, 4]), AR[r]])
case("soft_margin_loss/f64", F + "soft_margin_loss", [x.to(F64), sign([3, 4], F64)])
case("soft_margin_loss/int", F + "soft_margin_loss", [tensor([4], I64), sign([4], I64)])

# binary cross entropy
p, q, bw = prob([3, 4]), prob([3, 4]), prob([4])
for r in R:
    case(f"binary_cross_entropy/{r}", F + "binary_cross_entropy", [p, q], {"reduction": r})
    case(f"binary_cross_entropy/weight_{r}", F + "binary_cross_entropy", [p, q], {"weight": bw, "reduction": r})
    case(f"binary_cross_entropy/aten_{r}", "aten.binary_cross_entropy.default", [p, q, None, AR[r]])
case("binary_cross_entropy/f64", F + "binary_cross_entropy", [p.to(F64), q.to(F64)])
case("binary_cross_entropy/extremes", F + "binary_cross_entropy",
     [torch.tensor([0.0, 1.0, 0.0, 1.0, 0.5]), torch.tensor([1.0, 0.0, 0.0, 1.0, 0.5])], {"reduction": "none"})
case("binary_cross_entropy/aten_weight", "aten.binary_cross_entropy.default", [p, q, prob([3, 4]), 1])
case("binary_cross_entropy/out_of_range", F + "binary_cross_entropy", [x, q])
case("binary_cross_entropy/size_mismatch", F + "binary_cross_entropy", [p, prob([4])])
case("binary_cross_entropy/dtype_mismatch", F + "binary_cross_entropy", [p, q.to(F64)])
case("binary_cross_entropy/int", F + "binary_cross_entropy", [tensor([4], I64), tensor([4], I64)])
pw = tensor([4], lo=0, hi=3)
for r in R:
    case(f"bce_with_logits/{r}", F + "binary_cross_entropy_with_logits", [x, q], {"reduction": r})
    case(f"bce_with_logits/weights_{r}", F + "binary_cross_entropy_with_logits", [x, q],
         {"weight": bw, "pos_weight": pw, "reduction": r})
    case(f"bce_with_logits/aten_{r}", "aten.binary_cross_entropy_with_logits.default", [x, q, None, pw, AR[r]])
case("bce_with_logits/large", F + "binary_cross_entropy_with_logits",
     [torch.tensor([100.0, -100.0, 0.0, 30.0]), torch.tensor([0.0, 1.0, 0.5, 1.0])], {"reduction": "none"})
case("bce_with_logits/f64_pos_weight", F + "binary_cross_entropy_with_logits", [x.to(F64), q.to(F64)],
     {"pos_weight": pw.to(F64)})
case("bce_with_logits/size_mismatch", F + "binary_cross_entropy_with_logits", [x, prob([4])])
case("hinge_embedding_loss/torch", "torch.hinge_embedding_loss", [x, sign([3, 4]), 0.5, 2])
case("poisson_nll_loss/torch", "torch.poisson_nll_loss", [x, prob([3, 4]), True, False, 1e-8, 0])

# KL divergence
lp = torch.log_softmax(tensor([3, 4]), 1)
for r in R + ["batchmean"]:
    case(f"kl_div/{r}", F + "kl_div", [lp, prob([3, 4])], {"reduction": r})
    case(f"kl_div/log_target_{r}", F + "kl_div", [lp, torch.log(prob([3, 4]))], {"reduction": r, "log_target": True})
for r in R:
    case(f"kl_div/aten_{r}", "aten.kl_div.default", [lp, prob([3, 4]), AR[r]])
case("kl_div/zero_target", F + "kl_div", [lp, torch.tensor([0.0, 0.5, 0.5, 0.0])], {"reduction": "none"})
case("kl_div/f64", F + "kl_div", [lp.to(F64), prob([3, 4], F64)], {"reduction": "batchmean"})
case("kl_div/int", F + "kl_div", [tensor([4], I64), tensor([4], I64)], {"reduction": "sum"})
case("kl_div/torch_log_target", "torch.kl_div", [lp, lp, 1], {"log_target": True})

# Poisson / Gaussian NLL
for r in R:
    case(f"poisson_nll_loss/{r}", F + "poisson_nll_loss", [x, prob([3, 4]) * 4], {"reduction": r})
    case(f"poisson_nll_loss/aten_{r}", "aten.poisson_nll_loss.default", [x, prob([3, 4]) * 4, True, True, 1e-8, AR[r]])
case("poisson_nll_loss/no_log_full", F + "poisson_nll_loss", [prob([3, 4]) * 3, prob([3, 4]) * 4],
     {"log_input": False, "full": True, "reduction": "none"})
case("poisson_nll_loss/eps", F + "poisson_nll_loss", [prob([5]), prob([5])], {"log_input": False, "eps": 0.5})
case("poisson_nll_loss/int", F + "poisson_nll_loss", [tensor([4], I64), tensor([4], I64, lo=0)])
case("poisson_nll_loss/f64", F + "poisson_nll_loss", [x.to(F64), prob([3, 4], F64)], {"full": True})
gv = prob([3, 4]) * 2
for r in R:
    case(f"gaussian_nll_loss/{r}", F + "gaussian_nll_loss", [x, y, gv], {"reduction": r})
case("gaussian_nll_loss/full_eps", F + "gaussian_nll_loss", [x, y, gv], {"full": True, "eps": 0.5})
case("gaussian_nll_loss/homoscedastic", F + "gaussian_nll_loss", [x, y, prob([3])])
case("gaussian_nll_loss/one_mismatch", F + "gaussian_nll_loss", [x, y, prob([3, 1])])
case("gaussian_nll_loss/float_var", F + "gaussian_nll_loss", [x, y, 0.7])
case("gaussian_nll_loss/negative_var", F + "gaussian_nll_loss", [x, y, -gv])
case("gaussian_nll_loss/bad_var_size", F + "gaussian_nll_loss", [x, y, prob([2, 4])])
case("gaussian_nll_loss/bad_reduction", F + "gaussian_nll_loss", [x, y, gv], {"reduction": "avg"})
case("gaussian_nll_loss/f64", F + "gaussian_nll_loss", [x.to(F64), y.to(F64), gv.to(F64)])

# margin losses
v1, v2 = tensor([6]), tensor([6])
for r in R:
    case(f"margin_ranking_loss/{r}", F + "margin_ranking_loss", [v1, v2, sign([6])], {"margin": 0.3, "reduction": r})
    case(f"margin_ranking_loss/aten_{r}", "aten.margin_ranking_loss.default", [v1, v2, sign([6]), 0.5, AR[r]])
    case(f"hinge_embedding_loss/{r}", F + "hinge_embedding_loss", [x, sign([3, 4])], {"reduction": r})
    case(f"hinge_embedding_loss/aten_{r}", "aten.hinge_embedding_loss.default", [x, sign([3, 4]), 2.0, AR[r]])
case("margin_ranking_loss/int", F + "margin_ranking_loss", [tensor([5], I64), tensor([5], I64), sign([5], I64)])
case("margin_ranking_loss/f64", F + "margin_ranking_loss", [v1.to(F64), v2.to(F64), sign([6], F64)])
case("margin_ranking_loss/dims", F + "margin_ranking_loss", [v1, v2, sign([1, 6])])
case("margin_ranking_loss/torch", "torch.margin_ranking_loss", [v1, v2, sign([6]), 0.1, 2])
case("hinge_embedding_loss/margin", F + "hinge_embedding_loss", [x, sign([3, 4])], {"margin": 0.5})
case("hinge_embedding_loss/other_targets", F + "hinge_embedding_loss", [x, torch.tensor([1.0, -1.0, 0.0, 2.0])],
     {"reduction": "none"})
case("hinge_embedding_loss/f64", F + "hinge_embedding_loss", [x.to(F64), sign([3, 4], F64)])
for r in R:
    case(f"soft_margin_multilabel/{r}", F + "multilabel_soft_margin_loss", [x, torch.randint(0, 2, (3, 4)).float()],
         {"reduction": r})
case("multilabel_soft_margin_loss/weight", F + "multilabel_soft_margin_loss",
     [x, torch.randint(0, 2, (3, 4)).float(), prob([4])])
case("multilabel_soft_margin_loss/1d", F + "multilabel_soft_margin_loss", [v1, torch.randint(0, 2, (6,)).float()])
case("multilabel_soft_margin_loss/f64", F + "multilabel_soft_margin_loss",
     [x.to(F64), torch.randint(0, 2, (3, 4)).double()])
tgt = torch.tensor([1, 0, 3])
for r in R:
    case(f"multi_margin_loss/{r}", F + "multi_margin_loss", [x, tgt], {"reduction": r})
    case(f"multi_margin_loss/aten_{r}", "aten.multi_margin_loss.default", [x, tgt, 1, 1.0, None, AR[r]])
case("multi_margin_loss/p2_weight_margin", F + "multi_margin_loss", [x, tgt, 2, 0.5, prob([4])])
case("multi_margin_loss/1d", F + "multi_margin_loss", [v1, torch.tensor(2)])
case("multi_margin_loss/f64", F + "multi_margin_loss", [x.to(F64), tgt])
case("multi_margin_loss/p3", F + "multi_margin_loss", [x, tgt, 3])
case("multi_margin_loss/bad_target", F + "multi_margin_loss", [x, torch.tensor([1, 0])])

mlt = torch.tensor([[3, 0, -1, 1], [1, 2, 3, 0], [-1, 1, 1, 1]])
for r in R:
    case(f"multilabel_margin_loss/{r}", F + "multilabel_margin_loss", [x, mlt], {"reduction": r})
    case(f"aten.multilabel_margin_loss_forward/{r}", "aten.multilabel_margin_loss_forward.default", [x, mlt, AR[r]])
case("multilabel_margin_loss/1d", F + "multilabel_margin_loss", [v1, torch.tensor([5, 2, -1, 0, 0, 0])])
case("multilabel_margin_loss/f64", F + "multilabel_margin_loss", [x.to(F64), mlt])
case("multilabel_margin_loss/aten", "aten.multilabel_margin_loss.default", [x, mlt])
case("multilabel_margin_loss/size", F + "multilabel_margin_loss", [x, mlt[:2]])
case("multilabel_margin_loss/range", F + "multilabel_margin_loss", [x, mlt + 2])
case("multilabel_margin_loss/i32", F + "multilabel_margin_loss", [x, mlt.to(I32)])
case("multilabel_margin_loss/int_input", F + "multilabel_margin_loss", [tensor([3, 4], I64), mlt])

# cosine embedding / triplet margin
e1, e2 = tensor([4, 5]), tensor([4, 5])
for r in R:
    case(f"cosine_embedding_loss/{r}", F + "cosine_embedding_loss", [e1, e2, sign([4])],
         {"margin": 0.2, "reduction": r})
    case(f"cosine_embedding_loss/aten_{r}", "aten.cosine_embedding_loss.default", [e1, e2, sign([4]), 0.1, AR[r]])
    case(f"triplet_margin_loss/{r}", F + "triplet_margin_loss", [e1, e2, tensor([4, 5])], {"reduction": r})
    case(f"triplet_margin_loss/aten_{r}", "aten.triplet_margin_loss.default",
         [e1, e2, tensor([4, 5]), 1.0, 2.0, 1e-6, False, AR[r]])
case("cosine_embedding_loss/1d", F + "cosine_embedding_loss", [tensor([5]), tensor([5]), torch.tensor(-1.0)])
case("cosine_embedding_loss/zero_vector", F + "cosine_embedding_loss",
     [torch.zeros(2, 3), tensor([2, 3]), torch.tensor([1.0, -1.0])], {"reduction": "none"})
case("cosine_embedding_loss/f64", F + "cosine_embedding_loss", [e1.to(F64), e2.to(F64), sign([4], F64)])
case("cosine_embedding_loss/bad_dims", F + "cosine_embedding_loss", [tensor([5]), tensor([5]), sign([4])])
case("triplet_margin_loss/swap_p1", F + "triplet_margin_loss", [e1, e2, tensor([4, 5])],
     {"swap": True, "p": 1, "margin": 0.5, "eps": 1e-3})
case("triplet_margin_loss/1d", F + "triplet_margin_loss", [tensor([5]), tensor([5]), tensor([5])])
case("triplet_margin_loss/f64", F + "triplet_margin_loss", [e1.to(F64), e2.to(F64), tensor([4, 5], F64)])
case("triplet_margin_loss/bad_dims", F + "triplet_margin_loss", [e1, e2, tensor([5])])

# nll_loss / cross_entropy: class indices and probabilities
lx = tensor([5, 4])
t1 = torch.tensor([0, 3, 1, 3, 2])
tig = torch.tensor([0, -100, 1, 3, -100])
cw = prob([4])
x4, t4 = tensor([2, 4, 3, 3]), torch.randint(0, 4, (2, 3, 3))
t4[0, 1, 1] = 2
x3, t3 = tensor([2, 4, 5]), torch.randint(0, 4, (2, 5))
x5, t5 = tensor([2, 3, 2, 2, 2]), torch.randint(0, 3, (2, 2, 2, 2))
for name in ["nll_loss", "cross_entropy"]:
    for r in R:
        case(f"{name}/{r}", F + name, [lx, t1], {"reduction": r})
        case(f"{name}/weight_{r}", F + name, [lx, t1], {"weight": cw, "reduction": r})
        case(f"{name}/ignore_{r}", F + name, [lx, tig], {"weight": cw, "reduction": r})
        case(f"{name}/2d_{r}", F + name, [x4, t4], {"reduction": r, "weight": cw})
        case(f"{name}/3d_{r}", F + name, [x3, t3], {"reduction": r})
    case(f"{name}/4d", F + name, [x5, t5], {"ignore_index": 1})
    case(f"{name}/ignore_other", F + name, [lx, t1], {"ignore_index": 3})
    case(f"{name}/all_ignored", F + name, [lx, torch.full((5,), -100)])
    case(f"{name}/unbatched", F + name, [tensor([4]), torch.tensor(2)])
    case(f"{name}/unbatched_none", F + name, [tensor([4]), torch.tensor(1)], {"reduction": "none"})
    case(f"{name}/f64", F + name, [lx.to(F64), t1], {"weight": cw.to(F64)})
    case(f"{name}/u8_target", F + name, [lx, t1.to(U8)])
    case(f"{name}/i32_target", F + name, [lx, t1.to(I32)])
    case(f"{name}/empty_batch", F + name, [torch.zeros(0, 4), torch.zeros(0, dtype=I64)])
    case(f"{name}/empty_batch_sum", F + name, [torch.zeros(0, 4), torch.zeros(0, dtype=I64)], {"reduction": "sum"})
    case(f"{name}/noncontig", F + name, [tensor([4, 5]).t(), t1])
    case(f"{name}/out_of_bounds", F + name, [lx, torch.tensor([0, 4, 1, 1, 1])])
    case(f"{name}/batch_mismatch", F + name, [lx, torch.tensor([0, 1])])
    case(f"{name}/bad_weight", F + name, [lx, t1], {"weight": prob([3])})
    case(f"{name}/legacy_reduce", F + name, [lx, t1], {"reduce": False})
    case(f"{name}/target_shape", F + name, [x4, torch.randint(0, 4, (2, 3))])
case("nll_loss/positional", F + "nll_loss", [lx, tig, cw, None, -100, None, "sum"])
case("nll_loss/0d_input", F + "nll_loss", [torch.tensor(1.0), torch.tensor(0)])
for ls in [0.1, 0.5]:
    for r in R:
        case(f"cross_entropy/smooth{ls}_{r}", F + "cross_entropy", [lx, tig], {"label_smoothing": ls, "reduction": r})
        case(f"cross_entropy/smooth{ls}_weight_{r}", F + "cross_entropy", [lx, tig],
             {"label_smoothing": ls, "weight": cw, "reduction": r})
    case(f"cross_entropy/smooth{ls}_2d", F + "cross_entropy", [x4, t4], {"label_smoothing": ls})
pt = torch.softmax(tensor([5, 4]), 1)
for r in R:
    case(f"cross_entropy/probs_{r}", F + "cross_entropy", [lx, pt], {"reduction": r})
    case(f"cross_entropy/probs_weight_smooth_{r}", F + "cross_entropy", [lx, pt],
         {"reduction": r, "weight": cw, "label_smoothing": 0.2})
case("cross_entropy/probs_2d", F + "cross_entropy", [x4, torch.softmax(tensor([2, 4, 3, 3]), 1)])
case("cross_entropy/probs_unbatched", F + "cross_entropy", [tensor([4]), torch.softmax(tensor([4]), 0)])
case("cross_entropy/probs_f64", F + "cross_entropy", [lx.to(F64), pt.to(F64)])
case("cross_entropy/probs_int", F + "cross_entropy", [lx, torch.randint(0, 2, (5, 4))])
case("cross_entropy/bad_smoothing", F + "cross_entropy", [lx, t1], {"label_smoothing": 1.5})
case("cross_entropy/f16", F + "cross_entropy", [lx.to(F16), t1])
case("cross_entropy/int_input", F + "cross_entropy", [tensor([5, 4], I64), t1])
# aten forms
for r in R:
    case(f"aten.nll_loss_forward/{r}", "aten.nll_loss_forward.default",
         [torch.log_softmax(lx, 1), tig, cw, AR[r], -100])
    case(f"aten.nll_loss_forward/noweight_{r}", "aten.nll_loss_forward.default", [lx, t1, None, AR[r], -100])
    case(f"aten.nll_loss2d_forward/{r}", "aten.nll_loss2d_forward.default", [x4, t4, None, AR[r], 2])
    case(f"aten.nll_loss_nd/{r}", "aten.nll_loss_nd.default", [x3, t3, cw, AR[r]])
    case(f"aten.cross_entropy_loss/{r}", "aten.cross_entropy_loss.default", [lx, tig, cw, AR[r], -100, 0.1])
case("aten.nll_loss_forward/unbatched", "aten.nll_loss_forward.default", [tensor([4]), torch.tensor(3), None, 1, -100])
case("aten.nll_loss_forward/3d", "aten.nll_loss_forward.default", [x3, t3, None, 1, -100])
case("aten.nll_loss2d_forward/2d", "aten.nll_loss2d_forward.default", [lx, t1, None, 1, -100])
case("aten.cross_entropy_loss/probs", "aten.cross_entropy_loss.default", [lx, pt])
# further aten forms make_fx emits inside these losses (multilabel_soft_margin_loss, triplet_margin_loss)
case("aten.log_sigmoid_forward", "aten.log_sigmoid_forward.default", [torch.tensor([-30.0, -1.0, 0.0, 2.0, 40.0])])
case("aten.log_sigmoid_forward/f64", "aten.log_sigmoid_forward.default", [tensor([3, 4], F64)])
case("aten.rsub.Scalar", "aten.rsub.Scalar", [x, 1])
case("aten.rsub.Scalar/alpha", "aten.rsub.Scalar", [tensor([4], I64), 2.5], {"alpha": 2})
case("aten.rsub.Tensor", "aten.rsub.Tensor", [x, tensor([4])])
case("torch.rsub/int", "torch.rsub", [tensor([4], I64), tensor([4], I64)], {"alpha": 3})
case("aten.norm.ScalarOpt_dim", "aten.norm.ScalarOpt_dim", [x, 2.0, [1]])
case("aten.norm.ScalarOpt_dim/keepdim_p1", "aten.norm.ScalarOpt_dim", [x, 1.0, [0], True])

for c in cases:  # losses sum a few dozen terms: float32 compared as the other accumulating ops are
    if "expected" in c and "float16" not in json.dumps(c["expected"]):
        c["rtol"], c["atol"] = 2e-5, 1e-6
out = {"torch": torch.__version__, "cases": cases}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "losses.json")
with open(path, "w") as f:
    json.dump(out, f, indent=None, separators=(",", ":"))
    f.write("\n")
print(f"wrote {len(cases)} cases to {path}")
