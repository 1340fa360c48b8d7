#include "ops/math/linear_quantized.h"

#include "kernels/gemm_q4_f32.h"
#include "kernels/gemm_q8_f32.h"
#include "kernels/gemv_q8_packed.h"
#include "tensor/buffer_pool.h"

namespace fx {

bool has_quantized_gemm(const QuantizedWeight& q) {
  return q.scheme == QScheme::Int8 || q.scheme == QScheme::Int4;
}

void quantized_rows(const QuantizedWeight& q, int64_t row, int64_t count, float* out) {
  const size_t K = static_cast<size_t>(q.shape[1]), n = static_cast<size_t>(count), r = static_cast<size_t>(row);
  const float* scales = q.scale_f32.data<float>();
  if (q.scheme == QScheme::Int8) {
    q8_dequantize_rows(n, K, q.data.data<int8_t>() + r * K, K, scales + r, out);
  } else {
    const size_t ldq = q4_blocks(K) * 16;
    q4_dequantize_rows(n, K, q.data.data<uint8_t>() + r * ldq, ldq, scales + r * q4_blocks(K), out);
  }
}

Tensor quantized_weight_of_transpose(const Tensor& wt) {
  if (!wt.defined() || wt.dim() != 2 || wt.dtype() != DType::Float32 || wt.offset() != 0) return Tensor();
  const QuantizedWeight* q = wt.storage()->quantized_source().get();
  if (!q || !has_quantized_gemm(*q) || q->shape != Shape{wt.shape()[1], wt.shape()[0]} ||
      wt.strides() != Shape{1, wt.shape()[0]})
    return Tensor();
  Tensor w(wt.storage(), DType::Float32, q->shape, contiguous_strides(q->shape), 0);
  return quantized_of(w) ? w : Tensor();
}

void quantized_linear_gemm(const QuantizedWeight& q, int64_t rows, const float* x, float* out, const GemmParams& p) {
  const size_t M = static_cast<size_t>(rows), N = static_cast<size_t>(q.shape[0]), K = static_cast<size_t>(q.shape[1]);
  const float* scales = q.scale_f32.data<float>();
  if (q.scheme == QScheme::Int8) {
    if (M == 1 && N >= 4) {  // a decoding step: the weight in the layout that streams (packed once)
      if (!q.gemv_packed.defined()) {
        BufferPool::Scope weights(nullptr);  // weight memory, kept with the weight: not from the run's arena
        Tensor packed = Tensor::empty({static_cast<int64_t>(q8_gemv_packed_size(N, K))}, DType::Int8);
        q8_pack_gemv(N, K, q.data.data<int8_t>(), K, packed.data<int8_t>());
        q.gemv_packed = packed;
      }
      if (q8_gemv_packed(N, K, x, q.gemv_packed.data<int8_t>(), scales, out, p)) return;
    }
    q8_gemm_bt(M, N, K, x, K, q.data.data<int8_t>(), K, scales, out, N, p);
  } else
    q4_gemm_bt(M, N, K, x, K, q.data.data<uint8_t>(), q4_blocks(K) * 16, scales, out, N, p);
}

}  // namespace fx
