// The float32 dot product of the few-row paths (the GEMM's dot_rows, attention's rows of scores): four
// sums of four lanes over 16 values a step, the lanes then added pairwise. One definition, so that a GEMM
// and attention over the same rows round the same way.
#pragma once
#include <cstddef>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace fx::kernels {

// Σ_k a[k]·b[k], k < K. The loads of b stream: the loop is memory-bound for a long weight matrix.
inline float dot_f32(size_t K, const float* a, const float* b) {
  size_t k = 0;
  float sum = 0.0f;
#if defined(__wasm_simd128__)
  v128_t s0 = wasm_f32x4_splat(0.0f), s1 = s0, s2 = s0, s3 = s0;
  for (; k + 16 <= K; k += 16) {
    s0 = wasm_f32x4_add(s0, wasm_f32x4_mul(wasm_v128_load(a + k), wasm_v128_load(b + k)));
    s1 = wasm_f32x4_add(s1, wasm_f32x4_mul(wasm_v128_load(a + k + 4), wasm_v128_load(b + k + 4)));
    s2 = wasm_f32x4_add(s2, wasm_f32x4_mul(wasm_v128_load(a + k + 8), wasm_v128_load(b + k + 8)));
    s3 = wasm_f32x4_add(s3, wasm_f32x4_mul(wasm_v128_load(a + k + 12), wasm_v128_load(b + k + 12)));
  }
  for (; k + 4 <= K; k += 4) s0 = wasm_f32x4_add(s0, wasm_f32x4_mul(wasm_v128_load(a + k), wasm_v128_load(b + k)));
  const v128_t s = wasm_f32x4_add(wasm_f32x4_add(s0, s1), wasm_f32x4_add(s2, s3));
  sum = (wasm_f32x4_extract_lane(s, 0) + wasm_f32x4_extract_lane(s, 1)) +
        (wasm_f32x4_extract_lane(s, 2) + wasm_f32x4_extract_lane(s, 3));
#endif
  for (; k < K; ++k) sum += a[k] * b[k];
  return sum;
}

}  // namespace fx::kernels
