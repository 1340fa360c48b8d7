// Linear with 4-bit weights in blocks of 32 along K (docs/format.md §7; GGUF's Q4_0 layout, MatMulNBits'
// block size and zero point): row n holds KB = ceil(K/32) blocks of 16 bytes; byte j of block b carries
// element 32b + j in its low nibble and element 32b + 16 + j in its high nibble, and element value =
// (nibble − 8) · scales[n·KB + b]. C[M,N] = epilogue(A[M,K] · Wᵀ), A and C float32.
// - Up to 4 rows of A: dot products dequantised on the fly (nibbles → int8 → float32 lanes, one scale per
//   block), output channels split over the kernel threads.
// - More rows: integer products through the int8 path's micro-kernel, one call per block of 32 k
//   (gemm_q8_ukernel.h: q4_gemm_bt_integer_with); activations holding inf or NaN: Q dequantised panel by
//   panel into the float32 GEMM (f32_gemm_bt), so they propagate.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/gemm_f32.h"

namespace fx {

constexpr size_t kQ4Block = 32;
inline size_t q4_blocks(size_t K) { return (K + kQ4Block - 1) / kQ4Block; }

// Q: N rows of ldq bytes (ldq ≥ q4_blocks(K)·16); scales: N rows of q4_blocks(K) floats.
void q4_gemm_bt(size_t M, size_t N, size_t K, const float* A, size_t lda, const uint8_t* Q, size_t ldq,
                const float* scales, float* C, size_t ldc, const GemmParams& p = {});

// The reference: plain loops, double accumulation.
void q4_gemm_bt_scalar(size_t M, size_t N, size_t K, const float* A, size_t lda, const uint8_t* Q, size_t ldq,
                       const float* scales, float* C, size_t ldc, const GemmParams& p = {});

// out[r·K + k] = W[r][k] for `rows` rows.
void q4_dequantize_rows(size_t rows, size_t K, const uint8_t* Q, size_t ldq, const float* scales, float* out);

}  // namespace fx
