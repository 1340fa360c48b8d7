// Ops on the representation of floats: nextafter(input, other) (the next representable value of the
// input's own dtype towards other) and frexp(input) (mantissa in [0.5, 1) and int32 exponent).
#include <cmath>
#include <type_traits>

#include "ops/math/elementwise.h"
#include "ops/op_table.h"
#include "ops/array/view_util.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "support/error.h"

namespace fx {
namespace {

Object nextafter_op(const OpCall& call) {
  static const Schema schema("nextafter(input|self, other)");
  Args args = schema.parse(call);
  Operand a = Operand::of(args[0], "nextafter", "input"), b = Operand::of(args[1], "nextafter", "other");
  const DType dt = result_type({a, b});
  if (!dtype_is_floating(dt) || dt == DType::Float16 || dt == DType::BFloat16)
    throw FxError(std::string("\"nextafter_cpu\" not implemented for '") + torch_type_name(dt) + "'");
  // computed in the result's own float type: the step is one ulp of float32 for float32
  return binary_map<false, Compute::Float>(a, b, dt, "nextafter", [](auto tag) {
    using T = decltype(tag);
    return [](T x, T y) -> T {
      if constexpr (std::is_floating_point_v<T>) return std::nextafter(x, y);
      else return x;
    };
  });
}

Object frexp_op(const OpCall& call) {
  static const Schema schema("frexp(input|self)");
  Args args = schema.parse(call);
  const Tensor& x = args.tensor(0);
  if (!dtype_is_floating(x.dtype()))
    throw FxError("torch.frexp() only supports floating-point dtypes");
  // one walk per part: the mantissa, then the exponent (exact in the float type, then int32)
  auto part = [&](bool exponent) {
    return unary_map<false, Compute::Float>(x, x.dtype(), "frexp", [exponent](auto tag) {
      using T = decltype(tag);
      return [exponent](T v) -> T {
        int e = 0;
        const T m = std::frexp(v, &e);
        return exponent ? static_cast<T>(e) : m;
      };
    });
  };
  Tensor mantissa = part(false), exponent = to_dtype(part(true), DType::Int32);
  return Object::tuple({Object(mantissa), Object(exponent)});
}

const OpRow kOps[] = {
    {"torch.nextafter", "torch.Tensor.nextafter aten.nextafter.default", "nextafter", nextafter_op},
    {"torch.frexp", "torch.Tensor.frexp aten.frexp.Tensor", "frexp", frexp_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
