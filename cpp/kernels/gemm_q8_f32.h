// Linear with int8 weights, per output channel (docs/format.md §7): C[M,N] = epilogue(A[M,K] · Wᵀ) where
// W[n][k] = Q[n·ldq + k] · scale[n]. A and C are float32; the weight stays int8 in memory (a quarter of the
// float32 bytes to stream, which is what bounds a decoder's batch-1 step).
// (The Linear op's one-row products read a repacked copy instead: kernels/gemv_q8_packed.h.)
// - Up to 4 rows of A (decoding): dot products against Q's rows, dequantised on the fly in SIMD lanes
//   (int8 → int32 → float32; the scale multiplies the finished dot product), output channels split over
//   the kernel threads.
// - More rows: integer products (gemm_q8_ukernel.h): A quantised per row to int16 (as many levels as the
//   int32 sums allow), Q packed per call in 8-channel panels, i32x4.dot_i16x8_s into int32 sums, then
//   C = sum · a_scale[m] · scale[n] and the epilogue. A row holding inf or NaN (also a nonzero row below
//   ~1e-33, or K > 132,104) takes the float32 GEMM on Q dequantised panel by panel instead, so non-finite
//   values propagate as in torch.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/gemm_f32.h"

namespace fx {

void q8_gemm_bt(size_t M, size_t N, size_t K, const float* A, size_t lda, const int8_t* Q, size_t ldq,
                const float* scales, float* C, size_t ldc, const GemmParams& p = {});

// The reference: plain loops, double accumulation.
void q8_gemm_bt_scalar(size_t M, size_t N, size_t K, const float* A, size_t lda, const int8_t* Q, size_t ldq,
                       const float* scales, float* C, size_t ldc, const GemmParams& p = {});

// out[r·K + k] = Q[r·ldq + k] · scales[r] for `rows` rows (Embedding lookups, dequantising at load).
void q8_dequantize_rows(size_t rows, size_t K, const int8_t* Q, size_t ldq, const float* scales, float* out);

}  // namespace fx
