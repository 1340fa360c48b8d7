// The elementwise losses of torch.nn.functional and their aten forms: mse, l1, smooth_l1 (beta), huber
// (delta), soft_margin, binary_cross_entropy (weight; logs clamped at -100), binary_cross_entropy_with_logits
// (weight, pos_weight), kl_div (log_target; 'batchmean'), poisson_nll, gaussian_nll, margin_ranking and
// hinge_embedding. Each is torch's formula per element (ops/loss/loss_util.h evaluates it in double over the
// broadcast inputs), then reduced. F.* take reduction as a string (and the legacy size_average/reduce),
// aten.* as an int. Result dtypes follow torch's, which differ by loss (noted at each).
#include <algorithm>
#include <cmath>

#include "ops/loss/loss_util.h"
#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"
#include "tensor/promote.h"

namespace fx {
namespace {

// torch's clamp_min(x, 0): NaN stays NaN (std::max(0.0, NaN) is 0).
double clamp_min0(double v) { return v > 0 || v != v ? v : 0.0; }


const double kPi = 3.14159265358979323846;
const double kHalfLog2Pi = 0.5 * std::log(2 * kPi);

Tensor one() { return scalar_tensor(Number::floating(1.0), DType::Float64); }

// The size F.mse_loss/l1_loss/huber_loss require of weight=.
void check_weight_size(const Tensor& w, const Tensor& x) {
  if (w.shape() != x.shape()) throw FxError("Weights and input must have the same size.");
}

// sum(w·loss)/sum(w) for 'mean', as F.mse_loss/l1_loss do with weight=.
Tensor weighted_mean_by_weight(const Tensor& loss64, const Tensor& w, DType dtype) {
  Tensor l = reduce_loss_as(loss64, Reduction::Sum, DType::Float64);
  Tensor ws = reduce_loss_as(to_dtype(w, DType::Float64), Reduction::Sum, DType::Float64);
  Tensor out = Tensor::empty({}, DType::Float64);
  if (!out.is_meta()) *out.data<double>() = *l.data<double>() / *ws.data<double>();
  return to_dtype(out, dtype);
}

// mse / l1 / smooth_l1 / huber: f(d = x - y); promote(x, y), except huber: x's dtype.
enum class Diff { Mse, L1, SmoothL1, Huber };

Tensor diff_loss(Diff kind, const Tensor& x, const Tensor& y, Reduction r, double param, const Tensor* weight) {
  DType dtype;
  if (kind == Diff::Huber) {
    if (!dtype_is_floating(x.dtype()) || !dtype_is_floating(y.dtype()))
      throw FxError(std::string("\"huber_cpu\" not implemented for '") + torch_type_name(x.dtype()) + "'");
    dtype = x.dtype();
  } else if (kind == Diff::L1) {
    dtype = promote_types(x.dtype(), y.dtype());
    if (!dtype_is_floating(dtype) && r == Reduction::Mean)
      throw FxError(std::string("mean(): could not infer output dtype. Input dtype must be either a floating point "
                                "or complex dtype. Got: ") + torch_type_name(dtype));
    if (!dtype_is_floating(dtype)) throw FxError("l1_loss: integer inputs are not supported");
  } else {
    dtype = loss_dtype({x, y}, kind == Diff::Mse ? "mse_cpu" : "smooth_l1_cpu");
  }
  if (kind == Diff::SmoothL1 && param < 0) throw FxError("smooth_l1_loss does not support negative values for beta.");
  if (kind == Diff::Huber && param <= 0) throw FxError("huber_loss does not support non-positive values for delta.");
  auto f = [kind, param](const double* v) {
    const double d = v[0] - v[1], a = std::fabs(d);
    double l;
    switch (kind) {
      case Diff::Mse: l = d * d; break;
      case Diff::L1: l = a; break;
      case Diff::SmoothL1: l = param == 0 ? a : a < param ? 0.5 * d * d / param : a - 0.5 * param; break;
      default: l = a < param ? 0.5 * d * d : param * (a - 0.5 * param); break;
    }
    return l * v[2];
  };
  if (!weight) return pointwise_loss({x, y, one()}, dtype, r, f);
  check_weight_size(*weight, x);
  if (r != Reduction::Mean || kind == Diff::Huber) return pointwise_loss({x, y, *weight}, dtype, r, f);
  Tensor per = pointwise_loss({x, y, *weight}, DType::Float64, Reduction::None, f);
  return weighted_mean_by_weight(per, *weight, dtype);
}

template <Diff kKind>
Object diff_op(const OpCall& call) {
  static const Schema schema(
      kKind == Diff::Huber    ? "huber_loss(input, target, reduction='mean', delta=1.0, weight=None)"
      : kKind == Diff::SmoothL1
          ? "smooth_l1_loss(input, target, size_average=None, reduce=None, reduction='mean', beta=1.0)"
      : kKind == Diff::Mse ? "mse_loss(input, target, size_average=None, reduce=None, reduction='mean', weight=None)"
                           : "l1_loss(input, target, size_average=None, reduce=None, reduction='mean', weight=None)");
  Args a = schema.parse(call);
  if (kKind == Diff::Huber) {
    std::optional<Tensor> w;
    if (!a.is_none(4)) w = a.tensor(4);
    return diff_loss(kKind, a.tensor(0), a.tensor(1), reduction_arg(a, 2), a.number(3).as_double(), w ? &*w : nullptr);
  }
  const Reduction r = reduction_arg(a, 4, 2, 3);
  if (kKind == Diff::SmoothL1) return diff_loss(kKind, a.tensor(0), a.tensor(1), r, a.number(5).as_double(), nullptr);
  std::optional<Tensor> w;
  if (!a.is_none(5)) w = a.tensor(5);
  return diff_loss(kKind, a.tensor(0), a.tensor(1), r, 0, w ? &*w : nullptr);
}

template <Diff kKind>
Object aten_diff_op(const OpCall& call) {
  static const Schema schema(kKind == Diff::Huber      ? "huber_loss(self, target, reduction=1, delta=1.0)"
                             : kKind == Diff::SmoothL1 ? "smooth_l1_loss(self, target, reduction=1, beta=1.0)"
                             : kKind == Diff::Mse      ? "mse_loss(self, target, reduction=1)"
                                                       : "l1_loss(self, target, reduction=1)");
  Args a = schema.parse(call);
  const double param = kKind == Diff::Huber || kKind == Diff::SmoothL1 ? a.number(3).as_double() : 0;
  return diff_loss(kKind, a.tensor(0), a.tensor(1), reduction_arg(a, 2), param, nullptr);
}

// soft_margin: log(1 + exp(-y·x)), in x's dtype.
Tensor soft_margin(const Tensor& x, const Tensor& y, Reduction r) {
  if (!dtype_is_floating(x.dtype()))
    throw FxError(std::string("result type Float can't be cast to the desired output type ") +
                  torch_type_name(x.dtype()));
  return pointwise_loss({x, y}, x.dtype(), r, [](const double* v) { return std::log1p(std::exp(-v[0] * v[1])); });
}

Object soft_margin_op(const OpCall& call) {
  static const Schema schema("soft_margin_loss(input, target, size_average=None, reduce=None, reduction='mean')");
  Args a = schema.parse(call);
  return soft_margin(a.tensor(0), a.tensor(1), reduction_arg(a, 4, 2, 3));
}

Object aten_soft_margin_op(const OpCall& call) {
  static const Schema schema("soft_margin_loss(self, target, reduction=1)");
  Args a = schema.parse(call);
  return soft_margin(a.tensor(0), a.tensor(1), reduction_arg(a, 2));
}

std::string torch_size(const Shape& s) {
  std::string r = "torch.Size([";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "])";
}

// binary_cross_entropy: -w·(y·max(log x, -100) + (1 - y)·max(log(1 - x), -100)); x and y of one dtype.
Tensor bce(const Tensor& x, const Tensor& y, const Tensor* weight, Reduction r) {
  if (!dtype_is_floating(x.dtype()))
    throw FxError(std::string("\"binary_cross_entropy\" not implemented for '") + torch_type_name(x.dtype()) + "'");
  if (y.dtype() != x.dtype())
    throw FxError(std::string("Found dtype ") + torch_type_name(y.dtype()) + " but expected " +
                  torch_type_name(x.dtype()));
  Tensor w = weight ? *weight : one();
  if (!x.is_meta()) {
    Tensor xc = to_dtype(x, DType::Float64).contiguous();
    for (int64_t i = 0; i < xc.numel(); ++i) {
      const double v = xc.data<double>()[i];
      if (!(v >= 0 && v <= 1)) throw FxError("all elements of input should be between 0 and 1");
    }
  }
  return pointwise_loss({x, y, w}, x.dtype(), r, [](const double* v) {
    const double lx = std::max(std::log(v[0]), -100.0), l1x = std::max(std::log1p(-v[0]), -100.0);
    return ((v[1] - 1) * l1x - v[1] * lx) * v[2];
  });
}

Object bce_op(const OpCall& call) {
  static const Schema schema(
      "binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction='mean')");
  Args a = schema.parse(call);
  const Reduction r = reduction_arg(a, 5, 3, 4);
  const Tensor& x = a.tensor(0);
  const Tensor& y = a.tensor(1);
  if (x.shape() != y.shape())
    throw FxError("Using a target size (" + torch_size(y.shape()) + ") that is different to the input size (" +
                  torch_size(x.shape()) + ") is deprecated. Please ensure they have the same size.");
  std::optional<Tensor> w;
  if (!a.is_none(2)) w = expand_to(a.tensor(2), broadcast_shapes(y.shape(), a.tensor(2).shape()));
  return bce(x, y, w ? &*w : nullptr, r);
}

Object aten_bce_op(const OpCall& call) {
  static const Schema schema("binary_cross_entropy(self, target, weight=None, reduction=1)");
  Args a = schema.parse(call);
  std::optional<Tensor> w;
  if (!a.is_none(2)) w = a.tensor(2);
  return bce(a.tensor(0), a.tensor(1), w ? &*w : nullptr, reduction_arg(a, 3));
}

// binary_cross_entropy_with_logits: (1 - y)·x - lw·log_sigmoid(x), lw = (pos_weight - 1)·y + 1; times w.
Tensor bce_logits(const Tensor& x, const Tensor& y, const Tensor* weight, const Tensor* pos_weight, Reduction r) {
  const DType dtype = loss_dtype({x, y}, "log_sigmoid_cpu");
  return pointwise_loss({x, y, weight ? *weight : one(), pos_weight ? *pos_weight : one()}, dtype, r,
                        [](const double* v) {
                          const double x = v[0], y = v[1];
                          const double log_sig = std::min(x, 0.0) - std::log1p(std::exp(-std::fabs(x)));
                          const double lw = (v[3] - 1) * y + 1;
                          return ((1 - y) * x - lw * log_sig) * v[2];
                        });
}

Object bce_logits_op(const OpCall& call) {
  static const Schema schema("binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, "
                             "reduce=None, reduction='mean', pos_weight=None)");
  Args a = schema.parse(call);
  const Reduction r = reduction_arg(a, 5, 3, 4);
  const Tensor& x = a.tensor(0);
  const Tensor& y = a.tensor(1);
  if (x.shape() != y.shape())
    throw FxError("Target size (" + torch_size(y.shape()) + ") must be the same as input size (" +
                  torch_size(x.shape()) + ")");
  std::optional<Tensor> w, pw;
  if (!a.is_none(2)) w = a.tensor(2);
  if (!a.is_none(6)) pw = a.tensor(6);
  return bce_logits(x, y, w ? &*w : nullptr, pw ? &*pw : nullptr, r);
}

Object aten_bce_logits_op(const OpCall& call) {
  static const Schema schema(
      "binary_cross_entropy_with_logits(self, target, weight=None, pos_weight=None, reduction=1)");
  Args a = schema.parse(call);
  std::optional<Tensor> w, pw;
  if (!a.is_none(2)) w = a.tensor(2);
  if (!a.is_none(3)) pw = a.tensor(3);
  return bce_logits(a.tensor(0), a.tensor(1), w ? &*w : nullptr, pw ? &*pw : nullptr, reduction_arg(a, 4));
}

// kl_div: log_target ? exp(y)·(y - x) : xlogy(y, y) - y·x.
Tensor kl_div(const Tensor& x, const Tensor& y, bool log_target, Reduction r) {
  if (!dtype_is_floating(x.dtype()) && !dtype_is_floating(y.dtype()))
    throw FxError("kl_div: Integral inputs not supported.");
  const DType dtype = promote_types(x.dtype(), y.dtype());
  return pointwise_loss({x, y}, dtype, r, [log_target](const double* v) {
    if (log_target) return std::exp(v[1]) * (v[1] - v[0]);
    const double xlogy = std::isnan(v[1]) ? v[1] : v[1] == 0 ? 0.0 : v[1] * std::log(v[1]);
    return xlogy - v[1] * v[0];
  });
}

Object kl_div_op(const OpCall& call) {
  static const Schema schema(
      "kl_div(input, target, size_average=None, reduce=None, reduction='mean', log_target=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const bool batchmean = a[4].is_value() && a[4].value().kind() == ValueKind::Str && a.str(4) == "batchmean" &&
                         a.is_none(2) && a.is_none(3);
  Tensor out = kl_div(x, a.tensor(1), a.boolean(5), batchmean ? Reduction::Sum : reduction_arg(a, 4, 2, 3));
  if (!batchmean || x.dim() == 0) return out;
  Tensor s = to_dtype(out, DType::Float64), q = Tensor::empty({}, DType::Float64);
  if (!q.is_meta()) *q.data<double>() = *s.data<double>() / static_cast<double>(x.shape()[0]);
  return to_dtype(q, out.dtype());
}

Object aten_kl_div_op(const OpCall& call) {
  static const Schema schema("kl_div(self, target, reduction=1, *, log_target=False)");
  Args a = schema.parse(call);
  return kl_div(a.tensor(0), a.tensor(1), a.boolean(3), reduction_arg(a, 2));
}

// poisson_nll: log_input ? exp(x) - y·x : x - y·log(x + eps); full adds Stirling's y·log y - y + ½log(2πy)
// where y > 1. Integers promote to float32.
Tensor poisson_nll(const Tensor& x, const Tensor& y, bool log_input, bool full, double eps, Reduction r) {
  DType dtype = promote_types(x.dtype(), y.dtype());
  if (!dtype_is_floating(dtype)) dtype = DType::Float32;
  return pointwise_loss({x, y}, dtype, r, [=](const double* v) {
    double l = log_input ? std::exp(v[0]) - v[1] * v[0] : v[0] - v[1] * std::log(v[0] + eps);
    if (full && v[1] > 1) l += v[1] * std::log(v[1]) - v[1] + 0.5 * std::log(2 * kPi * v[1]);
    return l;
  });
}

Object poisson_nll_op(const OpCall& call) {
  static const Schema schema("poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, "
                             "eps=1e-08, reduce=None, reduction='mean')");
  Args a = schema.parse(call);
  return poisson_nll(a.tensor(0), a.tensor(1), a.boolean(2), a.boolean(3), a.number(5).as_double(),
                     reduction_arg(a, 7, 4, 6));
}

Object aten_poisson_nll_op(const OpCall& call) {
  static const Schema schema("poisson_nll_loss(input, target, log_input, full, eps, reduction)");
  Args a = schema.parse(call);
  return poisson_nll(a.tensor(0), a.tensor(1), a.boolean(2), a.boolean(3), a.number(4).as_double(),
                     reduction_arg(a, 5));
}

// gaussian_nll (F only; torch composes it): ½(log max(var, eps) + (x - y)²/max(var, eps)) [+ ½log 2π].
Object gaussian_nll_op(const OpCall& call) {
  static const Schema schema("gaussian_nll_loss(input, target, var, full=False, eps=1e-06, reduction='mean')");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor& y = a.tensor(1);
  Tensor var;
  if (a[2].is_tensor()) {
    var = a.tensor(2);
  } else {
    const double v = a.number(2).as_double();
    if (v < 0) throw FxError("var has negative entry/entries");
    var = expand_to(scalar_tensor(Number::floating(v), x.dtype()), x.shape());
  }
  if (!var.is_meta()) {
    Tensor vc = to_dtype(var, DType::Float64).contiguous();
    for (int64_t i = 0; i < vc.numel(); ++i)
      if (vc.data<double>()[i] < 0) throw FxError("var has negative entry/entries");
  }
  if (var.shape() != x.shape()) {
    Shape head(x.shape().begin(), x.shape().end() - (x.dim() > 0 ? 1 : 0));
    int64_t mismatched = 0;
    if (var.dim() == x.dim())
      for (int64_t i = 0; i < x.dim(); ++i)
        if (x.shape()[i] != var.shape()[i]) mismatched += var.shape()[i];
    if (x.dim() > 0 && var.shape() == head) {
      Shape s = var.shape();
      s.push_back(1);
      var = view_as_shape(var.contiguous(), s);
    } else if (!(var.dim() == x.dim() && mismatched == 1)) {
      throw FxError("var is of incorrect size");
    }
  }
  const std::string red = a.str(5);
  if (red != "none" && red != "mean" && red != "sum") throw FxError(red + " is not valid");
  const Reduction r = reduction_arg(a, 5);
  const bool full = a.boolean(3);
  const double eps = a.number(4).as_double();
  const DType dtype = promote_types(promote_types(x.dtype(), y.dtype()), var.dtype());
  return pointwise_loss({x, y, var}, dtype, r, [=](const double* v) {
    const double s = std::max(v[2], eps), d = v[0] - v[1];
    return 0.5 * (std::log(s) + d * d / s) + (full ? kHalfLog2Pi : 0.0);
  });
}

// margin_ranking: max(0, -y·(x1 - x2) + margin); integers give float32.
Tensor margin_ranking(const Tensor& x1, const Tensor& x2, const Tensor& y, double margin, Reduction r) {
  DType dtype = promote_types(promote_types(x1.dtype(), x2.dtype()), y.dtype());
  if (!dtype_is_floating(dtype)) dtype = DType::Float32;
  return pointwise_loss({x1, x2, y}, dtype, r,
                        [margin](const double* v) { return clamp_min0(-v[2] * (v[0] - v[1]) + margin); });
}

Object margin_ranking_op(const OpCall& call) {
  static const Schema schema(
      "margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean')");
  Args a = schema.parse(call);
  const Tensor &x1 = a.tensor(0), &x2 = a.tensor(1), &y = a.tensor(2);
  if (x1.dim() != x2.dim() || x1.dim() != y.dim())
    throw FxError("margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: " +
                  torch_size(x1.shape()) + ", input2: " + torch_size(x2.shape()) + ", target: " +
                  torch_size(y.shape()) + " ");
  return margin_ranking(x1, x2, y, a.number(3).as_double(), reduction_arg(a, 6, 4, 5));
}

Object aten_margin_ranking_op(const OpCall& call) {
  static const Schema schema("margin_ranking_loss(input1, input2, target, margin=0.0, reduction=1)");
  Args a = schema.parse(call);
  return margin_ranking(a.tensor(0), a.tensor(1), a.tensor(2), a.number(3).as_double(), reduction_arg(a, 4));
}

// hinge_embedding: (y ≠ 1 ? max(0, margin - x) : 0) + (y ≠ -1 ? x : 0), in x's dtype.
Tensor hinge_embedding(const Tensor& x, const Tensor& y, double margin, Reduction r) {
  if (!dtype_is_floating(x.dtype()))
    throw FxError(std::string("mean(): could not infer output dtype. Input dtype must be either a floating point or "
                              "complex dtype. Got: ") + torch_type_name(x.dtype()));
  return pointwise_loss({x, y}, x.dtype(), r, [margin](const double* v) {
    return (v[1] != 1 ? clamp_min0(margin - v[0]) : 0.0) + (v[1] != -1 ? v[0] : 0.0);
  });
}

Object hinge_embedding_op(const OpCall& call) {
  static const Schema schema(
      "hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction='mean')");
  Args a = schema.parse(call);
  return hinge_embedding(a.tensor(0), a.tensor(1), a.number(2).as_double(), reduction_arg(a, 5, 3, 4));
}

Object aten_hinge_embedding_op(const OpCall& call) {
  static const Schema schema("hinge_embedding_loss(self, target, margin=1.0, reduction=1)");
  Args a = schema.parse(call);
  return hinge_embedding(a.tensor(0), a.tensor(1), a.number(2).as_double(), reduction_arg(a, 3));
}

const OpRow kOps[] = {
    {"torch.nn.functional.mse_loss", "", "", diff_op<Diff::Mse>},
    {"torch.nn.functional.l1_loss", "", "", diff_op<Diff::L1>},
    {"torch.nn.functional.smooth_l1_loss", "", "", diff_op<Diff::SmoothL1>},
    {"torch.nn.functional.huber_loss", "", "", diff_op<Diff::Huber>},
    {"torch.nn.functional.soft_margin_loss", "", "", soft_margin_op},
    {"torch.nn.functional.binary_cross_entropy", "", "", bce_op},
    {"torch.nn.functional.binary_cross_entropy_with_logits", "", "", bce_logits_op},
    {"torch.nn.functional.kl_div", "", "", kl_div_op},
    {"torch.nn.functional.poisson_nll_loss", "", "", poisson_nll_op},
    {"torch.nn.functional.gaussian_nll_loss", "", "", gaussian_nll_op},
    {"torch.nn.functional.margin_ranking_loss", "", "", margin_ranking_op},
    {"torch.nn.functional.hinge_embedding_loss", "", "", hinge_embedding_op},
    {"aten.mse_loss.default", "torch._C._nn.mse_loss", "", aten_diff_op<Diff::Mse>},
    {"aten.l1_loss.default", "torch._C._nn.l1_loss", "", aten_diff_op<Diff::L1>},
    {"aten.smooth_l1_loss.default", "torch._C._nn.smooth_l1_loss", "", aten_diff_op<Diff::SmoothL1>},
    {"aten.huber_loss.default", "torch._C._nn.huber_loss", "", aten_diff_op<Diff::Huber>},
    {"aten.soft_margin_loss.default", "torch._C._nn.soft_margin_loss", "", aten_soft_margin_op},
    {"aten.binary_cross_entropy.default", "torch._C._nn.binary_cross_entropy", "", aten_bce_op},
    {"aten.binary_cross_entropy_with_logits.default", "", "", aten_bce_logits_op},
    {"aten.kl_div.default", "torch.kl_div", "", aten_kl_div_op},
    {"aten.poisson_nll_loss.default", "torch.poisson_nll_loss", "", aten_poisson_nll_op},
    {"aten.margin_ranking_loss.default", "torch.margin_ranking_loss", "", aten_margin_ranking_op},
    {"aten.hinge_embedding_loss.default", "torch.hinge_embedding_loss", "", aten_hinge_embedding_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
