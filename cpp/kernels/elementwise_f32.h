// float32 fast paths for the commonest elementwise ops over packed arrays: the cases an activation-sized
// model spends its element-wise time in (same-shape operands, or one operand a single value). Compiled
// with the kernels' -O3, where these loops vectorise (wasm SIMD128, or the native vector unit). The
// results equal the generic path's (ops/math/elementwise.h): the same float32 arithmetic element by element.
// Large arrays are split in fixed blocks over the kernel threads (kernels/parallel.h).
#pragma once
#include <cstdint>

namespace fx::kernels {

enum class BinaryF32 { Add, Sub, Mul, Div };
enum class UnaryF32 { Abs, Neg, Relu };

// y[i] = a[i] op b[i] over n elements; a_single / b_single: that operand is one value, used for every i.
void binary_f32(BinaryF32 op, int64_t n, const float* a, bool a_single, const float* b, bool b_single, float* y);

// y[i] = op(x[i]) over n elements (relu lets nan through, as torch does).
void unary_f32(UnaryF32 op, int64_t n, const float* x, float* y);

// masked_fill with a mask that repeats over leading dims: y[b·m + i] = mask[i] ? value : x[b·m + i] for
// b < blocks, i < m (attention's causal mask [L, L] over scores [N, H, L, L]).
void masked_fill_f32(int64_t blocks, int64_t m, const float* x, const bool* mask, float value, float* y);

}  // namespace fx::kernels
