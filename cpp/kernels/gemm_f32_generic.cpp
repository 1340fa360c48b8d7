// Portable 4×8 micro-kernel: plain C++ whose fixed-size inner loops over the 8 columns the compiler turns
// into vector code on its own (SSE/AVX natively, SIMD128 under -msimd128). Used where no hand-written
// kernel exists for the target; it must give the same results as the SIMD one up to float rounding.
#include "kernels/gemm_f32_ukernel.h"

namespace fx {
namespace {

// GCC fully unrolls the 8-wide row loop before vectorizing, then vectorizes the k loop instead, with
// strided loads and shuffles (~2 GFLOP/s). Keeping the row loop rolled lets it become two vector
// mul+adds per row with the accumulators in registers (~5× faster). Clang, and so Emscripten, gets it
// right unaided, and a rolled loop would only get in its way.
#if defined(__GNUC__) && !defined(__clang__)
#define FX_GEMM_ROW_LOOP _Pragma("GCC unroll 1")
#else
#define FX_GEMM_ROW_LOOP
#endif

template <size_t MR>
void generic_tile(size_t kc, const float* a, size_t lda, const float* w, float* c, size_t ldc,
                  const GemmUkernelParams& p) {
  constexpr size_t NR = kGemmNR;
  float acc[MR][NR] = {};
  for (size_t k = 0; k < kc; ++k) {
    for (size_t i = 0; i < MR; ++i) {
      const float ai = a[i * lda + k];
      FX_GEMM_ROW_LOOP
      for (size_t j = 0; j < NR; ++j) acc[i][j] += ai * w[j];
    }
    w += NR;
  }
  // Locals, so stores to c cannot be assumed to change the parameters.
  const float* bias = p.bias;
  const float beta = p.beta, lo = p.min, hi = p.max;
  const bool clamp = p.clamp;
  for (size_t i = 0; i < MR; ++i) {
    float* ci = c + i * ldc;
    for (size_t j = 0; j < NR; ++j) {
      float v = acc[i][j];
      if (bias) v += bias[j];
      if (beta != 0.0f) v += beta * ci[j];
      if (clamp) {
        v = v < lo ? lo : v;  // NaN fails the test and passes through, as in the reference
        v = hi < v ? hi : v;
      }
      ci[j] = v;
    }
  }
}

}  // namespace

void f32_gemm_ukernel__generic_4x8(size_t mr, size_t kc, const float* a, size_t lda, const float* w,
                                   float* c, size_t ldc, const GemmUkernelParams& p) {
  static_assert(kGemmMR == 4 && kGemmNR == 8, "the tile dispatch below is written for 4x8");
  switch (mr) {
    case 1: generic_tile<1>(kc, a, lda, w, c, ldc, p); break;
    case 2: generic_tile<2>(kc, a, lda, w, c, ldc, p); break;
    case 3: generic_tile<3>(kc, a, lda, w, c, ldc, p); break;
    default: generic_tile<4>(kc, a, lda, w, c, ldc, p); break;
  }
}

}  // namespace fx
