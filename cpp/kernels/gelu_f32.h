// float32 GELU (both of torch's forms) and SiLU over packed arrays, vectorised: four lanes at a time
// through the GCC/Clang vector extensions, which compile to WebAssembly SIMD128 under -msimd128 and to
// the native vector unit otherwise — the same code, and the same results, in every build and for every
// position in the array (the tail runs through the same vector code, zero-padded).
//
// No libm call: exp is a Cody–Waite reduction + a degree-6 polynomial (float), and the normal tail
// ½·erfc(|x|/√2) is e^(−x²/2)·F(|x|)/2 with F(a) = erfcx(a/√2) a degree-10 polynomial in t = 1/(1 + 0.3125a)
// evaluated in double (two f64x2 per vector; both polynomials fitted for this kernel, relative fit errors
// 3e-9 and 6e-9). x²/2 and the tanh form's argument are carried in two parts, so the negative tails
// (results down to the subnormals) keep their relative accuracy instead of cancelling in 1 + erf
// (torch's float kernel returns 0 below x ≈ −5.5 and is 1.6e-4 off at −3.5; this one
// rounds to −0 only below −14.3). Max error against double precision: see gelu_f32_test.cpp.
//
// Special values as torch's scalar kernel: nan → nan, −0 → −0, +inf → +inf, −inf → nan (−inf · 0).
// y may equal x (in place); large arrays are split over the kernel threads (kernels/parallel.h).
#pragma once
#include <cstdint>

namespace fx::kernels {

enum class GeluF32 {
  Erf,   // x · ½(1 + erf(x/√2))                      (approximate='none')
  Tanh,  // x · ½(1 + tanh(√(2/π)(x + 0.044715x³)))    (approximate='tanh')
};

void gelu_f32(GeluF32 form, int64_t n, const float* x, float* y);

// x · sigmoid(x).
void silu_f32(int64_t n, const float* x, float* y);

}  // namespace fx::kernels
