// The whole-tensor comparisons torch returns as Python bools: equal, allclose.
#include <cmath>

#include "ops/call_op.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {
namespace {

bool all_true(const Object& t) {
  Tensor b = to_dtype(call_op("torch.all", {t}).tensor(), DType::Bool).contiguous();
  return b.data<bool>()[0];
}

// equal: the same shape and the same values (NaN unequal to itself)
Object equal_op(const OpCall& call) {
  static const Schema schema("equal(input|self, other)");
  Args a = schema.parse(call);
  if (a.tensor(0).shape() != a.tensor(1).shape()) return Object(Value::boolean(false));
  return Object(Value::boolean(all_true(call_op("torch.eq", {a[0], a[1]}))));
}

Object allclose_op(const OpCall& call) {
  static const Schema schema("allclose(input|self, other, rtol=1e-05, atol=1e-08, equal_nan=False)");
  Args a = schema.parse(call);
  return Object(Value::boolean(all_true(call_op("torch.isclose", {a[0], a[1], a[2], a[3], a[4]}))));
}

const OpRow kOps[] = {
    {"torch.equal", "torch.Tensor.equal aten.equal.default", "equal", equal_op},
    {"torch.allclose", "torch.Tensor.allclose aten.allclose.default", "allclose", allclose_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
