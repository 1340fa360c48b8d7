// The checks of kernels/gelu_f32.h, shared by the native test (gelu_f32_test.cpp) and the wasm check
// (gelu_f32_wasm_check.cpp, the SIMD128 lowering): accuracy in float32 ulp against double-precision
// references over a sweep of bit patterns, the special values, and array sizes across every vector tail.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernels/gelu_f32.h"

namespace fx::gelu_testing {

enum class Fn { GeluErf, GeluTanh, Silu };
inline const char* name(Fn f) { return f == Fn::GeluErf ? "gelu" : f == Fn::GeluTanh ? "gelu(tanh)" : "silu"; }

inline void run(Fn f, int64_t n, const float* x, float* y) {
  if (f == Fn::Silu) return kernels::silu_f32(n, x, y);
  kernels::gelu_f32(f == Fn::GeluErf ? kernels::GeluF32::Erf : kernels::GeluF32::Tanh, n, x, y);
}

// The kernel's accuracy bound in ulp: gelu (erf) evaluates a polynomial in float32 lanes for speed (see
// gelu_f32_test.cpp for the measured maxima).
inline double max_ulp(Fn f) { return f == Fn::GeluErf ? 9.0 : 4.0; }

// The exact function in double, written so that no step cancels.
inline double reference(Fn f, float xf) {
  const double x = xf;
  if (f == Fn::GeluErf) return x * 0.5 * std::erfc(-x * 0.70710678118654752440);
  const double w = f == Fn::Silu ? x : x * (1.5957691216057308 + 0.071354816272655239 * x * x);  // 2√(2/π)(x+κx³)
  if (w >= 0) return x / (1.0 + std::exp(-w));
  const double e = std::exp(w);
  return x * e / (1.0 + e);
}

// |y - want| in units of the float32 ulp at want (the subnormal spacing 2^-149 at the bottom).
inline double ulp_error(float y, double want) {
  if (std::isnan(want) || std::isnan(y)) return std::isnan(want) && std::isnan(y) ? 0.0 : 1e30;
  const double a = std::fabs(want);
  const int e = a == 0 ? -1000 : std::ilogb(a);
  const double ulp = std::ldexp(1.0, std::max(e - 23, -149));
  return std::fabs(static_cast<double>(y) - want) / ulp;
}

inline float from_bits(uint32_t b) {
  float v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}
inline uint32_t bits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

struct Worst {
  double ulp = 0;
  float x = 0;
  size_t count = 0;
};

// Every `stride`-th float of both signs with |x| <= limit (stepping the bit pattern), in chunks.
inline Worst sweep(Fn f, float limit, uint32_t stride) {
  Worst w;
  std::vector<float> xs, ys;
  const uint32_t top = bits(limit);
  for (uint32_t sign : {0u, 0x80000000u}) {
    for (uint64_t b = 0; b <= top;) {
      xs.clear();
      for (; b <= top && xs.size() < 4096; b += stride) xs.push_back(from_bits(static_cast<uint32_t>(b) | sign));
      ys.assign(xs.size(), 0.0f);
      run(f, static_cast<int64_t>(xs.size()), xs.data(), ys.data());
      for (size_t i = 0; i < xs.size(); ++i) {
        const double e = ulp_error(ys[i], reference(f, xs[i]));
        if (e > w.ulp) w.ulp = e, w.x = xs[i];
      }
      w.count += xs.size();
    }
  }
  return w;
}

// The special values: "" or a message. torch: nan stays nan, -0 stays -0, +inf stays +inf, -inf -> nan.
inline std::string check_specials(Fn f) {
  const float inf = std::numeric_limits<float>::infinity(), mx = std::numeric_limits<float>::max();
  const float den = std::numeric_limits<float>::denorm_min(), tiny = std::numeric_limits<float>::min();
  const std::vector<float> xs = {std::nanf(""), -std::nanf(""), inf, -inf, 0.0f, -0.0f, mx, -mx, 1e30f, -1e30f,
                                 1e10f, -1e10f, 1e5f, -1e5f, 20.0f, -20.0f, 14.5f, -14.5f, 14.25f, -14.25f,
                                 den, -den, tiny, -tiny, 1e-30f, -1e-30f};
  std::vector<float> ys(xs.size());
  run(f, static_cast<int64_t>(xs.size()), xs.data(), ys.data());
  std::string out;
  for (size_t i = 0; i < xs.size(); ++i) {
    const float x = xs[i], y = ys[i];
    bool ok;
    if (std::isnan(x) || x == -inf) ok = std::isnan(y);
    else if (x == inf) ok = y == inf;
    else if (x == 0) ok = y == 0 && std::signbit(y) == std::signbit(x);
    else ok = ulp_error(y, reference(f, x)) <= 3.0 && (y == 0 ? std::signbit(y) == std::signbit(x) : true);
    if (!ok) out += std::string(name(f)) + "(" + std::to_string(x) + ") = " + std::to_string(y) + "; ";
  }
  return out;
}

// Sizes 0..67 (every tail of the 4-lane loop, at several offsets) and in place: each element as the
// same element computed alone. "" or a message.
inline std::string check_sizes(Fn f) {
  std::vector<float> base(80);
  for (size_t i = 0; i < base.size(); ++i) base[i] = std::sin(0.7f * static_cast<float>(i)) * 6.0f;
  std::vector<float> single(base.size());
  for (size_t i = 0; i < base.size(); ++i) run(f, 1, &base[i], &single[i]);
  for (int64_t n = 0; n <= 67; ++n) {
    for (int64_t off : {0, 1, 3}) {
      std::vector<float> y(base.size() + 1, 7.0f);
      run(f, n, base.data() + off, y.data());
      for (int64_t i = 0; i < n; ++i)
        if (bits(y[i]) != bits(single[i + off]))
          return std::string(name(f)) + " n=" + std::to_string(n) + " off=" + std::to_string(off) + " i=" + std::to_string(i);
      if (y[n] != 7.0f) return std::string(name(f)) + " n=" + std::to_string(n) + ": wrote past the end";
      std::vector<float> z(base.begin() + off, base.begin() + off + n);
      run(f, n, z.data(), z.data());
      for (int64_t i = 0; i < n; ++i)
        if (bits(z[i]) != bits(single[i + off]))
          return std::string(name(f)) + " in place n=" + std::to_string(n) + " i=" + std::to_string(i);
    }
  }
  return "";
}

}  // namespace fx::gelu_testing
