// Reductions that also find where: max/min (full, or along a dim giving (values, indices)),
// argmax/argmin, and the running reductions cumsum/cumprod. NaN wins max and min, as in torch.
#include <cmath>

#include "ops/dispatch.h"
#include "ops/dispatch_order.h"
#include "ops/nn/nn_util.h"
#include "ops/reduce/reduce_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {
namespace {

// Index of the best value of r[0..n) (first best; the first NaN wins outright).
template <typename T, bool kMax>
int64_t best_index(const T* r, int64_t n) {
  int64_t bi = 0;
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(r[i])) return i;
    }
    if (kMax ? r[i] > r[bi] : r[i] < r[bi]) bi = i;
  }
  return bi;
}

// values and indices of a reduction along dims (one dim, or all when `dim` is empty).
template <bool kMax>
std::pair<Tensor, Tensor> max_along(const Tensor& x0, std::optional<int64_t> dim, bool keepdim, const char* op) {
  if (x0.numel() == 0 && !dim)
    throw FxError(std::string(op) + "(): Expected reduction dim to be specified for input.numel() == 0.");
  // Only compares and copies: every dtype runs as int64 or double (ops/dispatch.h).
  Tensor x = to_dtype(x0, order_dtype(x0.dtype()));
  std::optional<std::vector<int64_t>> dims;
  if (dim) dims = std::vector<int64_t>{*dim};
  ReducePlan p = plan_reduce(x, dims, keepdim);
  if (p.reduce == 0)  // an empty input reduces along a non-empty dim to an empty result, as in torch
    throw FxError(std::string(op) + "(): Expected reduction dim " + std::to_string(*dim < 0 ? *dim + x0.dim() : *dim) +
                  " to have non-zero size.");
  Tensor values = Tensor::empty(p.out_shape, x.dtype()), indices = Tensor::empty(p.out_shape, DType::Int64);
  dispatch_order(x.dtype(), op, [&](auto tag) {
    using T = decltype(tag);
    for (int64_t o = 0; o < p.outer; ++o) {
      const T* r = p.x.data<T>() + o * p.reduce;
      const int64_t i = best_index<T, kMax>(r, p.reduce);
      values.data<T>()[o] = r[i];
      indices.data<int64_t>()[o] = i;
    }
  });
  return {restore_dtype(values, x0.dtype()), indices};
}

template <bool kMax>
Object max_op(const OpCall& call) {
  const char* name = kMax ? "max" : "min";
  static const Schema schema(std::string(name) + "(input|self, dim|other=None, keepdim=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (a[1].is_tensor())  // torch.max(a, b): the elementwise maximum
    return OpRegistry::global().call(kMax ? "torch.maximum" : "torch.minimum", {a[0], a[1]});
  if (a.is_none(1)) return max_along<kMax>(x, std::nullopt, false, name).first;
  auto r = max_along<kMax>(x, wrap_dim(a.integer(1), x.dim()), a.boolean(2), name);
  return Object::tuple({r.first, r.second});
}

template <bool kMax>
Object argmax_op(const OpCall& call) {
  const char* name = kMax ? "argmax" : "argmin";
  static const Schema schema(std::string(name) + "(input|self, dim=None, keepdim=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  if (a.is_none(1)) {
    Tensor flat = view_as_shape(x.contiguous(), {x.numel()});
    Tensor idx = max_along<kMax>(flat, 0, false, name).second;
    if (!a.boolean(2)) return idx;
    return view_as_shape(idx, Shape(static_cast<size_t>(x.dim()), 1));
  }
  return max_along<kMax>(x, wrap_dim(a.integer(1), x.dim()), a.boolean(2), name).second;
}

template <bool kProd>
Object cum_op(const OpCall& call) {
  const char* name = kProd ? "cumprod" : "cumsum";
  static const Schema schema(std::string(name) + "(input|self, dim, *, dtype=None)");
  Args a = schema.parse(call);
  Tensor x = a.tensor(0);
  if (auto dt = a.dtype(2)) x = to_dtype(x, *dt);
  const DType out = dtype_is_floating(x.dtype()) ? x.dtype() : DType::Int64;
  const int64_t d = wrap_dim(a.integer(1), x.dim());
  Tensor c = to_dtype(x, compute_dtype(out)).contiguous();
  int64_t outer = 1, n = 1, inner = 1;
  for (int64_t i = 0; i < c.dim(); ++i) (i < d ? outer : i == d ? n : inner) *= c.shape()[i];
  Tensor y = Tensor::empty(c.shape(), c.dtype());
  dispatch_wide(c.dtype(), name, [&](auto tag) {  // (c is float32, float64 or int64)
    using T = decltype(tag);
    using Acc = std::conditional_t<std::is_floating_point_v<T>, double, uint64_t>;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        Acc acc = kProd ? Acc(1) : Acc(0);
        for (int64_t k = 0; k < n; ++k) {
          const int64_t at = (o * n + k) * inner + i;
          const Acc v = static_cast<Acc>(c.data<T>()[at]);
          acc = kProd ? acc * v : acc + v;
          y.data<T>()[at] = static_cast<T>(acc);
        }
      }
  });
  return to_dtype(y, out);
}

const OpRow kOps[] = {
    {"torch.max", "torch.Tensor.max aten.max.default aten.max.dim", "max", max_op<true>},
    {"torch.min", "torch.Tensor.min aten.min.default aten.min.dim", "min", max_op<false>},
    {"torch.argmax", "torch.Tensor.argmax aten.argmax.default", "argmax", argmax_op<true>},
    {"torch.argmin", "torch.Tensor.argmin aten.argmin.default", "argmin", argmax_op<false>},
    {"torch.cumsum", "torch.Tensor.cumsum aten.cumsum.default", "cumsum", cum_op<false>},
    {"torch.cumprod", "torch.Tensor.cumprod aten.cumprod.default", "cumprod", cum_op<true>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
