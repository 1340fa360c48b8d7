// float32 softmax and layer norm over packed rows: the shapes attention and transformer blocks spend their
// normalisation time in. Compiled with the kernels' -O3; the wasm build uses SIMD128 four lanes at a time.
// Sums run in float32 lanes folded into double every 256 values (float32-exact to rounding, as torch's
// vectorised CPU kernels, which also accumulate in float32); exp is a polynomial accurate to ~1 ulp
// (kernels/norm_f32.cpp). The generic kernels (kernels/norm.h) serve the other dtypes and layouts.
#pragma once
#include <cstdint>

namespace fx::kernels {

// x, y: `rows` rows of n contiguous values; softmax (or log_softmax) of each row. NaN anywhere in a row
// makes the row NaN; a row of -inf gives NaN (as torch).
void softmax_rows_f32(const float* x, float* y, int64_t rows, int64_t n, bool log);

// Layer norm of each row of n values: (x − mean) / sqrt(var + eps) · w + b (w, b: n values or null);
// mean / rstd (one per row) are written when not null.
void layer_norm_rows_f32(const float* x, const float* w, const float* b, float* y, int64_t rows, int64_t n,
                         double eps, float* mean, float* rstd);

// exp(x) for one value, the same polynomial the row kernels use (for tests).
float exp_f32(float x);

}  // namespace fx::kernels
