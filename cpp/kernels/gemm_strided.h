// Scalar GEMM over arbitrary element strides, for the dtypes the SIMD f32 GEMM does not cover (float64,
// integers): C[M,N] = A·B + bias + beta·C, accumulated in T. Plain i-k-j loops keep B rows streaming.
#pragma once
#include <cstdint>
#include <vector>

namespace fx::kernels {

template <typename T>
void gemm_strided(int64_t M, int64_t N, int64_t K, const T* A, int64_t ars, int64_t acs, const T* B,
                  int64_t brs, int64_t bcs, T* C, int64_t ldc, const T* bias, T beta) {
  std::vector<T> acc(static_cast<size_t>(N));
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j) acc[j] = T(0);
    for (int64_t k = 0; k < K; ++k) {
      const T a = A[i * ars + k * acs];
      const T* b = B + k * brs;
      for (int64_t j = 0; j < N; ++j) acc[j] += a * b[j * bcs];
    }
    T* c = C + i * ldc;
    for (int64_t j = 0; j < N; ++j) {
      T v = acc[j];
      if (bias) v += bias[j];
      if (beta != T(0)) v += beta * c[j];
      c[j] = v;
    }
  }
}

}  // namespace fx::kernels
