// Linear solves and inverses: triangular_solve / linalg.solve_triangular, the Cholesky family (cholesky,
// cholesky_ex, cholesky_solve, cholesky_inverse) and linalg.inv(_ex) / linalg.solve(_ex) by LU. Batched with
// broadcast batch dims; computed in float64 (kernels/linalg_f64.h), rounded to the input's dtype.
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/linalg_f64.h"
#include "ops/array/view_util.h"
#include "ops/call_op.h"
#include "ops/linalg/linalg_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/meta.h"
#include "tensor/promote.h"

namespace fx {
namespace {

// A's triangle (upper or lower) as a full matrix: the other entries are not read by the solves, but the
// transposes below read by index, so they are cleared.
void keep_triangle(double* a, int64_t n, bool upper) {
  for (int64_t r = 0; r < n; ++r)
    for (int64_t c = 0; c < n; ++c)
      if (upper ? c < r : c > r) a[r * n + c] = 0;
}

// In place over b: op(A) X = B (left) or X op(A) = B (right, as op(A)ᵀ Xᵀ = Bᵀ).
void solve_triangular_batch(MatrixBatch& a, MatrixBatch& b, bool upper, bool transpose, bool unit, bool left) {
  const int64_t n = a.rows;
  std::vector<double> bt;
  for (int64_t i = 0; i < a.count; ++i) {
    if (left) {
      linalg::triangular_solve(a.at(i), n, upper, transpose, unit, b.at(i), b.cols);
      continue;
    }
    // X A = B  ⇔  Aᵀ Xᵀ = Bᵀ
    const int64_t r = b.rows, c = b.cols;
    bt.assign(static_cast<size_t>(r * c), 0.0);
    for (int64_t x = 0; x < r; ++x)
      for (int64_t y = 0; y < c; ++y) bt[y * r + x] = b.at(i)[x * c + y];
    linalg::triangular_solve(a.at(i), n, upper, !transpose, unit, bt.data(), r);
    for (int64_t x = 0; x < r; ++x)
      for (int64_t y = 0; y < c; ++y) b.at(i)[x * c + y] = bt[y * r + x];
  }
}

// torch's check that A's and b's matrices have as many rows, with its message ("<prefix>Incompatible matrix
// sizes for <op>: each A matrix is 3 by 3 but each b matrix is 2 by 1").
void check_matrix_sizes(const MatrixBatch& a, const MatrixBatch& b, const char* prefix, const char* op) {
  if (a.rows != b.rows)
    throw FxError(std::string(prefix) + "Incompatible matrix sizes for " + op + ": each A matrix is " +
                  std::to_string(a.rows) + " by " + std::to_string(a.cols) + " but each b matrix is " +
                  std::to_string(b.rows) + " by " + std::to_string(b.cols));
}

// triangular_solve(b, A, upper=True, transpose=False, unitriangular=False): (X, A's copy)
Object triangular_solve_op(const OpCall& call) {
  static const Schema schema("triangular_solve(input|self|b, A, upper=True, transpose=False, unitriangular=False)");
  Args a = schema.parse(call);
  MatrixBatch b = matrix_batch(a.tensor(0), "torch.triangular_solve", false);
  MatrixBatch m = matrix_batch(a.tensor(1), "torch.triangular_solve", true);
  check_matrix_sizes(m, b, "torch.triangular_solve: ", "triangular_solve");
  broadcast_batches(m, b);
  Tensor a_copy = batch_result(m.t, a.tensor(1).dtype());
  if (!meta_mode()) solve_triangular_batch(m, b, a.boolean(2), a.boolean(3), a.boolean(4), true);
  return Object::tuple({batch_result(b.t, a.tensor(0).dtype()), a_copy});
}

// linalg.solve_triangular(A, B, *, upper, left=True, unitriangular=False)
Object solve_triangular_op(const OpCall& call) {
  static const Schema schema("linalg_solve_triangular(input|A, B|other, *, upper, left=True, unitriangular=False, "
                             "out=None)");
  Args a = schema.parse(call);
  MatrixBatch m = matrix_batch(a.tensor(0), "linalg.solve_triangular", true);
  MatrixBatch b = matrix_batch(a.tensor(1), "linalg.solve_triangular", false);
  const bool left = a.boolean(3);
  if ((left ? b.rows : b.cols) != m.rows)
    throw FxError("linalg.solve_triangular: Incompatible shapes of A and B for the equation " +
                  std::string(left ? "AX = B" : "XA = B"));
  broadcast_batches(m, b);
  if (!meta_mode()) solve_triangular_batch(m, b, a.boolean(2), false, a.boolean(4), left);
  return batch_result(b.t, a.tensor(1).dtype());
}

// The factor as a full triangle, and the solves of L Lᵀ X = B (or Uᵀ U X = B) over b
void cholesky_solve_batch(MatrixBatch& f, MatrixBatch& b, bool upper) {
  for (int64_t i = 0; i < f.count; ++i) {
    keep_triangle(f.at(i), f.rows, upper);
    // lower: L Y = B then Lᵀ X = Y; upper: Uᵀ Y = B then U X = Y
    linalg::triangular_solve(f.at(i), f.rows, upper, upper, false, b.at(i), b.cols);
    linalg::triangular_solve(f.at(i), f.rows, upper, !upper, false, b.at(i), b.cols);
  }
}

// cholesky_solve(B, L, upper=False)
Object cholesky_solve_op(const OpCall& call) {
  static const Schema schema("cholesky_solve(input|self|B, input2|L, upper=False)");
  Args a = schema.parse(call);
  MatrixBatch b = matrix_batch(a.tensor(0), "cholesky_solve", false);
  MatrixBatch f = matrix_batch(a.tensor(1), "cholesky_solve", true);
  check_matrix_sizes(f, b, "", "cholesky_solve");
  broadcast_batches(f, b);
  if (!meta_mode()) cholesky_solve_batch(f, b, a.boolean(2));
  return batch_result(b.t, a.tensor(0).dtype());
}

Tensor identity_batch(const MatrixBatch& like) {
  Shape shape = like.batch;
  shape.push_back(like.rows);
  shape.push_back(like.rows);
  Tensor eye = Tensor::zeros(shape, DType::Float64);
  if (!meta_mode())
    for (int64_t i = 0; i < like.count; ++i)
      for (int64_t r = 0; r < like.rows; ++r) eye.data<double>()[(i * like.rows + r) * like.rows + r] = 1;
  return eye;
}

// cholesky_inverse(L, upper=False): (L Lᵀ)⁻¹ or (Uᵀ U)⁻¹
Object cholesky_inverse_op(const OpCall& call) {
  static const Schema schema("cholesky_inverse(input|self|L, upper=False)");
  Args a = schema.parse(call);
  MatrixBatch f = matrix_batch(a.tensor(0), "cholesky_inverse", true);
  MatrixBatch b = f;
  b.t = identity_batch(f);
  b.cols = f.rows;
  if (!meta_mode()) cholesky_solve_batch(f, b, a.boolean(1));
  return batch_result(b.t, a.tensor(0).dtype());
}

// linalg.cholesky(A, *, upper=False) / cholesky_ex (L, info) / torch.cholesky(A, upper=False)
template <int kForm>  // 0: linalg.cholesky, 1: linalg.cholesky_ex, 2: torch.cholesky
Object cholesky_op(const OpCall& call) {
  static const Schema linalg_schema("linalg_cholesky(input|A, *, upper=False, check_errors=False, out=None)");
  static const Schema torch_schema("cholesky(input|self, upper=False)");
  Args a = (kForm == 2 ? torch_schema : linalg_schema).parse(call);
  MatrixBatch m = matrix_batch(a.tensor(0), "linalg.cholesky", true);
  const bool upper = a.boolean(1);
  Tensor info = Tensor::zeros(m.batch, DType::Int32);
  if (!meta_mode())
    for (int64_t i = 0; i < m.count; ++i) {
      const int64_t bad = linalg::cholesky(m.at(i), m.rows);
      info.data<int32_t>()[i] = static_cast<int32_t>(bad);
      if (bad && kForm != 1)
        throw FxError("linalg.cholesky: " + std::string(m.count > 1 ? "(Batch element " + std::to_string(i) + "): " : "") +
                      "The factorization could not be completed because the input is not positive-definite (the "
                      "leading minor of order " + std::to_string(bad) + " is not positive-definite).");
      if (upper)  // U = Lᵀ
        for (int64_t r = 0; r < m.rows; ++r)
          for (int64_t c = r + 1; c < m.rows; ++c) std::swap(m.at(i)[r * m.rows + c], m.at(i)[c * m.rows + r]);
    }
  Tensor out = batch_result(m.t, a.tensor(0).dtype());
  if (kForm == 1) return Object::tuple({out, info});
  return out;
}

// A⁻¹ by LU; info is the 1-based index of a zero pivot (then the inverse is not defined)
template <bool kEx>
Object inv_op(const OpCall& call) {
  static const Schema schema(std::string(kEx ? "linalg_inv_ex" : "linalg_inv") +
                             "(input|A|self, *, check_errors=False, out=None)");
  Args a = schema.parse(call);
  MatrixBatch m = matrix_batch(a.tensor(0), "linalg.inv", true);
  MatrixBatch b = m;
  b.t = identity_batch(m);
  Tensor info = Tensor::zeros(m.batch, DType::Int32);
  if (!meta_mode()) {
    std::vector<int32_t> piv(static_cast<size_t>(m.rows));
    for (int64_t i = 0; i < m.count; ++i) {
      const int64_t bad = linalg::lu_factor(m.at(i), m.rows, m.rows, piv.data());
      info.data<int32_t>()[i] = static_cast<int32_t>(bad);
      if (bad && !kEx)
        throw FxError("linalg.inv: " + std::string(m.count > 1 ? "(Batch element " + std::to_string(i) + "): " : "") +
                      "The diagonal element " + std::to_string(bad) +
                      " is zero, the inversion could not be completed because the input matrix is singular.");
      linalg::lu_solve(m.at(i), piv.data(), m.rows, b.at(i), m.rows);
    }
  }
  Tensor out = batch_result(b.t, a.tensor(0).dtype());
  if (kEx) return Object::tuple({out, info});
  return out;
}

// A X = B by LU, B a batch of matrices, or of vectors when B has one dim fewer than A (torch's rule);
// info per matrix: the 1-based index of a zero pivot, else 0.
Tensor solve_tensor(const Tensor& A, Tensor B, bool ex, Tensor* info_out) {
  const bool vector = B.dim() == 1 || (B.dim() == A.dim() - 1 && A.dim() > 2 &&
                                       std::equal(B.shape().begin(), B.shape().end() - 1, A.shape().begin()));
  const DType dtype = promote_types(A.dtype(), B.dtype());
  if (vector) {
    Shape s = B.shape();
    s.push_back(1);
    B = reshape(B.contiguous(), s);
  }
  MatrixBatch m = matrix_batch(A, "linalg.solve", true), b = matrix_batch(B, "linalg.solve", false);
  if (b.rows != m.rows)
    throw FxError("linalg.solve: Incompatible shapes of A and B for the equation AX = B (" + std::to_string(m.rows) +
                  "x" + std::to_string(m.cols) + " and " + std::to_string(b.rows) + "x" + std::to_string(b.cols) + ")");
  broadcast_batches(m, b);
  Tensor info = Tensor::zeros(m.batch, DType::Int32);
  if (!meta_mode()) {
    std::vector<int32_t> piv(static_cast<size_t>(m.rows));
    for (int64_t i = 0; i < m.count; ++i) {
      const int64_t bad = linalg::lu_factor(m.at(i), m.rows, m.rows, piv.data());
      info.data<int32_t>()[i] = static_cast<int32_t>(bad);
      if (bad && !ex) throw FxError("torch.linalg.solve: The solver failed because the input matrix is singular.");
      linalg::lu_solve(m.at(i), piv.data(), m.rows, b.at(i), b.cols);
    }
  }
  Tensor out = batch_result(b.t, dtype);
  if (vector) {
    Shape s = out.shape();
    s.pop_back();
    out = reshape(out, s);
  }
  if (info_out) *info_out = info;
  return out;
}

Tensor transposed(const Tensor& t) {
  return call_op("torch.transpose", {Object(t), Object(Value::integer(-2)), Object(Value::integer(-1))}).tensor();
}

// linalg.solve(A, B, *, left=True); left=False solves X A = B as Aᵀ Xᵀ = Bᵀ
template <bool kEx>
Object solve_op(const OpCall& call) {
  static const Schema schema(std::string(kEx ? "linalg_solve_ex" : "linalg_solve") +
                             "(input|A, other|B, *, left=True, check_errors=False, out=None)");
  Args a = schema.parse(call);
  Tensor info;
  Tensor out = a.boolean(2) ? solve_tensor(a.tensor(0), a.tensor(1), kEx, &info)
                            : transposed(solve_tensor(transposed(a.tensor(0)), transposed(a.tensor(1)), kEx, &info));
  if (kEx) return Object::tuple({out, info});
  return out;
}

const OpRow kOps[] = {
    {"torch.triangular_solve", "torch.Tensor.triangular_solve aten.triangular_solve.default", "triangular_solve",
     triangular_solve_op},
    {"torch.linalg.solve_triangular", "torch._C._linalg.linalg_solve_triangular aten.linalg_solve_triangular.default",
     "", solve_triangular_op},
    {"torch.cholesky_solve", "torch.Tensor.cholesky_solve aten.cholesky_solve.default", "cholesky_solve",
     cholesky_solve_op},
    {"torch.cholesky_inverse", "torch.Tensor.cholesky_inverse aten.cholesky_inverse.default", "cholesky_inverse",
     cholesky_inverse_op},
    {"torch.linalg.cholesky", "torch._C._linalg.linalg_cholesky aten.linalg_cholesky.default", "", cholesky_op<0>},
    {"torch.linalg.cholesky_ex", "torch._C._linalg.linalg_cholesky_ex aten.linalg_cholesky_ex.default", "",
     cholesky_op<1>},
    {"torch.cholesky", "torch.Tensor.cholesky aten.cholesky.default", "cholesky", cholesky_op<2>},
    {"torch.linalg.inv", "torch._C._linalg.linalg_inv aten.linalg_inv.default torch.inverse torch.Tensor.inverse",
     "inverse", inv_op<false>},
    {"torch.linalg.inv_ex", "torch._C._linalg.linalg_inv_ex aten.linalg_inv_ex.default", "", inv_op<true>},
    {"torch.linalg.solve", "torch._C._linalg.linalg_solve aten.linalg_solve.default", "", solve_op<false>},
    {"torch.linalg.solve_ex", "torch._C._linalg.linalg_solve_ex aten.linalg_solve_ex.default", "", solve_op<true>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
