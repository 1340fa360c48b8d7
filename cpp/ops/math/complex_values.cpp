// The ops between complex and real tensors: view_as_real / view_as_complex and real / imag (views of the
// same storage, as in torch), complex(real, imag), polar(abs, angle), conj (a copy: this runtime has no
// conjugate bit, so resolve_conj and resolve_neg return their input), angle, isreal, is_complex. On real
// tensors conj, real and resolve_* return the tensor itself and angle is pi below zero, as torch does.
#include <cmath>
#include <complex>

#include "ops/array/shape_ops.h"
#include "ops/array/view_util.h"
#include "ops/call_op.h"
#include "ops/dispatch.h"
#include "ops/math/complex_math.h"
#include "ops/math/elementwise.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {

Tensor view_as_real(const Tensor& x) {
  if (!dtype_is_complex(x.dtype())) throw FxError("view_as_real is only supported for complex tensors");
  Shape shape = x.shape(), strides = x.strides();
  for (int64_t& s : strides) s *= 2;
  shape.push_back(2);
  strides.push_back(1);
  return Tensor(x.storage(), dtype_real_part(x.dtype()), shape, strides, x.offset() * 2);
}

Tensor view_as_complex(const Tensor& x) {
  if (x.dtype() != DType::Float32 && x.dtype() != DType::Float64)
    throw FxError(std::string("view_as_complex is only supported for float and double tensors, but got a tensor "
                              "of scalar type: ") + torch_type_name(x.dtype()));
  if (x.dim() == 0) throw FxError("Input tensor must have one or more dimensions");
  if (x.shape().back() != 2) throw FxError("Tensor must have a last dimension of size 2");
  if (x.strides().back() != 1) throw FxError("Tensor must have a last dimension with stride 1");
  Shape shape(x.shape().begin(), x.shape().end() - 1), strides(x.strides().begin(), x.strides().end() - 1);
  for (int64_t& s : strides) {
    if (s % 2 != 0) throw FxError("Tensor must have a stride divisible by 2 for all but last dimension");
    s /= 2;
  }
  if (x.offset() % 2 != 0) throw FxError("Tensor must have a storage_offset divisible by 2");
  return Tensor(x.storage(), dtype_to_complex(x.dtype()), shape, strides, x.offset() / 2);
}

Tensor complex_from_parts(const Tensor& re, const Tensor& im, const char* op) {
  const DType dt = re.dtype();
  if (dt != im.dtype() || (dt != DType::Float32 && dt != DType::Float64 && dt != DType::Float16))
    throw FxError(std::string(op) + ": expected both inputs to be Half, Float or Double tensors but got " +
                  torch_type_name(re.dtype()) + " and " + torch_type_name(im.dtype()));
  if (dt == DType::Float16) throw FxError(std::string(op) + ": complex32 (ComplexHalf) is not supported");
  Tensor out = Tensor::empty(broadcast_shapes(re.shape(), im.shape()), dtype_to_complex(dt));
  const Tensor parts = view_as_real(out);
  copy_into(select_view(parts, -1, 0), re);
  copy_into(select_view(parts, -1, 1), im);
  return out;
}

Tensor complex_abs(const Tensor& x) {
  const Tensor parts = view_as_real(x);
  return call_op("torch.hypot", {Object(select_view(parts, -1, 0)), Object(select_view(parts, -1, 1))}).tensor();
}

Tensor complex_angle(const Tensor& x) {
  const Tensor parts = view_as_real(x);
  return call_op("torch.atan2", {Object(select_view(parts, -1, 1)), Object(select_view(parts, -1, 0))}).tensor();
}

namespace {

Object view_as_real_op(const OpCall& call) {
  static const Schema schema("view_as_real(input|self)");
  return view_as_real(schema.parse(call).tensor(0));
}

Object view_as_complex_op(const OpCall& call) {
  static const Schema schema("view_as_complex(input|self)");
  return view_as_complex(schema.parse(call).tensor(0));
}

Object real_op(const OpCall& call) {
  static const Schema schema("real(input|self)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  return dtype_is_complex(x.dtype()) ? Object(select_view(view_as_real(x), -1, 0)) : a[0];
}

Object imag_op(const OpCall& call) {
  static const Schema schema("imag(input|self)");
  const Tensor& x = schema.parse(call).tensor(0);
  if (!dtype_is_complex(x.dtype())) throw FxError("imag is not implemented for tensors with non-complex dtypes.");
  return select_view(view_as_real(x), -1, 1);
}

Object complex_op(const OpCall& call) {
  static const Schema schema("complex(real, imag)");
  Args a = schema.parse(call);
  return complex_from_parts(a.tensor(0), a.tensor(1), "complex");
}

// polar(abs, angle) = abs·cos(angle) + i·abs·sin(angle)
Object polar_op(const OpCall& call) {
  static const Schema schema("polar(abs, angle)");
  Args a = schema.parse(call);
  const Tensor &r = a.tensor(0), &t = a.tensor(1);
  if (r.dtype() != t.dtype())
    throw FxError(std::string("polar: expected both inputs to be of the same dtype, got ") + torch_type_name(r.dtype()) +
                  " and " + torch_type_name(t.dtype()));
  const Object re = call_op("torch.mul", {a[0], call_op("torch.cos", {a[1]})});
  const Object im = call_op("torch.mul", {a[0], call_op("torch.sin", {a[1]})});
  return complex_from_parts(re.tensor(), im.tensor(), "polar");
}

Object conj_op(const OpCall& call) {
  static const Schema schema("conj(input|self)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (!dtype_is_complex(x.dtype())) return a[0];
  Tensor out = x.clone();
  const Tensor im = select_view(view_as_real(out), -1, 1);
  copy_into(im, call_op("torch.neg", {Object(im)}).tensor());
  return out;
}

Object self_op(const OpCall& call) {
  static const Schema schema("resolve_conj(input|self)");
  return schema.parse(call)[0];
}

// angle: the argument of a complex number; of a real one pi below zero, 0 otherwise, NaN kept (integers give
// float32)
Object angle_op(const OpCall& call) {
  static const Schema schema("angle(input|self)");
  Args a = schema.parse(call);
  const Tensor& x0 = a.tensor(0);
  if (dtype_is_complex(x0.dtype())) return complex_angle(x0);
  Object x = dtype_is_floating(x0.dtype()) ? a[0] : Object(to_dtype(x0, DType::Float32));
  const DType dt = x.tensor().dtype();
  Object zero(Tensor::zeros({}, dt));
  Object r = call_op("torch.where", {call_op("torch.lt", {x, Object(Value::integer(0))}),
                                     Object(Value::floating(3.14159265358979323846)), zero});
  return call_op("torch.where", {call_op("torch.isnan", {x}), x, r});
}

Object isreal_op(const OpCall& call) {
  static const Schema schema("isreal(input|self)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (dtype_is_complex(x.dtype()))
    return call_op("torch.eq", {Object(select_view(view_as_real(x), -1, 1)), Object(Value::integer(0))});
  return call_op("torch.logical_not", {Object(Tensor::zeros(x.shape(), DType::Bool))});
}

const OpRow kOps[] = {
    {"torch.view_as_real", "aten.view_as_real.default", "", view_as_real_op},
    {"torch.view_as_complex", "aten.view_as_complex.default", "", view_as_complex_op},
    {"torch.real", "aten.real.default", "", real_op},
    {"torch.imag", "aten.imag.default", "", imag_op},
    {"torch.complex", "aten.complex.default", "", complex_op},
    {"torch.polar", "aten.polar.default", "", polar_op},
    {"torch.conj", "torch.Tensor.conj aten.conj.default aten._conj.default", "conj", conj_op},
    {"torch.conj_physical", "torch.Tensor.conj_physical aten.conj_physical.default aten._conj_physical.default", "conj_physical", conj_op},
    {"torch.resolve_conj", "torch.Tensor.resolve_conj aten.resolve_conj.default", "resolve_conj", self_op},
    {"torch.resolve_neg", "torch.Tensor.resolve_neg aten.resolve_neg.default", "resolve_neg", self_op},
    {"torch.angle", "torch.Tensor.angle aten.angle.default", "angle", angle_op},
    {"torch.isreal", "torch.Tensor.isreal aten.isreal.default", "isreal", isreal_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
