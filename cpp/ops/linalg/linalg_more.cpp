// More linalg ops whose results are unique, on the float64 kernels: linalg.lu_solve (left or right, A or
// Aᵀ), linalg.lstsq (the minimum-norm least-squares solution, with the residuals, rank and singular values
// each LAPACK driver reports), linalg.polar (U H from the SVD) and linalg.matrix_sqrth (V √Λ Vᵀ from the
// symmetric eigendecomposition). Rounded once to the input's dtype.
#include <algorithm>
#include <cmath>
#include <limits>
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
#include "tensor/broadcast.h"
#include "tensor/meta.h"
#include "tensor/promote.h"

namespace fx {
namespace {

Tensor transposed(const Tensor& t) {
  return call_op("torch.transpose", {Object(t), Object(Value::integer(-2)), Object(Value::integer(-1))}).tensor();
}

// linalg.lu_solve(LU, pivots, B, *, left=True, adjoint=False): A X = B, Aᵀ X = B, X A = B or X Aᵀ = B
Object lu_solve_op(const OpCall& call) {
  static const Schema schema("linalg_lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None)");
  Args a = schema.parse(call);
  const bool left = a.boolean(3), adjoint = a.boolean(4);
  // X A = B ⇔ Aᵀ Xᵀ = Bᵀ: the right-hand forms solve the transposed system with B transposed
  const bool transpose = left ? adjoint : !adjoint;
  const Tensor rhs = left ? a.tensor(2) : transposed(a.tensor(2));
  MatrixBatch f = matrix_batch(a.tensor(0), "linalg.lu_solve", true), b = matrix_batch(rhs, "linalg.lu_solve", false);
  if (b.rows != f.rows)
    throw FxError("linalg.lu_solve: Incompatible shapes of A and B for the equation " +
                  std::string(left ? "AX = B" : "XA = B"));
  broadcast_batches(f, b);
  Shape pshape = f.batch;
  pshape.push_back(f.rows);
  Tensor piv = to_dtype(expand_to(a.tensor(1), pshape), DType::Int32).contiguous();
  if (!meta_mode())
    for (int64_t i = 0; i < f.count; ++i)
      linalg::lu_solve(f.at(i), piv.data<int32_t>() + i * f.rows, f.rows, b.at(i), b.cols, transpose);
  Tensor x = batch_result(b.t, a.tensor(2).dtype());
  return left ? x : transposed(x).contiguous();
}

// linalg.lstsq(A, B, rcond=None, *, driver=None): (solution, residuals, rank, singular_values). The
// solution is the minimum-norm least-squares one (pinv(A) B, what every driver gives for a matrix of full
// rank); residuals (‖AX - B‖² per column) when m > n, the rank is full and the driver is not gelsy; rank
// except for gels; singular values for gelsd and gelss.
Object lstsq_op(const OpCall& call) {
  static const Schema schema("linalg_lstsq(input|A, b|B, rcond=None, *, driver=None)");
  Args a = schema.parse(call);
  const Tensor& A = a.tensor(0);
  Tensor B = a.tensor(1);
  const std::string driver = a.is_none(3) ? "gelsy" : a.str(3);
  if (driver != "gels" && driver != "gelsy" && driver != "gelsd" && driver != "gelss")
    throw FxError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)");
  const bool vector = B.dim() == A.dim() - 1;
  if (vector) {
    Shape s = B.shape();
    s.push_back(1);
    B = reshape(B.contiguous(), s);
  }
  MatrixBatch m = matrix_batch(A, "torch.linalg.lstsq", false), b = matrix_batch(B, "torch.linalg.lstsq", false);
  if (b.rows != m.rows)
    throw FxError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)");
  broadcast_batches(m, b);
  const int64_t rows = m.rows, cols = m.cols, k = std::min(rows, cols), nrhs = b.cols;
  const double eps = A.dtype() == DType::Float64 ? std::numeric_limits<double>::epsilon()
                                                 : static_cast<double>(std::numeric_limits<float>::epsilon());
  const double rcond = a.is_none(2) ? eps * static_cast<double>(std::max(rows, cols)) : a.number(2).as_double();
  Shape xs = m.batch, ss = m.batch, rs = m.batch;
  xs.push_back(cols);
  xs.push_back(nrhs);
  ss.push_back(k);
  rs.push_back(nrhs);
  Tensor x = Tensor::zeros(xs, DType::Float64), sv = Tensor::empty(ss, DType::Float64);
  Tensor rank = Tensor::zeros(m.batch, DType::Int64), resid = Tensor::zeros(rs, DType::Float64);
  bool full = true;
  if (!meta_mode()) {
    std::vector<double> s(static_cast<size_t>(k)), u(static_cast<size_t>(rows * k)), vt(static_cast<size_t>(k * cols));
    for (int64_t i = 0; i < m.count; ++i) {
      const double* mat = m.at(i);
      const double* rhs = b.at(i);
      double* xi = x.data<double>() + i * cols * nrhs;
      if (k > 0) linalg::svd(mat, rows, cols, s.data(), u.data(), vt.data());
      const double cut = k > 0 ? rcond * s[0] : 0.0;
      int64_t r = 0;
      for (int64_t j = 0; j < k; ++j) {
        sv.data<double>()[i * k + j] = s[j];
        if (!(s[j] > cut)) continue;
        ++r;
        // x += v_j (u_jᵀ b) / s_j
        for (int64_t c = 0; c < nrhs; ++c) {
          double dot = 0;
          for (int64_t q = 0; q < rows; ++q) dot += u[q * k + j] * rhs[q * nrhs + c];
          dot /= s[j];
          for (int64_t p = 0; p < cols; ++p) xi[p * nrhs + c] += vt[j * cols + p] * dot;
        }
      }
      rank.data<int64_t>()[i] = r;
      full = full && r == cols;
      for (int64_t c = 0; c < nrhs; ++c) {
        double ss2 = 0;
        for (int64_t q = 0; q < rows; ++q) {
          double ax = 0;
          for (int64_t p = 0; p < cols; ++p) ax += mat[q * cols + p] * xi[p * nrhs + c];
          ss2 += (ax - rhs[q * nrhs + c]) * (ax - rhs[q * nrhs + c]);
        }
        resid.data<double>()[i * nrhs + c] = ss2;
      }
    }
  }
  const DType dt = promote_types(A.dtype(), a.tensor(1).dtype());
  Tensor solution = to_dtype(x, dt);
  if (vector) {
    Shape s = solution.shape();
    s.pop_back();
    solution = reshape(solution, s);
  }
  const bool has_resid = rows > cols && full && driver != "gelsy";
  Tensor residuals = has_resid ? to_dtype(vector ? reshape(resid, m.batch) : resid, dt) : Tensor::empty({0}, dt);
  Tensor ranks = driver == "gels" ? Tensor::empty({0}, DType::Int64) : rank;
  Tensor singular = driver == "gelsd" || driver == "gelss" ? to_dtype(sv, dt) : Tensor::empty({0}, dt);
  return Object::tuple({solution, residuals, ranks, singular});
}

// linalg.polar(A): A = U H, U = W Vᵀ with orthonormal columns and H = V Σ Vᵀ (A = W Σ Vᵀ, m >= n)
Object polar_op(const OpCall& call) {
  static const Schema schema("linalg_polar(input|A, *, out=None)");
  Args a = schema.parse(call);
  MatrixBatch m = matrix_batch(a.tensor(0), "linalg.polar", false);
  const int64_t rows = m.rows, cols = m.cols;
  if (rows < cols) throw FxError("linalg.polar: A must have at least as many rows as columns");
  Shape us = m.batch, hs = m.batch;
  us.push_back(rows);
  us.push_back(cols);
  hs.push_back(cols);
  hs.push_back(cols);
  Tensor U = Tensor::zeros(us, DType::Float64), H = Tensor::zeros(hs, DType::Float64);
  if (!meta_mode()) {
    std::vector<double> s(static_cast<size_t>(cols)), w(static_cast<size_t>(rows * cols)), vt(static_cast<size_t>(cols * cols));
    for (int64_t i = 0; i < m.count; ++i) {
      if (cols == 0) continue;
      linalg::svd(m.at(i), rows, cols, s.data(), w.data(), vt.data());
      double* u = U.data<double>() + i * rows * cols;
      double* h = H.data<double>() + i * cols * cols;
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
          for (int64_t j = 0; j < cols; ++j) u[r * cols + c] += w[r * cols + j] * vt[j * cols + c];
      for (int64_t r = 0; r < cols; ++r)
        for (int64_t c = 0; c < cols; ++c)
          for (int64_t j = 0; j < cols; ++j) h[r * cols + c] += vt[j * cols + r] * s[j] * vt[j * cols + c];
    }
  }
  return Object::tuple({batch_result(U, a.tensor(0).dtype()), batch_result(H, a.tensor(0).dtype())});
}

// linalg.matrix_sqrth(A): V √Λ Vᵀ of the symmetric matrix A's lower triangle describes
Object matrix_sqrth_op(const OpCall& call) {
  static const Schema schema("linalg_matrix_sqrth(input|A, *, out=None)");
  Args a = schema.parse(call);
  MatrixBatch m = matrix_batch(a.tensor(0), "linalg.matrix_sqrth", true);
  const int64_t n = m.rows;
  Tensor out = Tensor::zeros(m.t.shape(), DType::Float64);
  if (!meta_mode()) {
    std::vector<double> w(static_cast<size_t>(n)), v(static_cast<size_t>(n * n));
    for (int64_t i = 0; i < m.count; ++i) {
      double* x = m.at(i);
      for (int64_t r = 0; r < n; ++r)
        for (int64_t c = r + 1; c < n; ++c) x[r * n + c] = x[c * n + r];
      linalg::symmetric_eigen(x, n, w.data(), v.data());
      double* o = out.data<double>() + i * n * n;
      for (int64_t j = 0; j < n; ++j) {
        const double root = std::sqrt(w[j]);
        for (int64_t r = 0; r < n; ++r)
          for (int64_t c = 0; c < n; ++c) o[r * n + c] += v[r * n + j] * root * v[c * n + j];
      }
    }
  }
  return batch_result(out, a.tensor(0).dtype());
}

#define LINALG(n) "torch._C._linalg.linalg_" n " aten.linalg_" n ".default"
const OpRow kOps[] = {
    {"torch.linalg.lu_solve", LINALG("lu_solve"), "", lu_solve_op},
    {"torch.linalg.lstsq", LINALG("lstsq"), "", lstsq_op},
    {"torch.linalg.polar", LINALG("polar"), "", polar_op},
    {"torch.linalg.matrix_sqrth", LINALG("matrix_sqrth"), "", matrix_sqrth_op},
};
#undef LINALG
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
