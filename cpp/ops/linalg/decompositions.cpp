// LU and QR factorizations and what is built on them: torch.lu (LU with partial pivoting, LAPACK's pivots),
// linalg.lu_factor(_ex), lu_unpack (P, L, U), lu_solve, logdet / linalg.det / linalg.slogdet, geqrf and
// ormqr (Householder reflectors as LAPACK stores them). Batched over leading dims; computed in float64
// (kernels/linalg_f64.h) and rounded to the input's dtype.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels/linalg_f64.h"
#include "ops/array/view_util.h"
#include "ops/linalg/linalg_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"
#include "tensor/meta.h"

namespace fx {
namespace {

Shape with(Shape batch, std::initializer_list<int64_t> tail) {
  batch.insert(batch.end(), tail);
  return batch;
}

// (LU, pivots int32 [..., min(m, n)], infos int32 [...])
std::vector<Tensor> lu_factor_tensors(const Tensor& x, const std::string& op) {
  MatrixBatch a = matrix_batch(x, op, false);
  const int64_t k = std::min(a.rows, a.cols);
  Tensor piv = Tensor::empty(with(a.batch, {k}), DType::Int32), info = Tensor::empty(a.batch, DType::Int32);
  if (!meta_mode())
    for (int64_t i = 0; i < a.count; ++i)
      info.data<int32_t>()[i] =
          static_cast<int32_t>(linalg::lu_factor(a.at(i), a.rows, a.cols, piv.data<int32_t>() + i * k));
  return {batch_result(a.t, x.dtype()), piv, info};
}

// torch.lu(A, pivot=True, get_infos=False): (LU, pivots) or (LU, pivots, infos)
Object lu_op(const OpCall& call) {
  static const Schema schema("lu(A|input, pivot=True, get_infos=False, out=None)");
  Args a = schema.parse(call);
  if (!a.boolean(1)) throw FxError("linalg.lu_factor: LU without pivoting is not implemented on the CPU");
  std::vector<Tensor> r = lu_factor_tensors(a.tensor(0), "torch.lu");
  if (a.boolean(2)) return Object::tuple({r[0], r[1], r[2]});
  return Object::tuple({r[0], r[1]});
}

template <bool kEx>
Object lu_factor_op(const OpCall& call) {
  static const Schema schema(std::string(kEx ? "linalg_lu_factor_ex" : "linalg_lu_factor") +
                             "(A|input, *, pivot=True, check_errors=False, out=None)");
  Args a = schema.parse(call);
  if (!a.boolean(1)) throw FxError("linalg.lu_factor: LU without pivoting is not implemented on the CPU");
  std::vector<Tensor> r = lu_factor_tensors(a.tensor(0), "linalg.lu_factor");
  if (kEx) return Object::tuple({r[0], r[1], r[2]});
  return Object::tuple({r[0], r[1]});
}

// lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True): A = P L U
Object lu_unpack_op(const OpCall& call) {
  static const Schema schema("lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True)");
  Args a = schema.parse(call);
  const Tensor& lu = a.tensor(0);
  MatrixBatch b = matrix_batch(lu, "lu_unpack", false);
  const int64_t m = b.rows, n = b.cols, k = std::min(m, n);
  const Tensor& pv = a.tensor(1);
  if (pv.dtype() != DType::Int32) throw FxError("lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.");
  Tensor piv = pv.contiguous();
  Tensor l = Tensor::zeros(with(b.batch, {m, k}), DType::Float64), u = Tensor::zeros(with(b.batch, {k, n}), DType::Float64);
  Tensor p = Tensor::zeros(with(b.batch, {m, m}), DType::Float64);
  if (!meta_mode()) {
    if (piv.numel() != b.count * k) throw FxError("lu_unpack: LU_pivots has the wrong size");
    for (int64_t i = 0; i < b.count; ++i) {
      const double* src = b.at(i);
      double* lp = l.data<double>() + i * m * k;
      double* up = u.data<double>() + i * k * n;
      for (int64_t r = 0; r < m; ++r)
        for (int64_t c = 0; c < k; ++c) lp[r * k + c] = r == c ? 1.0 : r > c ? src[r * n + c] : 0.0;
      for (int64_t r = 0; r < k; ++r)
        for (int64_t c = r; c < n; ++c) up[r * n + c] = src[r * n + c];
      std::vector<int64_t> perm(static_cast<size_t>(m));
      for (int64_t r = 0; r < m; ++r) perm[r] = r;
      for (int64_t r = 0; r < k; ++r) {
        const int64_t s = piv.data<int32_t>()[i * k + r] - 1;
        if (s < 0 || s >= m) throw FxError("lu_unpack: pivots out of range");
        std::swap(perm[r], perm[s]);
      }
      double* pp = p.data<double>() + i * m * m;
      for (int64_t r = 0; r < m; ++r) pp[perm[r] * m + r] = 1.0;
    }
  }
  const DType dt = lu.dtype();
  Tensor P = a.boolean(3) ? batch_result(p, dt) : Tensor::empty({0}, dt);
  Tensor L = a.boolean(2) ? batch_result(l, dt) : Tensor::empty({0}, dt);
  Tensor U = a.boolean(2) ? batch_result(u, dt) : Tensor::empty({0}, dt);
  return Object::tuple({P, L, U});
}

// A X = B from A's LU: torch.lu_solve(B, LU_data, LU_pivots); linalg.lu_solve(LU, pivots, B, *, left, adjoint)
Tensor lu_solve_tensor(const Tensor& rhs, const Tensor& lu, const Tensor& pivots, const std::string& op) {
  MatrixBatch f = matrix_batch(lu, op, true), b = matrix_batch(rhs, op, false);
  if (b.rows != f.rows)
    throw FxError(op + ": Incompatible shapes of A and B for the equation AX = B (" + std::to_string(f.rows) + "x" +
                  std::to_string(f.cols) + " and " + std::to_string(b.rows) + "x" + std::to_string(b.cols) + ")");
  const Shape f_batch = f.batch;
  broadcast_batches(f, b);
  const int64_t n = f.rows;
  // pivots broadcast with the factors' batch
  Shape pshape = f.batch;
  pshape.push_back(n);
  Tensor piv = expand_to(pivots, pshape).contiguous();
  if (piv.dtype() != DType::Int32) piv = to_dtype(piv, DType::Int32);
  (void)f_batch;
  if (!meta_mode())
    for (int64_t i = 0; i < f.count; ++i) linalg::lu_solve(f.at(i), piv.data<int32_t>() + i * n, n, b.at(i), b.cols);
  return batch_result(b.t, rhs.dtype());
}

Object lu_solve_op(const OpCall& call) {
  static const Schema schema("lu_solve(input|self|b, LU_data, LU_pivots)");
  Args a = schema.parse(call);
  return lu_solve_tensor(a.tensor(0), a.tensor(1), a.tensor(2), "lu_solve");
}

// (sign, log|det|) per matrix from its LU: the sign of the pivots' product times the permutation's parity
struct SlogDet {
  double sign, logabs;
};
std::vector<SlogDet> slogdets(MatrixBatch& a) {
  std::vector<SlogDet> out(static_cast<size_t>(a.count));
  std::vector<int32_t> piv(static_cast<size_t>(a.rows));
  for (int64_t i = 0; i < a.count; ++i) {
    double* m = a.at(i);
    linalg::lu_factor(m, a.rows, a.rows, piv.data());
    double sign = 1, logabs = 0;
    for (int64_t r = 0; r < a.rows; ++r) {
      const double d = m[r * a.rows + r];
      if (piv[r] != r + 1) sign = -sign;
      if (d < 0) sign = -sign;
      if (d == 0) sign = 0;
      logabs += std::log(std::fabs(d));
    }
    if (sign == 0) logabs = -std::numeric_limits<double>::infinity();
    out[i] = {sign, logabs};
  }
  return out;
}

template <int kWhat>  // 0: logdet, 1: det, 2: slogdet
Object det_family_op(const OpCall& call) {
  static const Schema schema(std::string(kWhat == 0 ? "logdet" : kWhat == 1 ? "linalg_det" : "linalg_slogdet") +
                             "(A|input|self, *, out=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  MatrixBatch b = matrix_batch(x, kWhat == 0 ? "logdet" : kWhat == 1 ? "linalg.det" : "linalg.slogdet", true);
  Tensor v = Tensor::empty(b.batch, DType::Float64), s = Tensor::empty(b.batch, DType::Float64);
  if (!meta_mode()) {
    const std::vector<SlogDet> d = slogdets(b);
    for (int64_t i = 0; i < b.count; ++i) {
      s.data<double>()[i] = d[i].sign;
      if (kWhat == 0) v.data<double>()[i] = d[i].sign < 0 ? std::numeric_limits<double>::quiet_NaN() : d[i].logabs;
      else if (kWhat == 1) v.data<double>()[i] = d[i].sign * std::exp(d[i].logabs);
      else v.data<double>()[i] = d[i].logabs;
    }
  }
  if (kWhat == 2) return Object::tuple({batch_result(s, x.dtype()), batch_result(v, x.dtype())});
  return batch_result(v, x.dtype());
}

// geqrf(A): (a, tau) — R and the reflectors in a, their scales in tau (LAPACK's layout)
Object geqrf_op(const OpCall& call) {
  static const Schema schema("geqrf(input|self)");
  Args a = schema.parse(call);
  MatrixBatch b = matrix_batch(a.tensor(0), "geqrf", false);
  const int64_t k = std::min(b.rows, b.cols);
  Tensor tau = Tensor::empty(with(b.batch, {k}), DType::Float64);
  if (!meta_mode())
    for (int64_t i = 0; i < b.count; ++i) linalg::geqrf(b.at(i), b.rows, b.cols, tau.data<double>() + i * k);
  return Object::tuple({batch_result(b.t, a.tensor(0).dtype()), batch_result(tau, a.tensor(0).dtype())});
}

// ormqr(input, tau, other, left=True, transpose=False): op(Q) · other or other · op(Q), Q from geqrf's output
Object ormqr_op(const OpCall& call) {
  static const Schema schema("ormqr(input|self, input2|tau, input3|other, left=True, transpose=False)");
  Args a = schema.parse(call);
  MatrixBatch r = matrix_batch(a.tensor(0), "torch.ormqr", false), c = matrix_batch(a.tensor(2), "torch.ormqr", false);
  const bool left = a.boolean(3), transpose = a.boolean(4);
  const Tensor& tau0 = a.tensor(1);
  const int64_t k = tau0.dim() ? tau0.shape().back() : 1;
  const int64_t q_dim = left ? c.rows : c.cols;
  if (r.rows != q_dim)
    throw FxError(std::string("torch.ormqr: other.shape[") + (left ? "-2" : "-1") + "] must be equal to input.shape[-2]");
  if (k > r.cols) throw FxError("torch.ormqr: tau.shape[-1] must be less than or equal to input.shape[-1]");
  if (r.batch != c.batch)
    throw FxError("torch.ormqr: Expected batch dimensions of other to be equal to batch dimensions of input");
  Tensor tau = to_dtype(tau0, DType::Float64).contiguous();
  if (!meta_mode())
    for (int64_t i = 0; i < c.count; ++i)
      linalg::apply_householder(r.at(i), r.rows, k, r.cols, tau.data<double>() + i * k, c.at(i), c.rows, c.cols, left,
                                transpose);
  return batch_result(c.t, a.tensor(2).dtype());
}

const OpRow kOps[] = {
    {"torch.functional.lu", "torch.lu", "lu", lu_op},
    {"torch.linalg.lu_factor", "torch._C._linalg.linalg_lu_factor aten.linalg_lu_factor.default", "",
     lu_factor_op<false>},
    {"torch.linalg.lu_factor_ex", "torch._C._linalg.linalg_lu_factor_ex aten.linalg_lu_factor_ex.default", "",
     lu_factor_op<true>},
    {"torch.lu_unpack", "aten.lu_unpack.default", "", lu_unpack_op},
    {"torch.lu_solve", "torch.Tensor.lu_solve aten.lu_solve.default", "lu_solve", lu_solve_op},
    {"torch.logdet", "torch.Tensor.logdet aten.logdet.default", "logdet", det_family_op<0>},
    {"torch.linalg.det", "torch._C._linalg.linalg_det aten.linalg_det.default torch.det torch.Tensor.det", "det",
     det_family_op<1>},
    {"torch.linalg.slogdet", "torch._C._linalg.linalg_slogdet aten.linalg_slogdet.default torch.slogdet "
                             "torch.Tensor.slogdet", "slogdet", det_family_op<2>},
    {"torch.geqrf", "torch.Tensor.geqrf aten.geqrf.default", "geqrf", geqrf_op},
    {"torch.ormqr", "torch.Tensor.ormqr aten.ormqr.default", "ormqr", ormqr_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
