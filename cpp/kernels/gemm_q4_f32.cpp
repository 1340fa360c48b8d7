#include "kernels/gemm_q4_f32.h"

#include <vector>

#include "kernels/gemm_q8_ukernel.h"
#include "kernels/gemm_q_common.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace fx {
namespace {

inline float q4_at(const uint8_t* q, size_t k) {
  const uint8_t byte = q[(k / kQ4Block) * 16 + (k % 16)];
  const int nib = (k % kQ4Block) < 16 ? (byte & 15) : (byte >> 4);
  return static_cast<float>(nib - 8);
}

#if defined(__wasm_simd128__)
// Four float32 vectors from 16 int8 lanes.
inline void to_f32(v128_t b, v128_t w[4]) {
  const v128_t lo = wasm_i16x8_extend_low_i8x16(b), hi = wasm_i16x8_extend_high_i8x16(b);
  w[0] = wasm_f32x4_convert_i32x4(wasm_i32x4_extend_low_i16x8(lo));
  w[1] = wasm_f32x4_convert_i32x4(wasm_i32x4_extend_high_i16x8(lo));
  w[2] = wasm_f32x4_convert_i32x4(wasm_i32x4_extend_low_i16x8(hi));
  w[3] = wasm_f32x4_convert_i32x4(wasm_i32x4_extend_high_i16x8(hi));
}
#endif

// sums[r] = Σ_k A[r][k] · W[k] for R rows of A and one weight row (q: its blocks, s: its scales). In SIMD128
// a whole block at a time: 16 bytes → low and high nibbles minus 8 → 8 float32 vectors; the block's
// products are summed in two accumulators and scaled once.
template <int R>
void dot_rows(size_t K, const float* A, size_t lda, const uint8_t* q, const float* s, float* sums) {
  float t[R];
#if defined(__wasm_simd128__)
  const size_t full = K / kQ4Block;
  v128_t acc[R];
  for (int r = 0; r < R; ++r) acc[r] = wasm_f32x4_splat(0.0f);
  const v128_t mask = wasm_i8x16_splat(15), eight = wasm_i8x16_splat(8);
  for (size_t b = 0; b < full; ++b) {
    const v128_t bytes = wasm_v128_load(q + b * 16);
    v128_t w[8];
    to_f32(wasm_i8x16_sub(wasm_v128_and(bytes, mask), eight), w);
    to_f32(wasm_i8x16_sub(wasm_u8x16_shr(bytes, 4), eight), w + 4);
    const v128_t scale = wasm_f32x4_splat(s[b]);
    for (int r = 0; r < R; ++r) {
      const float* a = A + r * lda + b * kQ4Block;
      v128_t s0 = wasm_f32x4_mul(wasm_v128_load(a), w[0]);
      v128_t s1 = wasm_f32x4_mul(wasm_v128_load(a + 4), w[1]);
      for (int i = 2; i < 8; i += 2) {
        s0 = wasm_f32x4_add(s0, wasm_f32x4_mul(wasm_v128_load(a + 4 * i), w[i]));
        s1 = wasm_f32x4_add(s1, wasm_f32x4_mul(wasm_v128_load(a + 4 * i + 4), w[i + 1]));
      }
      acc[r] = wasm_f32x4_add(acc[r], wasm_f32x4_mul(wasm_f32x4_add(s0, s1), scale));
    }
  }
  for (int r = 0; r < R; ++r)
    t[r] = (wasm_f32x4_extract_lane(acc[r], 0) + wasm_f32x4_extract_lane(acc[r], 1)) +
           (wasm_f32x4_extract_lane(acc[r], 2) + wasm_f32x4_extract_lane(acc[r], 3));
  size_t b0 = full;
#else
  for (int r = 0; r < R; ++r) t[r] = 0.0f;
  size_t b0 = 0;
#endif
  for (size_t b = b0; b * kQ4Block < K; ++b) {
    const size_t k1 = std::min(K, (b + 1) * kQ4Block);
    for (int r = 0; r < R; ++r) {
      float u = 0.0f;
      for (size_t k = b * kQ4Block; k < k1; ++k) u += A[r * lda + k] * q4_at(q, k);
      t[r] += u * s[b];
    }
  }
  for (int r = 0; r < R; ++r) sums[r] = t[r];
}

// sums[r] = Σ_k X[r][k] · W[k] for R rows of int16 activations (row stride kp = blocks · 32, zero beyond
// K, so whole blocks are read): per block, the nibbles minus 8 widened to four int16 vectors, four
// i32x4.dot_i16x8_s per row, the block's int32 sum converted and scaled once.
template <int R>
void dot_rows_i16(size_t K, const int16_t* X, size_t kp, const uint8_t* q, const float* s, float* sums) {
  const size_t KB = q4_blocks(K);
#if defined(__wasm_simd128__)
  v128_t tot[R];
  for (int r = 0; r < R; ++r) tot[r] = wasm_f32x4_splat(0.0f);
  const v128_t mask = wasm_i8x16_splat(15), eight = wasm_i8x16_splat(8);
  for (size_t b = 0; b < KB; ++b) {
    const v128_t bytes = wasm_v128_load(q + b * 16);
    const v128_t lo = wasm_i8x16_sub(wasm_v128_and(bytes, mask), eight);
    const v128_t hi = wasm_i8x16_sub(wasm_u8x16_shr(bytes, 4), eight);
    const v128_t w0 = wasm_i16x8_extend_low_i8x16(lo), w1 = wasm_i16x8_extend_high_i8x16(lo);
    const v128_t w2 = wasm_i16x8_extend_low_i8x16(hi), w3 = wasm_i16x8_extend_high_i8x16(hi);
    const v128_t scale = wasm_f32x4_splat(s[b]);
    for (int r = 0; r < R; ++r) {
      const int16_t* x = X + r * kp + b * kQ4Block;
      v128_t d = wasm_i32x4_dot_i16x8(wasm_v128_load(x), w0);
      d = wasm_i32x4_add(d, wasm_i32x4_dot_i16x8(wasm_v128_load(x + 8), w1));
      d = wasm_i32x4_add(d, wasm_i32x4_dot_i16x8(wasm_v128_load(x + 16), w2));
      d = wasm_i32x4_add(d, wasm_i32x4_dot_i16x8(wasm_v128_load(x + 24), w3));
      tot[r] = wasm_f32x4_add(tot[r], wasm_f32x4_mul(wasm_f32x4_convert_i32x4(d), scale));
    }
  }
  for (int r = 0; r < R; ++r)
    sums[r] = (wasm_f32x4_extract_lane(tot[r], 0) + wasm_f32x4_extract_lane(tot[r], 1)) +
              (wasm_f32x4_extract_lane(tot[r], 2) + wasm_f32x4_extract_lane(tot[r], 3));
#else
  for (int r = 0; r < R; ++r) {
    float t = 0.0f;
    for (size_t b = 0; b < KB; ++b) {
      int32_t d = 0;
      for (size_t j = 0; j < 16; ++j) {
        const uint8_t byte = q[b * 16 + j];
        d += X[r * kp + b * kQ4Block + j] * ((byte & 15) - 8) + X[r * kp + b * kQ4Block + 16 + j] * ((byte >> 4) - 8);
      }
      t += static_cast<float>(d) * s[b];
    }
    sums[r] = t;
  }
#endif
}

}  // namespace

void q4_gemm_bt(size_t M, size_t N, size_t K, const float* A, size_t lda, const uint8_t* Q, size_t ldq,
                const float* scales, float* C, size_t ldc, const GemmParams& p) {
  if (M == 0 || N == 0) return;
  const size_t KB = q4_blocks(K);
  if (M > 4) {
    // Integer products (gemm_q4_integer.cpp); inf or NaN among the activations: dequantised panels into
    // the float32 GEMM, so they propagate.
    if (q4_gemm_bt_integer_with(q8_gemm_default_ukernel(), M, N, K, A, lda, Q, ldq, scales, C, ldc, p)) return;
    qgemm::panels(M, N, K, A, lda, C, ldc, p, [&](size_t n0, size_t nb, float* out) {
      q4_dequantize_rows(nb, K, Q + n0 * ldq, ldq, scales + n0 * KB, out);
    });
    return;
  }
  const size_t kp = KB * kQ4Block;
  std::vector<int16_t> xq(M * kp);
  float xs[4];
  if (qgemm::quantize_rows_i16(M, K, A, lda, kp, xq.data(), xs)) {
    qgemm::few_rows(M, N, K, double(N) * double(ldq), C, ldc, p, [&](size_t R, size_t n, float* sums) {
      const uint8_t* q = Q + n * ldq;
      const float* s = scales + n * KB;
      switch (R) {
        case 1: dot_rows_i16<1>(K, xq.data(), kp, q, s, sums); break;
        case 2: dot_rows_i16<2>(K, xq.data(), kp, q, s, sums); break;
        case 3: dot_rows_i16<3>(K, xq.data(), kp, q, s, sums); break;
        default: dot_rows_i16<4>(K, xq.data(), kp, q, s, sums); break;
      }
      for (size_t r = 0; r < R; ++r) sums[r] *= xs[r];
    });
    return;
  }
  // inf or NaN among the activations: float lanes, so they propagate.
  qgemm::few_rows(M, N, K, double(N) * double(ldq), C, ldc, p, [&](size_t R, size_t n, float* sums) {
    const uint8_t* q = Q + n * ldq;
    const float* s = scales + n * KB;
    switch (R) {
      case 1: dot_rows<1>(K, A, lda, q, s, sums); break;
      case 2: dot_rows<2>(K, A, lda, q, s, sums); break;
      case 3: dot_rows<3>(K, A, lda, q, s, sums); break;
      default: dot_rows<4>(K, A, lda, q, s, sums); break;
    }
  });
}

void q4_gemm_bt_scalar(size_t M, size_t N, size_t K, const float* A, size_t lda, const uint8_t* Q, size_t ldq,
                       const float* scales, float* C, size_t ldc, const GemmParams& p) {
  const size_t KB = q4_blocks(K);
  for (size_t m = 0; m < M; ++m)
    for (size_t n = 0; n < N; ++n) {
      double s = 0.0;
      for (size_t k = 0; k < K; ++k)
        s += static_cast<double>(A[m * lda + k]) * q4_at(Q + n * ldq, k) * scales[n * KB + k / kQ4Block];
      C[m * ldc + n] = qgemm::epilogue(static_cast<float>(s), n, &C[m * ldc + n], p);
    }
}

void q4_dequantize_rows(size_t rows, size_t K, const uint8_t* Q, size_t ldq, const float* scales, float* out) {
  const size_t KB = q4_blocks(K);
  for (size_t r = 0; r < rows; ++r) {
    const uint8_t* q = Q + r * ldq;
    const float* s = scales + r * KB;
    float* o = out + r * K;
    for (size_t b = 0; b < KB; ++b) {
      const size_t k0 = b * kQ4Block;
      for (size_t j = 0; j < 16; ++j) {
        const uint8_t byte = q[b * 16 + j];
        if (k0 + j < K) o[k0 + j] = static_cast<float>((byte & 15) - 8) * s[b];
        if (k0 + 16 + j < K) o[k0 + 16 + j] = static_cast<float>((byte >> 4) - 8) * s[b];
      }
    }
  }
}

}  // namespace fx
