// More elementwise unary ops. Floating ones (erf, log1p, expm1, log2, log10, exp2, reciprocal, tan,
// asin..atanh, frac) give the default float32 for integer/bool inputs, as torch does; rounding ops
// (floor, ceil, round, trunc) and sign/square keep integer dtypes; isnan/isinf/isfinite/logical_not give
// bool; bitwise_not is for integers and bools.
#include <cmath>
#include <type_traits>

#include "ops/elementwise.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/view_util.h"
#include "support/error.h"

namespace fx {
namespace {

enum UFn { Erf, Erfc, Log1p, Expm1, Log2, Log10, Exp2, Reciprocal, Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh,
           Atanh, Frac, Floor, Ceil, Trunc, Sign, Square, IsNan, IsInf, IsFinite, LogicalNot, BitwiseNot };
const char* const kNames[] = {"erf", "erfc", "log1p", "expm1", "log2", "log10", "exp2", "reciprocal", "tan", "asin",
                              "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "frac", "floor", "ceil",
                              "trunc", "sign", "square", "isnan", "isinf", "isfinite", "logical_not", "bitwise_not"};

template <int kFn, typename T>
T float_fn(T v) {
  switch (kFn) {
    case Erf: return std::erf(v);
    case Erfc: return std::erfc(v);
    case Log1p: return std::log1p(v);
    case Expm1: return std::expm1(v);
    case Log2: return std::log2(v);
    case Log10: return std::log10(v);
    case Exp2: return std::exp2(v);
    case Reciprocal: return T(1) / v;
    case Tan: return std::tan(v);
    case Asin: return std::asin(v);
    case Acos: return std::acos(v);
    case Atan: return std::atan(v);
    case Sinh: return std::sinh(v);
    case Cosh: return std::cosh(v);
    case Asinh: return std::asinh(v);
    case Acosh: return std::acosh(v);
    case Atanh: return std::atanh(v);
    default: return v - std::trunc(v);  // Frac
  }
}

template <int kFn>
Object unary_op(const OpCall& call) {
  static const Schema schema(std::string(kNames[kFn]) + "(input|self)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const DType dt = x.dtype();
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

OpDef udef(const std::string& n, OpFn fn, Names more = {}, Names methods = {}) noexcept {
  OpDef d{"torch." + n, {"torch.Tensor." + n, "aten." + n + ".default"}, {n}, fn};
  for (auto& f : more) d.functions.push_back(std::move(f));
  for (auto& m : methods) d.methods.push_back(std::move(m));
  return d;
}

const OpRegistrar reg_erf{udef("erf", unary_op<Erf>, {"torch.special.erf"})};
const OpRegistrar reg_erfc{udef("erfc", unary_op<Erfc>, {"torch.special.erfc"})};
const OpRegistrar reg_log1p{udef("log1p", unary_op<Log1p>, {"torch.special.log1p"})};
const OpRegistrar reg_expm1{udef("expm1", unary_op<Expm1>, {"torch.special.expm1"})};
const OpRegistrar reg_log2{udef("log2", unary_op<Log2>)};
const OpRegistrar reg_log10{udef("log10", unary_op<Log10>)};
const OpRegistrar reg_exp2{udef("exp2", unary_op<Exp2>, {"torch.special.exp2"})};
const OpRegistrar reg_reciprocal{udef("reciprocal", unary_op<Reciprocal>)};
const OpRegistrar reg_tan{udef("tan", unary_op<Tan>)};
const OpRegistrar reg_asin{udef("asin", unary_op<Asin>, {"torch.arcsin", "torch.Tensor.arcsin"}, {"arcsin"})};
const OpRegistrar reg_acos{udef("acos", unary_op<Acos>, {"torch.arccos", "torch.Tensor.arccos"}, {"arccos"})};
const OpRegistrar reg_atan{udef("atan", unary_op<Atan>, {"torch.arctan", "torch.Tensor.arctan"}, {"arctan"})};
const OpRegistrar reg_sinh{udef("sinh", unary_op<Sinh>)};
const OpRegistrar reg_cosh{udef("cosh", unary_op<Cosh>)};
const OpRegistrar reg_asinh{udef("asinh", unary_op<Asinh>, {"torch.arcsinh", "torch.Tensor.arcsinh"}, {"arcsinh"})};
const OpRegistrar reg_acosh{udef("acosh", unary_op<Acosh>, {"torch.arccosh", "torch.Tensor.arccosh"}, {"arccosh"})};
const OpRegistrar reg_atanh{udef("atanh", unary_op<Atanh>, {"torch.arctanh", "torch.Tensor.arctanh"}, {"arctanh"})};
const OpRegistrar reg_frac{udef("frac", unary_op<Frac>)};
const OpRegistrar reg_floor{udef("floor", unary_op<Floor>)};
const OpRegistrar reg_ceil{udef("ceil", unary_op<Ceil>)};
const OpRegistrar reg_trunc{udef("trunc", unary_op<Trunc>, {"torch.fix", "torch.Tensor.fix"}, {"fix"})};
const OpRegistrar reg_round{udef("round", round_op, {"aten.round.decimals"})};
const OpRegistrar reg_sign{udef("sign", unary_op<Sign>, {"torch.sgn", "torch.Tensor.sgn"}, {"sgn"})};
const OpRegistrar reg_square{udef("square", unary_op<Square>)};
const OpRegistrar reg_isnan{udef("isnan", unary_op<IsNan>)};
const OpRegistrar reg_isinf{udef("isinf", unary_op<IsInf>)};
const OpRegistrar reg_isfinite{udef("isfinite", unary_op<IsFinite>)};
const OpRegistrar reg_logical_not{udef("logical_not", unary_op<LogicalNot>)};
const OpRegistrar reg_bitwise_not{udef("bitwise_not", unary_op<BitwiseNot>)};

}  // namespace
}  // namespace fx
