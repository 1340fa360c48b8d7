// Helpers shared by the neural-network op files (matmul, conv, pooling, norms, reductions...): float
// inputs in the dtype kernels compute in, dim wrapping, "int or tuple" hyperparameters, reshaped views.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ops/dispatch.h"
#include "ops/schema.h"
#include "tensor/tensor.h"

namespace fx {

// x packed in the dtype its floating kernels compute in (float32 for the half types); FxError naming `op`
// for integer or bool inputs (torch: "\"conv2d\" not implemented for 'Long'").
Tensor float_contiguous(const Tensor& x, const char* op);

// Calls f(float{}) or f(double{}) for a float32/float64 tensor dtype; FxError otherwise.
template <typename F>
decltype(auto) dispatch_float(DType t, const char* op, F&& f) {
  if constexpr (kIsKernel<F>) {  // shape inference: no kernel (ops/dispatch.h)
    if (meta_mode() && (t == DType::Float32 || t == DType::Float64)) return;
  }
  if (t == DType::Float32) return f(float{});
  if (t == DType::Float64) return f(double{});
  throw FxError(std::string("\"") + op + "\" not implemented for '" + dtype_name(t) + "'");
}

// torch's maybe_wrap_dim: -1 is the last dim; FxError "Dimension out of range ..." otherwise.
int64_t wrap_dim(int64_t dim, int64_t ndim);

// A hyperparameter given as an int or a sequence of ints, expanded to `n` values (an int, or a
// one-element sequence, repeats). FxError naming `what` on a wrong length.
std::vector<int64_t> expand_ints(const std::vector<int64_t>& v, size_t n, const std::string& what);
std::vector<int64_t> arg_ints(const Args& a, size_t i, size_t n, const std::string& what);

// A view of the packed tensor `t` with another shape of the same numel.
Tensor view_as_shape(const Tensor& t, const Shape& shape);

// A view with dims permuted (no copy).
Tensor permute_view(const Tensor& t, const std::vector<int64_t>& perm);

// Optional float argument: None → nullopt.
std::optional<double> opt_double(const Args& a, size_t i);

// The result in the input's dtype (a float16 input computed in float32 is rounded back once).
Tensor restore_dtype(const Tensor& out, DType original);

// embedding_renorm_ (ops/nn/embedding.cpp): scales the rows of a 2-d weight named in indices
// whose norm exceeds max_norm down to it, in place (F.embedding / F.embedding_bag with max_norm).
void embedding_renorm(const Tensor& weight, const Tensor& indices, double max_norm, double norm_type);

}  // namespace fx
