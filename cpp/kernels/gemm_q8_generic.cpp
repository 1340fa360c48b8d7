// Portable 4×8c2 micro-kernel of the int8 weight GEMM (gemm_q8_ukernel.h): plain C++ over the packed
// panel, int32 sums. The products are exact, so its sums equal the SIMD kernel's bit for bit; the epilogue
// runs the same float operations in the same order.
#include "kernels/gemm_q8_ukernel.h"

namespace fx {
namespace {

template <size_t MR>
void generic_tile(size_t pairs, const int16_t* a, size_t lda, const int16_t* w, float* c, size_t ldc,
                  const Q8UkernelParams& p) {
  constexpr size_t NR = kQ8NR;
  // Row by row: GCC 12 at -O3 vectorised the pairs-outer, rows-inner nest of this loop into loads of rows
  // past MR (rows 4 and 5 of a 4-row tile; a segfault on the last tile of a buffer), found by
  // GemmQ.IntegerPathMatchesTheScalarReferenceWithEveryMicroKernel.
  int32_t acc[MR][NR] = {};
  for (size_t i = 0; i < MR; ++i) {
    const int16_t* ai = a + i * lda;
    const int16_t* wg = w;
    for (size_t g = 0; g < pairs; ++g, wg += 2 * NR) {
      const int32_t a0 = ai[2 * g], a1 = ai[2 * g + 1];
      for (size_t j = 0; j < NR; ++j) acc[i][j] += a0 * wg[2 * j] + a1 * wg[2 * j + 1];
    }
  }
  // Locals, so stores to c cannot be assumed to change the parameters.
  const float *ws = p.w_scale, *bias = p.bias;
  const float beta = p.beta, lo = p.min, hi = p.max;
  const bool clamp = p.clamp;
  for (size_t i = 0; i < MR; ++i) {
    float* ci = c + i * ldc;
    const float as = p.a_scale[i];
    for (size_t j = 0; j < NR; ++j) {
      float v = static_cast<float>(acc[i][j]) * ws[j] * as;
      if (bias) v += bias[j];
      if (beta == 1.0f) v += ci[j];
      else if (beta != 0.0f) v += beta * ci[j];
      if (clamp) {
        v = v < lo ? lo : v;  // NaN fails the test and passes through, as in the reference
        v = hi < v ? hi : v;
      }
      ci[j] = v;
    }
  }
}

}  // namespace

void q8_gemm_ukernel__generic_4x8c2(size_t mr, size_t pairs, const int16_t* a, size_t lda, const int16_t* w,
                                    float* c, size_t ldc, const Q8UkernelParams& p) {
  static_assert(kQ8MR == 4 && kQ8NR == 8 && kQ8KR == 2, "the tile dispatch below is written for 4x8c2");
  switch (mr) {
    case 1: generic_tile<1>(pairs, a, lda, w, c, ldc, p); break;
    case 2: generic_tile<2>(pairs, a, lda, w, c, ldc, p); break;
    case 3: generic_tile<3>(pairs, a, lda, w, c, ldc, p); break;
    default: generic_tile<4>(pairs, a, lda, w, c, ldc, p); break;
  }
}

}  // namespace fx
