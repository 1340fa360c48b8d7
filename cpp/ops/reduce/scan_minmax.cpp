// Running scans along one dim beyond cumsum/cumprod (reduce_index.cpp): cummax/cummin, giving (values,
// int64 indices) as torch.return_types pairs, and logcumsumexp. As torch's CPU kernels: a NaN wins and
// stays (its index moves on to each later NaN), and on ties the later index is taken (x >= running max).
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "ops/dispatch.h"
#include "ops/dispatch_order.h"
#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"

namespace fx {
namespace {

// outer × n × inner lanes of a packed tensor along d (a 0-dim tensor is one lane of one).
void lane_sizes(const Tensor& x, int64_t d, int64_t* outer, int64_t* n, int64_t* inner) {
  *outer = *n = *inner = 1;
  for (int64_t i = 0; i < x.dim(); ++i) (i < d ? *outer : i == d ? *n : *inner) *= x.shape()[i];
}

// cummax and cummin (one copy of the code: is_max is an argument, not a template parameter).
Object cumext(const OpCall& call, const Schema& schema, bool is_max) {
  const char* name = is_max ? "cummax" : "cummin";
  Args a = schema.parse(call);
  const Tensor& x0 = a.tensor(0);
  const int64_t d = wrap_dim(a.integer(1), x0.dim());
  // Only compares and copies: every dtype runs as int64 or double (ops/dispatch.h).
  Tensor x = to_dtype(x0, order_dtype(x0.dtype())).contiguous();
  int64_t outer, n, inner;
  lane_sizes(x, d, &outer, &n, &inner);
  Tensor values = Tensor::empty(x.shape(), x.dtype()), indices = Tensor::empty(x.shape(), DType::Int64);
  dispatch_order(x.dtype(), name, [&](auto tag) {
    using T = decltype(tag);
    auto isnan = [](T v) {
      if constexpr (std::is_floating_point_v<T>) return v != v;
      else return false;
    };
    const T* src = x.data<T>();
    T* vo = values.data<T>();
    int64_t* io = indices.data<int64_t>();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        T best{};
        int64_t bi = 0;
        for (int64_t k = 0; k < n; ++k) {
          const int64_t at = (o * n + k) * inner + i;
          const T v = src[at];
          if (k == 0 || isnan(v) || (!isnan(best) && (is_max ? v >= best : v <= best))) best = v, bi = k;
          vo[at] = best;
          io[at] = bi;
        }
      }
  });
  return Object::tuple({restore_dtype(values, x0.dtype()), indices});
}

template <bool kMax>
Object cumext_op(const OpCall& call) {
  static const Schema schema(std::string(kMax ? "cummax" : "cummin") + "(input|self, dim)");
  return cumext(call, schema, kMax);
}

// log(exp(x) + exp(y)) as torch's _log_add_exp_helper: infinities of one sign stay themselves.
double log_add_exp(double x, double y) {
  const double lo = std::isnan(y) ? y : std::min(x, y);
  const double hi = std::isnan(y) ? y : std::max(x, y);
  if (lo != hi || std::isfinite(lo)) return std::log1p(std::exp(lo - hi)) + hi;
  return x;
}

Object logcumsumexp_op(const OpCall& call) {
  static const Schema schema("logcumsumexp(input|self, dim)");
  Args a = schema.parse(call);
  const Tensor& x0 = a.tensor(0);
  const int64_t d = wrap_dim(a.integer(1), x0.dim());
  Tensor x = float_contiguous(x0, "logcumsumexp_out_cpu");
  int64_t outer, n, inner;
  lane_sizes(x, d, &outer, &n, &inner);
  Tensor y = Tensor::empty(x.shape(), x.dtype());
  dispatch_float(x.dtype(), "logcumsumexp", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        double acc = -std::numeric_limits<double>::infinity();
        for (int64_t k = 0; k < n; ++k) {
          const int64_t at = (o * n + k) * inner + i;
          acc = log_add_exp(static_cast<double>(x.data<T>()[at]), acc);
          y.data<T>()[at] = static_cast<T>(acc);
        }
      }
  });
  return restore_dtype(y, x0.dtype());
}

const OpRow kOps[] = {
    {"torch.cummax", "torch.Tensor.cummax aten.cummax.default", "cummax", cumext_op<true>},
    {"torch.cummin", "torch.Tensor.cummin aten.cummin.default", "cummin", cumext_op<false>},
    {"torch.logcumsumexp", "torch.Tensor.logcumsumexp aten.logcumsumexp.default", "logcumsumexp", logcumsumexp_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
