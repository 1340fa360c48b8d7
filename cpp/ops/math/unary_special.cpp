// More elementwise unary ops. Floating ones (erf, log1p, expm1, log2, log10, exp2, reciprocal, tan,
// asin..atanh, frac) give the default float32 for integer/bool inputs, as torch does; rounding ops
// (floor, ceil, round, trunc) and sign/square keep integer dtypes; isnan/isinf/isfinite/logical_not give
// bool; bitwise_not is for integers and bools.
#include <cmath>
#include <type_traits>

#include "ops/math/elementwise.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/array/view_util.h"
#include "support/error.h"

namespace fx {
namespace {

enum UFn { Erf, Erfc, Log1p, Expm1, Log2, Log10, Exp2, Reciprocal, Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh,
           Atanh, Frac, Floor, Ceil, Trunc, Sign, Square, IsNan, IsInf, IsFinite, LogicalNot, BitwiseNot };
const char* const kNames[] = {"erf", "erfc", "log1p", "expm1", "log2", "log10", "exp2", "reciprocal", "tan", "asin",
                              "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "frac", "floor", "ceil",
                              "trunc", "sign", "square", "isnan", "isinf", "isfinite", "logical_not", "bitwise_not"};

template <int kFn, typename T>
T float_fn(T v) {  // (if constexpr: T may be std::complex for the functions it has, see kHasComplex)
  if constexpr (kFn == Erf) return std::erf(v);
  else if constexpr (kFn == Erfc) return std::erfc(v);
  else if constexpr (kFn == Log1p) return std::log1p(v);
  else if constexpr (kFn == Expm1) return std::expm1(v);
  else if constexpr (kFn == Log2) return std::log2(v);
  else if constexpr (kFn == Log10) return std::log10(v);
  else if constexpr (kFn == Exp2) return std::exp2(v);
  else if constexpr (kFn == Reciprocal) return T(1) / v;
  else if constexpr (kFn == Tan) return std::tan(v);
  else if constexpr (kFn == Asin) return std::asin(v);
  else if constexpr (kFn == Acos) return std::acos(v);
  else if constexpr (kFn == Atan) return std::atan(v);
  else if constexpr (kFn == Sinh) return std::sinh(v);
  else if constexpr (kFn == Cosh) return std::cosh(v);
  else if constexpr (kFn == Asinh) return std::asinh(v);
  else if constexpr (kFn == Acosh) return std::acosh(v);
  else if constexpr (kFn == Atanh) return std::atanh(v);
  else return v - std::trunc(v);  // Frac
}

// The ops above that std::complex has (its principal branches, as torch's), on complex tensors; the others
// refuse them (kernel dispatch or to_dtype).
template <int kFn>
constexpr bool kHasComplex = kFn == Log10 || (kFn >= Reciprocal && kFn <= Atanh) || kFn == Square ||
                             (kFn >= IsNan && kFn <= LogicalNot);

template <int kFn>
Object complex_unary(const Tensor& x) {
  if constexpr (kFn >= IsNan && kFn <= LogicalNot) {
    return unary_map<true, Compute::Complex>(x, x.dtype(), kNames[kFn], [](auto tag) {
      using T = decltype(tag);
      return [](T v) -> bool {
        const auto re = v.real(), im = v.imag();
        if constexpr (kFn == IsNan) return std::isnan(re) || std::isnan(im);
        else if constexpr (kFn == IsInf) return std::isinf(re) || std::isinf(im);
        else if constexpr (kFn == IsFinite) return std::isfinite(re) && std::isfinite(im);
        else return v == T(0);
      };
    });
  } else {
    return unary_map<false, Compute::Complex>(x, x.dtype(), kNames[kFn], [](auto tag) {
      using T = decltype(tag);
      return [](T v) -> T {
        if constexpr (kFn == Square) return v * v;
        else return float_fn<kFn, T>(v);
      };
    });
  }
}

template <int kFn>
Object unary_op(const OpCall& call) {
  static const Schema schema(std::string(kNames[kFn]) + "(input|self)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const DType dt = x.dtype();
  if constexpr (kHasComplex<kFn>) {
    if (dtype_is_complex(dt)) return complex_unary<kFn>(x);
  }
  const bool fl = dtype_is_floating(dt);
  if constexpr (kFn <= Frac) {
    if (kFn == Frac && !fl) throw FxError(std::string("\"frac_cpu\" not implemented for '") + torch_type_name(dt) + "'");
    return unary_map<false, Compute::Float>(x, fl ? dt : kDefaultFloat, kNames[kFn], [](auto tag) {
      using T = decltype(tag);
      return [](T v) -> T {
        if constexpr (std::is_floating_point_v<T>) return float_fn<kFn, T>(v);
        else return v;
      };
    });
  } else if constexpr (kFn <= Trunc) {
    if (dt == DType::Bool) throw FxError(std::string("\"") + kNames[kFn] + "_vml_cpu\" not implemented for 'Bool'");
    if (!fl) return x.clone();
    return unary_map<false, Compute::Float>(x, dt, kNames[kFn], [](auto tag) {
      using T = decltype(tag);
      return [](T v) -> T {
        if constexpr (!std::is_floating_point_v<T>) return v;
        else if (kFn == Floor) return std::floor(v);
        else if (kFn == Ceil) return std::ceil(v);
        else return std::trunc(v);
      };
    });
  } else if constexpr (kFn == Sign) {
    if (dt == DType::Bool) return x.clone();
    return unary_map<false>(x, dt, "sign", [](auto tag) {
      using T = decltype(tag);
      return [](T v) -> T {
        if constexpr (std::is_floating_point_v<T>) { if (v != v) return T(0); }
        return static_cast<T>((T(0) < v) - (v < T(0)));
      };
    });
  } else if constexpr (kFn == Square) {
    const DType out = dt == DType::Bool ? DType::Int64 : dt;
    return unary_map<false>(to_dtype(x, out), out, "square", [](auto tag) {
      using T = decltype(tag);
      return [](T v) -> T { return wrap_mul(v, v); };
    });
  } else if constexpr (kFn <= LogicalNot) {
    return unary_map<true>(x, compute_dtype(dt), kNames[kFn], [](auto tag) {
      using T = decltype(tag);
      return [](T v) -> bool {
        if constexpr (kFn == LogicalNot) return v == T(0);
        else if constexpr (!std::is_floating_point_v<T>) return kFn == IsFinite;
        else if (kFn == IsNan) return v != v;
        else if (kFn == IsInf) return std::isinf(v);
        else return std::isfinite(v);
      };
    });
  } else {
    if (fl) throw FxError(std::string("\"bitwise_not_cpu\" not implemented for '") + torch_type_name(dt) + "'");
    return unary_map<false>(x, dt, "bitwise_not", [](auto tag) {
      using T = decltype(tag);
      return [](T v) -> T {
        if constexpr (std::is_same_v<T, bool>) return !v;
        else if constexpr (std::is_integral_v<T>) return static_cast<T>(~v);
        else return v;
      };
    });
  }
}

// round(input, *, decimals=0): half to even, as torch.
Object round_op(const OpCall& call) {
  static const Schema schema("round(input|self, *, decimals=0)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t decimals = a.integer(1);
  if (x.dtype() == DType::Bool) throw FxError("\"round_vml_cpu\" not implemented for 'Bool'");
  if (!dtype_is_floating(x.dtype())) {
    if (decimals != 0) throw FxError("round_cpu not implemented for integer types with decimals != 0");
    return x.clone();
  }
  return unary_map<false, Compute::Float>(x, x.dtype(), "round", [decimals](auto tag) {
    using T = decltype(tag);
    return [decimals](T v) -> T {
      if constexpr (std::is_floating_point_v<T>) {
        if (decimals == 0) return std::nearbyint(v);
        const T scale = static_cast<T>(std::pow(10.0, static_cast<double>(std::llabs(decimals))));
        return decimals > 0 ? std::nearbyint(v * scale) / scale : std::nearbyint(v / scale) * scale;
      } else {
        return v;
      }
    };
  });
}

const OpRow kOps[] = {
    {"torch.erf", "torch.Tensor.erf aten.erf.default torch.special.erf", "erf", unary_op<Erf>},
    {"torch.erfc", "torch.Tensor.erfc aten.erfc.default torch.special.erfc", "erfc", unary_op<Erfc>},
    {"torch.log1p", "torch.Tensor.log1p aten.log1p.default torch.special.log1p", "log1p", unary_op<Log1p>},
    {"torch.expm1", "torch.Tensor.expm1 aten.expm1.default torch.special.expm1", "expm1", unary_op<Expm1>},
    {"torch.log2", "torch.Tensor.log2 aten.log2.default", "log2", unary_op<Log2>},
    {"torch.log10", "torch.Tensor.log10 aten.log10.default", "log10", unary_op<Log10>},
    {"torch.exp2", "torch.Tensor.exp2 aten.exp2.default torch.special.exp2", "exp2", unary_op<Exp2>},
    {"torch.reciprocal", "torch.Tensor.reciprocal aten.reciprocal.default", "reciprocal", unary_op<Reciprocal>},
    {"torch.tan", "torch.Tensor.tan aten.tan.default", "tan", unary_op<Tan>},
    {"torch.asin", "torch.Tensor.asin aten.asin.default torch.arcsin torch.Tensor.arcsin", "asin arcsin", unary_op<Asin>},
    {"torch.acos", "torch.Tensor.acos aten.acos.default torch.arccos torch.Tensor.arccos", "acos arccos", unary_op<Acos>},
    {"torch.atan", "torch.Tensor.atan aten.atan.default torch.arctan torch.Tensor.arctan", "atan arctan", unary_op<Atan>},
    {"torch.sinh", "torch.Tensor.sinh aten.sinh.default", "sinh", unary_op<Sinh>},
    {"torch.cosh", "torch.Tensor.cosh aten.cosh.default", "cosh", unary_op<Cosh>},
    {"torch.asinh", "torch.Tensor.asinh aten.asinh.default torch.arcsinh torch.Tensor.arcsinh", "asinh arcsinh", unary_op<Asinh>},
    {"torch.acosh", "torch.Tensor.acosh aten.acosh.default torch.arccosh torch.Tensor.arccosh", "acosh arccosh", unary_op<Acosh>},
    {"torch.atanh", "torch.Tensor.atanh aten.atanh.default torch.arctanh torch.Tensor.arctanh", "atanh arctanh", unary_op<Atanh>},
    {"torch.frac", "torch.Tensor.frac aten.frac.default", "frac", unary_op<Frac>},
    {"torch.floor", "torch.Tensor.floor aten.floor.default", "floor", unary_op<Floor>},
    {"torch.ceil", "torch.Tensor.ceil aten.ceil.default", "ceil", unary_op<Ceil>},
    {"torch.trunc", "torch.Tensor.trunc aten.trunc.default torch.fix torch.Tensor.fix", "trunc fix", unary_op<Trunc>},
    {"torch.round", "torch.Tensor.round aten.round.default aten.round.decimals", "round", round_op},
    {"torch.sign", "torch.Tensor.sign aten.sign.default torch.sgn torch.Tensor.sgn", "sign sgn", unary_op<Sign>},
    {"torch.square", "torch.Tensor.square aten.square.default", "square", unary_op<Square>},
    {"torch.isnan", "torch.Tensor.isnan aten.isnan.default", "isnan", unary_op<IsNan>},
    {"torch.isinf", "torch.Tensor.isinf aten.isinf.default", "isinf", unary_op<IsInf>},
    {"torch.isfinite", "torch.Tensor.isfinite aten.isfinite.default", "isfinite", unary_op<IsFinite>},
    {"torch.logical_not", "torch.Tensor.logical_not aten.logical_not.default", "logical_not", unary_op<LogicalNot>},
    {"torch.bitwise_not", "torch.Tensor.bitwise_not aten.bitwise_not.default", "bitwise_not", unary_op<BitwiseNot>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
