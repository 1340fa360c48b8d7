// Statistics composed from tensor ops as torch composes them: cov (with frequency and analytic weights and
// a correction), corrcoef, dist (the p-norm of a difference) and renorm (slices along a dim whose p-norm
// exceeds maxnorm scaled down to it).
#include <string>
#include <vector>

#include "ops/array/view_util.h"
#include "ops/call_op.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {
namespace {

Object integer(int64_t v) { return Object(Value::integer(v)); }
Object boolean(bool v) { return Object(Value::boolean(v)); }
Object mul(const Object& a, const Object& b) { return call_op("torch.mul", {a, b}); }
Object div(const Object& a, const Object& b) { return call_op("torch.div", {a, b}); }
Object sub(const Object& a, const Object& b) { return call_op("torch.sub", {a, b}); }

// cov(input, *, correction=1, fweights=None, aweights=None): variables in rows, observations in columns
Object cov_tensor(const Tensor& input, int64_t correction, const Object& fw, const Object& aw) {
  if (input.dim() > 2) throw FxError("cov(): expected input to have two or fewer dimensions but got an input with " +
                                     std::to_string(input.dim()) + " dimensions");
  Tensor x = input.dim() < 2 ? reshape(input.contiguous(), {1, -1}) : input;
  const int64_t n = x.shape()[1];
  const bool has_f = !(fw.is_value() && fw.value().is_none()), has_a = !(aw.is_value() && aw.value().is_none());
  Object w;
  if (has_f) {
    const Tensor& f = fw.tensor();
    if (f.dim() > 1) throw FxError("cov(): expected fweights to have one or fewer dimensions");
    if (dtype_is_floating(f.dtype())) throw FxError("cov(): expected fweights to have integral dtype");
    if (f.numel() != n) throw FxError("cov(): expected fweights to have the same numel as there are observations");
    w = fw;
  }
  if (has_a) {
    const Tensor& at = aw.tensor();
    if (at.dim() > 1) throw FxError("cov(): expected aweights to have one or fewer dimensions");
    if (!dtype_is_floating(at.dtype())) throw FxError("cov(): expected aweights to have floating point dtype");
    if (at.numel() != n) throw FxError("cov(): expected aweights to have the same numel as there are observations");
    w = has_f ? mul(w, aw) : aw;
  }
  const bool weighted = has_f || has_a;
  Object xs(x), avg, w_sum, norm_factor;
  if (weighted) {
    w_sum = call_op("torch.sum", {w});
    avg = div(call_op("torch.sum", {mul(xs, w), integer(1)}), w_sum);
    if (correction == 0) norm_factor = w_sum;
    else if (!has_a) norm_factor = sub(w_sum, integer(correction));
    else
      norm_factor = sub(w_sum, div(mul(integer(correction), call_op("torch.sum", {mul(w, aw)})), w_sum));
  } else {
    avg = call_op("torch.mean", {xs, integer(1)});
    norm_factor = Object(Value::integer(n - correction));
  }
  // a non-positive norm_factor is clamped to 0 (torch warns): the result is then inf or nan
  if (norm_factor.is_tensor()) norm_factor = call_op("torch.clamp", {norm_factor}, {{"min", integer(0)}});
  else if (norm_factor.value().as_int() < 0) norm_factor = integer(0);
  Object xm = sub(xs, call_op("torch.unsqueeze", {avg, integer(1)}));
  Object right = weighted ? mul(xm, w) : xm;
  // xm · right^H: the conjugate transpose (torch.conj is the tensor itself for real ones)
  Object c = call_op("torch.mm", {xm, call_op("torch.conj", {call_op("torch.t", {right})})});
  return call_op("torch.squeeze", {div(c, norm_factor)});
}

Object cov_op(const OpCall& call) {
  static const Schema schema("cov(input|self, *, correction=1, fweights=None, aweights=None)");
  Args a = schema.parse(call);
  return cov_tensor(a.tensor(0), a.integer(1), a[2], a[3]);
}

// corrcoef(input): cov normalised by the standard deviations, clipped to [-1, 1]
Object corrcoef_op(const OpCall& call) {
  static const Schema schema("corrcoef(input|self)");
  Args a = schema.parse(call);
  Object c = cov_tensor(a.tensor(0), 1, Object(), Object());
  if (c.tensor().dim() == 0) return div(c, c);
  Object sd = call_op("torch.sqrt", {call_op("torch.diagonal", {c})});
  c = div(c, call_op("torch.unsqueeze", {sd, integer(1)}));
  c = div(c, call_op("torch.unsqueeze", {sd, integer(0)}));
  return call_op("torch.clamp", {c, integer(-1), integer(1)});
}

// dist(input, other, p=2): ‖input - other‖_p
Object dist_op(const OpCall& call) {
  static const Schema schema("dist(input|self, other, p=2)");
  Args a = schema.parse(call);
  return call_op("torch.linalg.vector_norm", {sub(a[0], a[1]), a[2]});
}

// renorm(input, p, dim, maxnorm): each slice along dim with p-norm above maxnorm scaled by maxnorm/(norm+1e-7)
Object renorm_op(const OpCall& call) {
  static const Schema schema("renorm(input|self, p, dim, maxnorm)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (a.number(1).as_double() <= 0) throw FxError("renorm: non-positive-norm not supported");
  if (a.number(3).as_double() < 0)
    throw FxError("renorm: expected maxnorm to be >= 0 but got " + std::to_string(a.number(3).as_double()));
  const int64_t d = checked_dim(a.integer(2), x.dim());
  std::vector<Object> others;
  for (int64_t k = 0; k < x.dim(); ++k)
    if (k != d) others.push_back(integer(k));
  Object norm = call_op("torch.linalg.vector_norm", {a[0], a[1], Object::list(others)}, {{"keepdim", boolean(true)}});
  Object scale = div(a[3], call_op("torch.add", {norm, Object(Value::floating(1e-7))}));
  Object factor = call_op("torch.where", {call_op("torch.gt", {norm, a[3]}), scale, Object(Value::floating(1.0))});
  return mul(a[0], factor);
}

const OpRow kOps[] = {
    {"torch.cov", "torch.Tensor.cov aten.cov.default", "cov", cov_op},
    {"torch.corrcoef", "torch.Tensor.corrcoef aten.corrcoef.default", "corrcoef", corrcoef_op},
    {"torch.dist", "torch.Tensor.dist aten.dist.default", "dist", dist_op},
    {"torch.renorm", "torch.Tensor.renorm aten.renorm.default", "renorm", renorm_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
