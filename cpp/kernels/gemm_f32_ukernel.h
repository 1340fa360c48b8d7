// Internals of the f32 GEMM family (see gemm_f32.h for the public entries): the packed-B layout, the
// micro-kernel contract, and a driver that takes the micro-kernel explicitly so tests can run every one.
#pragma once
#include <cstddef>

#include "kernels/gemm_f32.h"

namespace fx {

// Tile of C one micro-kernel call computes. 4×8 was measured best in Node 20 (V8 on x64 has 16 vector
// registers: 8 accumulators + 2 B vectors + the A broadcast fit without spills). At M=64, K=784, N=1024:
// 4x8 ≈ 33, 5x8 ≈ 34, 6x8 ≈ 31, 3x12 ≈ 33, 4x12 ≈ 30, 4x16 ≈ 20–27 (spills), 8x8 ≈ 25 GFLOP/s;
// broadcasting A with v128.load32_splat beat loading 4 A values and shuffling (6x8: 31 vs 26).
// 5x8 is within noise of 4x8 but wastes a fifth of its last tile on the common batch sizes 4·2ⁿ.
// Re-measured at the decoder's shapes (32 rows, K = 64/256) with A packed [k][MR] so the loop walks one A
// pointer: 4x8 as fast as unpacked A plus the packing, 5x8 -4%, 6x8 -8% (V8 keeps xmm15 as scratch: 15
// registers, and 6x8 needs 12 accumulators + 2 B + the broadcast + a product). The pure mul+add peak of one
// core here is ~35.5 GFLOP/s; the 4x8 kernel runs at ~31-33 on L1/L2-resident operands.
constexpr size_t kGemmMR = 4;
constexpr size_t kGemmNR = 8;
// K is split into blocks of at most this many so a block of one B panel (kGemmKC × kGemmNR floats,
// 32 KB) stays in L1 while every row tile of A passes over it. Blocking K=784 at 192 measured the same
// as not blocking, so the block is large; it matters for the K of big convolutions (3·3·512 = 4608).
constexpr size_t kGemmKC = 1024;
// Rows of A per outer block: 128 × kGemmKC floats (512 KB at most) stay in L2 while every panel of B
// passes over them; without it a tall A (im2col of a large image: 3136 × 576) streams from memory once
// per panel.
constexpr size_t kGemmMC = 128;

// Packed B: ceil(N / NR) panels, each K rows of NR floats (row k holds B[k, j·NR .. j·NR+NR-1]); columns
// past N are zero, so the micro-kernel always computes full NR-wide tiles.

// The epilogue of one micro-kernel call. The driver splits K into blocks: the first block adds the
// bias and beta·C, later blocks add the partial C (beta = 1), only the last block clamps.
struct GemmUkernelParams {
  const float* bias;  // kGemmNR values for this panel, or nullptr
  float beta;         // 0: C is not read
  bool clamp;
  float min, max;
};

// C[mr, NR] (row stride ldc) = epilogue(A[mr, kc] (row stride lda) · W[kc, NR]), 1 <= mr <= kGemmMR.
// W is a packed panel from row k0 on; a points at column k0 of A's first row of the tile.
using GemmUkernelFn = void (*)(size_t mr, size_t kc, const float* a, size_t lda, const float* w, float* c,
                               size_t ldc, const GemmUkernelParams& p);

void f32_gemm_ukernel__generic_4x8(size_t mr, size_t kc, const float* a, size_t lda, const float* w,
                                   float* c, size_t ldc, const GemmUkernelParams& p);
#if defined(__wasm_simd128__)
void f32_gemm_ukernel__wasmsimd_4x8(size_t mr, size_t kc, const float* a, size_t lda, const float* w,
                                    float* c, size_t ldc, const GemmUkernelParams& p);
#endif

// This build's micro-kernel: SIMD128 where built with it, else the generic one.
GemmUkernelFn f32_gemm_default_ukernel();

// f32_gemm_prepacked with a chosen micro-kernel (tests run the generic one in SIMD builds too).
void f32_gemm_prepacked_with(GemmUkernelFn ukernel, size_t M, size_t N, size_t K, const float* A,
                             size_t lda, const float* packed_b, float* C, size_t ldc, const GemmParams& p);

}  // namespace fx
