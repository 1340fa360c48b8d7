// linalg.matrix_exp (torch.matrix_exp, Tensor.matrix_exp): exp(A) of each matrix of a batch, in float64
// (kernels/linalg_f64.h: scaling and squaring with Padé approximants), rounded to the input's dtype.
#include "kernels/linalg_f64.h"
#include "ops/linalg/linalg_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "tensor/meta.h"

namespace fx {
namespace {

Object matrix_exp_op(const OpCall& call) {
  static const Schema schema("linalg_matrix_exp(input|self|A)");
  Args a = schema.parse(call);
  MatrixBatch m = matrix_batch(a.tensor(0), "linalg.matrix_exp", true);
  MatrixBatch r = m;
  r.t = Tensor::empty(m.t.shape(), DType::Float64);
  if (!meta_mode())
    for (int64_t i = 0; i < m.count; ++i) linalg::matrix_exp(m.at(i), m.rows, r.at(i));
  return batch_result(r.t, a.tensor(0).dtype());
}

const OpRow kOps[] = {
    {"torch.linalg.matrix_exp",
     "torch._C._linalg.linalg_matrix_exp aten.linalg_matrix_exp.default torch.matrix_exp", "matrix_exp",
     matrix_exp_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
