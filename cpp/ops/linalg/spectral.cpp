// Ops on singular values: linalg.svdvals, linalg.matrix_norm (and torch.norm's 'nuc'),
// linalg.pinv / torch.pinverse (V diag(1/s) Uᵀ over the singular values above the tolerance; the
// pseudo-inverse is unique, whatever the signs of the singular vectors). Singular values by one-sided
// Jacobi in float64 (kernels/linalg_f64.h), results rounded to the input's dtype.
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
#include "tensor/meta.h"

namespace fx {
namespace {

Object integer(int64_t v) { return Object(Value::integer(v)); }

// [..., min(m, n)] singular values, descending
Tensor svdvals_tensor(const Tensor& x, const std::string& op) {
  MatrixBatch b = matrix_batch(x, op, false);
  const int64_t k = std::min(b.rows, b.cols);
  Shape shape = b.batch;
  shape.push_back(k);
  Tensor s = Tensor::empty(shape, DType::Float64);
  if (!meta_mode())
    for (int64_t i = 0; i < b.count; ++i)
      linalg::svd(b.at(i), b.rows, b.cols, s.data<double>() + i * k, nullptr, nullptr);
  return batch_result(s, x.dtype());
}

Object svdvals_op(const OpCall& call) {
  static const Schema schema("linalg_svdvals(input|A, *, driver=None, out=None)");
  Args a = schema.parse(call);
  return svdvals_tensor(a.tensor(0), "linalg.svdvals");
}

// matrix_norm over dims (d0, d1): 'fro', 'nuc', ±1 (column sums), ±inf (row sums), ±2 (singular values)
Tensor matrix_norm_tensor(const Tensor& x, const Object& ord, std::vector<int64_t> dims, bool keepdim) {
  if (x.dim() < 2) throw FxError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.");
  if (dims.size() != 2) throw FxError("linalg.matrix_norm: dim must be a 2-tuple. Got " + std::to_string(dims.size()));
  for (int64_t& d : dims) d = checked_dim(d, x.dim());
  if (dims[0] == dims[1]) throw FxError("linalg.matrix_norm: dims must be different.");
  // x with the two dims last, as [..., d0, d1]
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (d != dims[0] && d != dims[1]) perm.push_back(d);
  perm.push_back(dims[0]);
  perm.push_back(dims[1]);
  std::vector<Object> perm_objs;
  for (int64_t d : perm) perm_objs.push_back(integer(d));
  const Tensor m = call_op("torch.permute", {Object(x), Object::list(perm_objs)}).tensor();
  Tensor r;
  bool p_done = false;
  if (ord.is_value() && ord.value().kind() == ValueKind::Str) {
    const std::string o = ord.value().as_str();
    if (o == "fro") {
      r = call_op("torch.linalg.vector_norm", {Object(m), Object(Value::floating(2.0)),
                                               Object::list({integer(-2), integer(-1)})}).tensor();
    } else if (o == "nuc") {
      r = call_op("torch.sum", {Object(svdvals_tensor(m, "linalg.matrix_norm")), integer(-1)}).tensor();
    } else {
      throw FxError("linalg.matrix_norm: Order " + o + " not supported.");
    }
  } else {
    const double p = to_number(ord).as_double();
    const Object abs = call_op("torch.abs", {Object(m)});
    // the max-based norms of an empty matrix are 0 (torch); the min-based ones have no identity
    const bool empty = m.shape()[m.dim() - 1] == 0 || m.shape()[m.dim() - 2] == 0;
    if (empty && p > 0 && (p == 1 || p == 2 || std::isinf(p))) {
      Shape shape(m.shape().begin(), m.shape().end() - 2);
      r = Tensor::zeros(shape, m.dtype());
      p_done = true;
    }
    if (p_done) {
    } else if (p == 1 || p == -1) {  // max/min over columns of the column sums
      r = call_op(p > 0 ? "torch.amax" : "torch.amin", {call_op("torch.sum", {abs, integer(-2)}), integer(-1)}).tensor();
    } else if (std::isinf(p)) {
      r = call_op(p > 0 ? "torch.amax" : "torch.amin", {call_op("torch.sum", {abs, integer(-1)}), integer(-1)}).tensor();
    } else if (p == 2 || p == -2) {
      r = call_op(p > 0 ? "torch.amax" : "torch.amin", {Object(svdvals_tensor(m, "linalg.matrix_norm")), integer(-1)})
              .tensor();
    } else {
      throw FxError("linalg.matrix_norm: Order " + std::to_string(p) + " not supported.");
    }
  }
  if (keepdim)
    for (int64_t d : {std::min(dims[0], dims[1]), std::max(dims[0], dims[1])})
      r = call_op("torch.unsqueeze", {Object(r), integer(d)}).tensor();
  return r;
}

Object matrix_norm_op(const OpCall& call) {
  static const Schema schema("linalg_matrix_norm(input|A, ord='fro', dim=None, keepdim=False, *, dtype=None, "
                             "out=None)");  // dim: (-2, -1) when not given
  Args a = schema.parse(call);
  Tensor x = a.dtype(4) ? to_dtype(a.tensor(0), *a.dtype(4)) : a.tensor(0);
  return matrix_norm_tensor(x, a[1], a.is_none(2) ? std::vector<int64_t>{-2, -1} : *a.int_list(2), a.boolean(3));
}

// V diag(1/s) Uᵀ over the singular values above max(atol, rtol · s_max)
// hermitian: only the lower triangle is read (as torch's eigh-based path does); the matrix it describes is
// symmetric, and its SVD-based pseudo-inverse is the eigen-based one.
Tensor pinv_tensor(const Tensor& x, std::optional<double> atol, std::optional<double> rtol, bool hermitian) {
  MatrixBatch b = matrix_batch(x, "linalg.pinv", hermitian);
  if (hermitian && !meta_mode())
    for (int64_t i = 0; i < b.count; ++i)
      for (int64_t r = 0; r < b.rows; ++r)
        for (int64_t c = r + 1; c < b.cols; ++c) b.at(i)[r * b.cols + c] = b.at(i)[c * b.cols + r];
  const int64_t m = b.rows, n = b.cols, k = std::min(m, n);
  const double eps = x.dtype() == DType::Float64 ? std::numeric_limits<double>::epsilon()
                                                 : static_cast<double>(std::numeric_limits<float>::epsilon());
  // torch's default: rtol = eps · max(m, n) when neither is given, 0 when only atol is
  const double r = rtol ? *rtol : atol ? 0.0 : eps * static_cast<double>(std::max(m, n));
  Shape shape = b.batch;
  shape.push_back(n);
  shape.push_back(m);
  Tensor out = Tensor::zeros(shape, DType::Float64);
  if (!meta_mode()) {
    std::vector<double> s(static_cast<size_t>(k)), u(static_cast<size_t>(m * k)), vt(static_cast<size_t>(k * n));
    for (int64_t i = 0; i < b.count; ++i) {
      if (k == 0) continue;
      linalg::svd(b.at(i), m, n, s.data(), u.data(), vt.data());
      const double cut = std::max(atol.value_or(0.0), r * s[0]);
      double* o = out.data<double>() + i * n * m;
      for (int64_t j = 0; j < k; ++j) {
        if (!(s[j] > cut)) continue;
        const double inv = 1 / s[j];
        for (int64_t p = 0; p < n; ++p)
          for (int64_t q = 0; q < m; ++q) o[p * m + q] += vt[j * n + p] * inv * u[q * k + j];
      }
    }
  }
  return batch_result(out, x.dtype());
}

std::optional<double> optional_double(const Args& a, size_t i) {
  if (a.is_none(i)) return std::nullopt;
  if (a[i].is_tensor()) return tensor_item(a.tensor(i)).as_double();
  return a.number(i).as_double();
}

Object pinv_op(const OpCall& call) {
  static const Schema schema("linalg_pinv(input|A, *, atol=None, rtol=None, hermitian=False, out=None)");
  Args a = schema.parse(call);
  return pinv_tensor(a.tensor(0), optional_double(a, 1), optional_double(a, 2), a.boolean(3));
}

Object pinverse_op(const OpCall& call) {
  static const Schema schema("pinverse(input|self, rcond=1e-15)");
  Args a = schema.parse(call);
  return pinv_tensor(a.tensor(0), std::nullopt, a.number(1).as_double(), false);
}

const OpRow kOps[] = {
    {"torch.linalg.svdvals", "torch._C._linalg.linalg_svdvals aten.linalg_svdvals.default", "", svdvals_op},
    {"torch.linalg.matrix_norm", "torch._C._linalg.linalg_matrix_norm aten.linalg_matrix_norm.default "
                                 "aten.linalg_matrix_norm.str_ord", "", matrix_norm_op},
    {"torch.linalg.pinv", "torch._C._linalg.linalg_pinv aten.linalg_pinv.atol_rtol_tensor "
                          "aten.linalg_pinv.atol_rtol_float", "", pinv_op},
    {"torch.pinverse", "torch.Tensor.pinverse aten.pinverse.default", "pinverse", pinverse_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
