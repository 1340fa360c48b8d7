// Python's math module on Python numbers (math.sqrt(d_k), math.floor(h / 2), math.log(x, 2)...), as FX
// records them when a model computes with sizes or constants. Results and errors follow CPython:
// floor/ceil/trunc give ints, the rest floats; a domain error is "math domain error".
#include <cmath>

#include "ops/number.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "support/error.h"

namespace fx {
namespace {

[[noreturn]] void domain() { throw FxError("ValueError: math domain error"); }

double checked(double r, double x) {
  if (std::isnan(r) && !std::isnan(x)) domain();
  return r;
}

Object to_int(double d) {
  if (std::isnan(d)) throw FxError("ValueError: cannot convert float NaN to integer");
  if (std::isinf(d)) throw FxError("OverflowError: cannot convert float infinity to integer");
  if (std::fabs(d) >= 9.2233720368547758e18) throw FxError("integer overflow (fxwasm has no big ints)");
  return Object(Value::integer(static_cast<int64_t>(d)));
}

double num(const Args& a, size_t i) { return a.number(i).as_double(); }

template <int kFn>
Object math_unary(const OpCall& call) {
  static const char* names[] = {"sqrt", "exp", "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan",
                                "sinh", "cosh", "tanh", "fabs", "erf", "log1p", "expm1", "floor", "ceil",
                                "trunc", "isnan", "isinf", "isfinite", "degrees", "radians", "erfc"};
  static const Schema schema(std::string(names[kFn]) + "(x)");
  Args a = schema.parse(call);
  Number n = a.number(0);
  const double x = n.as_double();
  switch (kFn) {
    case 0: if (x < 0) domain(); return Object(Value::floating(std::sqrt(x)));
    case 1: {
      double r = std::exp(x);
      if (std::isinf(r) && std::isfinite(x)) throw FxError("OverflowError: math range error");
      return Object(Value::floating(r));
    }
    case 2: if (x <= 0) domain(); return Object(Value::floating(std::log2(x)));
    case 3: if (x <= 0) domain(); return Object(Value::floating(std::log10(x)));
    case 4: if (std::isinf(x)) domain(); return Object(Value::floating(std::sin(x)));
    case 5: if (std::isinf(x)) domain(); return Object(Value::floating(std::cos(x)));
    case 6: if (std::isinf(x)) domain(); return Object(Value::floating(std::tan(x)));
    case 7: return Object(Value::floating(checked(std::asin(x), x)));
    case 8: return Object(Value::floating(checked(std::acos(x), x)));
    case 9: return Object(Value::floating(std::atan(x)));
    case 10: return Object(Value::floating(std::sinh(x)));
    case 11: return Object(Value::floating(std::cosh(x)));
    case 12: return Object(Value::floating(std::tanh(x)));
    case 13: return Object(Value::floating(std::fabs(x)));
    case 14: return Object(Value::floating(std::erf(x)));
    case 15: if (x <= -1) domain(); return Object(Value::floating(std::log1p(x)));
    case 16: return Object(Value::floating(std::expm1(x)));
    case 17: return n.is_float() ? to_int(std::floor(x)) : Object(Value::integer(n.i));
    case 18: return n.is_float() ? to_int(std::ceil(x)) : Object(Value::integer(n.i));
    case 19: return n.is_float() ? to_int(std::trunc(x)) : Object(Value::integer(n.i));
    case 20: return Object(Value::boolean(std::isnan(x)));
    case 21: return Object(Value::boolean(std::isinf(x)));
    case 22: return Object(Value::boolean(std::isfinite(x)));
    case 23: return Object(Value::floating(x * 180.0 / M_PI));
    case 24: return Object(Value::floating(x * M_PI / 180.0));
    default: return Object(Value::floating(std::erfc(x)));
  }
}

Object math_log(const OpCall& call) {
  static const Schema schema("log(x, base=None)");
  Args a = schema.parse(call);
  double x = num(a, 0);
  if (x <= 0) domain();
  if (a.is_none(1)) return Object(Value::floating(std::log(x)));
  double b = num(a, 1);
  if (b <= 0) domain();
  if (b == 1) throw FxError("ZeroDivisionError: float division by zero");
  return Object(Value::floating(std::log(x) / std::log(b)));
}

Object math_pow(const OpCall& call) {
  static const Schema schema("pow(x, y)");
  Args a = schema.parse(call);
  double x = num(a, 0), y = num(a, 1);
  if (x == 0 && y < 0) domain();
  if (x < 0 && std::isfinite(y) && y != std::floor(y)) domain();
  return Object(Value::floating(std::pow(x, y)));
}

template <int kFn>
Object math_binary(const OpCall& call) {
  static const char* names[] = {"atan2", "hypot", "copysign", "fmod"};
  static const Schema schema(std::string(names[kFn]) + "(x, y)");
  Args a = schema.parse(call);
  double x = num(a, 0), y = num(a, 1);
  switch (kFn) {
    case 0: return Object(Value::floating(std::atan2(x, y)));
    case 1: return Object(Value::floating(std::hypot(x, y)));
    case 2: return Object(Value::floating(std::copysign(x, y)));
    default:
      if (y == 0 || std::isinf(x)) domain();
      return Object(Value::floating(std::fmod(x, y)));
  }
}

Object math_gcd(const OpCall& call) {
  static const Schema schema("gcd(a, b)");
  Args a = schema.parse(call);
  int64_t x = std::llabs(a.integer(0)), y = std::llabs(a.integer(1));
  while (y) {
    int64_t t = x % y;
    x = y;
    y = t;
  }
  return Object(Value::integer(x));
}

const OpRow kOps[] = {
    {"math.sqrt", "", "", math_unary<0>},
    {"math.exp", "", "", math_unary<1>},
    {"math.log2", "", "", math_unary<2>},
    {"math.log10", "", "", math_unary<3>},
    {"math.sin", "", "", math_unary<4>},
    {"math.cos", "", "", math_unary<5>},
    {"math.tan", "", "", math_unary<6>},
    {"math.asin", "", "", math_unary<7>},
    {"math.acos", "", "", math_unary<8>},
    {"math.atan", "", "", math_unary<9>},
    {"math.sinh", "", "", math_unary<10>},
    {"math.cosh", "", "", math_unary<11>},
    {"math.tanh", "", "", math_unary<12>},
    {"math.fabs", "", "", math_unary<13>},
    {"math.erf", "", "", math_unary<14>},
    {"math.log1p", "", "", math_unary<15>},
    {"math.expm1", "", "", math_unary<16>},
    {"math.floor", "", "", math_unary<17>},
    {"math.ceil", "", "", math_unary<18>},
    {"math.trunc", "", "", math_unary<19>},
    {"math.isnan", "", "", math_unary<20>},
    {"math.isinf", "", "", math_unary<21>},
    {"math.isfinite", "", "", math_unary<22>},
    {"math.degrees", "", "", math_unary<23>},
    {"math.radians", "", "", math_unary<24>},
    {"math.erfc", "", "", math_unary<25>},
    {"math.log", "", "", math_log},
    {"math.pow", "", "", math_pow},
    {"math.atan2", "", "", math_binary<0>},
    {"math.hypot", "", "", math_binary<1>},
    {"math.copysign", "", "", math_binary<2>},
    {"math.fmod", "", "", math_binary<3>},
    {"math.gcd", "", "", math_gcd},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
