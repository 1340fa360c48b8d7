// Internals of q8_gemm_bt's many-row path (see gemm_q8_f32.h): integer products of int8 weights and
// activations quantised on the fly, int32 accumulation, the scales applied once per output. The packed
// weight panel, the micro-kernel contract, and a driver that takes the micro-kernel explicitly so tests
// run every one.
//
// Why int16 activations, not int8 as ORT's MatMulInteger and XNNPACK's qd8 kernels: SIMD128's only
// integer multiply-add, i32x4.dot_i16x8_s, multiplies int16 lanes, so int8 activations would be widened
// to int16 before every product anyway. Quantised once per call to int16 they cost nothing more, and
// carry as many levels as the int32 sums allow (q8_activation_levels: 32767 up to K = 512, 10922 at
// K = 1536): the rounding of the activations stays far below the weights' own.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/gemm_f32.h"

namespace fx {

// Tile of C one micro-kernel call computes, and the K step of its products (a pair of k per lane):
// per pair of k, two loads of 8 weights and per row one v128.load32_splat of the row's two activations
// and two i32x4.dot_i16x8_s: 64 multiply-adds in 22 instructions, where the float32 4×8 kernel does 32
// (gemm_f32_ukernel.h). 8 int32 accumulators + 2 weight vectors + the broadcast + a product fit V8's 15
// usable vector registers. The arithmetic (8 dot + 8 add per 64 products) is what bounds it: the panel
// holds the weights already widened to int16, as loading int8 with i16x8.load8x8_s adds a shuffle-port
// instruction per load on x64 (measured: ~35 → ~37 GMAC/s at 128×384×384). Other tiles measured no
// better: 3x8, 5x8, 6x8 (spills), 2x4 and 3x4 with 8 k per lane (horizontal sums), K unrolled by 4.
constexpr size_t kQ8MR = 4;
constexpr size_t kQ8NR = 8;
constexpr size_t kQ8KR = 2;
// Rows of quantised A per outer block (128 rows × K int16 stay in L2 while the panels pass over them).
constexpr size_t kQ8MC = 128;

// The largest |quantised activation| for a K-long dot product: every int32 lane sums K products of
// |a| ≤ levels and |w| ≤ 128, which must stay below 2^31. 0 when K is so long (> 132,104) that fewer than
// 127 levels would remain: the caller then takes the float path.
size_t q8_activation_levels(size_t K);

// K rounded up to whole pairs: the row length of quantised A and the pair count × 2 of a packed panel.
inline size_t q8_k_padded(size_t K) { return (K + kQ8KR - 1) / kQ8KR * kQ8KR; }

// A packed panel of nc ≤ kQ8NR weight rows (output channels) n0.. of Q [N, ldq], widened to int16:
// q8_k_padded(K)/2 groups of 16 values, group g holding (Q[n0+j][2g], Q[n0+j][2g+1]) for j = 0..7 in that
// order; columns past nc and k past K are zero.
inline size_t q8_packed_panel_size(size_t K) { return q8_k_padded(K) * kQ8NR; }  // int16 values
void q8_pack_panel(size_t K, size_t nc, const int8_t* q, size_t ldq, int16_t* dst);

// The epilogue of one micro-kernel call: C[i][j] = acc[i][j] · a_scale[i] · w_scale[j] + bias[j] +
// beta·C[i][j], then the clamp. w_scale and bias hold kQ8NR values (zero-padded past N).
struct Q8UkernelParams {
  const float* a_scale;  // mr values
  const float* w_scale;  // kQ8NR values
  const float* bias;     // kQ8NR values, or nullptr
  float beta;            // 0: C is not read
  bool clamp;
  float min, max;
};

// C[mr, kQ8NR] (row stride ldc) = epilogue(A[mr, 2·pairs] (int16, row stride lda) · panel), 1 ≤ mr ≤ kQ8MR.
using Q8UkernelFn = void (*)(size_t mr, size_t pairs, const int16_t* a, size_t lda, const int16_t* w, float* c,
                             size_t ldc, const Q8UkernelParams& p);

void q8_gemm_ukernel__generic_4x8c2(size_t mr, size_t pairs, const int16_t* a, size_t lda, const int16_t* w,
                                    float* c, size_t ldc, const Q8UkernelParams& p);
#if defined(__wasm_simd128__)
void q8_gemm_ukernel__wasmsimd_4x8c2(size_t mr, size_t pairs, const int16_t* a, size_t lda, const int16_t* w,
                                     float* c, size_t ldc, const Q8UkernelParams& p);
#endif

// Row r of A [M, K] quantised into out (M rows of kp ≥ K int16, zero past K), scale[r] = max|row| / levels,
// or `grid` (GemmParams::act_grid) when the row is known to lie on it and fits: then exactly; false when a
// row holds inf or NaN, or is nonzero but below ~1e-33 in magnitude (see q8_gemm_bt_integer_with).
bool q8_quantize_rows(size_t M, size_t K, const float* A, size_t lda, size_t kp, float levels, int16_t* out,
                      float* scale, float grid = 0.0f);

// This build's micro-kernel: SIMD128 where built with it, else the generic one.
Q8UkernelFn q8_gemm_default_ukernel();
// "wasmsimd_4x8c2" or "generic_4x8c2".
const char* q8_gemm_ukernel_name();

// q8_gemm_bt for any M through the integer path with a chosen micro-kernel. False (C untouched) when it
// cannot run: a row of A holding inf or NaN (those must propagate, as through torch's float product), a
// nonzero row below ~1e-33 in magnitude (its scale would be subnormal), or K beyond q8_activation_levels'
// range.
bool q8_gemm_bt_integer_with(Q8UkernelFn ukernel, size_t M, size_t N, size_t K, const float* A, size_t lda,
                             const int8_t* Q, size_t ldq, const float* scales, float* C, size_t ldc,
                             const GemmParams& p);

// 4-bit weights (gemm_q4_f32.h: GGUF Q4_0 blocks of 32 along K, one scale per block and channel) through the
// same micro-kernel, one call per block of 32 k (16 pairs) and 4×8 tile: the block's int32 sums times the
// row's activation scale and the block's 8 channel scales, added to the tile in float32 (beta = 1 after the
// first block; the bias and the caller's beta on the first, the clamp on the last). A block's sums stay far
// inside int32 (32 products of ≤ 32767 · 8), so the activations always get 32767 levels, for any K. Given
// the SIMD128 micro-kernel, its loop runs every block of a tile in one call and scales the blocks' sums into
// float32 registers (gemm_q4_integer.cpp). False (C untouched) where q8_quantize_rows declines.
bool q4_gemm_bt_integer_with(Q8UkernelFn ukernel, size_t M, size_t N, size_t K, const float* A, size_t lda,
                             const uint8_t* Q, size_t ldq, const float* scales, float* C, size_t ldc,
                             const GemmParams& p);

// A packed panel of nc ≤ kQ8NR 4-bit weight rows n0.. (Q, ldq bytes a row; scales KB = q4_blocks(K) a row), in
// q8_pack_panel's layout over KB·32 k (nibble − 8; k past K hold whatever the bytes hold, multiplied by the
// activations' zeros), and the block scales: ds[b·kQ8NR + j] = scale of row j, block b (0 past nc).
void q4_pack_panel(size_t K, size_t nc, const uint8_t* q, size_t ldq, const float* scales, int16_t* dst, float* ds);

}  // namespace fx
