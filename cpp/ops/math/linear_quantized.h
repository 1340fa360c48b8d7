// Linear on a weight stored int8 or int4 (tensor/quantized.h): the GEMM reads the quantized bytes
// (kernels/gemm_q8_f32.h, gemm_q4_f32.h), so the weight's float32 values are never made. PackedLinear
// (matmul.h) takes this path for such weights, which covers nn.Linear, F.linear / aten.linear and
// fxwasm.fused_linear; Embedding gathers its rows from the quantized bytes too.
#pragma once
#include <cstdint>

#include "kernels/gemm_f32.h"
#include "tensor/quantized.h"

namespace fx {

// True when `q` has a quantized GEMM (int8, int4); float16 weights run as float32.
bool has_quantized_gemm(const QuantizedWeight& q);
// out[i·K + k] = W[row + i][k] for `count` rows of an int8/int4 weight (Embedding lookups).
void quantized_rows(const QuantizedWeight& q, int64_t row, int64_t count, float* out);
// When `wt` is the transpose ([K, N], strides [1, K]) of a whole int8/int4 weight [N, K] — mm / addmm's
// mat2 in a make_fx graph's Linear, addmm(bias, x, t(w)) — the weight itself (quantized_of holds); else an
// undefined tensor.
Tensor quantized_weight_of_transpose(const Tensor& wt);
// out [rows, N] (contiguous) = epilogue(x [rows, K] (contiguous) · Wᵀ).
void quantized_linear_gemm(const QuantizedWeight& q, int64_t rows, const float* x, float* out, const GemmParams& p);

}  // namespace fx
