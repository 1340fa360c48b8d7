// p-norm distances between row vectors: torch.cdist (x1 [*, P, M] against x2 [*, R, M], batch dims
// broadcast → [*, P, R]) and torch.pdist / F.pdist (the upper triangle of cdist(x, x) of a 2-d x, row
// by row). p = 0 counts differing entries, inf takes the largest; p = 2 may go through torch's
// matrix-product form (aten._euclidean_dist: sqrt(max(‖a‖² + ‖b‖² − 2a·b, 0))), as torch chooses.
#include <cmath>
#include <limits>

#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/array/view_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

// ‖a − b‖_p over m entries (torch's zdist/odist/tdist/idist/pdist kernels).
template <typename T>
T pnorm_dist(const T* a, const T* b, int64_t m, double p) {
  T acc = 0;
  if (p == 0) {
    for (int64_t k = 0; k < m; ++k) acc += a[k] != b[k] ? T(1) : T(0);
    return acc;
  }
  if (p == 1) {
    for (int64_t k = 0; k < m; ++k) acc += std::fabs(a[k] - b[k]);
    return acc;
  }
  if (p == 2) {
    for (int64_t k = 0; k < m; ++k) acc += (a[k] - b[k]) * (a[k] - b[k]);
    return std::sqrt(acc);
  }
  if (std::isinf(p)) {
    for (int64_t k = 0; k < m; ++k) acc = std::max(acc, static_cast<T>(std::fabs(a[k] - b[k])));
    return acc;
  }
  const T pp = static_cast<T>(p);
  for (int64_t k = 0; k < m; ++k) acc += std::pow(std::fabs(a[k] - b[k]), pp);
  return std::pow(acc, T(1) / pp);
}

// The matrix-product form: [-2a, ‖a‖², 1] · [b, 1, ‖b‖²], clamped at 0, square-rooted.
template <typename T>
T euclid_mm(const T* a, const T* b, int64_t m) {
  T na = 0, nb = 0, dot = 0;
  for (int64_t k = 0; k < m; ++k) na += a[k] * a[k], nb += b[k] * b[k];
  for (int64_t k = 0; k < m; ++k) dot += T(-2) * a[k] * b[k];
  return std::sqrt(std::max(dot + na + nb, T(0)));
}

// Scalar reference kernel: x1 packed [batch, P, M], x2 packed [batch, R, M] → out [batch, P, R].
template <typename T>
void cdist_kernel(const T* x1, const T* x2, T* out, int64_t batch, int64_t P, int64_t R, int64_t M, double p,
                  bool mm) {
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t i = 0; i < P; ++i)
      for (int64_t j = 0; j < R; ++j) {
        const T* a = x1 + (n * P + i) * M;
        const T* b = x2 + (n * R + j) * M;
        out[(n * P + i) * R + j] = mm ? euclid_mm(a, b, M) : pnorm_dist(a, b, M, p);
      }
}

// compute_mode: 0 uses the product form for p = 2 past 25 rows, 1 always for p = 2, 2 never; -1 is
// aten._euclidean_dist (always, whatever p).
Tensor cdist_tensor(const Tensor& x1, const Tensor& x2, double p, int64_t mode) {
  if (x1.dim() < 2) throw FxError("cdist only supports at least 2D tensors, X1 got: " + std::to_string(x1.dim()) + "D");
  if (x2.dim() < 2) throw FxError("cdist only supports at least 2D tensors, X2 got: " + std::to_string(x2.dim()) + "D");
  const int64_t M = x1.shape().back();
  if (M != x2.shape().back())
    throw FxError("X1 and X2 must have the same number of columns. X1: " + std::to_string(M) +
                  " X2: " + std::to_string(x2.shape().back()));
  if (!dtype_is_floating(x1.dtype()))
    throw FxError(std::string("cdist only supports floating-point dtypes, X1 got: ") + torch_type_name(x1.dtype()));
  if (!dtype_is_floating(x2.dtype()))
    throw FxError(std::string("cdist only supports floating-point dtypes, X2 got: ") + torch_type_name(x2.dtype()));
  if (x1.dtype() != DType::Float32 && x1.dtype() != DType::Float64)  // no half kernels in torch either
    throw FxError(std::string("\"cdist\" not implemented for '") + torch_type_name(x1.dtype()) + "'");
  if (x1.dtype() != x2.dtype())
    throw FxError(std::string("expected scalar type ") + torch_type_name(x1.dtype()) + " but found " +
                  torch_type_name(x2.dtype()));
  if (!(p >= 0)) throw FxError("cdist only supports non-negative p values");
  if (mode < -1 || mode > 2) throw FxError("possible modes: 0, 1, 2, but was: " + std::to_string(mode));
  const int64_t P = x1.shape()[x1.dim() - 2], R = x2.shape()[x2.dim() - 2];
  Shape batch = broadcast_shapes(Shape(x1.shape().begin(), x1.shape().end() - 2),
                                 Shape(x2.shape().begin(), x2.shape().end() - 2));
  int64_t nb = 1;
  for (int64_t v : batch) nb *= v;
  Shape s1 = batch, s2 = batch, out_shape = batch;
  s1.insert(s1.end(), {P, M}), s2.insert(s2.end(), {R, M}), out_shape.insert(out_shape.end(), {P, R});
  const bool mm = mode == -1 || (p == 2 && (mode == 1 || (mode == 0 && (P > 25 || R > 25))));
  Tensor a = float_contiguous(expand_to(x1, s1), "cdist"), b = float_contiguous(expand_to(x2, s2), "cdist");
  Tensor out = Tensor::empty(out_shape, a.dtype());
  dispatch_float(a.dtype(), "cdist", [&](auto tag) {
    using T = decltype(tag);
    cdist_kernel<T>(a.data<T>(), b.data<T>(), out.data<T>(), nb, P, R, M, p, mm);
  });
  return restore_dtype(out, x1.dtype());
}

// Scalar reference kernel: x packed [N, M] → out [N(N−1)/2], pairs (i < j) row by row.
template <typename T>
void pdist_kernel(const T* x, T* out, int64_t N, int64_t M, double p) {
  int64_t k = 0;
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = i + 1; j < N; ++j) out[k++] = pnorm_dist(x + i * M, x + j * M, M, p);
}

Tensor pdist_tensor(const Tensor& x, double p) {
  if (x.dim() != 2) throw FxError("pdist only supports 2D tensors, got: " + std::to_string(x.dim()) + "D");
  if (!dtype_is_floating(x.dtype())) throw FxError("pdist only supports floating-point dtypes");
  if (!(p >= 0)) throw FxError("pdist only supports non-negative p values");
  if (x.dtype() != DType::Float32 && x.dtype() != DType::Float64)  // no half kernels in torch either
    throw FxError(std::string("\"pdist\" not implemented for '") + torch_type_name(x.dtype()) + "'");
  const int64_t N = x.shape()[0], M = x.shape()[1];
  Tensor a = float_contiguous(x, "pdist");
  Tensor out = Tensor::empty({N >= 2 ? N * (N - 1) / 2 : 0}, a.dtype());
  dispatch_float(a.dtype(), "pdist", [&](auto tag) {
    using T = decltype(tag);
    pdist_kernel<T>(a.data<T>(), out.data<T>(), N, M, p);
  });
  return restore_dtype(out, x.dtype());
}

Object cdist_op(const OpCall& call) {
  static const Schema schema("cdist(x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary')");
  Args a = schema.parse(call);
  int64_t mode = 0;
  if (!a.is_none(3)) {
    const std::string m = a.str(3);
    if (m == "use_mm_for_euclid_dist") mode = 1;
    else if (m == "donot_use_mm_for_euclid_dist") mode = 2;
    else if (m != "use_mm_for_euclid_dist_if_necessary") throw FxError(m + " is not a valid value for compute_mode");
  }
  return cdist_tensor(a.tensor(0), a.tensor(1), a.number(2).as_double(), mode);
}

// aten::cdist / _cdist_forward(x1, x2, p, compute_mode: int?).
Object aten_cdist_op(const OpCall& call) {
  static const Schema schema("_cdist_forward(x1, x2, p=2.0, compute_mode=None)");
  Args a = schema.parse(call);
  return cdist_tensor(a.tensor(0), a.tensor(1), a.number(2).as_double(), a.is_none(3) ? 0 : a.integer(3));
}

Object euclidean_dist_op(const OpCall& call) {
  static const Schema schema("_euclidean_dist(x1, x2)");
  Args a = schema.parse(call);
  return cdist_tensor(a.tensor(0), a.tensor(1), 2.0, -1);
}

Object pdist_op(const OpCall& call) {
  static const Schema schema("pdist(input|self, p=2.0)");
  Args a = schema.parse(call);
  return pdist_tensor(a.tensor(0), a.number(1).as_double());
}

Object pdist_forward_op(const OpCall& call) {
  static const Schema schema("_pdist_forward(input|self, p=2.0)");
  Args a = schema.parse(call);
  if (!a.tensor(0).is_contiguous()) throw FxError("_pdist_forward requires contiguous input");
  return pdist_tensor(a.tensor(0), a.number(1).as_double());
}

const OpRow kOps[] = {
    {"torch.cdist", "torch.functional.cdist", "", cdist_op},
    {"torch._cdist_forward", "aten._cdist_forward.default aten.cdist.default", "", aten_cdist_op},
    {"torch._euclidean_dist", "aten._euclidean_dist.default", "", euclidean_dist_op},
    {"torch.pdist", "torch.nn.functional.pdist aten.pdist.default", "", pdist_op},
    {"torch._pdist_forward", "aten._pdist_forward.default", "", pdist_forward_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
