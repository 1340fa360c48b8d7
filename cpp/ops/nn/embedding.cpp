// F.embedding / aten.embedding: rows of `weight` gathered by integer indices (any shape), giving
// indices.shape + [embedding_dim]. max_norm renormalisation is not supported (it mutates the weight).
#include <cstring>

#include "ops/math/linear_quantized.h"
#include "ops/nn/nn_util.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {

Tensor embedding_tensor(const Tensor& weight, const Tensor& indices) {
  if (weight.dim() != 2) throw FxError("'weight' must be 2-D");
  if (indices.dtype() != DType::Int64 && indices.dtype() != DType::Int32)
    throw FxError(std::string("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                              "Long, Int; but got ") + dtype_name(indices.dtype()) + " instead");
  Tensor idx = to_dtype(indices, DType::Int64).contiguous();
  Tensor w = weight.contiguous();
  const int64_t V = w.shape()[0], D = w.shape()[1];
  Shape shape = idx.shape();
  shape.push_back(D);
  Tensor out = Tensor::empty(shape, w.dtype());
  if (meta_mode()) return out;  // shape inference: no kernel (tensor/meta.h)
  // An int8/int4 table (tensor/quantized.h): rows dequantised as gathered, the float32 table never made.
  if (const QuantizedWeight* q = quantized_of(w); q && has_quantized_gemm(*q)) {
    for (int64_t i = 0; i < idx.numel(); ++i) {
      const int64_t k = idx.data<int64_t>()[i];
      if (k < 0 || k >= V) throw FxError("index out of range in self");
      quantized_rows(*q, k, 1, out.data<float>() + i * D);
    }
    return out;
  }
  const size_t row = static_cast<size_t>(D) * dtype_size(w.dtype());
  const auto* src = static_cast<const uint8_t*>(w.raw_data());
  auto* dst = static_cast<uint8_t*>(out.raw_data());
  for (int64_t i = 0; i < idx.numel(); ++i) {
    const int64_t k = idx.data<int64_t>()[i];
    if (k < 0 || k >= V) throw FxError("index out of range in self");
    std::memcpy(dst + i * row, src + k * row, row);
  }
  return out;
}

namespace {

Object f_embedding_op(const OpCall& call) {
  static const Schema schema("embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, "
                             "scale_grad_by_freq=False, sparse=False)");
  Args a = schema.parse(call);
  if (!a.is_none(3)) throw FxError("embedding: max_norm is not supported (it renormalises the weight in place)");
  return embedding_tensor(a.tensor(1), a.tensor(0));
}

Object aten_embedding_op(const OpCall& call) {
  static const Schema schema("embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False)");
  Args a = schema.parse(call);
  return embedding_tensor(a.tensor(0), a.tensor(1));
}

const OpRegistrar reg_f_emb{OpDef{"torch.nn.functional.embedding", {}, {}, f_embedding_op}};
const OpRegistrar reg_emb{OpDef{"torch.embedding", {"aten.embedding.default"}, {}, aten_embedding_op}};

}  // namespace
}  // namespace fx
