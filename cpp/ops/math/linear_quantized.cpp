#include "ops/math/linear_quantized.h"

#include "kernels/gemm_q4_f32.h"
#include "kernels/gemm_q8_f32.h"

namespace fx {

bool has_quantized_gemm(const QuantizedWeight& q) {
  return q.scheme == QScheme::Int8 || q.scheme == QScheme::Int4;
}

void quantized_linear_gemm(const QuantizedWeight& q, int64_t rows, const float* x, float* out, const GemmParams& p) {
  const size_t M = static_cast<size_t>(rows), N = static_cast<size_t>(q.shape[0]), K = static_cast<size_t>(q.shape[1]);
  const float* scales = q.scale_f32.data<float>();
  if (q.scheme == QScheme::Int8)
    q8_gemm_bt(M, N, K, x, K, q.data.data<int8_t>(), K, scales, out, N, p);
  else
    q4_gemm_bt(M, N, K, x, K, q.data.data<uint8_t>(), q4_blocks(K) * 16, scales, out, N, p);
}

}  // namespace fx
