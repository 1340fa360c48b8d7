// Grouped matrix product of mixture-of-experts layers: rows of `input` [S, K] sorted by expert, expert i
// owning rows offs[i-1]..offs[i] (offs: cumulative counts, int32/int64 [G]), each multiplied by its own
// weight[i] [K, N]. Hugging Face transformers 5 writes it as the custom op
// transformers::grouped_mm_fallback (integrations/moe.py, every MoE model on CPU in float32), torch as
// aten._grouped_mm (2-D input, 3-D weight, with offs). Rows past offs[G-1] are zero, as both leave them.
#include <cstring>

#include "ops/math/matmul.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {
namespace {

template <typename T>
void grouped(const Tensor& x, const Tensor& w, const std::vector<int64_t>& offs, Tensor& out) {
  const int64_t K = x.shape()[1], N = w.shape()[2];
  const T* X = x.data<T>();
  T* O = out.data<T>();
  const int64_t* ws = w.strides().data();
  int64_t start = 0;
  for (size_t g = 0; g < offs.size(); ++g) {
    const int64_t end = offs[g];
    if (end > start)
      gemm_views<T>(end - start, N, K, X + start * K, K, 1, w.data<T>() + static_cast<int64_t>(g) * ws[0], ws[1],
                    ws[2], O + start * N, N);
    start = end;
  }
}

Object grouped_mm(const Tensor& input, const Tensor& weight, const Tensor& offs, const char* op) {
  const std::string name(op);
  if (input.dim() != 2 || weight.dim() != 3 || offs.dim() != 1)
    throw FxError(name + ": expects input [S, K], weight [G, K, N] and offs [G]; got " +
                  shape_to_string(input.shape()) + ", " + shape_to_string(weight.shape()) + ", " +
                  shape_to_string(offs.shape()));
  if (offs.dtype() != DType::Int32 && offs.dtype() != DType::Int64)
    throw FxError(name + ": offs must be an integer tensor (int32 or int64)");
  if (offs.shape()[0] != weight.shape()[0])
    throw FxError(name + ": offs length " + std::to_string(offs.shape()[0]) + " must match number of experts " +
                  std::to_string(weight.shape()[0]));
  if (input.shape()[1] != weight.shape()[1])
    throw FxError(name + ": input_dim mismatch: input has " + std::to_string(input.shape()[1]) + ", weight has " +
                  std::to_string(weight.shape()[1]));
  if (input.dtype() != weight.dtype())
    throw FxError(name + ": input and weight must have the same dtype");
  if (input.dtype() != DType::Float32 && input.dtype() != DType::Float64)
    throw FxError(name + ": only float32 and float64 are supported, got " + dtype_name(input.dtype()));
  const int64_t S = input.shape()[0];
  Tensor out = Tensor::zeros({S, weight.shape()[2]}, input.dtype());
  if (meta_mode()) return out;  // shape inference: no kernel (tensor/meta.h)
  Tensor o64 = to_dtype(offs, DType::Int64).contiguous();
  std::vector<int64_t> ends(o64.data<int64_t>(), o64.data<int64_t>() + o64.numel());
  int64_t prev = 0;
  for (int64_t e : ends) {
    if (e < prev || e > S)
      throw FxError(name + ": offs must be non-decreasing and at most the number of rows (" + std::to_string(S) +
                    ")");
    prev = e;
  }
  Tensor x = input.contiguous();
  if (input.dtype() == DType::Float32) grouped<float>(x, weight, ends, out);
  else grouped<double>(x, weight, ends, out);
  return out;
}

Object fallback_op(const OpCall& call) {
  static const Schema schema("grouped_mm_fallback(input, weight, offs)");
  Args a = schema.parse(call);
  return grouped_mm(a.tensor(0), a.tensor(1), a.tensor(2), "grouped_mm_fallback");
}

Object aten_grouped_mm_op(const OpCall& call) {
  static const Schema schema("_grouped_mm(self, mat2, offs=None, bias=None, out_dtype=None)");
  Args a = schema.parse(call);
  if (a.is_none(2) || !a.is_none(3) || !a.is_none(4))
    throw FxError("_grouped_mm: only the 2-D input × 3-D weight form with offs, no bias and no out_dtype, is "
                  "supported");
  return grouped_mm(a.tensor(0), a.tensor(1), a.tensor(2), "_grouped_mm");
}

const OpRegistrar reg_fallback{OpDef{"transformers.grouped_mm_fallback.default", {}, {}, fallback_op}};
const OpRegistrar reg_aten{OpDef{"aten._grouped_mm.default", {"torch._grouped_mm"}, {}, aten_grouped_mm_op}};

}  // namespace
}  // namespace fx
