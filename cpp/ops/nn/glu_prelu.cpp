// glu and prelu, composed from the registry's ops as torch's own decompositions define them.
#include <string>

#include "ops/call_op.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/array/view_util.h"
#include "support/error.h"

namespace fx {
namespace {

// glu(x, dim): the first half of dim times the sigmoid of the second
Object glu_op(const OpCall& call) {
  static const Schema schema("glu(input|self, dim=-1)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.dim() == 0) throw FxError("glu does not support scalars because halving size must be even");
  const int64_t dim = checked_dim(a.integer(1), x.dim());
  const int64_t n = x.shape()[dim];
  if (n % 2 != 0)
    throw FxError("Halving dimension must be even, but dimension " + std::to_string(dim) + " is size " +
                  std::to_string(n));
  const Object d(Value::integer(dim)), half(Value::integer(n / 2));
  Object first = call_op("torch.narrow", {a[0], d, Object(Value::integer(0)), half});
  Object second = call_op("torch.narrow", {a[0], d, half, half});
  return call_op("torch.mul", {first, call_op("torch.sigmoid", {second})});
}

// prelu(x, weight): x where x > 0, else weight·x, one weight or one per channel (dim 1; dim 0 of a 1-d x)
Object prelu_op(const OpCall& call) {
  static const Schema schema("prelu(input|self, weight)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor& w = a.tensor(1);
  if (w.dim() > 1) throw FxError("prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = " +
                                 std::to_string(w.dim()));
  Object weight = a[1];
  if (w.numel() != 1) {
    if (x.dim() == 0) throw FxError("Not allow zero-dim input tensor.");
    const int64_t channels = x.dim() >= 2 ? x.shape()[1] : 1;
    if (w.numel() != channels)
      throw FxError("Mismatch of parameter numbers and input channel size. Found parameter numbers = " +
                    std::to_string(w.numel()) + " and channel size = " + std::to_string(channels) + ".");
  }
  if (x.dim() >= 2 && w.dim() == 1) {  // (C,) → (C, 1, …, 1) against (N, C, …)
    ValueList shape{Value::integer(w.numel())};
    for (int64_t i = 2; i < x.dim(); ++i) shape.push_back(Value::integer(1));
    weight = call_op("torch.reshape", {weight, Object(Value::list(std::move(shape)))});
  } else if (x.dim() == 0 && w.dim() == 1) {
    weight = call_op("torch.reshape", {weight, Object(Value::list({}))});
  }
  Object scaled = call_op("torch.mul", {a[0], weight});
  return call_op("torch.where", {call_op("torch.gt", {a[0], Object(Value::integer(0))}), a[0], scaled});
}

const OpRow kOps[] = {
    {"torch.nn.functional.glu", "torch.glu torch._C._nn.glu aten.glu.default", "", glu_op},
    {"torch.prelu", "torch.nn.functional.prelu torch.Tensor.prelu aten.prelu.default aten._prelu_kernel.default",
     "prelu", prelu_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
