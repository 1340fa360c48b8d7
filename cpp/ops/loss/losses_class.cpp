// Classification losses over a class dim: nll_loss (class indices; weight, ignore_index; [C], [N, C] and
// [N, C, d1, ...]), cross_entropy (log_softmax then nll, with label_smoothing; or class probabilities),
// multi_margin_loss, multilabel_margin_loss and multilabel_soft_margin_loss, and the aten forms make_fx /
// torch.export emit (nll_loss_forward / nll_loss2d_forward → (output, total_weight), nll_loss_nd,
// cross_entropy_loss, multi_margin_loss, multilabel_margin_loss_forward → (output, is_target)).
// Scalar kernels in double; mean divides by the summed weights of the counted targets.
#include <cmath>
#include <limits>

#include "ops/call_op.h"
#include "ops/loss/loss_util.h"
#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

Object integer(int64_t v) { return Object(Value::integer(v)); }


// Input [C] / [N, C] / [N, C, d...] as n × c × s; target [] / [N] / [N, d...] checked against it.
struct ClassLayout {
  int64_t n = 1, c = 1, s = 1;
  Shape out_shape;  // per-element loss shape (the target's)
};

ClassLayout class_layout(const Tensor& x, const Tensor& t, bool check_target_dtype = true) {
  if (x.dim() < 1) throw FxError("Expected 1 or more dimensions (got " + std::to_string(x.dim()) + ")");
  if (check_target_dtype && t.dtype() != DType::Int64 && t.dtype() != DType::UInt8)
    throw FxError(std::string("expected target dtype to be Long or Byte, but got ") + torch_type_name(t.dtype()));
  if (x.dim() != 1 && x.shape()[0] != t.shape().at(0))
    throw FxError("Expected input batch_size (" + std::to_string(x.shape()[0]) + ") to match target batch_size (" +
                  std::to_string(t.dim() ? t.shape()[0] : 0) + ").");
  ClassLayout l;
  if (x.dim() == 1) {
    l.c = x.shape()[0];
    if (t.dim() > 1) throw FxError("0D or 1D target tensor expected, multi-target not supported");
    l.out_shape = t.shape();
    return l;
  }
  l.n = x.shape()[0], l.c = x.shape()[1];
  if (x.dim() == 4 && t.dim() != 3)
    throw FxError("only batches of spatial targets supported (3D tensors) but got targets of dimension: " +
                  std::to_string(t.dim()));
  Shape want{x.shape()[0]};
  for (int64_t i = 2; i < x.dim(); ++i) want.push_back(x.shape()[i]), l.s *= x.shape()[i];
  if (x.dim() == 2 && t.dim() != 1) throw FxError("0D or 1D target tensor expected, multi-target not supported");
  if (x.dim() == 4 && t.shape() != want)
    throw FxError("size mismatch (got input: " + shape_to_string(x.shape()) + " , target: " + shape_to_string(t.shape()));
  if (t.shape() != want) throw FxError("Expected target size " + shape_to_string(want) + ", got " + shape_to_string(t.shape()));
  l.out_shape = want;
  return l;
}

void check_weight(const Tensor* w, int64_t c) {
  if (w && (w->dim() != 1 || w->numel() != c))
    throw FxError("weight tensor should be defined either for all " + std::to_string(c) +
                  " classes or no classes but got weight tensor of shape: " + shape_to_string(w->shape()));
}

// nll (and cross_entropy's label smoothing: smoothing > 0 adds ls/C·(-Σ_c w_c·x_c)) on log-probabilities x.
// Returns (loss, total_weight) with loss reduced as asked.
std::pair<Tensor, Tensor> nll_core(const Tensor& x, const Tensor& t, const Tensor* w, Reduction r, int64_t ignore,
                                   double smoothing) {
  if (!dtype_is_floating(x.dtype()))
    throw FxError(std::string("\"nll_loss_out_frame\" not implemented for '") + torch_type_name(x.dtype()) + "'");
  ClassLayout l = class_layout(x, t);
  check_weight(w, l.c);
  Tensor per = Tensor::empty(l.out_shape, DType::Float64);
  Tensor total = Tensor::empty({}, DType::Float64), sum = Tensor::empty({}, DType::Float64);
  if (!per.is_meta()) {
    Tensor xc = to_dtype(x, DType::Float64).contiguous(), tc = to_dtype(t, DType::Int64).contiguous();
    Tensor wc = w ? to_dtype(*w, DType::Float64).contiguous() : Tensor();
    const double* xp = xc.data<double>();
    const int64_t* tp = tc.data<int64_t>();
    double tw = 0, s = 0;
    for (int64_t i = 0; i < l.n; ++i)
      for (int64_t j = 0; j < l.s; ++j) {
        const int64_t k = tp[i * l.s + j];
        double v = 0;
        if (k != ignore) {
          if (k < 0 || k >= l.c) throw FxError("Target " + std::to_string(k) + " is out of bounds.");
          const double wk = w ? wc.data<double>()[k] : 1.0;
          v = -wk * xp[(i * l.c + k) * l.s + j] * (1 - smoothing);
          if (smoothing > 0) {
            double sm = 0;
            for (int64_t c = 0; c < l.c; ++c) sm -= xp[(i * l.c + c) * l.s + j] * (w ? wc.data<double>()[c] : 1.0);
            v += sm * smoothing / static_cast<double>(l.c);
          }
          tw += wk;
        }
        per.data<double>()[i * l.s + j] = v;
        s += v;
      }
    *total.data<double>() = tw;
    *sum.data<double>() = r == Reduction::Mean ? s / tw : s;
  }
  const DType dt = x.dtype();
  if (r == Reduction::None && x.dim() >= 2) {  // torch leaves total_weight 0 here (a 1-d input sums its one term)
    if (!total.is_meta()) *total.data<double>() = 0;
    return {to_dtype(per, dt), to_dtype(total, dt)};
  }
  if (r == Reduction::None) return {to_dtype(per, dt), to_dtype(total, dt)};
  return {to_dtype(sum, dt), to_dtype(total, dt)};
}

std::optional<Tensor> opt_tensor(const Args& a, size_t i) {
  if (a.is_none(i)) return std::nullopt;
  return a.tensor(i);
}
const Tensor* ptr(const std::optional<Tensor>& t) { return t ? &*t : nullptr; }

Object nll_loss_op(const OpCall& call) {
  static const Schema schema("nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, "
                             "reduce=None, reduction='mean')");
  Args a = schema.parse(call);
  auto w = opt_tensor(a, 2);
  return nll_core(a.tensor(0), a.tensor(1), ptr(w), reduction_arg(a, 6, 3, 5), a.integer(4), 0).first;
}

Object aten_nll_nd_op(const OpCall& call) {
  static const Schema schema("nll_loss_nd(self, target, weight=None, reduction=1, ignore_index=-100)");
  Args a = schema.parse(call);
  auto w = opt_tensor(a, 2);
  return nll_core(a.tensor(0), a.tensor(1), ptr(w), reduction_arg(a, 3), a.integer(4), 0).first;
}

// aten.nll_loss_forward (input [C] or [N, C]) / nll_loss2d_forward ([N, C, H, W]): (output, total_weight).
template <bool k2d>
Object aten_nll_forward_op(const OpCall& call) {
  static const Schema schema(std::string(k2d ? "nll_loss2d_forward" : "nll_loss_forward") +
                             "(self, target, weight, reduction, ignore_index)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (!k2d && x.dim() > 2) throw FxError("input tensor should be 1D or 2D");
  if (k2d && a.tensor(1).dim() != 3)
    throw FxError("only batches of spatial targets supported (3D tensors) but got targets of dimension: " +
                  std::to_string(a.tensor(1).dim()));
  if (k2d && x.dim() != 4)
    throw FxError("only batches of spatial inputs supported (4D tensors), but got input of size: " +
                  shape_to_string(x.shape()));
  auto w = opt_tensor(a, 2);
  auto r = nll_core(x, a.tensor(1), ptr(w), reduction_arg(a, 3), a.integer(4), 0);
  return Object::tuple({r.first, r.second});
}

Tensor cross_entropy(const Tensor& x, const Tensor& t, const Tensor* w, Reduction r, int64_t ignore, double ls) {
  if (x.dim() < 1) throw FxError("Expected 1 or more dimensions (got " + std::to_string(x.dim()) + ")");
  const int64_t class_dim = x.dim() == 1 ? 0 : 1;
  if (ls < 0 || ls > 1)
    throw FxError("label_smoothing must be between 0.0 and 1.0. Got: " + Value::floating(ls).repr());
  Tensor logp = call_op("torch.log_softmax", {x, integer(class_dim)}).tensor();
  if (x.shape() != t.shape())  // class indices
    return nll_core(logp, t, w, r, ignore, ls).first;
  // class probabilities: -Σ_c w_c·p_c·log_softmax(x)_c, p smoothed towards uniform
  if (!dtype_is_floating(t.dtype()))
    throw FxError(std::string("Expected floating point type for target with class probabilities, got ") +
                  torch_type_name(t.dtype()));
  const int64_t c = x.shape()[class_dim];
  check_weight(w, c);
  int64_t outer = 1, inner = 1;
  Shape out_shape;
  for (int64_t i = 0; i < x.dim(); ++i)
    if (i != class_dim) (i < class_dim ? outer : inner) *= x.shape()[i], out_shape.push_back(x.shape()[i]);
  Tensor per = Tensor::empty(out_shape, DType::Float64);
  if (!per.is_meta()) {
    Tensor lc = to_dtype(logp, DType::Float64).contiguous(), tc = to_dtype(t, DType::Float64).contiguous();
    Tensor wc = w ? to_dtype(*w, DType::Float64).contiguous() : Tensor();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        double s = 0;
        for (int64_t k = 0; k < c; ++k) {
          const int64_t at = (o * c + k) * inner + i;
          const double p = tc.data<double>()[at] * (1 - ls) + ls / static_cast<double>(c);
          s -= lc.data<double>()[at] * p * (w ? wc.data<double>()[k] : 1.0);
        }
        per.data<double>()[o * inner + i] = s;
      }
  }
  if (r != Reduction::Mean) return reduce_loss_as(per, r, x.dtype());
  Tensor sum = reduce_loss_as(per, Reduction::Sum, DType::Float64), out = Tensor::empty({}, DType::Float64);
  if (!out.is_meta())
    *out.data<double>() = x.numel() == 0 ? std::numeric_limits<double>::quiet_NaN()
                                         : *sum.data<double>() / static_cast<double>(x.numel() / c);
  return to_dtype(out, x.dtype());
}

Object cross_entropy_op(const OpCall& call) {
  static const Schema schema("cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, "
                             "reduce=None, reduction='mean', label_smoothing=0.0)");
  Args a = schema.parse(call);
  auto w = opt_tensor(a, 2);
  return cross_entropy(a.tensor(0), a.tensor(1), ptr(w), reduction_arg(a, 6, 3, 5), a.integer(4),
                       a.number(7).as_double());
}

Object aten_cross_entropy_op(const OpCall& call) {
  static const Schema schema(
      "cross_entropy_loss(self, target, weight=None, reduction=1, ignore_index=-100, label_smoothing=0.0)");
  Args a = schema.parse(call);
  auto w = opt_tensor(a, 2);
  return cross_entropy(a.tensor(0), a.tensor(1), ptr(w), reduction_arg(a, 3), a.integer(4), a.number(5).as_double());
}

// multi_margin: Σ_{i≠y} max(0, margin - x_y + x_i)^p · w_y / C per sample.
Tensor multi_margin(const Tensor& x, const Tensor& t, int64_t p, double margin, const Tensor* w, Reduction r) {
  if (p != 1 && p != 2) throw FxError("only p == 1 and p == 2 supported");
  if (!dtype_is_floating(x.dtype()))
    throw FxError(std::string("\"multi_margin_loss_cpu_kernel\" not implemented for '") + torch_type_name(x.dtype()) +
                  "'");
  if (x.dim() > 2 || (x.dim() == 2 && x.shape()[1] == 0))
    throw FxError("Expected non-empty vector or matrix with optional 0-dim batch size, but got: " +
                  shape_to_string(x.shape()));
  const int64_t n = x.dim() == 2 ? x.shape()[0] : 1, c = x.dim() == 0 ? 1 : x.shape().back();
  if (t.numel() != n || t.dim() > 1)
    throw FxError("multi_margin_loss: target tensor should be 1-D with size equal to the number of input samples "
                  "(batch size). Expected target size [" + std::to_string(n) + "], but got " + shape_to_string(t.shape()) +
                  ". Input has shape " + shape_to_string(x.shape()) + ".");
  check_weight(w, c);
  Tensor per = Tensor::empty(x.dim() == 2 ? Shape{n} : t.shape(), DType::Float64);
  if (!per.is_meta()) {
    Tensor xc = to_dtype(x, DType::Float64).contiguous(), tc = to_dtype(t, DType::Int64).contiguous();
    Tensor wc = w ? to_dtype(*w, DType::Float64).contiguous() : Tensor();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t y = tc.data<int64_t>()[i];
      if (y < 0 || y >= c) throw FxError("target out of range");
      const double* row = xc.data<double>() + i * c;
      double s = 0;
      for (int64_t k = 0; k < c; ++k) {
        if (k == y) continue;
        const double z = margin - row[y] + row[k];
        if (z > 0) s += (p == 1 ? z : z * z) * (w ? wc.data<double>()[y] : 1.0);
      }
      per.data<double>()[i] = s / static_cast<double>(c);
    }
  }
  return reduce_loss_as(per, r, x.dtype());
}

Object multi_margin_op(const OpCall& call) {
  static const Schema schema("multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, "
                             "reduce=None, reduction='mean')");
  Args a = schema.parse(call);
  auto w = opt_tensor(a, 4);
  return multi_margin(a.tensor(0), a.tensor(1), a.integer(2), a.number(3).as_double(), ptr(w),
                      reduction_arg(a, 7, 5, 6));
}

Object aten_multi_margin_op(const OpCall& call) {
  static const Schema schema("multi_margin_loss(self, target, p=1, margin=1, weight=None, reduction=1)");
  Args a = schema.parse(call);
  auto w = opt_tensor(a, 4);
  return multi_margin(a.tensor(0), a.tensor(1), a.integer(2), a.number(3).as_double(), ptr(w), reduction_arg(a, 5));
}

// multilabel_soft_margin (F only): -(y·logσ(x) + (1 - y)·logσ(-x))·w, averaged over the last dim.
Object multilabel_soft_margin_op(const OpCall& call) {
  static const Schema schema(
      "multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction='mean')");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Reduction r = reduction_arg(a, 5, 3, 4);
  Tensor w = a.is_none(2) ? scalar_tensor(Number::floating(1.0), DType::Float64) : a.tensor(2);
  const DType dtype = loss_dtype({x, a.tensor(1)}, "log_sigmoid_cpu");
  Tensor per = pointwise_loss({x, a.tensor(1), w}, DType::Float64, Reduction::None, [](const double* v) {
    auto logsig = [](double z) { return std::min(z, 0.0) - std::log1p(std::exp(-std::fabs(z))); };
    return -(v[1] * logsig(v[0]) + (1 - v[1]) * logsig(-v[0])) * v[2];
  });
  const int64_t class_dim = x.dim() - 1;
  const int64_t c = x.dim() ? x.shape()[class_dim] : 1;
  Tensor s = call_op("torch.sum", {per, integer(class_dim)}).tensor();
  s = call_op("torch.div", {s, Object(Value::floating(static_cast<double>(c)))}).tensor();
  return reduce_loss_as(s, r, dtype);
}

// multilabel_margin: per sample, the targets are the leading non-negative entries of its target row (up to
// the first -1); Σ_{j target} Σ_{i not target} max(0, 1 - x_j + x_i) / C. Also gives is_target (x's dtype).
std::pair<Tensor, Tensor> multilabel_margin(const Tensor& x, const Tensor& t, Reduction r) {
  if (!dtype_is_floating(x.dtype()))
    throw FxError(std::string("\"multilabel_margin_loss_forward_out_frame\" not implemented for '") +
                  torch_type_name(x.dtype()) + "'");
  if (x.dim() > 2 || (x.dim() == 2 && x.shape()[1] == 0))
    throw FxError("Expected non-empty vector or matrix with optional 0-dim batch size, but got: " +
                  shape_to_string(x.shape()));
  if (t.shape() != x.shape())
    throw FxError("inconsistent target size: " + shape_to_string(t.shape()) + " for input of size: " + shape_to_string(x.shape()));
  if (t.dtype() != DType::Int64)
    throw FxError(std::string("expected scalar type Long but found ") + torch_type_name(t.dtype()));
  const int64_t n = x.dim() == 2 ? x.shape()[0] : 1, c = x.dim() == 0 ? 1 : x.shape().back();
  Tensor per = Tensor::empty(x.dim() == 2 ? Shape{n} : Shape{}, DType::Float64);
  Tensor is_target = Tensor::empty(x.shape(), DType::Float64);
  if (!per.is_meta()) {
    Tensor xc = to_dtype(x, DType::Float64).contiguous(), tc = t.contiguous();
    for (int64_t k = 0; k < tc.numel(); ++k) {
      const int64_t v = tc.data<int64_t>()[k];
      if (v < -1 || v >= c) throw FxError("argument #2 'target' is out of range");
    }
    double* it = is_target.data<double>();
    for (int64_t k = 0; k < n * c; ++k) it[k] = 0;
    for (int64_t s = 0; s < n; ++s) {
      const double* row = xc.data<double>() + s * c;
      const int64_t* tr = tc.data<int64_t>() + s * c;
      for (int64_t j = 0; j < c && tr[j] >= 0; ++j) it[s * c + tr[j]] = 1;
      double sum = 0;
      for (int64_t j = 0; j < c && tr[j] >= 0; ++j)
        for (int64_t i = 0; i < c; ++i)
          if (it[s * c + i] == 0) sum += std::max(0.0, 1 - row[tr[j]] + row[i]);
      per.data<double>()[s] = sum / static_cast<double>(c);
    }
  }
  return {reduce_loss_as(per, r, x.dtype()), to_dtype(is_target, x.dtype())};
}

Object multilabel_margin_op(const OpCall& call) {
  static const Schema schema(
      "multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction='mean')");
  Args a = schema.parse(call);
  return multilabel_margin(a.tensor(0), a.tensor(1), reduction_arg(a, 4, 2, 3)).first;
}

Object aten_multilabel_margin_op(const OpCall& call) {
  static const Schema schema("multilabel_margin_loss_forward(self, target, reduction)");
  Args a = schema.parse(call);
  auto r = multilabel_margin(a.tensor(0), a.tensor(1), reduction_arg(a, 2));
  return Object::tuple({r.first, r.second});
}

Object aten_multilabel_margin_loss_op(const OpCall& call) {
  static const Schema schema("multilabel_margin_loss(self, target, reduction=1)");
  Args a = schema.parse(call);
  return multilabel_margin(a.tensor(0), a.tensor(1), reduction_arg(a, 2)).first;
}

const std::string F = "torch.nn.functional.";
const OpRegistrar reg_nll{OpDef{F + "nll_loss", {}, {}, nll_loss_op}};
const OpRegistrar reg_ce{OpDef{F + "cross_entropy", {}, {}, cross_entropy_op}};
const OpRegistrar reg_mm{OpDef{F + "multi_margin_loss", {}, {}, multi_margin_op}};
const OpRegistrar reg_mlm{OpDef{F + "multilabel_margin_loss", {}, {}, multilabel_margin_op}};
const OpRegistrar reg_a_mlm_fwd{OpDef{"aten.multilabel_margin_loss_forward.default", {}, {},
                                      aten_multilabel_margin_op}};
const OpRegistrar reg_a_mlm{OpDef{"aten.multilabel_margin_loss.default", {"torch._C._nn.multilabel_margin_loss"}, {},
                                  aten_multilabel_margin_loss_op}};
const OpRegistrar reg_mlsm{OpDef{F + "multilabel_soft_margin_loss", {}, {}, multilabel_soft_margin_op}};
const OpRow kOps[] = {
    {"aten.nll_loss_nd.default", "torch._C._nn.nll_loss_nd", "", aten_nll_nd_op},
    {"aten.nll_loss_forward.default", "", "", aten_nll_forward_op<false>},
    {"aten.nll_loss2d_forward.default", "", "", aten_nll_forward_op<true>},
    {"aten.cross_entropy_loss.default", "torch._C._nn.cross_entropy_loss", "", aten_cross_entropy_op},
    {"aten.multi_margin_loss.default", "torch._C._nn.multi_margin_loss", "", aten_multi_margin_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
