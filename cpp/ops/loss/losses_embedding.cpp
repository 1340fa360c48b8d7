// Embedding losses: cosine_embedding_loss (1 - cos for target 1, max(0, cos - margin) for -1; cos with
// torch's 1e-12 added to each squared norm) and triplet_margin_loss (max(0, margin + d(a, p) - d(a, n)),
// d = pairwise_distance, swap= takes min(d(a, n), d(p, n))), F and aten forms.
#include <algorithm>
#include <cmath>

#include "ops/call_op.h"
#include "ops/loss/loss_util.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"
#include "tensor/promote.h"

namespace fx {
namespace {

Tensor cosine_embedding(const Tensor& x1, const Tensor& x2, const Tensor& t, double margin, Reduction r) {
  const int64_t td = t.dim();
  if (td > 1) throw FxError("cosine_embedding_loss: 0D or 1D target tensor expected, multi-target not supported");
  if (td == 1 && (x1.dim() != 2 || x2.dim() != 2))
    throw FxError("1D target tensor expects 2D input tensors, but found inputs with sizes " +
                  shape_to_string(x1.shape()) + " and " + shape_to_string(x2.shape()) + ".");
  if (td == 0 && (x1.dim() != 1 || x2.dim() != 1))
    throw FxError("0D target tensor expects 1D input tensors, but found inputs with sizes " +
                  shape_to_string(x1.shape()) + " and " + shape_to_string(x2.shape()) + ".");
  if (x1.shape() != x2.shape())
    throw FxError("cosine_embedding_loss: input1 and input2 must have the same shape");
  const DType dtype = loss_dtype({x1, x2}, "cosine_embedding_loss");
  const int64_t n = td == 0 ? 1 : x1.shape()[0], d = x1.shape().back();
  if (td == 1 && t.shape()[0] != n)
    throw FxError("The size of tensor a (" + std::to_string(n) + ") must match the size of tensor b (" +
                  std::to_string(t.shape()[0]) + ") at non-singleton dimension 0");
  Tensor per = Tensor::empty(t.shape(), DType::Float64);
  if (!per.is_meta()) {
    Tensor a = to_dtype(x1, DType::Float64).contiguous(), b = to_dtype(x2, DType::Float64).contiguous();
    Tensor tc = to_dtype(t, DType::Float64).contiguous();
    for (int64_t i = 0; i < n; ++i) {
      double ab = 0, aa = 1e-12, bb = 1e-12;
      for (int64_t k = 0; k < d; ++k) {
        const double u = a.data<double>()[i * d + k], v = b.data<double>()[i * d + k];
        ab += u * v, aa += u * u, bb += v * v;
      }
      const double cos = ab / std::sqrt(aa * bb), y = tc.data<double>()[i];
      per.data<double>()[i] = (y == 1 ? 1 - cos : 0.0) + (y == -1 ? (cos - margin > 0 || cos != cos ? cos - margin : 0.0) : 0.0);  // NaN stays NaN, as torch's clamp_min
    }
  }
  return reduce_loss_as(per, r, dtype);
}

Object cosine_embedding_op(const OpCall& call) {
  static const Schema schema("cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, "
                             "reduce=None, reduction='mean')");
  Args a = schema.parse(call);
  return cosine_embedding(a.tensor(0), a.tensor(1), a.tensor(2), a.number(3).as_double(), reduction_arg(a, 6, 4, 5));
}

Object aten_cosine_embedding_op(const OpCall& call) {
  static const Schema schema("cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=1)");
  Args a = schema.parse(call);
  return cosine_embedding(a.tensor(0), a.tensor(1), a.tensor(2), a.number(3).as_double(), reduction_arg(a, 4));
}

Tensor triplet_margin(const Args& a, size_t margin, size_t p, size_t eps, size_t swap, Reduction r) {
  const Tensor &an = a.tensor(0), &po = a.tensor(1), &ne = a.tensor(2);
  if (an.dim() != po.dim() || an.dim() != ne.dim())
    throw FxError("The anchor, positive, and negative tensors are expected to have the same number of dimensions, "
                  "but got: anchor " + std::to_string(an.dim()) + "D, positive " + std::to_string(po.dim()) +
                  "D, and negative " + std::to_string(ne.dim()) + "D inputs");
  auto dist = [&](size_t i, size_t j) {
    return call_op("torch.nn.functional.pairwise_distance", {a[i], a[j], a[p], a[eps]});
  };
  Object dp = dist(0, 1), dn = dist(0, 2);
  if (a.boolean(swap)) dn = call_op("torch.min", {dn, dist(1, 2)});
  Object m = call_op("torch.sub", {call_op("torch.add", {dp, a[margin]}), dn});
  Tensor per = call_op("torch.clamp_min", {m, Object(Value::floating(0.0))}).tensor();
  return reduce_loss(per, r);
}

Object triplet_margin_op(const OpCall& call) {
  static const Schema schema("triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, "
                             "size_average=None, reduce=None, reduction='mean')");
  Args a = schema.parse(call);
  return triplet_margin(a, 3, 4, 5, 6, reduction_arg(a, 9, 7, 8));
}

Object aten_triplet_margin_op(const OpCall& call) {
  static const Schema schema(
      "triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-06, swap=False, reduction=1)");
  Args a = schema.parse(call);
  return triplet_margin(a, 3, 4, 5, 6, reduction_arg(a, 7));
}

const std::string F = "torch.nn.functional.";
const OpRegistrar reg_ce{OpDef{F + "cosine_embedding_loss", {}, {}, cosine_embedding_op}};
const OpRegistrar reg_tm{OpDef{F + "triplet_margin_loss", {}, {}, triplet_margin_op}};
const OpRegistrar reg_a_ce{OpDef{"aten.cosine_embedding_loss.default", {"torch.cosine_embedding_loss"}, {},
                                 aten_cosine_embedding_op}};
const OpRegistrar reg_a_tm{OpDef{"aten.triplet_margin_loss.default", {"torch.triplet_margin_loss"}, {},
                                 aten_triplet_margin_op}};

}  // namespace
}  // namespace fx
