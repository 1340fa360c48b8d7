// F.embedding / aten.embedding: rows of `weight` gathered by integer indices (any shape), giving
// indices.shape + [embedding_dim]. With max_norm, the rows looked up are first renormalised in the weight
// itself (embedding_renorm_), as torch does: an in-place write into the weight.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

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

// Rows of weight named in indices whose norm_type-norm exceeds max_norm are scaled to max_norm (by
// max_norm / (norm + 1e-7), as torch), in place: the weight's own storage, whatever its strides.
void embedding_renorm(const Tensor& weight, const Tensor& indices, double max_norm, double norm_type) {
  if (weight.dim() != 2) throw FxError("'weight' must be 2-D");
  if (indices.dtype() != DType::Int64 && indices.dtype() != DType::Int32)
    throw FxError("embedding_renorm_: indices must be an int64 or int32 tensor");
  if (meta_mode()) return;
  Tensor idx = to_dtype(indices, DType::Int64).contiguous();
  std::vector<int64_t> rows(idx.data<int64_t>(), idx.data<int64_t>() + idx.numel());
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  const int64_t V = weight.shape()[0], D = weight.shape()[1], rs = weight.strides()[0], cs = weight.strides()[1];
  Tensor w = weight;  // (a handle on the same storage)
  dispatch_floating(weight.dtype(), "embedding_renorm_", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t r : rows) {
      if (r < 0 || r >= V) throw FxError("index out of range in self");
      T* row = w.data<T>() + r * rs;
      double norm = 0;
      for (int64_t j = 0; j < D; ++j) {
        const double v = std::fabs(static_cast<double>(row[j * cs]));
        if (norm_type == 1) norm += v;
        else if (norm_type == 2) norm += v * v;
        else if (std::isinf(norm_type)) norm = std::max(norm, v);
        else norm += std::pow(v, norm_type);
      }
      if (norm_type == 2) norm = std::sqrt(norm);
      else if (norm_type != 1 && !std::isinf(norm_type)) norm = std::pow(norm, 1 / norm_type);
      if (norm > max_norm) {
        const T scale = static_cast<T>(max_norm / (norm + 1e-7));
        for (int64_t j = 0; j < D; ++j) row[j * cs] *= scale;
      }
    }
  });
}

namespace {

Object f_embedding_op(const OpCall& call) {
  static const Schema schema("embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, "
                             "scale_grad_by_freq=False, sparse=False)");
  Args a = schema.parse(call);
  if (!a.is_none(3)) {
    embedding_renorm(a.tensor(1), a.tensor(0), a.number(3).as_double(), a.number(4).as_double());
  }
  return embedding_tensor(a.tensor(1), a.tensor(0));
}

Object aten_embedding_op(const OpCall& call) {
  static const Schema schema("embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False)");
  Args a = schema.parse(call);
  return embedding_tensor(a.tensor(0), a.tensor(1));
}

Object embedding_renorm_op(const OpCall& call) {
  static const Schema schema("embedding_renorm_(input|self, indices, max_norm, norm_type)");
  Args a = schema.parse(call);
  embedding_renorm(a.tensor(0), a.tensor(1), a.number(2).as_double(), a.number(3).as_double());
  return a.tensor(0);
}

const OpRegistrar reg_renorm{OpDef{"torch.embedding_renorm_", {"aten.embedding_renorm_.default"}, {}, embedding_renorm_op}};
const OpRegistrar reg_f_emb{OpDef{"torch.nn.functional.embedding", {}, {}, f_embedding_op}};
const OpRegistrar reg_emb{OpDef{"torch.embedding", {"aten.embedding.default"}, {}, aten_embedding_op}};

}  // namespace
}  // namespace fx
