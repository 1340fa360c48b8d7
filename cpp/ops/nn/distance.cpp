// Vector normalisation and distances of torch.nn.functional, composed in torch's own order of operations:
// normalize (x / max(‖x‖_p, eps)), cosine_similarity (each side divided by its clamped norm, then the
// product summed), pairwise_distance (‖x1 - x2 + eps‖_p over the last dim).
#include <algorithm>

#include "ops/call_op.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "support/error.h"

namespace fx {
namespace {

Object integer(int64_t v) { return Object(Value::integer(v)); }
Object boolean(bool v) { return Object(Value::boolean(v)); }

Object normalize_op(const OpCall& call) {
  static const Schema schema("normalize(input, p=2.0, dim=1, eps=1e-12, out=None)");
  Args a = schema.parse(call);
  if (!a.is_none(4)) throw FxError("normalize(): out= is not supported");
  Object denom = call_op("torch.norm", {a[0], a[1], a[2]}, {{"keepdim", boolean(true)}});
  denom = call_op("torch.clamp_min", {denom, a[3]});
  denom = call_op("torch.Tensor.expand_as", {denom, a[0]});
  return call_op("torch.div", {a[0], denom});
}

Object cosine_similarity_op(const OpCall& call) {
  static const Schema schema("cosine_similarity(x1, x2, dim=1, eps=1e-8)");
  Args a = schema.parse(call);
  Object x1 = a[0], x2 = a[1];
  if (!dtype_is_floating(a.tensor(0).dtype())) x1 = call_op("torch.Tensor.float", {x1});
  if (!dtype_is_floating(a.tensor(1).dtype())) x2 = call_op("torch.Tensor.float", {x2});
  Object both = call_op("torch.broadcast_tensors", {x1, x2});
  x1 = both.items().at(0), x2 = both.items().at(1);
  auto unit = [&](const Object& x) {
    Object n = call_op("torch.linalg.vector_norm", {x, Object(Value::floating(2.0)), a[2]}, {{"keepdim", boolean(true)}});
    n = call_op("torch.clamp_min", {n, a[3]});
    return call_op("torch.div", {x, n});
  };
  return call_op("torch.sum", {call_op("torch.mul", {unit(x1), unit(x2)}), a[2]});
}

Object pairwise_distance_op(const OpCall& call) {
  static const Schema schema("pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False)");
  Args a = schema.parse(call);
  const int64_t dim = std::max(a.tensor(0).dim(), a.tensor(1).dim()) - 1;
  Object diff = call_op("torch.add", {call_op("torch.sub", {a[0], a[1]}), a[3]});
  return call_op("torch.norm", {diff, a[2], integer(dim), a[4]});
}

const OpRow kOps[] = {
    {"torch.nn.functional.normalize", "", "", normalize_op},
    {"torch.nn.functional.cosine_similarity", "torch.cosine_similarity aten.cosine_similarity.default", "", cosine_similarity_op},
    {"torch.nn.functional.pairwise_distance", "torch.pairwise_distance aten.pairwise_distance.default", "", pairwise_distance_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
