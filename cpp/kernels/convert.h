// Element type conversion with torch's semantics: to bool is "!= 0", float → int truncates toward zero,
// half types go through float.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/half.h"

namespace fx::kernels {

template <typename T> struct is_reduced_float : std::false_type {};
template <> struct is_reduced_float<Half> : std::true_type {};
template <> struct is_reduced_float<BFloat16> : std::true_type {};

template <typename T>
inline auto widen(T v) {
  if constexpr (std::is_same_v<T, Half>) return half_to_float(v);
  else if constexpr (std::is_same_v<T, BFloat16>) return bf16_to_float(v);
  else return v;
}

template <typename D, typename S>
inline D convert_value(S s) {
  auto v = widen(s);
  using V = decltype(v);
  if constexpr (std::is_same_v<D, Half>) return float_to_half(static_cast<float>(v));
  else if constexpr (std::is_same_v<D, BFloat16>) return float_to_bf16(static_cast<float>(v));
  else if constexpr (std::is_same_v<D, bool>) return v != V(0);
  else if constexpr (std::is_integral_v<D> && std::is_floating_point_v<V>) {
    // Out-of-range and nan are undefined in C++; give what x86 gives torch instead of tripping the
    // sanitizer: the integer indefinite value of the 64-bit conversion for int64, of the 32-bit one
    // (then truncated, as a C cast to a narrow type compiles) for the narrower types.
    if (sizeof(D) == 8) {
      if (!(v > -9.2233720368547758e18 && v < 9.2233720368547758e18))
        return static_cast<D>(std::numeric_limits<int64_t>::min());
      return static_cast<D>(static_cast<int64_t>(v));
    }
    if (!(v > -2147483649.0 && v < 2147483648.0)) return static_cast<D>(std::numeric_limits<int32_t>::min());
    return static_cast<D>(static_cast<int32_t>(v));
  } else {
    return static_cast<D>(v);
  }
}

template <typename S, typename D>
void convert(const S* x, D* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = convert_value<D>(x[i]);
}

}  // namespace fx::kernels
