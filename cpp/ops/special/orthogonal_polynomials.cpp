// torch.special's orthogonal polynomials of degree n at x: Chebyshev T, U, V, W (and the shifted ones,
// of 2x - 1), Hermite H and He, Laguerre L, Legendre P. Both arguments are tensors or numbers; n is
// truncated to an integer, and a negative n gives 0. Evaluated as torch evaluates them, in the compute
// type: the three-term recurrence, or for Chebyshev at large n inside (-1, 1) the trigonometric form
// (cos nθ, sin (n+1)θ / sin θ, …), with the endpoint values ±1 given exactly.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "ops/math/elementwise.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "support/error.h"

namespace fx {
namespace {

enum Poly { ChebT, ChebU, ChebV, ChebW, ShiftT, ShiftU, ShiftV, ShiftW, HermiteH, HermiteHe, LaguerreL, LegendreP };
const char* const kNames[] = {"chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
                              "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
                              "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
                              "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
                              "laguerre_polynomial_l", "legendre_polynomial_p"};

// Chebyshev polynomials of the four kinds at y (the shifted ones pass y = 2x - 1). `trig_from`: the degree
// above which torch switches to the trigonometric form (it differs between the plain and shifted ones).
template <typename T>
T chebyshev(int kind, T y, int64_t n, int64_t trig_from) {
  const T one(1);
  const T odd = static_cast<T>(n + n + 1);
  if (std::abs(y) == one) {  // the endpoint values
    const bool even = n % 2 == 0;
    switch (kind) {
      case 0: return (y > 0 || even) ? one : -one;
      case 1: return (y > 0 || even) ? static_cast<T>(n + 1) : -static_cast<T>(n + 1);
      case 2: return y > 0 ? one : even ? odd : -odd;
      default: return y > 0 ? odd : even ? one : -one;
    }
  }
  if (n > trig_from && std::abs(y) < one) {
    const T theta = std::acos(y);
    switch (kind) {
      case 0: return std::cos(static_cast<T>(n) * theta);
      case 1: return std::sin(static_cast<T>(n + 1) * theta) / std::sin(theta);
      case 2: return std::cos((static_cast<T>(n) + T(0.5)) * theta) / std::cos(theta / T(2));
      default: return std::sin((static_cast<T>(n) + T(0.5)) * theta) / std::sin(theta / T(2));
    }
  }
  if (n == 0) return one;
  // degree 1: T1 = y, U1 = 2y, V1 = 2y - 1, W1 = 2y + 1; then r = 2y q - p
  T p = one, q = kind == 0 ? y : kind == 1 ? y + y : kind == 2 ? y + y - one : y + y + one;
  for (int64_t k = 2; k <= n && !std::isnan(q); ++k) {
    const T r = (y + y) * q - p;
    p = q;
    q = r;
  }
  return q;
}

template <typename T>
T polynomial(int kind, T x, int64_t n) {
  if (n < 0) return T(0);
  switch (kind) {
    case ChebT: return chebyshev<T>(0, x, n, 6);
    case ChebU: return chebyshev<T>(1, x, n, 8);
    case ChebV: return chebyshev<T>(2, x, n, 8);
    case ChebW: return chebyshev<T>(3, x, n, 8);
    case ShiftT: return chebyshev<T>(0, x + x - T(1), n, 6);
    case ShiftU: return chebyshev<T>(1, x + x - T(1), n, 6);
    case ShiftV: return chebyshev<T>(2, x + x - T(1), n, 6);
    case ShiftW: return chebyshev<T>(3, x + x - T(1), n, 4);
    case HermiteH: case HermiteHe: {
      const bool h = kind == HermiteH;
      if (n == 0) return T(1);
      if (n > (std::is_same_v<T, float> ? 128 : 512)) return std::numeric_limits<T>::quiet_NaN();
      // H_{k+1} = 2x H_k - 2k H_{k-1};  He_{k+1} = x He_k - k He_{k-1}
      const T a = h ? x + x : x;
      T p = T(1), q = a;
      for (int64_t k = 1; k < n; ++k) {
        const T r = a * q - static_cast<T>(h ? k + k : k) * p;
        p = q;
        q = r;
      }
      return q;
    }
    case LaguerreL: {
      if (x == T(0) || n == 0) return T(1);
      // (k+1) L_{k+1} = (2k + 1 - x) L_k - k L_{k-1}
      T p = T(1), q = T(1) - x;
      for (int64_t k = 1; k < n && !std::isnan(q); ++k) {
        const T r = ((static_cast<T>(k + k) + (T(1) - x)) * q - static_cast<T>(k) * p) / static_cast<T>(k + 1);
        p = q;
        q = r;
      }
      return q;
    }
    default: {  // Legendre: (k+1) P_{k+1} = (2k+1) x P_k - k P_{k-1}
      if (std::abs(x) == T(1)) return (x > 0 || n % 2 == 0) ? T(1) : T(-1);
      if (n == 0) return T(1);
      T p = T(1), q = x;
      for (int64_t k = 1; k < n && !std::isnan(q); ++k) {
        const T r = (static_cast<T>(k + k + 1) * x * q - static_cast<T>(k) * p) / static_cast<T>(k + 1);
        p = q;
        q = r;
      }
      return q;
    }
  }
}

// One elementwise instantiation serves all twelve: the kind is a run-time value (a switch per element is
// nothing next to the recurrence, and twelve instantiations of the broadcast walk were ~70 KB natively).
Object polynomial_call(const OpCall& call, const Schema& schema, int kind) {
  Args args = schema.parse(call);
  Operand x = Operand::of(args[0], kNames[kind], "input"), n = Operand::of(args[1], kNames[kind], "n");
  if (x.is_scalar && n.is_scalar) throw FxError(std::string(kNames[kind]) + "(): expected at least one Tensor");
  const DType dt = result_type({x, n});
  return binary_map<false, Compute::Float>(x, n, dtype_is_floating(dt) ? dt : kDefaultFloat, kNames[kind],
                                           [kind](auto tag) {
                                             using T = decltype(tag);
                                             return [kind](T v, T deg) -> T {
                                               // (torch casts n to int64; out of range is undefined there)
                                               if (!(std::abs(deg) < T(9.2e18))) return std::numeric_limits<T>::quiet_NaN();
                                               return polynomial<T>(kind, v, static_cast<int64_t>(deg));
                                             };
                                           });
}

template <int kKind>
Object polynomial_op(const OpCall& call) {
  static const Schema schema(std::string("special_") + kNames[kKind] + "(input|self|x, n)");
  return polynomial_call(call, schema, kKind);
}

#define POLY(n)                                                                                            \
  "torch._C._special.special_" n " aten.special_" n ".default aten.special_" n ".x_scalar aten.special_" n \
  ".n_scalar"
const OpRow kOps[] = {
    {"torch.special.chebyshev_polynomial_t", POLY("chebyshev_polynomial_t"), "", polynomial_op<ChebT>},
    {"torch.special.chebyshev_polynomial_u", POLY("chebyshev_polynomial_u"), "", polynomial_op<ChebU>},
    {"torch.special.chebyshev_polynomial_v", POLY("chebyshev_polynomial_v"), "", polynomial_op<ChebV>},
    {"torch.special.chebyshev_polynomial_w", POLY("chebyshev_polynomial_w"), "", polynomial_op<ChebW>},
    {"torch.special.shifted_chebyshev_polynomial_t", POLY("shifted_chebyshev_polynomial_t"), "", polynomial_op<ShiftT>},
    {"torch.special.shifted_chebyshev_polynomial_u", POLY("shifted_chebyshev_polynomial_u"), "", polynomial_op<ShiftU>},
    {"torch.special.shifted_chebyshev_polynomial_v", POLY("shifted_chebyshev_polynomial_v"), "", polynomial_op<ShiftV>},
    {"torch.special.shifted_chebyshev_polynomial_w", POLY("shifted_chebyshev_polynomial_w"), "", polynomial_op<ShiftW>},
    {"torch.special.hermite_polynomial_h", POLY("hermite_polynomial_h"), "", polynomial_op<HermiteH>},
    {"torch.special.hermite_polynomial_he", POLY("hermite_polynomial_he"), "", polynomial_op<HermiteHe>},
    {"torch.special.laguerre_polynomial_l", POLY("laguerre_polynomial_l"), "", polynomial_op<LaguerreL>},
    {"torch.special.legendre_polynomial_p", POLY("legendre_polynomial_p"), "", polynomial_op<LegendreP>},
};
#undef POLY
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
