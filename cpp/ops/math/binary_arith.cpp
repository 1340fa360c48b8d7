// Binary arithmetic: add, sub (with alpha), mul, div (true, 'trunc', 'floor'), floor_divide, remainder,
// pow — under their torch, Tensor-method, operator and aten names. Two Python numbers follow Python
// (operator.add(2, 3) == 5, operator.truediv(1, 2) == 0.5); anything with a tensor follows torch.
#include <cmath>
#include <complex>
#include <type_traits>

#include "ops/array/view_util.h"
#include "ops/math/elementwise.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"

namespace fx {
namespace {

[[noreturn]] void zero_division() { throw FxError("ZeroDivisionError"); }

template <typename T>
T int_floordiv(T a, T b) {
  if (b == 0) zero_division();
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return wrap_sub(T(0), a);  // avoids INT_MIN / -1
    T q = static_cast<T>(a / b);
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
  } else {
    return static_cast<T>(a / b);
  }
}

template <typename T>
T int_remainder(T a, T b) {
  if (b == 0) zero_division();
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return 0;
    T r = static_cast<T>(a % b);
    if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
    return r;
  } else {
    return static_cast<T>(a % b);
  }
}

// torch's integer pow: negative exponents give 0 except for bases 1 and -1.
template <typename T>
T int_pow(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exp % 2) ? T(-1) : T(1);
      return 0;
    }
  }
  T result = 1;
  while (exp) {
    if (exp & 1) result = wrap_mul(result, base);
    exp = static_cast<T>(exp / 2);
    base = wrap_mul(base, base);
  }
  return result;
}

struct Binary {
  Operand a, b;
  DType dtype;
};

Binary operands(const Args& args, const std::string& op) {
  Binary r{Operand::of(args[0], op, "input"), Operand::of(args[1], op, "other"), DType::Float32};
  r.dtype = result_type({r.a, r.b});
  return r;
}

// +, −, ×, ÷ of complex operands (a real one is promoted to complex first, as torch does); alpha scales b.
Tensor complex_arith(const Binary& in, char op, Number alpha, const char* name) {
  return binary_map<false, Compute::Complex>(in.a, in.b, in.dtype, name, [op, alpha](auto tag) {
    using T = decltype(tag);
    const T al = number_as<T>(alpha);
    const bool unit = !alpha.is_float() && alpha.i == 1;
    return [op, al, unit](T x, T y) -> T {
      switch (op) {
        case '+': return unit ? x + y : x + al * y;
        case '-': return unit ? x - y : x - al * y;
        case '*': return x * y;
        default: return x / y;
      }
    };
  });
}

// Python sequences: tuple + tuple and list + list concatenate (`x.shape[:-1] + (-1,)`, torch.Size
// counts as a tuple), seq * int and int * seq repeat; mixing a tuple and a list is Python's TypeError.
bool sequence_arith(const Args& args, bool multiply, Object& out) {
  const Object &a = args[0], &b = args[1];
  const bool sa = a.is_sequence(), sb = b.is_sequence();
  if (!sa && !sb) return false;
  auto name = [](const Object& o) { return o.kind() == Object::Kind::Tuple ? "tuple" : "list"; };
  if (!multiply) {
    if (!(sa && sb)) return false;  // a tensor or number with a sequence: torch's own message below
    if (a.kind() != b.kind())
      throw FxError(std::string("can only concatenate ") + name(a) + " (not \"" + name(b) + "\") to " + name(a));
    std::vector<Object> items = a.items();
    items.insert(items.end(), b.items().begin(), b.items().end());
    out = a.kind() == Object::Kind::Tuple ? Object::tuple(std::move(items)) : Object::list(std::move(items));
    return true;
  }
  const Object& seq = sa ? a : b;
  const Object& n = sa ? b : a;
  if (sa && sb) throw FxError(std::string("can't multiply sequence by non-int of type '") + name(b) + "'");
  if (!is_number(n) || to_number(n).is_float()) return false;
  const int64_t k = to_number(n).i;
  if (k > 0 && seq.items().size() * static_cast<uint64_t>(k) > (uint64_t{1} << 20))
    throw FxError("sequence repetition of " + std::to_string(seq.items().size()) + " items × " + std::to_string(k) +
                  " is too large");
  std::vector<Object> items;
  for (int64_t i = 0; i < k; ++i) items.insert(items.end(), seq.items().begin(), seq.items().end());
  out = seq.kind() == Object::Kind::Tuple ? Object::tuple(std::move(items)) : Object::list(std::move(items));
  return true;
}

// add and sub: out = a ± alpha * b.
Object add_sub(const OpCall& call, bool subtract) {
  static const Schema add_schema("add(input|self, other, *, alpha=1)");
  static const Schema sub_schema("sub(input|self, other, *, alpha=1)");
  const Schema& schema = subtract ? sub_schema : add_schema;
  Args args = schema.parse(call);
  Number alpha = args.number(2);
  const bool unit_alpha = !alpha.is_float() && alpha.i == 1;
  Object seq;
  if (!subtract && unit_alpha && sequence_arith(args, false, seq)) return seq;
  if (is_number(args[0]) && is_number(args[1]) && unit_alpha)
    return py_binary(subtract ? PyBinary::Sub : PyBinary::Add, args.number(0), args.number(1)).to_object();
  Binary in = operands(args, schema.op());
  if (subtract && (in.a.dtype() == DType::Bool || in.b.dtype() == DType::Bool))
    throw FxError(std::string("Subtraction, the `-` operator, with ") +
                  (in.a.dtype() == in.b.dtype() ? "two bool tensors" : "a bool tensor") +
                  " is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` "
                  "operator instead.");
  if (dtype_is_complex(in.dtype)) return complex_arith(in, subtract ? '-' : '+', alpha, schema.op().c_str());
  if (!dtype_is_floating(in.dtype) && alpha.is_float())
    throw FxError("For integral input tensors, argument alpha must not be a floating point number.");
  Tensor fast;
  if (unit_alpha && binary_f32_fast(in.a, in.b, in.dtype, subtract ? kernels::BinaryF32::Sub : kernels::BinaryF32::Add, fast))
    return fast;
  return binary_map<false>(in.a, in.b, in.dtype, schema.op().c_str(), [&](auto tag) {
    using T = decltype(tag);
    const T al = number_as<T>(alpha);
    return [al, unit_alpha, subtract](T x, T y) -> T {
      T scaled = unit_alpha ? y : wrap_mul(al, y);
      return subtract ? wrap_sub(x, scaled) : wrap_add(x, scaled);
    };
  });
}

Object add_op(const OpCall& call) { return add_sub(call, false); }
Object sub_op(const OpCall& call) { return add_sub(call, true); }

Object mul_op(const OpCall& call) {
  static const Schema schema("mul(input|self, other)");
  Args args = schema.parse(call);
  Object seq;
  if (sequence_arith(args, true, seq)) return seq;
  if (is_number(args[0]) && is_number(args[1]))
    return py_binary(PyBinary::Mul, args.number(0), args.number(1)).to_object();
  Binary in = operands(args, "mul");
  if (dtype_is_complex(in.dtype)) return complex_arith(in, '*', Number{}, "mul");
  Tensor fast;
  if (binary_f32_fast(in.a, in.b, in.dtype, kernels::BinaryF32::Mul, fast)) return fast;
  return binary_map<false>(in.a, in.b, in.dtype, "mul", [](auto tag) {
    using T = decltype(tag);
    return [](T x, T y) -> T { return wrap_mul(x, y); };
  });
}

Tensor floor_divide(const Binary& in) {
  if (in.dtype == DType::Bool) throw FxError("\"div_floor_cpu\" not implemented for 'Bool'");
  return binary_map<false>(in.a, in.b, in.dtype, "floor_divide", [](auto tag) {
    using T = decltype(tag);
    return [](T x, T y) -> T {
      if constexpr (std::is_floating_point_v<T>) {
        if (y == 0) return x / y;  // IEEE inf/nan, as torch (Python would raise)
        return static_cast<T>(py_float_floordiv(x, y));
      } else {
        return int_floordiv(x, y);
      }
    };
  });
}

Object div_op(const OpCall& call) {
  static const Schema schema("div(input|self, other, *, rounding_mode=None)");
  Args args = schema.parse(call);
  const std::string mode = args.is_none(2) ? "" : args.str(2);
  if (!mode.empty() && mode != "trunc" && mode != "floor")
    throw FxError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '" + mode + "'");
  if (is_number(args[0]) && is_number(args[1]) && mode.empty())
    return py_binary(PyBinary::TrueDiv, args.number(0), args.number(1)).to_object();
  Binary in = operands(args, "div");
  if (dtype_is_complex(in.dtype)) {
    if (!mode.empty()) throw FxError("div_" + mode + "_cpu not implemented for '" + torch_type_name(in.dtype) + "'");
    return complex_arith(in, '/', Number{}, "div");
  }
  if (mode == "floor") return floor_divide(in);
  if (mode == "trunc") {
    if (in.dtype == DType::Bool) throw FxError("\"div_trunc_cpu\" not implemented for 'Bool'");
    return binary_map<false>(in.a, in.b, in.dtype, "div", [](auto tag) {
      using T = decltype(tag);
      return [](T x, T y) -> T {
        if constexpr (std::is_floating_point_v<T>) return std::trunc(x / y);
        else {
          if (y == 0) zero_division();
          if constexpr (std::is_signed_v<T>)
            if (y == T(-1)) return wrap_sub(T(0), x);
          return static_cast<T>(x / y);
        }
      };
    });
  }
  // True division: integer and bool inputs divide in the default float dtype.
  DType out = dtype_is_floating(in.dtype) ? in.dtype : kDefaultFloat;
  Tensor fast;
  if (binary_f32_fast(in.a, in.b, out, kernels::BinaryF32::Div, fast)) return fast;
  return binary_map<false, Compute::Float>(in.a, in.b, out, "div", [](auto tag) {
    using T = decltype(tag);
    return [](T x, T y) -> T { return x / y; };
  });
}

Object floordiv_op(const OpCall& call) {
  static const Schema schema("floor_divide(input|self, other)");
  Args args = schema.parse(call);
  if (is_number(args[0]) && is_number(args[1]))
    return py_binary(PyBinary::FloorDiv, args.number(0), args.number(1)).to_object();
  return floor_divide(operands(args, "floor_divide"));
}

Object remainder_op(const OpCall& call) {
  static const Schema schema("remainder(input|self, other)");
  Args args = schema.parse(call);
  if (is_number(args[0]) && is_number(args[1]))
    return py_binary(PyBinary::Mod, args.number(0), args.number(1)).to_object();
  Binary in = operands(args, "remainder");
  if (in.dtype == DType::Bool) throw FxError("\"remainder_cpu\" not implemented for 'Bool'");
  return binary_map<false>(in.a, in.b, in.dtype, "remainder", [](auto tag) {
    using T = decltype(tag);
    return [](T x, T y) -> T {
      if constexpr (std::is_floating_point_v<T>) {
        T mod = std::fmod(x, y);
        if (mod != 0 && ((y < 0) != (mod < 0))) mod += y;
        return mod;
      } else {
        return int_remainder(x, y);
      }
    };
  });
}

Object pow_op(const OpCall& call) {
  static const Schema schema("pow(input|self, exponent)");
  Args args = schema.parse(call);
  if (is_number(args[0]) && is_number(args[1]))
    return py_binary(PyBinary::Pow, args.number(0), args.number(1)).to_object();
  Binary in = operands(args, "pow");
  if (in.dtype == DType::Bool) throw FxError("\"pow\" not implemented for 'Bool'");
  if (dtype_is_complex(in.dtype)) {  // small number exponents as products, as torch's complex pow kernel
    const double e = in.b.is_scalar ? in.b.number.as_double() : 0.0;
    const int special = !in.b.is_scalar ? 0 : e == 2.0 ? 1 : e == 3.0 ? 2 : e == -1.0 ? 3 : e == 0.5 ? 4 : 0;
    return binary_map<false, Compute::Complex>(in.a, in.b, in.dtype, "pow", [special](auto tag) {
      using T = decltype(tag);
      return [special](T x, T y) -> T {
        switch (special) {
          case 1: return x * x;
          case 2: return x * x * x;
          case 3: return T(1) / x;
          case 4: return std::sqrt(x);
          default: return std::pow(x, y);
        }
      };
    });
  }
  if (!dtype_is_floating(in.dtype) && in.b.is_scalar && in.b.number.i < 0)
    throw FxError("Integers to negative integer powers are not allowed.");
  // A number exponent takes torch's special cases (sqrt for 0.5: pow(-inf, 0.5) is nan there, not inf).
  const double e = in.b.is_scalar ? in.b.number.as_double() : 0.0;
  const bool f32_f64 = in.dtype == DType::Float32 || in.dtype == DType::Float64;  // (float16 uses std::pow)
  const int special = !in.b.is_scalar || !f32_f64 ? 0 : e == 0.5 ? 1 : e == -0.5 ? 2 : e == 2.0 ? 3 : e == -1.0 ? 4 : e == -2.0 ? 5 : 0;
  return binary_map<false>(in.a, in.b, in.dtype, "pow", [special](auto tag) {
    using T = decltype(tag);
    return [special](T x, T y) -> T {
      if constexpr (std::is_floating_point_v<T>) {
        switch (special) {
          case 1: return std::sqrt(x);
          case 2: return T(1) / std::sqrt(x);
          case 3: return x * x;
          case 4: return T(1) / x;
          case 5: return T(1) / (x * x);
          default: return std::pow(x, y);
        }
      } else {
        (void)special;  // (integers: no special cases)
        return int_pow(x, y);
      }
    };
  });
}

// torch.X, torch.Tensor.X, method X and the aten overloads FX records for op X.
const OpRow kOps[] = {
    {"torch.add", "operator.add aten.add.Tensor aten.add.Scalar torch.Tensor.add", "__add__ __radd__ add", add_op},
    {"torch.sub", "operator.sub torch.subtract aten.sub.Tensor aten.sub.Scalar torch.Tensor.sub", "subtract __sub__ sub", sub_op},
    {"torch.mul", "operator.mul torch.multiply aten.mul.Tensor aten.mul.Scalar torch.Tensor.mul", "multiply __mul__ __rmul__ mul", mul_op},
    {"torch.div", "operator.truediv torch.divide torch.true_divide torch.Tensor.divide torch.Tensor.true_divide aten.div.Tensor aten.div.Scalar aten.div.Tensor_mode aten.div.Scalar_mode torch.Tensor.div", "divide true_divide __truediv__ div", div_op},
    {"torch.floor_divide", "operator.floordiv aten.floor_divide.default torch.Tensor.floor_divide", "__floordiv__ floor_divide", floordiv_op},
    {"torch.remainder", "operator.mod aten.remainder.Tensor aten.remainder.Scalar torch.Tensor.remainder", "__mod__ remainder", remainder_op},
    {"torch.pow", "operator.pow aten.pow.Tensor_Tensor aten.pow.Tensor_Scalar aten.pow.Scalar torch.Tensor.pow", "__pow__ pow", pow_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
