// Math ops torch defines from other ops, composed here from the registry's own (so they promote, broadcast
// and refuse bad arguments as those do): logaddexp/logaddexp2, deg2rad/rad2deg, signbit, float_power,
// isclose, nansum/nanmean, count_nonzero, sinc, isposinf/isneginf, heaviside, ldexp, and the reflected
// operators __rsub__, __rdiv__, __rpow__, __rmod__, __rmatmul__ (torch.Tensor methods: other OP self).
// Each follows torch's kernel formula, so results match to the last bits where the formula decides them.
#include <cmath>

#include "ops/call_op.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {
namespace {

Object num(double d) { return Object(Value::floating(d)); }
Object integer(int64_t i) { return Object(Value::integer(i)); }

// logaddexp(a, b) = a where a == b is ±inf, else max + log1p(exp(-|a - b|)) (torch's kernel; 2 for logaddexp2)
template <bool kBase2>
Object logaddexp_op(const OpCall& call) {
  static const Schema schema(kBase2 ? "logaddexp2(input|self, other)" : "logaddexp(input|self, other)");
  Args a = schema.parse(call);
  Object x = a[0], y = a[1];
  Object m = call_op("torch.maximum", {x, y});
  Object neg_d = call_op("torch.neg", {call_op("torch.abs", {call_op("torch.sub", {x, y})})});
  Object tail = kBase2 ? call_op("torch.mul", {call_op("torch.log1p", {call_op("torch.exp2", {neg_d})}),
                                               num(1.0 / std::log(2.0))})
                       : call_op("torch.log1p", {call_op("torch.exp", {neg_d})});
  Object r = call_op("torch.add", {m, tail});
  Object same_inf = call_op("torch.logical_and", {call_op("torch.isinf", {x}), call_op("torch.eq", {x, y})});
  return call_op("torch.where", {same_inf, x, r});
}

// deg2rad / rad2deg: a multiplication by the constant (integers become float32, as in torch)
template <bool kToRad>
Object angle_units_op(const OpCall& call) {
  static const Schema schema(kToRad ? "deg2rad(input|self)" : "rad2deg(input|self)");
  Args a = schema.parse(call);
  const double pi = 3.14159265358979323846;
  if (a.tensor(0).dtype() == DType::Bool)
    throw FxError(std::string(kToRad ? "deg2rad" : "rad2deg") + " is not supported for bool tensors.");
  Tensor x = dtype_is_floating(a.tensor(0).dtype()) ? a.tensor(0) : to_dtype(a.tensor(0), DType::Float32);
  return call_op("torch.mul", {Object(x), num(kToRad ? pi / 180.0 : 180.0 / pi)});
}

// signbit: the sign bit itself (true for -0.0 and a negative NaN): copysign(1, x) < 0
Object signbit_op(const OpCall& call) {
  static const Schema schema("signbit(input|self)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (!dtype_is_floating(x.dtype())) return call_op("torch.lt", {a[0], integer(0)});
  Object one = call_op("torch.ones_like", {a[0]});
  return call_op("torch.lt", {call_op("torch.copysign", {one, a[0]}), integer(0)});
}

// float_power: pow in float64, whatever the operands
Object float_power_op(const OpCall& call) {
  static const Schema schema("float_power(input|self, exponent)");
  Args a = schema.parse(call);
  auto wide = [](const Object& o) {
    if (o.is_tensor()) return Object(to_dtype(o.tensor(), DType::Float64));
    if (o.is_value() && o.value().kind() == ValueKind::Bool) return num(o.value().as_bool() ? 1.0 : 0.0);
    return o.is_value() && o.value().kind() == ValueKind::Int ? num(static_cast<double>(o.value().as_int())) : o;
  };
  if (!a[0].is_tensor() && !a[1].is_tensor()) throw FxError("float_power(): expected at least one Tensor");
  return call_op("torch.pow", {wide(a[0]), wide(a[1])});
}

// isclose: a == b, or both NaN (equal_nan), or a finite |a - b| <= atol + |rtol * b| (torch's formula)
Object isclose_op(const OpCall& call) {
  static const Schema schema("isclose(input|self, other, rtol=1e-05, atol=1e-08, equal_nan=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor& y = a.tensor(1);
  if (x.dtype() != y.dtype())
    throw FxError(std::string("isclose(): ") + "self and other must have the same dtype");
  const double rtol = a.number(2).as_double(), atol = a.number(3).as_double();
  if (rtol < 0) throw FxError("rtol must be greater than or equal to zero, but got " + std::to_string(rtol));
  if (atol < 0) throw FxError("atol must be greater than or equal to zero, but got " + std::to_string(atol));
  Object close = call_op("torch.eq", {a[0], a[1]});
  const bool floating = dtype_is_floating(x.dtype());
  if (a.boolean(4) && floating)
    close = call_op("torch.logical_or",
                    {close, call_op("torch.logical_and", {call_op("torch.isnan", {a[0]}), call_op("torch.isnan", {a[1]})})});
  if (rtol == 0 && atol == 0) return close;
  Object cx = a[0], cy = a[1];
  if (!floating) cx = Object(to_dtype(x, DType::Float32)), cy = Object(to_dtype(y, DType::Float32));
  Object allowed = call_op("torch.add", {call_op("torch.abs", {call_op("torch.mul", {cy, num(rtol)})}), num(atol)});
  Object actual = call_op("torch.abs", {call_op("torch.sub", {cx, cy})});
  Object within = call_op("torch.logical_and", {call_op("torch.isfinite", {actual}), call_op("torch.le", {actual, allowed})});
  return call_op("torch.logical_or", {close, within});
}

// sum's keywords from (input, dim, keepdim, dtype) arguments; the dtype left out when `with_dtype` is false
std::vector<std::pair<std::string, Object>> reduce_kwargs(const Args& a, bool with_dtype = true) {
  std::vector<std::pair<std::string, Object>> kw;
  if (!a.is_none(1)) kw.emplace_back("dim", a[1]);
  kw.emplace_back("keepdim", a[2]);
  if (with_dtype && !a.is_none(3)) kw.emplace_back("dtype", a[3]);
  return kw;
}

// nansum: sum with NaN counted as zero
Object nansum_op(const OpCall& call) {
  static const Schema schema("nansum(input|self, dim=None, keepdim=False, *, dtype=None)");
  Args a = schema.parse(call);
  Object x = a[0];
  if (dtype_is_floating(a.tensor(0).dtype()))
    x = call_op("torch.where", {call_op("torch.isnan", {x}), num(0.0), x});
  return call_op("torch.sum", {x}, reduce_kwargs(a));
}

// nanmean: nansum / the count of non-NaN values (floating inputs only, as torch)
Object nanmean_op(const OpCall& call) {
  static const Schema schema("nanmean(input|self, dim=None, keepdim=False, *, dtype=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (!dtype_is_floating(x.dtype()) && a.is_none(3))
    throw FxError(std::string("nanmean(): expected input to have floating point or complex dtype but got ") +
                  dtype_name(x.dtype()));
  Object zeroed = call_op("torch.where", {call_op("torch.isnan", {a[0]}), num(0.0), a[0]});
  Object total = call_op("torch.sum", {zeroed}, reduce_kwargs(a));
  Object count = call_op("torch.sum", {call_op("torch.logical_not", {call_op("torch.isnan", {a[0]})})},
                         reduce_kwargs(a, false));
  return call_op("torch.div", {total, count});
}

// count_nonzero: the number of non-zero values, over all dims or the given ones (int64)
Object count_nonzero_op(const OpCall& call) {
  static const Schema schema("count_nonzero(input|self, dim=None)");
  Args a = schema.parse(call);
  Object ne = call_op("torch.ne", {a[0], integer(0)});
  if (a.is_none(1)) return call_op("torch.sum", {ne});
  return call_op("torch.sum", {ne, a[1]});
}

// sinc: 1 at 0, else sin(pi x) / (pi x), pi in the input's precision (integers as float32)
Object sinc_op(const OpCall& call) {
  static const Schema schema("sinc(input|self)");
  Args a = schema.parse(call);
  const Tensor& x0 = a.tensor(0);
  Object x = dtype_is_floating(x0.dtype()) ? a[0] : Object(to_dtype(x0, DType::Float32));
  Object px = call_op("torch.mul", {x, num(3.14159265358979323846)});
  Object r = call_op("torch.div", {call_op("torch.sin", {px}), px});
  return call_op("torch.where", {call_op("torch.eq", {x, integer(0)}), num(1.0), r});
}

template <bool kPositive>
Object isinf_signed_op(const OpCall& call) {
  static const Schema schema(kPositive ? "isposinf(input|self)" : "isneginf(input|self)");
  Args a = schema.parse(call);
  if (!dtype_is_floating(a.tensor(0).dtype())) return call_op("torch.ne", {a[0], a[0]});  // all false
  return call_op("torch.eq", {a[0], num(kPositive ? INFINITY : -INFINITY)});
}

// heaviside(x, values): values where x == 0, else x > 0 (NaN stays NaN); both of one dtype, as torch asks
Object heaviside_op(const OpCall& call) {
  static const Schema schema("heaviside(input|self, values)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const Tensor& v = a.tensor(1);
  if (x.dtype() != v.dtype())
    throw FxError("heaviside is not yet implemented for tensors with different dtypes");
  Object pos = Object(to_dtype(call_op("torch.gt", {a[0], integer(0)}).tensor(), x.dtype()));
  Object r = call_op("torch.where", {call_op("torch.eq", {a[0], integer(0)}), a[1], pos});
  if (dtype_is_floating(x.dtype())) r = call_op("torch.where", {call_op("torch.isnan", {a[0]}), a[0], r});
  return r;
}

// ldexp(x, e) = x * 2.0 ** e (torch's definition: so integers become float32)
Object ldexp_op(const OpCall& call) {
  static const Schema schema("ldexp(input|self, other)");
  Args a = schema.parse(call);
  return call_op("torch.mul", {a[0], call_op("torch.pow", {num(2.0), a[1]})});
}

// self.__rOP__(other) = other OP self
Object rsub_method(const OpCall& call) {
  static const Schema schema("__rsub__(self, other)");
  Args a = schema.parse(call);
  return call_op("torch.sub", {a[1], a[0]});
}
Object rdiv_method(const OpCall& call) {
  static const Schema schema("__rdiv__(self, other)");
  Args a = schema.parse(call);
  return call_op("torch.div", {a[1], a[0]});
}
Object rpow_method(const OpCall& call) {
  static const Schema schema("__rpow__(self, other)");
  Args a = schema.parse(call);
  return call_op("torch.pow", {a[1], a[0]});
}
Object rmod_method(const OpCall& call) {
  static const Schema schema("__rmod__(self, other)");
  Args a = schema.parse(call);
  return call_op("torch.remainder", {a[1], a[0]});
}
Object rmatmul_method(const OpCall& call) {
  static const Schema schema("__rmatmul__(self, other)");
  Args a = schema.parse(call);
  return call_op("torch.matmul", {a[1], a[0]});
}

const OpRow kOps[] = {
    {"torch.logaddexp", "torch.Tensor.logaddexp aten.logaddexp.default", "logaddexp", logaddexp_op<false>},
    {"torch.logaddexp2", "torch.Tensor.logaddexp2 aten.logaddexp2.default", "logaddexp2", logaddexp_op<true>},
    {"torch.deg2rad", "torch.Tensor.deg2rad aten.deg2rad.default", "deg2rad", angle_units_op<true>},
    {"torch.rad2deg", "torch.Tensor.rad2deg aten.rad2deg.default", "rad2deg", angle_units_op<false>},
    {"torch.signbit", "torch.Tensor.signbit aten.signbit.default", "signbit", signbit_op},
    {"torch.float_power", "torch.Tensor.float_power aten.float_power.Tensor_Tensor aten.float_power.Tensor_Scalar "
                          "aten.float_power.Scalar", "float_power", float_power_op},
    {"torch.isclose", "torch.Tensor.isclose aten.isclose.default", "isclose", isclose_op},
    {"torch.nansum", "torch.Tensor.nansum aten.nansum.default", "nansum", nansum_op},
    {"torch.nanmean", "torch.Tensor.nanmean aten.nanmean.default", "nanmean", nanmean_op},
    {"torch.count_nonzero", "torch.Tensor.count_nonzero aten.count_nonzero.default aten.count_nonzero.dim_IntList",
     "count_nonzero", count_nonzero_op},
    {"torch.sinc", "torch.Tensor.sinc torch.special.sinc aten.sinc.default", "sinc", sinc_op},
    {"torch.isposinf", "torch.Tensor.isposinf aten.isposinf.default", "isposinf", isinf_signed_op<true>},
    {"torch.isneginf", "torch.Tensor.isneginf aten.isneginf.default", "isneginf", isinf_signed_op<false>},
    {"torch.heaviside", "torch.Tensor.heaviside aten.heaviside.default", "heaviside", heaviside_op},
    {"torch.ldexp", "torch.Tensor.ldexp", "ldexp", ldexp_op},
    {"torch.Tensor.__rsub__", "", "__rsub__", rsub_method},
    {"torch.Tensor.__rdiv__", "torch.Tensor.__rtruediv__", "__rdiv__ __rtruediv__", rdiv_method},
    {"torch.Tensor.__rpow__", "", "__rpow__", rpow_method},
    {"torch.Tensor.__rmod__", "", "__rmod__", rmod_method},
    {"torch.Tensor.__rmatmul__", "", "__rmatmul__", rmatmul_method},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
