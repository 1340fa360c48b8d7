#include "ops/number.h"

#include <cmath>
#include <limits>

#include "support/error.h"

namespace fx {
namespace {

[[noreturn]] void overflow() {
  throw FxError("integer overflow in Python int arithmetic (fxwasm has no arbitrary-precision ints)");
}

int64_t int_floordiv(int64_t a, int64_t b) {
  if (b == 0) throw FxError("ZeroDivisionError: integer division or modulo by zero");
  if (a == std::numeric_limits<int64_t>::min() && b == -1) overflow();
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t int_mod(int64_t a, int64_t b) {
  if (b == 0) throw FxError("ZeroDivisionError: integer division or modulo by zero");
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

Number int_pow(int64_t base, int64_t exp) {
  if (exp < 0) {
    if (base == 0) throw FxError("ZeroDivisionError: 0.0 cannot be raised to a negative power");
    return Number::floating(std::pow(static_cast<double>(base), static_cast<double>(exp)));
  }
  int64_t result = 1;
  while (exp) {
    if ((exp & 1) && __builtin_mul_overflow(result, base, &result)) overflow();
    exp >>= 1;
    if (exp && __builtin_mul_overflow(base, base, &base)) overflow();
  }
  return Number::integer(result);
}

Number float_pow(double a, double b) {
  if (a == 0.0 && b < 0) throw FxError("ZeroDivisionError: 0.0 cannot be raised to a negative power");
  if (a < 0 && std::isfinite(b) && b != std::floor(b))
    throw FxError("a negative number to a fractional power is complex; complex numbers are not supported");
  return Number::floating(std::pow(a, b));
}

bool compare(PyBinary op, Number a, Number b) {
  // int vs int compares exactly; any float compares as float (exact for ints below 2^53).
  if (!a.is_float() && !b.is_float()) {
    switch (op) {
      case PyBinary::Lt: return a.i < b.i;
      case PyBinary::Le: return a.i <= b.i;
      case PyBinary::Gt: return a.i > b.i;
      case PyBinary::Ge: return a.i >= b.i;
      case PyBinary::Eq: return a.i == b.i;
      default: return a.i != b.i;
    }
  }
  double x = a.as_double(), y = b.as_double();
  switch (op) {
    case PyBinary::Lt: return x < y;
    case PyBinary::Le: return x <= y;
    case PyBinary::Gt: return x > y;
    case PyBinary::Ge: return x >= y;
    case PyBinary::Eq: return x == y;
    default: return x != y;
  }
}

}  // namespace

Object Number::to_object() const {
  switch (kind) {
    case ScalarKind::Bool: return Object(Value::boolean(i != 0));
    case ScalarKind::Int: return Object(Value::integer(i));
    case ScalarKind::Float: return Object(Value::floating(d));
  }
  return Object();
}

bool is_number(const Object& o) {
  if (!o.is_value()) return false;
  ValueKind k = o.value().kind();
  return k == ValueKind::Bool || k == ValueKind::Int || k == ValueKind::Float;
}

Number to_number(const Object& o) {
  if (!is_number(o)) throw FxError("expected a number, got " + o.describe());
  const Value& v = o.value();
  switch (v.kind()) {
    case ValueKind::Bool: return Number::boolean(v.as_bool());
    case ValueKind::Int: return Number::integer(v.as_int());
    default: return Number::floating(v.as_float());
  }
}

double py_float_floordiv(double a, double b) {
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1.0;
  if (div == 0) return std::copysign(0.0, a / b);
  double floordiv = std::floor(div);
  if (div - floordiv > 0.5) floordiv += 1.0;
  return floordiv;
}

double py_float_mod(double a, double b) {
  double mod = std::fmod(a, b);
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) mod += b;
  } else {
    mod = std::copysign(0.0, b);
  }
  return mod;
}

Number py_binary(PyBinary op, Number a, Number b) {
  if (op >= PyBinary::Lt) return Number::boolean(compare(op, a, b));
  const bool ints = !a.is_float() && !b.is_float();
  const double x = a.as_double(), y = b.as_double();
  int64_t r = 0;
  switch (op) {
    case PyBinary::Add:
      if (!ints) return Number::floating(x + y);
      if (__builtin_add_overflow(a.i, b.i, &r)) overflow();
      return Number::integer(r);
    case PyBinary::Sub:
      if (!ints) return Number::floating(x - y);
      if (__builtin_sub_overflow(a.i, b.i, &r)) overflow();
      return Number::integer(r);
    case PyBinary::Mul:
      if (!ints) return Number::floating(x * y);
      if (__builtin_mul_overflow(a.i, b.i, &r)) overflow();
      return Number::integer(r);
    case PyBinary::TrueDiv:
      if (y == 0) throw FxError("ZeroDivisionError: division by zero");
      return Number::floating(x / y);
    case PyBinary::FloorDiv:
      if (ints) return Number::integer(int_floordiv(a.i, b.i));
      if (y == 0) throw FxError("ZeroDivisionError: float floor division by zero");
      return Number::floating(py_float_floordiv(x, y));
    case PyBinary::Mod:
      if (ints) return Number::integer(int_mod(a.i, b.i));
      if (y == 0) throw FxError("ZeroDivisionError: float modulo");
      return Number::floating(py_float_mod(x, y));
    case PyBinary::Pow:
      return ints ? int_pow(a.i, b.i) : float_pow(x, y);
    default: break;
  }
  throw FxError("unknown Python operator");
}

Number py_neg(Number a) {
  if (a.is_float()) return Number::floating(-a.d);
  if (a.i == std::numeric_limits<int64_t>::min()) overflow();
  return Number::integer(-a.i);
}

Number py_abs(Number a) {
  if (a.is_float()) return Number::floating(std::fabs(a.d));
  if (a.i == std::numeric_limits<int64_t>::min()) overflow();
  return Number::integer(a.i < 0 ? -a.i : a.i);
}

}  // namespace fx
