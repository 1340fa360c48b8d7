// Ops that fxwasm's real dtypes answer without complex numbers: conj, conj_physical, resolve_conj,
// resolve_neg and real return the tensor itself (as torch does for a real tensor), isreal is all true,
// angle is pi below zero and 0 elsewhere (NaN stays NaN); and the whole-tensor comparisons torch returns
// as Python bools: equal, allclose.
#include <cmath>

#include "ops/call_op.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {
namespace {

Object self_op(const OpCall& call) {
  static const Schema schema("conj(input|self)");
  Args a = schema.parse(call);
  return a[0];
}

Object isreal_op(const OpCall& call) {
  static const Schema schema("isreal(input|self)");
  Args a = schema.parse(call);
  return call_op("torch.logical_not", {Object(Tensor::zeros(a.tensor(0).shape(), DType::Bool))});
}

// angle of a real number: pi for negatives, 0 otherwise, NaN kept (integers give float32)
Object angle_op(const OpCall& call) {
  static const Schema schema("angle(input|self)");
  Args a = schema.parse(call);
  const Tensor& x0 = a.tensor(0);
  Object x = dtype_is_floating(x0.dtype()) ? a[0] : Object(to_dtype(x0, DType::Float32));
  const DType dt = x.tensor().dtype();
  Object zero(Tensor::zeros({}, dt));
  Object r = call_op("torch.where", {call_op("torch.lt", {x, Object(Value::integer(0))}),
                                     Object(Value::floating(3.14159265358979323846)), zero});
  return call_op("torch.where", {call_op("torch.isnan", {x}), x, r});
}

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
    {"torch.conj", "torch.Tensor.conj aten.conj.default", "conj", self_op},
    {"torch.conj_physical", "torch.Tensor.conj_physical aten.conj_physical.default", "conj_physical", self_op},
    {"torch.resolve_conj", "torch.Tensor.resolve_conj aten.resolve_conj.default", "resolve_conj", self_op},
    {"torch.resolve_neg", "torch.Tensor.resolve_neg aten.resolve_neg.default", "resolve_neg", self_op},
    {"torch.real", "aten.real.default", "", self_op},
    {"torch.isreal", "torch.Tensor.isreal aten.isreal.default", "isreal", isreal_op},
    {"torch.angle", "torch.Tensor.angle aten.angle.default", "angle", angle_op},
    {"torch.equal", "torch.Tensor.equal aten.equal.default", "equal", equal_op},
    {"torch.allclose", "torch.Tensor.allclose aten.allclose.default", "allclose", allclose_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
