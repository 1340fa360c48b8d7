// WebAssembly SIMD128 4×8 micro-kernel (compiled only under -msimd128). Per k: two f32x4 loads of the
// packed B row, one v128.load32_splat per A row, 8 mul + 8 add into 8 accumulators; K is unrolled by 2.
// Wasm SIMD128 has no fused multiply-add (relaxed SIMD is not on by default in Node 20), so mul and add
// stay separate.
// Why this tile and this broadcast: see the measurements in gemm_f32_ukernel.h.
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include "kernels/gemm_f32_ukernel.h"

namespace fx {
namespace {

template <size_t MR>
void wasmsimd_tile(size_t kc, const float* a, size_t lda, const float* w, float* c, size_t ldc,
                   const GemmUkernelParams& p) {
  // Arrays of compile-time size, fully unrolled by clang into separate locals (registers in V8).
  const float* ar[MR];
  v128_t acc0[MR], acc1[MR];
  for (size_t i = 0; i < MR; ++i) {
    ar[i] = a + i * lda;
    acc0[i] = wasm_f32x4_const_splat(0.0f);
    acc1[i] = wasm_f32x4_const_splat(0.0f);
  }
  // K two at a time (clang unrolls, taking an odd K's first step alone): fewer pointer increments, loop
  // compares and V8 per-iteration stack checks, +3-5% at the decoder's K = 64 and 256 and at 64x784x1024.
  // Unrolling by hand measured 2% slower (clang orders its loads differently), by 4 -5% (V8 spills
  // accumulators). Products still enter in k order: every result is bit for bit that of the plain loop.
#pragma clang loop unroll_count(2)
  for (size_t k = 0; k < kc; ++k) {
    const v128_t b0 = wasm_v128_load(w);
    const v128_t b1 = wasm_v128_load(w + 4);
    w += 8;
    for (size_t i = 0; i < MR; ++i) {
      const v128_t ai = wasm_v128_load32_splat(ar[i]);
      ar[i] += 1;
      acc0[i] = wasm_f32x4_add(acc0[i], wasm_f32x4_mul(ai, b0));
      acc1[i] = wasm_f32x4_add(acc1[i], wasm_f32x4_mul(ai, b1));
    }
  }
  if (p.bias) {
    const v128_t bias0 = wasm_v128_load(p.bias);
    const v128_t bias1 = wasm_v128_load(p.bias + 4);
    for (size_t i = 0; i < MR; ++i) {
      acc0[i] = wasm_f32x4_add(acc0[i], bias0);
      acc1[i] = wasm_f32x4_add(acc1[i], bias1);
    }
  }
  if (p.beta == 1.0f) {  // a fused residual and every K block after the first: 1·C is C, exactly
    for (size_t i = 0; i < MR; ++i) {
      const float* ci = c + i * ldc;
      acc0[i] = wasm_f32x4_add(acc0[i], wasm_v128_load(ci));
      acc1[i] = wasm_f32x4_add(acc1[i], wasm_v128_load(ci + 4));
    }
  } else if (p.beta != 0.0f) {
    const v128_t vbeta = wasm_f32x4_splat(p.beta);
    for (size_t i = 0; i < MR; ++i) {
      const float* ci = c + i * ldc;
      acc0[i] = wasm_f32x4_add(acc0[i], wasm_f32x4_mul(vbeta, wasm_v128_load(ci)));
      acc1[i] = wasm_f32x4_add(acc1[i], wasm_f32x4_mul(vbeta, wasm_v128_load(ci + 4)));
    }
  }
  if (p.clamp) {
    // pmax(x, lo) = x < lo ? lo : x and pmin(x, hi) = hi < x ? hi : x: one instruction each on x64
    // (f32x4.min/max need a NaN-fixing sequence), and NaN passes through as in the reference.
    const v128_t vmin = wasm_f32x4_splat(p.min);
    const v128_t vmax = wasm_f32x4_splat(p.max);
    for (size_t i = 0; i < MR; ++i) {
      acc0[i] = wasm_f32x4_pmin(wasm_f32x4_pmax(acc0[i], vmin), vmax);
      acc1[i] = wasm_f32x4_pmin(wasm_f32x4_pmax(acc1[i], vmin), vmax);
    }
  }
  for (size_t i = 0; i < MR; ++i) {
    float* ci = c + i * ldc;
    wasm_v128_store(ci, acc0[i]);
    wasm_v128_store(ci + 4, acc1[i]);
  }
}

}  // namespace

void f32_gemm_ukernel__wasmsimd_4x8(size_t mr, size_t kc, const float* a, size_t lda, const float* w,
                                    float* c, size_t ldc, const GemmUkernelParams& p) {
  static_assert(kGemmMR == 4 && kGemmNR == 8, "the tile dispatch below is written for 4x8");
  switch (mr) {
    case 1: wasmsimd_tile<1>(kc, a, lda, w, c, ldc, p); break;
    case 2: wasmsimd_tile<2>(kc, a, lda, w, c, ldc, p); break;
    case 3: wasmsimd_tile<3>(kc, a, lda, w, c, ldc, p); break;
    default: wasmsimd_tile<4>(kc, a, lda, w, c, ldc, p); break;
  }
}

}  // namespace fx
#endif  // __wasm_simd128__
