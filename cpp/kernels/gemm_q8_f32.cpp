#include "kernels/gemm_q8_f32.h"

#include <vector>

#include "kernels/gemm_q8_ukernel.h"
#include "kernels/gemm_q_common.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace fx {
namespace {

// sums[r] = Σ_k A[r][k] · q[k] for R rows. In SIMD128, 16 weights at a time: int8 → int16 → int32 →
// float32 (four vectors), each multiplied into two accumulators per row (two chains keep the adds busy).
template <int R>
void dot_rows(size_t K, const float* A, size_t lda, const int8_t* q, float* sums) {
  size_t k = 0;
  float s[R];
#if defined(__wasm_simd128__)
  v128_t acc0[R], acc1[R];
  for (int r = 0; r < R; ++r) acc0[r] = acc1[r] = wasm_f32x4_splat(0.0f);
  for (; k + 16 <= K; k += 16) {
    const v128_t b = wasm_v128_load(q + k);
    const v128_t lo = wasm_i16x8_extend_low_i8x16(b), hi = wasm_i16x8_extend_high_i8x16(b);
    const v128_t w0 = wasm_f32x4_convert_i32x4(wasm_i32x4_extend_low_i16x8(lo));
    const v128_t w1 = wasm_f32x4_convert_i32x4(wasm_i32x4_extend_high_i16x8(lo));
    const v128_t w2 = wasm_f32x4_convert_i32x4(wasm_i32x4_extend_low_i16x8(hi));
    const v128_t w3 = wasm_f32x4_convert_i32x4(wasm_i32x4_extend_high_i16x8(hi));
    for (int r = 0; r < R; ++r) {
      const float* a = A + r * lda + k;
      acc0[r] = wasm_f32x4_add(acc0[r], wasm_f32x4_mul(wasm_v128_load(a), w0));
      acc1[r] = wasm_f32x4_add(acc1[r], wasm_f32x4_mul(wasm_v128_load(a + 4), w1));
      acc0[r] = wasm_f32x4_add(acc0[r], wasm_f32x4_mul(wasm_v128_load(a + 8), w2));
      acc1[r] = wasm_f32x4_add(acc1[r], wasm_f32x4_mul(wasm_v128_load(a + 12), w3));
    }
  }
  for (int r = 0; r < R; ++r) {
    const v128_t v = wasm_f32x4_add(acc0[r], acc1[r]);
    s[r] = (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) +
           (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
  }
#else
  for (int r = 0; r < R; ++r) s[r] = 0.0f;
#endif
  for (; k < K; ++k)
    for (int r = 0; r < R; ++r) s[r] += A[r * lda + k] * static_cast<float>(q[k]);
  for (int r = 0; r < R; ++r) sums[r] = s[r];
}

// sums[r] = Σ_k X[r][k] · q[k] for R rows of int16 activations (row stride kp): 16 weights at a time,
// int8 → int16 (two vectors), two i32x4.dot_i16x8_s per row; the int32 lanes go to float32 every
// kActChunk products, before they could overflow.
template <int R>
void dot_rows_i16(size_t K, const int16_t* X, size_t kp, const int8_t* q, float* sums) {
  size_t k = 0;
  float t[R];
#if defined(__wasm_simd128__)
  const size_t k16 = K / 16 * 16;
  v128_t tot[R];
  for (int r = 0; r < R; ++r) tot[r] = wasm_f32x4_splat(0.0f);
  while (k < k16) {
    const size_t end = std::min(k16, k + qgemm::kActChunk);
    v128_t acc[R];
    for (int r = 0; r < R; ++r) acc[r] = wasm_i32x4_splat(0);
    for (; k < end; k += 16) {
      const v128_t b = wasm_v128_load(q + k);
      const v128_t lo = wasm_i16x8_extend_low_i8x16(b), hi = wasm_i16x8_extend_high_i8x16(b);
      for (int r = 0; r < R; ++r) {
        const int16_t* x = X + r * kp + k;
        acc[r] = wasm_i32x4_add(acc[r], wasm_i32x4_dot_i16x8(wasm_v128_load(x), lo));
        acc[r] = wasm_i32x4_add(acc[r], wasm_i32x4_dot_i16x8(wasm_v128_load(x + 8), hi));
      }
    }
    for (int r = 0; r < R; ++r) tot[r] = wasm_f32x4_add(tot[r], wasm_f32x4_convert_i32x4(acc[r]));
  }
  for (int r = 0; r < R; ++r)
    t[r] = (wasm_f32x4_extract_lane(tot[r], 0) + wasm_f32x4_extract_lane(tot[r], 1)) +
           (wasm_f32x4_extract_lane(tot[r], 2) + wasm_f32x4_extract_lane(tot[r], 3));
#else
  for (int r = 0; r < R; ++r) t[r] = 0.0f;
#endif
  int64_t tail[R] = {};
  for (; k < K; ++k)
    for (int r = 0; r < R; ++r) tail[r] += static_cast<int32_t>(X[r * kp + k]) * q[k];
  for (int r = 0; r < R; ++r) sums[r] = t[r] + static_cast<float>(tail[r]);
}

}  // namespace

void q8_gemm_bt(size_t M, size_t N, size_t K, const float* A, size_t lda, const int8_t* Q, size_t ldq,
                const float* scales, float* C, size_t ldc, const GemmParams& p) {
  if (M == 0 || N == 0) return;
  if (M > 4) {
    // Integer products (gemm_q8_integer.cpp); inf or NaN among the activations, or an extreme K: the
    // weight dequantised panel by panel into the float32 GEMM.
    if (q8_gemm_bt_integer_with(q8_gemm_default_ukernel(), M, N, K, A, lda, Q, ldq, scales, C, ldc, p)) return;
    qgemm::panels(M, N, K, A, lda, C, ldc, p, [&](size_t n0, size_t nb, float* out) {
      q8_dequantize_rows(nb, K, Q + n0 * ldq, ldq, scales + n0, out);
    });
    return;
  }
  const size_t kp = (K + 15) / 16 * 16;
  std::vector<int16_t> xq(M * kp);
  float xs[4];
  if (qgemm::quantize_rows_i16(M, K, A, lda, kp, xq.data(), xs, p.act_grid)) {
    qgemm::few_rows(M, N, K, double(N) * double(ldq), C, ldc, p, [&](size_t R, size_t n, float* sums) {
      const int8_t* q = Q + n * ldq;
      switch (R) {
        case 1: dot_rows_i16<1>(K, xq.data(), kp, q, sums); break;
        case 2: dot_rows_i16<2>(K, xq.data(), kp, q, sums); break;
        case 3: dot_rows_i16<3>(K, xq.data(), kp, q, sums); break;
        default: dot_rows_i16<4>(K, xq.data(), kp, q, sums); break;
      }
      for (size_t r = 0; r < R; ++r) sums[r] *= xs[r] * scales[n];
    });
    return;
  }
  // inf or NaN among the activations: float lanes, so they propagate.
  qgemm::few_rows(M, N, K, double(N) * double(ldq), C, ldc, p, [&](size_t R, size_t n, float* sums) {
    const int8_t* q = Q + n * ldq;
    switch (R) {
      case 1: dot_rows<1>(K, A, lda, q, sums); break;
      case 2: dot_rows<2>(K, A, lda, q, sums); break;
      case 3: dot_rows<3>(K, A, lda, q, sums); break;
      default: dot_rows<4>(K, A, lda, q, sums); break;
    }
    for (size_t r = 0; r < R; ++r) sums[r] *= scales[n];
  });
}

void q8_gemm_bt_scalar(size_t M, size_t N, size_t K, const float* A, size_t lda, const int8_t* Q, size_t ldq,
                       const float* scales, float* C, size_t ldc, const GemmParams& p) {
  for (size_t m = 0; m < M; ++m)
    for (size_t n = 0; n < N; ++n) {
      double s = 0.0;
      for (size_t k = 0; k < K; ++k) s += static_cast<double>(A[m * lda + k]) * Q[n * ldq + k];
      C[m * ldc + n] = qgemm::epilogue(static_cast<float>(s * scales[n]), n, &C[m * ldc + n], p);
    }
}

void q8_dequantize_rows(size_t rows, size_t K, const int8_t* Q, size_t ldq, const float* scales, float* out) {
  for (size_t r = 0; r < rows; ++r) {
    const float s = scales[r];
    const int8_t* q = Q + r * ldq;
    float* o = out + r * K;
    for (size_t k = 0; k < K; ++k) o[k] = static_cast<float>(q[k]) * s;
  }
}

}  // namespace fx
