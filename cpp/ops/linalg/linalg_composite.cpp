// linalg ops built from others as torch builds them: vecdot, vander (cumulative products), multi_dot (in the
// cheapest order, torch's matrix-chain choice), matrix_power (binary powers), norm (vector or matrix norm by
// ord and dim), lu (lu_factor then lu_unpack), householder_product and qr (geqrf's reflectors applied to
// the identity), tensorinv, tensorsolve, cond, matrix_rank and eigvalsh (float64 kernels, rounded once).
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

namespace fx {
namespace {

Object integer(int64_t v) { return Object(Value::integer(v)); }
Object ints(const std::vector<int64_t>& v) {
  std::vector<Object> o;
  for (int64_t x : v) o.push_back(integer(x));
  return Object::list(o);
}
Tensor matmul(const Object& a, const Object& b) { return call_op("torch.matmul", {a, b}).tensor(); }

// vecdot(x, y, *, dim=-1): Σ conj(x) y over dim (the conjugate only for complex x)
Object vecdot_op(const OpCall& call) {
  static const Schema schema("linalg_vecdot(x|input, y|other, *, dim=-1, out=None)");
  Args a = schema.parse(call);
  return call_op("torch.sum", {call_op("torch.mul", {call_op("torch.conj", {a[0]}), a[1]}), a[2]});
}

// linalg.diagonal(A, *, offset=0, dim1=-2, dim2=-1): torch.diagonal with the matrix dims last by default
Object linalg_diagonal_op(const OpCall& call) {
  static const Schema schema("linalg_diagonal(A|input, *, offset=0, dim1=-2, dim2=-1)");
  Args a = schema.parse(call);
  return call_op("torch.diagonal", {a[0], a[1], a[2], a[3]});
}

// vander(x, *, N=None): [..., n, N] of x⁰ … x^(N-1), the powers by cumulative product
Object vander_op(const OpCall& call) {
  static const Schema schema("linalg_vander(x|input, *, N=None)");
  Args a = schema.parse(call);
  Tensor x = a.tensor(0);
  if (x.dim() == 0) x = reshape(x, {1});
  Shape shape = x.shape();
  const int64_t n = a.is_none(1) ? shape.back() : a.integer(1);
  if (n <= 1) throw FxError("N must be greater than 1.");
  shape.push_back(n - 1);
  Tensor col = call_op("torch.unsqueeze", {Object(x), integer(-1)}).tensor();
  Tensor powers = call_op("torch.cumprod", {Object(expand_to(col, shape).contiguous()), integer(-1)}).tensor();
  shape.back() = 1;
  Tensor ones = call_op("torch.ones", {ints(shape)}, {{"dtype", Object(Value::dtype(dtype_name(powers.dtype())))}}).tensor();
  return call_op("torch.cat", {Object::list({Object(ones), Object(powers)}), integer(-1)});
}

// multi_dot(tensors): the product in the order of fewest multiplications (a 1-d first/last operand is a
// row/column vector, dropped from the result)
Object multi_dot_op(const OpCall& call) {
  static const Schema schema("linalg_multi_dot(tensors, *, out=None)");
  Args a = schema.parse(call);
  std::vector<Tensor> ts;
  for (const Object& o : a[0].items()) ts.push_back(o.tensor());
  const size_t n = ts.size();
  if (n < 2) throw FxError("multi_dot(): expected at least 2 tensors but got " + std::to_string(n));
  const bool first_vec = ts.front().dim() == 1, last_vec = ts.back().dim() == 1;
  if (first_vec) ts.front() = reshape(ts.front(), {1, ts.front().shape()[0]});
  if (last_vec) ts.back() = reshape(ts.back(), {ts.back().shape()[0], 1});
  for (size_t i = 0; i < n; ++i)
    if (ts[i].dim() != 2)
      throw FxError("multi_dot(): tensor " + std::to_string(i) + " must be 2D but got " + std::to_string(ts[i].dim()) + "D");
  std::vector<int64_t> p(n + 1);
  for (size_t i = 0; i < n; ++i) p[i] = ts[i].shape()[0];
  p[n] = ts[n - 1].shape()[1];
  Tensor result;
  if (n == 2) {
    result = matmul(ts[0], ts[1]);
  } else if (n == 3) {
    const int64_t cost1 = p[0] * p[1] * p[2] + p[0] * p[2] * p[3], cost2 = p[1] * p[2] * p[3] + p[0] * p[1] * p[3];
    result = cost1 > cost2 ? matmul(ts[0], matmul(ts[1], ts[2])) : matmul(matmul(ts[0], ts[1]), ts[2]);
  } else {  // matrix-chain order: split[i][j] is where the cheapest product of i..j splits
    std::vector<std::vector<int64_t>> cost(n, std::vector<int64_t>(n, 0)), split(n, std::vector<int64_t>(n, 0));
    for (size_t len = 1; len < n; ++len)
      for (size_t i = 0; i + len < n; ++i) {
        const size_t j = i + len;
        cost[i][j] = std::numeric_limits<int64_t>::max();
        for (size_t k = i; k < j; ++k) {
          const int64_t q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1];
          if (q < cost[i][j]) cost[i][j] = q, split[i][j] = static_cast<int64_t>(k);
        }
      }
    struct Chain {
      const std::vector<Tensor>& ts;
      const std::vector<std::vector<int64_t>>& split;
      Tensor run(size_t i, size_t j) const {
        if (i == j) return ts[i];
        const size_t k = static_cast<size_t>(split[i][j]);
        return matmul(run(i, k), run(k + 1, j));
      }
    };
    result = Chain{ts, split}.run(0, n - 1);
  }
  if (first_vec && last_vec) return reshape(result, {});
  if (first_vec) return reshape(result, {result.shape()[1]});
  if (last_vec) return reshape(result, {result.shape()[0]});
  return result;
}

// matrix_power(A, n): A^n by binary powers (n < 0: of A⁻¹; n = 0: the identity)
Object matrix_power_op(const OpCall& call) {
  static const Schema schema("linalg_matrix_power(input|A|self, n, *, out=None)");
  Args a = schema.parse(call);
  Tensor x = a.tensor(0);
  int64_t n = a.integer(1);
  if (x.dim() < 2 || x.shape()[x.dim() - 1] != x.shape()[x.dim() - 2])
    throw FxError("linalg.matrix_power: A must be batches of square matrices");
  if (n == 0) {
    const int64_t k = x.shape().back();
    Tensor eye = call_op("torch.eye", {integer(k)}, {{"dtype", Object(Value::dtype(dtype_name(x.dtype())))}}).tensor();
    return expand_to(eye, x.shape()).contiguous().clone();
  }
  if (n < 0) {
    x = call_op("torch.linalg.inv", {Object(x)}).tensor();
    n = -n;
  }
  if (n == 1) return x.clone();
  if (n == 2) return matmul(x, x);
  if (n == 3) return matmul(matmul(x, x), x);
  Tensor z, result;
  while (n > 0) {
    const int64_t bit = n % 2;
    n /= 2;
    z = z.defined() ? matmul(z, z) : x;
    if (bit) result = result.defined() ? matmul(result, z) : z;
  }
  return result;
}

// linalg.norm(A, ord=None, dim=None, keepdim=False, *, dtype=None)
Object norm_op(const OpCall& call) {
  static const Schema schema("linalg_norm(input|A, ord=None, dim=None, keepdim=False, *, dtype=None, out=None)");
  Args a = schema.parse(call);
  Tensor x = a.dtype(4) ? to_dtype(a.tensor(0), *a.dtype(4)) : a.tensor(0);
  const bool str_ord = !a.is_none(1) && a[1].is_value() && a[1].value().kind() == ValueKind::Str;
  std::vector<int64_t> dims;
  if (!a.is_none(2)) dims = *a.int_list(2);
  const bool matrix = dims.size() == 2 || (dims.empty() && !a.is_none(1) && (x.dim() == 2 || str_ord));
  if (matrix) {
    if (dims.empty()) dims = {-2, -1};
    return call_op("torch.linalg.matrix_norm", {Object(x), a.is_none(1) ? Object(Value::str("fro")) : a[1], ints(dims), a[3]});
  }
  if (str_ord) throw FxError("linalg.norm: ord '" + a.str(1) + "' needs a matrix (two dims)");
  if (!a.is_none(1) && dims.empty() && x.dim() != 1)
    throw FxError("linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got " +
                  std::to_string(x.dim()) + "D.");
  return call_op("torch.linalg.vector_norm", {Object(x), a.is_none(1) ? Object(Value::floating(2.0)) : a[1],
                                              dims.empty() ? Object() : ints(dims), a[3]});
}

// linalg.lu(A, *, pivot=True): (P, L, U)
Object lu_op(const OpCall& call) {
  static const Schema schema("linalg_lu(input|A, *, pivot=True, out=None)");
  Args a = schema.parse(call);
  Object f = call_op("torch.linalg.lu_factor", {a[0]}, {{"pivot", a[1]}});
  return call_op("torch.lu_unpack", {f.items()[0], f.items()[1]});
}

// The first `cols` columns of Q = H_1 … H_k (m×m), from reflectors in A (m×n) and tau (k)
Tensor householder_q(MatrixBatch& r, const Tensor& tau0, int64_t k, int64_t cols, DType dtype) {
  const int64_t m = r.rows;
  Shape shape = r.batch;
  shape.push_back(m);
  shape.push_back(cols);
  Tensor q = Tensor::zeros(shape, DType::Float64);
  if (meta_mode()) return q;
  Tensor tau = to_dtype(tau0, DType::Float64).contiguous();
  for (int64_t i = 0; i < r.count; ++i) {
    double* c = q.data<double>() + i * m * cols;
    for (int64_t d = 0; d < std::min(m, cols); ++d) c[d * cols + d] = 1;
    linalg::apply_householder(r.at(i), m, k, r.cols, tau.data<double>() + i * k, c, m, cols, true, false);
  }
  return to_dtype(q, dtype);
}

Object householder_product_op(const OpCall& call) {
  static const Schema schema("linalg_householder_product(input|A, tau, *, out=None)");
  Args a = schema.parse(call);
  MatrixBatch r = matrix_batch(a.tensor(0), "torch.linalg.householder_product", false);
  const Tensor& tau = a.tensor(1);
  const int64_t k = tau.dim() ? tau.shape().back() : 1;
  if (r.rows < r.cols)
    throw FxError("torch.linalg.householder_product: input.shape[-2] must be greater than or equal to input.shape[-1]");
  if (k > r.cols) throw FxError("torch.linalg.householder_product: input.shape[-1] must be greater than or equal to tau.shape[-1]");
  return householder_q(r, tau, k, r.cols, a.tensor(0).dtype());
}

// linalg.qr(A, mode='reduced'): (Q, R); 'complete': Q m×m; 'r': Q empty
Object qr_op(const OpCall& call) {
  static const Schema schema("linalg_qr(input|A, mode='reduced', *, out=None)");
  Args a = schema.parse(call);
  const std::string mode = a.str(1);
  if (mode != "reduced" && mode != "complete" && mode != "r")
    throw FxError("qr received unrecognized mode '" + mode + "' but expected one of 'reduced' (default), 'r', or 'complete'");
  const Tensor& x = a.tensor(0);
  Object g = call_op("torch.geqrf", {a[0]});
  const Tensor& packed = g.items()[0].tensor();
  const Tensor& tau = g.items()[1].tensor();
  const int64_t m = x.shape()[x.dim() - 2], n = x.shape()[x.dim() - 1], k = std::min(m, n);
  const int64_t r_rows = mode == "complete" ? m : k;
  Tensor r = call_op("torch.triu", {Object(call_op("torch.narrow", {Object(packed), integer(-2), integer(0),
                                                                     integer(std::min(r_rows, m))}))}).tensor();
  if (mode == "complete" && m > n) r = r.contiguous();
  if (mode == "r") return Object::tuple({Object(Tensor::empty({0}, x.dtype())), Object(r)});
  MatrixBatch reflectors = matrix_batch(packed, "linalg.qr", false);
  Tensor q = householder_q(reflectors, tau, k, mode == "complete" ? m : k, x.dtype());
  return Object::tuple({Object(q), Object(r)});
}

// tensorinv(A, ind=2): the inverse of A seen as a (∏ shape[:ind]) × (∏ shape[ind:]) matrix
Object tensorinv_op(const OpCall& call) {
  static const Schema schema("linalg_tensorinv(input|A, ind=2, *, out=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t ind = a.integer(1);
  if (ind <= 0) throw FxError("Expected a strictly positive integer for 'ind', but got " + std::to_string(ind));
  Shape start(x.shape().begin(), x.shape().begin() + std::min<int64_t>(ind, x.dim()));
  Shape end(x.shape().begin() + std::min<int64_t>(ind, x.dim()), x.shape().end());
  int64_t p_start = 1, p_end = 1;
  for (int64_t d : start) p_start *= d;
  for (int64_t d : end) p_end *= d;
  if (p_start != p_end)
    throw FxError("Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), but got " +
                  std::to_string(p_end) + " != " + std::to_string(p_start));
  Tensor inv = call_op("torch.linalg.inv", {Object(reshape(x.contiguous(), {p_end, p_end}))}).tensor();
  Shape shape = end;
  shape.insert(shape.end(), start.begin(), start.end());
  return reshape(inv, shape);
}

// tensorsolve(A, B, dims=None): X with tensordot(A, X, X.ndim) = B (dims of A moved to the end first)
Object tensorsolve_op(const OpCall& call) {
  static const Schema schema("linalg_tensorsolve(input|A, other|B, dims=None, *, out=None)");
  Args a = schema.parse(call);
  Tensor x = a.tensor(0);
  const Tensor& b = a.tensor(1);
  if (!a.is_none(2)) {
    const std::vector<int64_t> dims = *a.int_list(2);
    std::vector<int64_t> dest;
    for (size_t i = 0; i < dims.size(); ++i) dest.push_back(x.dim() - static_cast<int64_t>(dims.size()) + static_cast<int64_t>(i));
    x = call_op("torch.movedim", {Object(x), ints(dims), ints(dest)}).tensor();
  }
  Shape result(x.shape().begin() + std::min<int64_t>(b.dim(), x.dim()), x.shape().end());
  int64_t prod = 1;
  for (int64_t d : result) prod *= d;
  Tensor m = reshape(x.contiguous(), {b.numel(), prod});
  Tensor sol = call_op("torch.linalg.solve", {Object(m), Object(reshape(b.contiguous(), {b.numel()}))}).tensor();
  return reshape(sol, result);
}

// A copy of A made symmetric from one triangle (UPLO 'L': the lower one)
MatrixBatch symmetric_from(const Tensor& x, const std::string& op, bool lower) {
  MatrixBatch b = matrix_batch(x, op, true);
  if (!meta_mode())
    for (int64_t i = 0; i < b.count; ++i)
      for (int64_t r = 0; r < b.rows; ++r)
        for (int64_t c = r + 1; c < b.rows; ++c) {
          double* m = b.at(i);
          if (lower) m[r * b.rows + c] = m[c * b.rows + r];
          else m[c * b.rows + r] = m[r * b.rows + c];
        }
  return b;
}

Object eigvalsh_op(const OpCall& call) {
  static const Schema schema("linalg_eigvalsh(input|A, UPLO='L', *, out=None)");
  Args a = schema.parse(call);
  const std::string uplo = a.str(1);
  if (uplo != "L" && uplo != "U") throw FxError("Expected UPLO argument to be 'L' or 'U', but got " + uplo);
  MatrixBatch b = symmetric_from(a.tensor(0), "linalg.eigvalsh", uplo == "L");
  Shape shape = b.batch;
  shape.push_back(b.rows);
  Tensor w = Tensor::empty(shape, DType::Float64);
  if (!meta_mode())
    for (int64_t i = 0; i < b.count; ++i) linalg::symmetric_eigen(b.at(i), b.rows, w.data<double>() + i * b.rows, nullptr);
  return to_dtype(w, a.tensor(0).dtype());
}

// cond(A, p=None): s_max / s_min (p None or 2), s_min / s_max (-2); else ‖A‖_p ‖A⁻¹‖_p
Object cond_op(const OpCall& call) {
  static const Schema schema("linalg_cond(input|A, p=None, *, out=None)");
  Args a = schema.parse(call);
  const bool two = a.is_none(1) || (!a[1].is_value() || a[1].value().kind() != ValueKind::Str
                                        ? std::fabs(to_number(a[1]).as_double()) == 2 : false);
  if (two) {
    const bool minus = !a.is_none(1) && to_number(a[1]).as_double() < 0;
    Tensor s = call_op("torch.linalg.svdvals", {a[0]}).tensor();
    Object first = call_op("torch.select", {Object(s), integer(-1), integer(0)});
    Object last = call_op("torch.select", {Object(s), integer(-1), integer(-1)});
    return call_op("torch.div", minus ? std::vector<Object>{last, first} : std::vector<Object>{first, last});
  }
  Object inv = call_op("torch.linalg.inv", {a[0]});
  return call_op("torch.mul", {call_op("torch.linalg.matrix_norm", {a[0], a[1]}),
                               call_op("torch.linalg.matrix_norm", {inv, a[1]})});
}

// matrix_rank(A, *, atol=None, rtol=None, hermitian=False): the singular values above max(atol, rtol s_max)
Object matrix_rank_op(const OpCall& call) {
  static const Schema schema("linalg_matrix_rank(input|A, tol=None, hermitian=False, *, atol=None, rtol=None, "
                             "out=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  // tolerances: numbers, or tensors broadcast over the batch (one per matrix)
  MatrixBatch b = a.boolean(2) ? symmetric_from(x, "linalg.matrix_rank", true) : matrix_batch(x, "linalg.matrix_rank", false);
  auto per_matrix = [&](size_t i) -> std::vector<double> {
    if (a.is_none(i)) return {};
    if (!a[i].is_tensor()) return std::vector<double>(static_cast<size_t>(b.count), a.number(i).as_double());
    Tensor t = to_dtype(expand_to(a.tensor(i), b.batch), DType::Float64).contiguous();
    return std::vector<double>(t.data<double>(), t.data<double>() + t.numel());
  };
  std::vector<double> atol = per_matrix(3), rtol = per_matrix(4);
  if (!a.is_none(1)) atol = per_matrix(1), rtol.assign(static_cast<size_t>(b.count), 0.0);  // old tol=: absolute
  const int64_t k = std::min(b.rows, b.cols);
  const double eps = x.dtype() == DType::Float64 ? std::numeric_limits<double>::epsilon()
                                                 : static_cast<double>(std::numeric_limits<float>::epsilon());
  // torch's default: rtol = eps · max(m, n) when neither is given, 0 when only atol is
  const double default_rtol = atol.empty() ? eps * static_cast<double>(std::max(b.rows, b.cols)) : 0.0;
  Tensor out = Tensor::zeros(b.batch, DType::Int64);
  if (!meta_mode()) {
    std::vector<double> s(static_cast<size_t>(k));
    for (int64_t i = 0; i < b.count; ++i) {
      if (k == 0) continue;
      linalg::svd(b.at(i), b.rows, b.cols, s.data(), nullptr, nullptr);
      const double cut = std::max(atol.empty() ? 0.0 : atol[i], (rtol.empty() ? default_rtol : rtol[i]) * s[0]);
      int64_t rank = 0;
      for (double v : s) rank += v > cut;
      out.data<int64_t>()[i] = rank;
    }
  }
  return out;
}

#define LINALG(n) "torch._C._linalg.linalg_" n " aten.linalg_" n ".default"
const OpRow kOps[] = {
    {"torch.linalg.vecdot", LINALG("vecdot"), "", vecdot_op},
    {"torch.linalg.diagonal", LINALG("diagonal"), "", linalg_diagonal_op},
    {"torch.linalg.vander", LINALG("vander"), "", vander_op},
    {"torch.linalg.multi_dot", LINALG("multi_dot"), "", multi_dot_op},
    {"torch.linalg.matrix_power", LINALG("matrix_power") " torch.matrix_power torch.Tensor.matrix_power",
     "matrix_power", matrix_power_op},
    {"torch.linalg.norm", LINALG("norm") " aten.linalg_norm.ord_str", "", norm_op},
    {"torch.linalg.lu", LINALG("lu"), "", lu_op},
    {"torch.linalg.householder_product", LINALG("householder_product") " torch.orgqr torch.Tensor.orgqr", "orgqr",
     householder_product_op},
    {"torch.linalg.qr", LINALG("qr"), "", qr_op},
    {"torch.linalg.tensorinv", LINALG("tensorinv"), "", tensorinv_op},
    {"torch.linalg.tensorsolve", LINALG("tensorsolve"), "", tensorsolve_op},
    {"torch.linalg.eigvalsh", LINALG("eigvalsh"), "", eigvalsh_op},
    {"torch.linalg.cond", LINALG("cond"), "", cond_op},
    {"torch.linalg.matrix_rank", LINALG("matrix_rank") " aten.linalg_matrix_rank.atol_rtol_tensor "
                                 "aten.linalg_matrix_rank.atol_rtol_float", "", matrix_rank_op},
};
#undef LINALG
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
