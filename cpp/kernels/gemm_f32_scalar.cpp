// The scalar reference of the f32 GEMM family: written for obviousness, not speed. Accumulates in double
// so that the fast paths' float rounding is the only error a test measures.
#include "kernels/gemm_f32.h"

namespace fx {

void f32_gemm_scalar(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* B, size_t ldb,
                     bool b_transposed, float* C, size_t ldc, const GemmParams& p) {
  for (size_t i = 0; i < M; ++i) {
    for (size_t n = 0; n < N; ++n) {
      double sum = 0.0;
      for (size_t k = 0; k < K; ++k) {
        const float b = b_transposed ? B[n * ldb + k] : B[k * ldb + n];
        sum += static_cast<double>(A[i * lda + k]) * b;
      }
      if (p.bias) sum += p.bias[n];
      if (p.beta != 0.0f) sum += static_cast<double>(p.beta) * C[i * ldc + n];
      float v = static_cast<float>(sum);
      // Written as comparisons (not std::min/max) to state the NaN rule: NaN fails both tests and passes.
      if (v < p.min) v = p.min;
      if (v > p.max) v = p.max;
      C[i * ldc + n] = v;
    }
  }
}

}  // namespace fx
