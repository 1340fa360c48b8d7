// Shared by the linear-algebra ops (ops/linalg/): batches of matrices ([..., rows, cols]) copied to packed
// float64 for the kernels of kernels/linalg_f64.h, and the results rounded back to the input's dtype.
#pragma once
#include <cstdint>
#include <string>

#include "tensor/tensor.h"

namespace fx {

// A packed float64 copy of a batch of matrices: count matrices of rows × cols.
struct MatrixBatch {
  Tensor t;  // float64, contiguous, shape [..., rows, cols]
  Shape batch;
  int64_t count = 0, rows = 0, cols = 0;
  double* at(int64_t i) { return t.data<double>() + i * rows * cols; }
};

// `op` names the op in errors: a floating tensor of at least 2 dims; `square` also checks rows == cols.
MatrixBatch matrix_batch(const Tensor& x, const std::string& op, bool square);

// Both expanded to their broadcast batch shape (each keeps its own matrix dims).
void broadcast_batches(MatrixBatch& a, MatrixBatch& b);

// The batch's float64 data as `dtype`, reshaped to `shape` (a packed copy).
Tensor batch_result(const Tensor& f64, DType dtype);

}  // namespace fx
