#include "ops/linalg/linalg_util.h"

#include "ops/array/view_util.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {

MatrixBatch matrix_batch(const Tensor& x, const std::string& op, bool square) {
  if (x.dim() < 2)
    throw FxError(op + ": The input tensor A must have at least 2 dimensions.");
  if (!dtype_is_floating(x.dtype()))
    throw FxError(op + ": Expected a floating point tensor as input. Got " + torch_type_name(x.dtype()));
  MatrixBatch b;
  b.rows = x.shape()[x.dim() - 2];
  b.cols = x.shape()[x.dim() - 1];
  if (square && b.rows != b.cols)
    throw FxError(op + ": A must be batches of square matrices, but they are " + std::to_string(b.rows) + " by " +
                  std::to_string(b.cols) + " matrices");
  b.batch = Shape(x.shape().begin(), x.shape().end() - 2);
  b.count = 1;
  for (int64_t d : b.batch) b.count *= d;
  b.t = to_dtype(x, DType::Float64).contiguous().clone();
  return b;
}

void broadcast_batches(MatrixBatch& a, MatrixBatch& b) {
  const Shape batch = broadcast_shapes(a.batch, b.batch);
  for (MatrixBatch* m : {&a, &b}) {
    if (m->batch == batch) continue;
    Shape full = batch;
    full.push_back(m->rows);
    full.push_back(m->cols);
    m->t = expand_to(m->t, full).contiguous().clone();
    m->batch = batch;
    m->count = 1;
    for (int64_t d : batch) m->count *= d;
  }
}

Tensor batch_result(const Tensor& f64, DType dtype) { return to_dtype(f64, dtype); }

}  // namespace fx
