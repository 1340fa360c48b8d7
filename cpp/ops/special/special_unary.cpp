// Element-wise special functions of one tensor: the gamma family (lgamma, digamma, erfinv), the normal
// distribution (ndtr, ndtri, log_ndtr, erfcx), Bessel and Airy functions, entr. Each is a double-precision
// scalar function of kernels/special_math.h; float32 computes through it and rounds once. Integer and
// bool inputs give the default float32, as torch does.
#include <cmath>
#include <limits>

#include "kernels/special_math.h"
#include "ops/math/elementwise.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"

namespace fx {
namespace {

using ScalarFn = double (*)(double);

double lgamma_fn(double x) { return std::lgamma(x); }
double i0_fn(double x) { return special::bessel_i0(x, false); }
double i0e_fn(double x) { return special::bessel_i0(x, true); }
double i1_fn(double x) { return special::bessel_i1(x, false); }
double i1e_fn(double x) { return special::bessel_i1(x, true); }
double k0_fn(double x) { return special::bessel_k(0, x, false); }
double k1_fn(double x) { return special::bessel_k(1, x, false); }
double k0e_fn(double x) { return special::bessel_k(0, x, true); }
double k1e_fn(double x) { return special::bessel_k(1, x, true); }

// -x ln x: 0 at 0, -inf below (torch's convention), NaN stays NaN.
double entr_fn(double x) {
  if (x != x) return x;
  if (x > 0) return -x * std::log(x);
  return x == 0 ? 0.0 : -std::numeric_limits<double>::infinity();
}

// sin(x)/x, its Taylor series near 0 (where sin(x)/x would divide 0 by 0)
double spherical_j0_fn(double x) {
  if (std::isinf(x)) return 0;
  if (std::fabs(x) < 1e-3) return 1 - x * x / 6 * (1 - x * x / 20);
  return std::sin(x) / x;
}

struct UnarySpecial {
  const char* name;  // for the schema and messages
  ScalarFn fn;
};

constexpr UnarySpecial kFns[] = {
    {"lgamma", lgamma_fn}, {"digamma", special::digamma}, {"erfinv", special::erfinv}, {"i0", i0_fn},
    {"special_i0e", i0e_fn}, {"special_i1", i1_fn}, {"special_i1e", i1e_fn}, {"special_ndtr", special::ndtr},
    {"special_ndtri", special::ndtri}, {"special_log_ndtr", special::log_ndtr}, {"special_erfcx", special::erfcx},
    {"special_entr", entr_fn}, {"special_bessel_j0", special::bessel_j0}, {"special_bessel_j1", special::bessel_j1},
    {"special_bessel_y0", special::bessel_y0}, {"special_bessel_y1", special::bessel_y1},
    {"special_modified_bessel_k0", k0_fn}, {"special_modified_bessel_k1", k1_fn},
    {"special_scaled_modified_bessel_k0", k0e_fn}, {"special_scaled_modified_bessel_k1", k1e_fn},
    {"special_airy_ai", special::airy_ai}, {"special_spherical_bessel_j0", spherical_j0_fn},
};

Tensor apply(const Tensor& x, const char* name, ScalarFn fn) {
  const DType out = dtype_is_floating(x.dtype()) ? x.dtype() : kDefaultFloat;
  return unary_map<false, Compute::Float>(x, out, name, [fn](auto tag) {
    using T = decltype(tag);
    return [fn](T v) -> T { return static_cast<T>(fn(static_cast<double>(v))); };
  });
}

template <int K>
Object unary_special_op(const OpCall& call) {
  static const Schema schema(std::string(kFns[K].name) + "(input|self)");
  Args a = schema.parse(call);
  return apply(a.tensor(0), kFns[K].name, kFns[K].fn);
}

#define SPECIAL(n) "torch.special." n " torch._C._special.special_" n " aten.special_" n ".default"
const OpRow kOps[] = {
    {"torch.lgamma", "torch.Tensor.lgamma aten.lgamma.default " SPECIAL("gammaln"), "lgamma", unary_special_op<0>},
    {"torch.digamma", "torch.Tensor.digamma aten.digamma.default " SPECIAL("digamma") " " SPECIAL("psi"), "digamma",
     unary_special_op<1>},
    {"torch.erfinv", "torch.Tensor.erfinv aten.erfinv.default " SPECIAL("erfinv"), "erfinv", unary_special_op<2>},
    {"torch.i0", "torch.Tensor.i0 aten.i0.default " SPECIAL("i0"), "i0", unary_special_op<3>},
    {"torch.special.i0e", "torch._C._special.special_i0e aten.special_i0e.default", "", unary_special_op<4>},
    {"torch.special.i1", "torch._C._special.special_i1 aten.special_i1.default", "", unary_special_op<5>},
    {"torch.special.i1e", "torch._C._special.special_i1e aten.special_i1e.default", "", unary_special_op<6>},
    {"torch.special.ndtr", "torch._C._special.special_ndtr aten.special_ndtr.default", "", unary_special_op<7>},
    {"torch.special.ndtri", "torch._C._special.special_ndtri aten.special_ndtri.default", "", unary_special_op<8>},
    {"torch.special.log_ndtr", "torch._C._special.special_log_ndtr aten.special_log_ndtr.default", "",
     unary_special_op<9>},
    {"torch.special.erfcx", "torch._C._special.special_erfcx aten.special_erfcx.default", "", unary_special_op<10>},
    {"torch.special.entr", "torch._C._special.special_entr aten.special_entr.default", "", unary_special_op<11>},
    {"torch.special.bessel_j0", "torch._C._special.special_bessel_j0 aten.special_bessel_j0.default", "",
     unary_special_op<12>},
    {"torch.special.bessel_j1", "torch._C._special.special_bessel_j1 aten.special_bessel_j1.default", "",
     unary_special_op<13>},
    {"torch.special.bessel_y0", "torch._C._special.special_bessel_y0 aten.special_bessel_y0.default", "",
     unary_special_op<14>},
    {"torch.special.bessel_y1", "torch._C._special.special_bessel_y1 aten.special_bessel_y1.default", "",
     unary_special_op<15>},
    // modified_bessel_i0/i1 are I0/I1 under another name
    {"torch.special.modified_bessel_i0",
     "torch._C._special.special_modified_bessel_i0 aten.special_modified_bessel_i0.default", "", unary_special_op<3>},
    {"torch.special.modified_bessel_i1",
     "torch._C._special.special_modified_bessel_i1 aten.special_modified_bessel_i1.default", "", unary_special_op<5>},
    {"torch.special.modified_bessel_k0",
     "torch._C._special.special_modified_bessel_k0 aten.special_modified_bessel_k0.default", "", unary_special_op<16>},
    {"torch.special.modified_bessel_k1",
     "torch._C._special.special_modified_bessel_k1 aten.special_modified_bessel_k1.default", "", unary_special_op<17>},
    {"torch.special.scaled_modified_bessel_k0",
     "torch._C._special.special_scaled_modified_bessel_k0 aten.special_scaled_modified_bessel_k0.default", "",
     unary_special_op<18>},
    {"torch.special.scaled_modified_bessel_k1",
     "torch._C._special.special_scaled_modified_bessel_k1 aten.special_scaled_modified_bessel_k1.default", "",
     unary_special_op<19>},
    {"torch.special.airy_ai", "torch._C._special.special_airy_ai aten.special_airy_ai.default", "",
     unary_special_op<20>},
    {"torch.special.spherical_bessel_j0",
     "torch._C._special.special_spherical_bessel_j0 aten.special_spherical_bessel_j0.default", "",
     unary_special_op<21>},
};
#undef SPECIAL
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
