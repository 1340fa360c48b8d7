// Pointwise ops composed the way torch defines them: addcmul, addcdiv, logit, xlogy, and nan_to_num with
// torch's defaults (NaN → 0, ±inf → the dtype's largest/lowest finite value; integers are copied).
#include <cmath>
#include <limits>

#include "ops/dispatch.h"
#include "ops/call_op.h"
#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "ops/array/view_util.h"
#include "support/error.h"

namespace fx {
namespace {

// input + value * tensor1 * tensor2
Object addcmul_op(const OpCall& call) {
  static const Schema schema("addcmul(input|self, tensor1, tensor2, *, value=1)");
  Args a = schema.parse(call);
  Object prod = call_op("torch.mul", {a[1], a[2]});
  return call_op("torch.add", {a[0], prod}, {{"alpha", a[3]}});
}

// input + value * tensor1 / tensor2 (true division; integer inputs are refused, as torch does)
Object addcdiv_op(const OpCall& call) {
  static const Schema schema("addcdiv(input|self, tensor1, tensor2, *, value=1)");
  Args a = schema.parse(call);
  if (!dtype_is_floating(a.tensor(1).dtype()) && !dtype_is_floating(a.tensor(2).dtype()))
    throw FxError("Integer division with addcdiv is no longer supported, and in a future release addcdiv will "
                  "perform a true division of tensor1 and tensor2.");
  Object quot = call_op("torch.div", {a[1], a[2]});
  return call_op("torch.add", {a[0], quot}, {{"alpha", a[3]}});
}

// log(z / (1 - z)), z = input limited to [eps, 1 - eps] when eps is given and not negative, as torch's
// kernel does it: x < eps ? eps : x > 1 - eps ? 1 - eps : x. That is not clamp once eps > 0.5 (the bounds
// cross: clamp gives 1 - eps everywhere, torch gives eps below eps), and NaN stays NaN.
Object logit_op(const OpCall& call) {
  static const Schema schema("logit(input|self, eps=None)");
  Args a = schema.parse(call);
  Object z = a[0];
  if (!a.is_none(1) && a.number(1).as_double() >= 0) {
    const Object lo(Value::floating(a.number(1).as_double())), hi(Value::floating(1.0 - a.number(1).as_double()));
    z = call_op("torch.where", {call_op("torch.gt", {z, hi}), hi, z});
    z = call_op("torch.where", {call_op("torch.lt", {a[0], lo}), lo, z});
  }
  Object one_minus = call_op("torch.add", {call_op("torch.neg", {z}), Object(Value::integer(1))});
  return call_op("torch.log", {call_op("torch.div", {z, one_minus})});
}

// A Python number as a 0-dim tensor that promotes as the number would (int64, or float32 for a float).
Object as_tensor_operand(const Object& o) {
  if (o.is_tensor()) return o;
  const Number n = to_number(o);
  return Object(scalar_tensor(n, n.kind == ScalarKind::Float ? DType::Float32
                                 : n.kind == ScalarKind::Bool ? DType::Bool : DType::Int64));
}

// x * log(y), 0 where x == 0 unless y is NaN.
Object xlogy_op(const OpCall& call) {
  static const Schema schema("xlogy(input|self, other)");
  Args a = schema.parse(call);
  if (!a[0].is_tensor() && !a[1].is_tensor()) throw FxError("xlogy(): expected at least one Tensor");
  Object x = as_tensor_operand(a[0]), y = as_tensor_operand(a[1]);
  Object prod = call_op("torch.mul", {x, call_op("torch.log", {y})});
  Object zero = call_op("torch.logical_and", {call_op("torch.eq", {x, Object(Value::integer(0))}),
                                              call_op("torch.logical_not", {call_op("torch.isnan", {y})})});
  return call_op("torch.where", {zero, Object(Value::floating(0.0)), prod});
}

template <bool kInplace>
Object nan_to_num_op(const OpCall& call) {
  static const Schema schema(std::string(kInplace ? "nan_to_num_" : "nan_to_num") +
                             "(input|self, nan=0.0, posinf=None, neginf=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (!dtype_is_floating(x.dtype())) {
    if (kInplace) return x;
    return x.clone();
  }
  double big = std::numeric_limits<double>::max();
  if (x.dtype() == DType::Float32) big = std::numeric_limits<float>::max();
  if (x.dtype() == DType::Float16) big = 65504.0;
  if (x.dtype() == DType::BFloat16) big = 3.3895313892515355e38;
  const double nan = a.number(1).as_double();
  const double pos = a.is_none(2) ? big : a.number(2).as_double();
  const double neg = a.is_none(3) ? -big : a.number(3).as_double();
  const DType kdt = compute_dtype(x.dtype());
  Tensor y = to_dtype(x, kdt).contiguous().clone();
  dispatch_float(kdt, "nan_to_num", [&](auto tag) {  // (floating dtypes only: the others returned above)
    using T = decltype(tag);
    T* p = y.data<T>();
    for (int64_t i = 0; i < y.numel(); ++i) {
      const T v = p[i];
      if (v != v) p[i] = static_cast<T>(nan);
      else if (v == std::numeric_limits<T>::infinity()) p[i] = static_cast<T>(pos);
      else if (v == -std::numeric_limits<T>::infinity()) p[i] = static_cast<T>(neg);
    }
  });
  Tensor out = to_dtype(y, x.dtype());
  if (kInplace) {
    copy_into(x, out);
    return x;
  }
  return out;
}

const OpRow kOps[] = {
    {"torch.addcmul", "torch.Tensor.addcmul aten.addcmul.default", "addcmul", addcmul_op},
    {"torch.addcdiv", "torch.Tensor.addcdiv aten.addcdiv.default", "addcdiv", addcdiv_op},
    {"torch.logit", "torch.Tensor.logit torch.special.logit aten.logit.default", "logit", logit_op},
    {"torch.xlogy", "torch.Tensor.xlogy torch.special.xlogy aten.xlogy.Tensor aten.xlogy.Scalar_Self aten.xlogy.Scalar_Other", "xlogy", xlogy_op},
    {"torch.nan_to_num", "torch.Tensor.nan_to_num aten.nan_to_num.default", "nan_to_num", nan_to_num_op<false>},
    {"torch.nan_to_num_", "torch.Tensor.nan_to_num_ aten.nan_to_num_.default", "nan_to_num_", nan_to_num_op<true>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
