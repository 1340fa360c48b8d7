// WebAssembly SIMD128 4×8c2 micro-kernel of the int8 weight GEMM (compiled only under -msimd128; the
// contract and the choice of tile: gemm_q8_ukernel.h). Per pair of k: the panel's 16 int16 weights as two
// loads, per row one v128.load32_splat of the row's two int16 activations, and two i32x4.dot_i16x8_s, each
// lane summing its column's two products.
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include "kernels/gemm_q8_ukernel.h"

namespace fx {
namespace {

template <size_t MR>
void wasmsimd_tile(size_t pairs, const int16_t* a, size_t lda, const int16_t* w, float* c, size_t ldc,
                   const Q8UkernelParams& p) {
  const int16_t* ar[MR];
  v128_t acc0[MR], acc1[MR];
  for (size_t i = 0; i < MR; ++i) {
    ar[i] = a + i * lda;
    acc0[i] = wasm_i32x4_const_splat(0);
    acc1[i] = wasm_i32x4_const_splat(0);
  }
#pragma clang loop unroll_count(2)
  for (size_t g = 0; g < pairs; ++g) {
    const v128_t b0 = wasm_v128_load(w);
    const v128_t b1 = wasm_v128_load(w + 8);
    w += 16;
    for (size_t i = 0; i < MR; ++i) {
      const v128_t ai = wasm_v128_load32_splat(ar[i]);
      ar[i] += 2;
      acc0[i] = wasm_i32x4_add(acc0[i], wasm_i32x4_dot_i16x8(ai, b0));
      acc1[i] = wasm_i32x4_add(acc1[i], wasm_i32x4_dot_i16x8(ai, b1));
    }
  }
  const v128_t ws0 = wasm_v128_load(p.w_scale), ws1 = wasm_v128_load(p.w_scale + 4);
  v128_t out0[MR], out1[MR];
  for (size_t i = 0; i < MR; ++i) {
    const v128_t as = wasm_f32x4_splat(p.a_scale[i]);
    out0[i] = wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc0[i]), ws0), as);
    out1[i] = wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc1[i]), ws1), as);
  }
  if (p.bias) {
    const v128_t bias0 = wasm_v128_load(p.bias), bias1 = wasm_v128_load(p.bias + 4);
    for (size_t i = 0; i < MR; ++i) {
      out0[i] = wasm_f32x4_add(out0[i], bias0);
      out1[i] = wasm_f32x4_add(out1[i], bias1);
    }
  }
  if (p.beta == 1.0f) {  // a fused residual: 1·C is C, exactly
    for (size_t i = 0; i < MR; ++i) {
      const float* ci = c + i * ldc;
      out0[i] = wasm_f32x4_add(out0[i], wasm_v128_load(ci));
      out1[i] = wasm_f32x4_add(out1[i], wasm_v128_load(ci + 4));
    }
  } else if (p.beta != 0.0f) {
    const v128_t vbeta = wasm_f32x4_splat(p.beta);
    for (size_t i = 0; i < MR; ++i) {
      const float* ci = c + i * ldc;
      out0[i] = wasm_f32x4_add(out0[i], wasm_f32x4_mul(vbeta, wasm_v128_load(ci)));
      out1[i] = wasm_f32x4_add(out1[i], wasm_f32x4_mul(vbeta, wasm_v128_load(ci + 4)));
    }
  }
  if (p.clamp) {  // pmax / pmin: NaN passes through, as in the reference (see gemm_f32_wasmsimd.cpp)
    const v128_t vmin = wasm_f32x4_splat(p.min), vmax = wasm_f32x4_splat(p.max);
    for (size_t i = 0; i < MR; ++i) {
      out0[i] = wasm_f32x4_pmin(wasm_f32x4_pmax(out0[i], vmin), vmax);
      out1[i] = wasm_f32x4_pmin(wasm_f32x4_pmax(out1[i], vmin), vmax);
    }
  }
  for (size_t i = 0; i < MR; ++i) {
    float* ci = c + i * ldc;
    wasm_v128_store(ci, out0[i]);
    wasm_v128_store(ci + 4, out1[i]);
  }
}

}  // namespace

void q8_gemm_ukernel__wasmsimd_4x8c2(size_t mr, size_t pairs, const int16_t* a, size_t lda, const int16_t* w,
                                     float* c, size_t ldc, const Q8UkernelParams& p) {
  static_assert(kQ8MR == 4 && kQ8NR == 8 && kQ8KR == 2, "the tile dispatch below is written for 4x8c2");
  switch (mr) {
    case 1: wasmsimd_tile<1>(pairs, a, lda, w, c, ldc, p); break;
    case 2: wasmsimd_tile<2>(pairs, a, lda, w, c, ldc, p); break;
    case 3: wasmsimd_tile<3>(pairs, a, lda, w, c, ldc, p); break;
    default: wasmsimd_tile<4>(pairs, a, lda, w, c, ldc, p); break;
  }
}

}  // namespace fx
#endif  // __wasm_simd128__
