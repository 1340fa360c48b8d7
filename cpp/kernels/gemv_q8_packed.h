// One row of activations times int8 weights (a decoding step's Linear) over the weights repacked four
// output channels at a time: for each 16-wide step along K, channels n..n+3 are 64 consecutive bytes.
// The product then reads one sequential run of bytes (four row streams at once measured up to 2x slower
// once the weights come from L3 or memory), and each activation vector is loaded once for four channels.
// In a wasm harness streaming 14–57 MB of weights: 22–30 GMAC/s, against 14–22 reading the rows one by one.
//
// Same arithmetic as q8_gemm_bt's few-row path: the row quantised to int16 (qgemm::quantize_rows_i16),
// i32x4.dot_i16x8_s into int32 sums converted to float32 every qgemm::kActChunk products, then
// sum · a_scale · scale[n] and the epilogue. Output channels are split over the kernel threads in blocks
// of 16; any thread count gives the same bits.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/gemm_f32.h"

namespace fx {

// Bytes of the packed form of an N×K int8 weight: N rounded up to 4, K up to 16, the padding zero.
size_t q8_gemv_packed_size(size_t N, size_t K);
// Q [N, K] (row stride ldq) → packed (q8_gemv_packed_size(N, K) bytes).
void q8_pack_gemv(size_t N, size_t K, const int8_t* Q, size_t ldq, int8_t* packed);
// c[n] = epilogue(Σ_k a[k] · Q[n][k] · scales[n]) for n < N. False (nothing written) when a holds inf or
// NaN: the caller then takes q8_gemm_bt's float path, which propagates them.
bool q8_gemv_packed(size_t N, size_t K, const float* a, const int8_t* packed, const float* scales, float* c,
                    const GemmParams& p = {});

}  // namespace fx
