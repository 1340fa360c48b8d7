// Element-wise special functions of two arguments: Hurwitz zeta, xlog1py, the regularized incomplete
// gamma functions (igamma/igammac), polygamma(n, x) and the multivariate log-gamma mvlgamma(x, p).
// Operands are tensors or Python numbers, promoted as torch does; integer results become the default
// float32. Computed in double through kernels/special_math.h and rounded once.
#include <cmath>
#include <string>

#include "kernels/special_math.h"
#include "ops/call_op.h"
#include "ops/math/elementwise.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "support/error.h"

namespace fx {
namespace {

using ScalarFn2 = double (*)(double, double);

// x log1p(y), 0 where x is 0 (unless y is NaN)
double xlog1py_fn(double x, double y) {
  if (y != y) return y;
  if (x == 0) return 0;
  return x * std::log1p(y);
}

struct BinarySpecial {
  const char* name;
  const char* second;  // the second parameter's names in the schema
  ScalarFn2 fn;
};

constexpr BinarySpecial kFns[] = {
    {"special_zeta", "other", special::zeta},
    {"special_xlog1py", "other", xlog1py_fn},
    {"igamma", "other", special::igamma},
    {"igammac", "other", special::igammac},
};

// One elementwise instantiation for all of them (the function is a run-time pointer).
Object binary_special_call(const OpCall& call, const Schema& schema, const BinarySpecial& f) {
  Args args = schema.parse(call);
  Operand a = Operand::of(args[0], f.name, "input"), b = Operand::of(args[1], f.name, "other");
  if (a.is_scalar && b.is_scalar) throw FxError(std::string(f.name) + "(): expected at least one Tensor");
  const DType dt = result_type({a, b});
  const ScalarFn2 fn = f.fn;
  return binary_map<false, Compute::Float>(a, b, dtype_is_floating(dt) ? dt : kDefaultFloat, f.name, [fn](auto tag) {
    using T = decltype(tag);
    return [fn](T x, T y) -> T { return static_cast<T>(fn(static_cast<double>(x), static_cast<double>(y))); };
  });
}

template <int K>
Object binary_special_op(const OpCall& call) {
  static const Schema schema(std::string(kFns[K].name) + "(input|self, " + kFns[K].second + ")");
  return binary_special_call(call, schema, kFns[K]);
}

Tensor polygamma_of(int64_t n, const Tensor& x) {
  if (n < 0) throw FxError("polygamma(n, x) does not support negative n.");
  const DType out = dtype_is_floating(x.dtype()) ? x.dtype() : kDefaultFloat;
  return unary_map<false, Compute::Float>(x, out, "polygamma", [n](auto tag) {
    using T = decltype(tag);
    return [n](T v) -> T { return static_cast<T>(special::polygamma(n, static_cast<double>(v))); };
  });
}

// torch.polygamma(n, input)
Object polygamma_op(const OpCall& call) {
  static const Schema schema("polygamma(n, input|self)");
  Args a = schema.parse(call);
  return polygamma_of(a.integer(0), a.tensor(1));
}

// Tensor.polygamma(n): the tensor comes first
Object polygamma_method(const OpCall& call) {
  static const Schema schema("polygamma(input|self, n)");
  Args a = schema.parse(call);
  return polygamma_of(a.integer(1), a.tensor(0));
}

// mvlgamma(x, p) = p(p-1)/4 ln π + Σ_{j<p} lgamma(x - j/2); every element must exceed (p-1)/2
Object mvlgamma_op(const OpCall& call) {
  static const Schema schema("mvlgamma(input|self, p)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t p = a.integer(1);
  if (p < 1) throw FxError("p has to be greater than or equal to 1");
  const DType out = dtype_is_floating(x.dtype()) ? x.dtype() : kDefaultFloat;
  bool ok = true;
  Tensor r = unary_map<false, Compute::Float>(x, out, "mvlgamma", [p, &ok](auto tag) {
    using T = decltype(tag);
    return [p, &ok](T v) -> T {
      const double d = static_cast<double>(v);
      if (!(d > 0.5 * static_cast<double>(p - 1))) ok = false;
      double s = 0.25 * static_cast<double>(p * (p - 1)) * std::log(3.14159265358979323846);
      for (int64_t j = 0; j < p; ++j) s += std::lgamma(d - 0.5 * static_cast<double>(j));
      return static_cast<T>(s);
    };
  });
  if (!ok) throw FxError("All elements must be greater than (p-1)/2");
  return r;
}

const OpRow kOps[] = {
    {"torch.special.zeta",
     "torch._C._special.special_zeta aten.special_zeta.default aten.special_zeta.self_scalar "
     "aten.special_zeta.other_scalar",
     "", binary_special_op<0>},
    {"torch.special.xlog1py",
     "torch._C._special.special_xlog1py aten.special_xlog1py.default aten.special_xlog1py.self_scalar "
     "aten.special_xlog1py.other_scalar",
     "", binary_special_op<1>},
    {"torch.igamma",
     "torch.Tensor.igamma aten.igamma.default torch.special.gammainc torch._C._special.special_gammainc "
     "aten.special_gammainc.default",
     "igamma", binary_special_op<2>},
    {"torch.igammac",
     "torch.Tensor.igammac aten.igammac.default torch.special.gammaincc torch._C._special.special_gammaincc "
     "aten.special_gammaincc.default",
     "igammac", binary_special_op<3>},
    {"torch.polygamma",
     "aten.polygamma.default torch.special.polygamma torch._C._special.special_polygamma "
     "aten.special_polygamma.default",
     "", polygamma_op},
    {"torch.Tensor.polygamma", "", "polygamma", polygamma_method},
    {"torch.mvlgamma",
     "torch.Tensor.mvlgamma aten.mvlgamma.default torch.special.multigammaln torch._C._special.special_multigammaln "
     "aten.special_multigammaln.default",
     "mvlgamma", mvlgamma_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
