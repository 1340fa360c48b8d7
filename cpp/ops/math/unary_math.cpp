// Elementwise unary ops: abs, neg and relu keep the dtype; exp, log, sqrt, sin, cos, tanh, sigmoid
// compute in floating point (an integer or bool input gives the default float32, as torch does), or in
// complex for a complex input (abs of it is real).
#include <cmath>
#include <type_traits>

#include "ops/math/complex_math.h"
#include "ops/math/elementwise.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/array/view_util.h"

namespace fx {
namespace {

// abs/neg on Python numbers follow Python (operator.abs(-2) == 2); tensors go through the kernels.
Object abs_op(const OpCall& call) {
  static const Schema schema("abs(input|self)");
  Args a = schema.parse(call);
  if (is_number(a[0])) return py_abs(a.number(0)).to_object();
  const Tensor& x = a.tensor(0);
  if (x.dtype() == DType::Bool) throw FxError("\"abs_cpu\" not implemented for 'Bool'");
  if (dtype_is_complex(x.dtype())) return complex_abs(x);
  Tensor fast;
  if (unary_f32_fast(x, kernels::UnaryF32::Abs, fast)) return fast;
  return unary_map<false>(x, x.dtype(), "abs", [](auto tag) {
    using T = decltype(tag);
    return [](T v) -> T {
      if constexpr (std::is_unsigned_v<T>) return v;
      else if constexpr (std::is_integral_v<T>) return v < 0 ? static_cast<T>(wrap_sub(T(0), v)) : v;
      else return std::fabs(v);
    };
  });
}

Object neg_op(const OpCall& call) {
  static const Schema schema("neg(input|self)");
  Args a = schema.parse(call);
  if (is_number(a[0])) return py_neg(a.number(0)).to_object();
  const Tensor& x = a.tensor(0);
  if (x.dtype() == DType::Bool)
    throw FxError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert "
                  "a mask, use the `~` or `logical_not()` operator instead.");
  if (dtype_is_complex(x.dtype()))
    return unary_map<false, Compute::Complex>(x, x.dtype(), "neg", [](auto tag) {
      using T = decltype(tag);
      return [](T v) -> T { return -v; };
    });
  Tensor fast;
  if (unary_f32_fast(x, kernels::UnaryF32::Neg, fast)) return fast;
  return unary_map<false>(x, x.dtype(), "neg", [](auto tag) {
    using T = decltype(tag);
    return [](T v) -> T {
      if constexpr (std::is_floating_point_v<T>) return -v;  // -0.0 for 0.0, as torch
      else return wrap_sub(T(0), v);
    };
  });
}

Object relu_op(const OpCall& call) {
  static const Schema schema("relu(input|self, inplace=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (x.dtype() == DType::Bool) throw FxError("Boolean inputs not supported for relu");
  Tensor r;
  if (!unary_f32_fast(x, kernels::UnaryF32::Relu, r)) r = unary_map<false>(x, x.dtype(), "relu", [](auto tag) {
    using T = decltype(tag);
    return [](T v) -> T { return v > T(0) ? v : (v != v ? v : T(0)); };  // nan passes through
  });
  // inplace=True writes into x's storage as torch does: later readers of x (and its views) see it.
  return a.boolean(1) ? write_inplace(x, r) : Object(r);
}

// Floating-point unary functions share one shape; F maps a double-or-float value.
template <typename F>
Object float_unary(const OpCall& call, const char* name, F f) {
  static_assert(std::is_empty_v<F>, "a stateless function");
  static const Schema schema(std::string(name) + "(input|self)");  // one per F
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (dtype_is_complex(x.dtype()))  // std::complex's functions (principal branches, as torch's)
    return unary_map<false, Compute::Complex>(x, x.dtype(), name, [](auto tag) {
      using T = decltype(tag);
      return [](T v) -> T { return F{}(v); };
    });
  DType out = dtype_is_floating(x.dtype()) ? x.dtype() : kDefaultFloat;
  return unary_map<false, Compute::Float>(x, out, name, [](auto tag) {
    using T = decltype(tag);
    return [](T v) -> T {
      if constexpr (std::is_floating_point_v<T>) return F{}(v);
      else return v;  // unreachable: compute dtype is floating
    };
  });
}

#define FX_FLOAT_UNARY(fname, expr)                                                    \
  struct fname##_fn {                                                                  \
    template <typename T> T operator()(T v) const { return expr; }                     \
  };                                                                                   \
  Object fname##_op(const OpCall& call) { return float_unary(call, #fname, fname##_fn{}); }

FX_FLOAT_UNARY(exp, std::exp(v))
FX_FLOAT_UNARY(log, std::log(v))
FX_FLOAT_UNARY(sqrt, std::sqrt(v))
FX_FLOAT_UNARY(rsqrt, T(1) / std::sqrt(v))
FX_FLOAT_UNARY(sin, std::sin(v))
FX_FLOAT_UNARY(cos, std::cos(v))
FX_FLOAT_UNARY(tanh, std::tanh(v))
FX_FLOAT_UNARY(sigmoid, T(1) / (T(1) + std::exp(-v)))
#undef FX_FLOAT_UNARY

// Aliases FX can record for a unary op `n`: torch.n, torch.Tensor.n, aten.n.default and method n.
const OpRow kOps[] = {
    {"torch.abs", "torch.Tensor.abs aten.abs.default operator.abs builtins.abs torch.absolute torch.Tensor.absolute", "abs absolute __abs__", abs_op},
    {"torch.neg", "torch.Tensor.neg aten.neg.default operator.neg torch.negative torch.Tensor.negative", "neg negative __neg__", neg_op},
    {"torch.relu", "torch.Tensor.relu aten.relu.default torch.nn.functional.relu", "relu", relu_op},
    {"torch.exp", "torch.Tensor.exp aten.exp.default", "exp", exp_op},
    {"torch.log", "torch.Tensor.log aten.log.default", "log", log_op},
    {"torch.sqrt", "torch.Tensor.sqrt aten.sqrt.default", "sqrt", sqrt_op},
    {"torch.rsqrt", "torch.Tensor.rsqrt aten.rsqrt.default", "rsqrt", rsqrt_op},
    {"torch.sin", "torch.Tensor.sin aten.sin.default", "sin", sin_op},
    {"torch.cos", "torch.Tensor.cos aten.cos.default", "cos", cos_op},
    {"torch.tanh", "torch.Tensor.tanh aten.tanh.default torch.nn.functional.tanh", "tanh", tanh_op},
    {"torch.sigmoid", "torch.Tensor.sigmoid aten.sigmoid.default torch.nn.functional.sigmoid", "sigmoid", sigmoid_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
