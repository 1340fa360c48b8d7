// Python numbers (bool, int, float) as ops see them, and Python's own arithmetic on them, used when
// every operand of operator.add, operator.lt, ... is a number rather than a tensor.
#pragma once
#include <cstdint>

#include "program/object.h"
#include "tensor/promote.h"

namespace fx {

struct Number {
  ScalarKind kind = ScalarKind::Int;
  int64_t i = 0;    // Bool and Int
  double d = 0.0;   // Float

  static Number boolean(bool b) { return {ScalarKind::Bool, b ? 1 : 0, 0.0}; }
  static Number integer(int64_t v) { return {ScalarKind::Int, v, 0.0}; }
  static Number floating(double v) { return {ScalarKind::Float, 0, v}; }
  bool is_float() const { return kind == ScalarKind::Float; }
  double as_double() const { return is_float() ? d : static_cast<double>(i); }
  Object to_object() const;
};

bool is_number(const Object& o);   // a bool, int or float Value
Number to_number(const Object& o); // FxError otherwise

// Python semantics: bool behaves as int in arithmetic; int results stay int except for `/`;
// ZeroDivisionError and integer overflow (fxwasm has no big integers) are FxErrors.
enum class PyBinary { Add, Sub, Mul, TrueDiv, FloorDiv, Mod, Pow, Lt, Le, Gt, Ge, Eq, Ne };
Number py_binary(PyBinary op, Number a, Number b);
Number py_neg(Number a);
Number py_abs(Number a);

// Python's float // and % (floatobject.c), which torch's floor_divide and remainder also follow.
double py_float_floordiv(double a, double b);
double py_float_mod(double a, double b);

}  // namespace fx
