// Weights stored quantized (docs/format.md §7): int8 per output channel, int4 in blocks of 32 along the
// input features (GGUF Q4_0's layout), or float16. At run time such a weight is an ordinary float32
// Tensor whose Storage holds the quantized form and makes its float32 bytes only when something reads
// them: kernels that take the quantized form (Linear: ops/math/linear_quantized.cpp) never do, every
// other op sees the dequantised float32 values.
#pragma once
#include <memory>
#include <string>

#include "tensor/tensor.h"

namespace fx {

enum class QScheme {
  Int8,     // data int8 [N, K]; scale float32 [N]; w[n][k] = data[n][k] · scale[n]
  Int4,     // data uint8 [N, KB·16], KB = ceil(K/32); scale float16 [N, KB]; see kernels/gemm_q4_f32.h
  Float16,  // data float16 of the weight's shape; no scale
};
const char* qscheme_name(QScheme s);  // "int8", "int4", "fp16": the format's spelling
bool parse_qscheme(const std::string& name, QScheme* out);

struct QuantizedWeight {
  QScheme scheme = QScheme::Int8;
  Shape shape;        // the float32 weight's shape
  Tensor data;        // as stored in the file
  Tensor scale;       // as stored (undefined for Float16)
  Tensor scale_f32;   // the scales as float32, what the kernels read (Int4's are stored as float16)
  // Int8: the bytes repacked for one-row products (kernels/gemv_q8_packed.h), made by the first one
  // (ops/math/linear_quantized.cpp): a model that decodes holds its int8 Linear weights twice.
  mutable Tensor gemv_packed;
};

// The float32 tensor backed by q (no bytes made yet).
Tensor quantized_tensor(std::shared_ptr<const QuantizedWeight> q);
// q when `t` is exactly such a tensor (the whole weight, contiguous), else nullptr.
const QuantizedWeight* quantized_of(const Tensor& t);
// Writes the dequantised float32 values (numel of q.shape) to out.
void dequantize_into(const QuantizedWeight& q, float* out);

// Quantises a float32 tensor (Int8 / Int4: 2-D [N, K]); nullptr when the scheme cannot hold it faithfully:
// a value that is inf or NaN, a float16 scale or value that would overflow. The rounding is specified in
// docs/format.md §7, and python/fxwasm/quantize.py computes the same bytes.
std::shared_ptr<const QuantizedWeight> quantize_weight(const Tensor& w, QScheme scheme);

}  // namespace fx
