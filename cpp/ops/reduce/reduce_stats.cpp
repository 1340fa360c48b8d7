// Statistical reductions: mean, var/std (unbiased or correction=), prod, logsumexp, norm /
// linalg.vector_norm, amax/amin, any/all. Floats accumulate in double and round once.
#include <cmath>
#include <cstdio>
#include <limits>

#include "ops/call_op.h"
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

// Runs f(row pointer, n) → double for each row of a floating plan, giving a tensor of `dtype`.
template <typename F>
Tensor float_rows(const ReducePlan& p, DType dtype, const char* op, F f) {
  Tensor out = Tensor::empty(p.out_shape, DType::Float64);
  Tensor x = to_dtype(p.x, compute_dtype(p.x.dtype()));
  dispatch_float(x.dtype(), op, [&](auto tag) {
    using T = decltype(tag);
    for (int64_t o = 0; o < p.outer; ++o) out.data<double>()[o] = f(x.data<T>() + o * p.reduce, p.reduce);
  });
  return to_dtype(out, dtype);
}

std::string torch_dtype_title(DType t) {
  switch (t) {
    case DType::Int64: return "Long";
    case DType::Int32: return "Int";
    case DType::Int16: return "Short";
    case DType::Int8: return "Char";
    case DType::UInt8: return "Byte";
    case DType::Bool: return "Bool";
    case DType::Complex64: return "ComplexFloat";
    case DType::Complex128: return "ComplexDouble";
    default: return dtype_name(t);
  }
}

Object mean_op(const OpCall& call) {
  static const Schema schema("mean(input|self, dim=None, keepdim=False, *, dtype=None)");
  Args a = schema.parse(call);
  Tensor x = a.tensor(0);
  if (auto dt = a.dtype(3)) x = to_dtype(x, *dt);
  if (dtype_is_complex(x.dtype())) {  // each part's mean: the sum over the same dims, divided by the count
    const Tensor sum = call_op("torch.sum", {Object(x), a[1], a[2]}).tensor();
    const int64_t count = sum.numel() ? x.numel() / sum.numel() : 0;
    return call_op("torch.div", {Object(sum), Object(Value::integer(count))});
  }
  if (!dtype_is_floating(x.dtype()))
    throw FxError("mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
                  "dtype. Got: " + torch_dtype_title(x.dtype()));
  ReducePlan p = plan_reduce(x, a.int_list(1), a.boolean(2));
  return float_rows(p, x.dtype(), "mean", [](const auto* r, int64_t n) {
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += r[i];
    return s / static_cast<double>(n);
  });
}

// var/std: (input, dim, unbiased, keepdim, *, correction); a bool second argument is `unbiased`.
template <bool kStd>
Object var_op(const OpCall& call) {
  static const Schema schema(std::string(kStd ? "std" : "var") +
                             "(input|self, dim=None, unbiased=None, keepdim=False, *, correction=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  std::optional<std::vector<int64_t>> dims;
  double correction = 1.0;
  if (a[1].is_value() && a[1].value().kind() == ValueKind::Bool) correction = a.boolean(1) ? 1.0 : 0.0;
  else dims = a.int_list(1);
  if (!a.is_none(2)) correction = a.boolean(2) ? 1.0 : 0.0;
  if (!a.is_none(4)) correction = a.number(4).as_double();
  if (!dtype_is_floating(x.dtype()))
    throw FxError(std::string("std and var only support floating point and complex dtypes"));
  ReducePlan p = plan_reduce(x, dims, a.boolean(3));
  return float_rows(p, x.dtype(), kStd ? "std" : "var", [&](const auto* r, int64_t n) {
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += r[i];
    const double m = s / static_cast<double>(n);
    double ss = 0;
    for (int64_t i = 0; i < n; ++i) ss += (r[i] - m) * (r[i] - m);
    const double v = ss / std::max(0.0, static_cast<double>(n) - correction);
    return kStd ? std::sqrt(v) : v;
  });
}

// aten.var.correction / aten.std.correction: (self, dim=None, *, correction=None, keepdim=False).
template <bool kStd>
Object var_correction_op(const OpCall& call) {
  static const Schema schema(std::string(kStd ? "std" : "var") +
                             "(self, dim=None, *, correction=None, keepdim=False)");
  Args a = schema.parse(call);
  OpCall inner;
  inner.args = {a[0], a[1]};
  inner.kwargs = {{"keepdim", a[3]}};
  if (!a.is_none(2)) inner.kwargs.emplace_back("correction", a[2]);
  return var_op<kStd>(inner);
}

Object logsumexp_op(const OpCall& call) {
  static const Schema schema("logsumexp(input|self, dim, keepdim=False)");
  Args a = schema.parse(call);
  Tensor x = a.tensor(0);
  if (!dtype_is_floating(x.dtype())) x = to_dtype(x, DType::Float32);
  ReducePlan p = plan_reduce(x, a.int_list(1), a.boolean(2));
  return float_rows(p, x.dtype(), "logsumexp", [](const auto* r, int64_t n) {
    double mx = -std::numeric_limits<double>::infinity();
    for (int64_t i = 0; i < n; ++i) mx = std::max<double>(mx, r[i]);
    if (std::isinf(mx)) return mx;
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += std::exp(r[i] - mx);
    return mx + std::log(s);
  });
}

template <typename T>
double norm_row(const T* r, int64_t n, double p) {
  if (std::isinf(p)) {
    double best = p > 0 ? 0.0 : std::numeric_limits<double>::infinity();
    for (int64_t i = 0; i < n; ++i) {
      const double v = std::fabs(static_cast<double>(r[i]));
      if (std::isnan(v)) return v;
      best = p > 0 ? std::max(best, v) : std::min(best, v);
    }
    return best;
  }
  double s = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double v = std::fabs(static_cast<double>(r[i]));
    s += p == 0 ? (v != 0) : p == 1 ? v : p == 2 ? v * v : std::pow(v, p);
  }
  return p == 0 || p == 1 ? s : p == 2 ? std::sqrt(s) : std::pow(s, 1.0 / p);
}

Tensor norm_tensor(const Tensor& x0, double p, const std::optional<std::vector<int64_t>>& dims, bool keepdim,
                   std::optional<DType> dtype) {
  Tensor x = dtype ? to_dtype(x0, *dtype) : x0;
  if (!dtype_is_floating(x.dtype()))
    throw FxError("linalg.vector_norm: Expected a floating point or complex tensor as input. Got " +
                  torch_dtype_title(x.dtype()));
  if (p < 0 || std::isinf(p)) {  // max/min-like norms have no identity: torch refuses an empty reduction
    char ord[32];
    std::snprintf(ord, sizeof ord, "%g", p);
    if (!dims || dims->empty()) {
      if (x.numel() == 0)
        throw FxError(std::string("linalg.vector_norm cannot compute the ") + ord +
                      " norm on an empty tensor because the operation does not have an identity");
    } else {
      for (int64_t d : *dims) {
        const int64_t w = d < 0 ? d + x.dim() : d;
        if (w >= 0 && w < x.dim() && x.shape()[w] == 0)  // (torch's message has no space before "because")
          throw FxError(std::string("linalg.vector_norm cannot compute the ") + ord + " norm on the dimension " +
                        std::to_string(w) + "because this dimension is empty and the operation does not have an identity");
      }
    }
  }
  ReducePlan pl = plan_reduce(x, dims, keepdim);
  return float_rows(pl, x.dtype(), "norm", [&](const auto* r, int64_t n) { return norm_row(r, n, p); });
}

Object norm_op(const OpCall& call) {
  // (torch.functional.norm also takes out=: only None, an inference graph writes no out= tensors)
  static const Schema schema("norm(input|self, p='fro', dim=None, keepdim=False, dtype=None, *, out=None)");
  Args a = schema.parse(call);
  if (!a.is_none(5)) throw FxError("norm: out= is not supported");
  double p = 2.0;
  if (a[1].is_value() && a[1].value().kind() == ValueKind::Str) {
    if (a.str(1) == "nuc") {  // the nuclear norm of the matrices over dim (two dims; the last two by default)
      Object dims = a.is_none(2) ? Object::list({Object(Value::integer(-2)), Object(Value::integer(-1))}) : a[2];
      return call_op("torch.linalg.matrix_norm", {a[0], a[1], dims, a[3]});
    }
    if (a.str(1) != "fro") throw FxError("norm: only p='fro', 'nuc' and numeric p are supported, got '" + a.str(1) + "'");
  } else if (!a.is_none(1)) {
    p = a.number(1).as_double();
  }
  return norm_tensor(a.tensor(0), p, a.int_list(2), a.boolean(3), a.dtype(4));
}

Object vector_norm_op(const OpCall& call) {
  static const Schema schema("vector_norm(input|self|x, ord=2, dim=None, keepdim=False, *, dtype=None)");
  Args a = schema.parse(call);
  return norm_tensor(a.tensor(0), a.number(1).as_double(), a.int_list(2), a.boolean(3), a.dtype(4));
}

Object prod_op(const OpCall& call) {
  static const Schema schema("prod(input|self, dim=None, keepdim=False, *, dtype=None)");
  Args a = schema.parse(call);
  Tensor x = a.tensor(0);
  if (auto dt = a.dtype(3)) x = to_dtype(x, *dt);
  // the given dtype, else int64 for integers and bool (a bool product computes as integers: 0 or 1)
  const DType out = a.dtype(3) ? *a.dtype(3) : dtype_is_floating(x.dtype()) ? x.dtype() : DType::Int64;
  std::optional<std::vector<int64_t>> dims;
  if (!a.is_none(1)) dims = std::vector<int64_t>{a.integer(1)};
  const DType acc = dtype_is_floating(out) ? compute_dtype(out) : DType::Int64;
  ReducePlan p = plan_reduce(to_dtype(x, acc), dims, a.boolean(2));
  Tensor y = Tensor::empty(p.out_shape, acc);
  dispatch_wide(y.dtype(), "prod", [&](auto tag) {  // (y is float32, float64 or int64)
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) {
      for (int64_t o = 0; o < p.outer; ++o) {
        double acc = 1;
        for (int64_t i = 0; i < p.reduce; ++i) acc *= p.x.data<T>()[o * p.reduce + i];
        y.data<T>()[o] = static_cast<T>(acc);
      }
    } else {
      for (int64_t o = 0; o < p.outer; ++o) {
        uint64_t acc = 1;  // wraps as torch's int64 product does
        for (int64_t i = 0; i < p.reduce; ++i) acc *= static_cast<uint64_t>(p.x.data<T>()[o * p.reduce + i]);
        y.data<T>()[o] = static_cast<T>(acc);
      }
    }
  });
  return to_dtype(y, out);
}

// amax/amin keep the dtype; NaN propagates. dim=() reduces everything.
template <bool kMax>
Object amax_op(const OpCall& call) {
  static const Schema schema(std::string(kMax ? "amax" : "amin") + "(input|self, dim=None, keepdim=False)");
  Args a = schema.parse(call);
  const Tensor& x0 = a.tensor(0);
  const auto dims = a.int_list(1);
  if (x0.numel() == 0 && (!dims || dims->empty()))
    throw FxError(std::string(kMax ? "amax" : "amin") + "(): Expected reduction dim to be specified for input.numel() == 0.");
  Tensor x = to_dtype(x0, order_dtype(x0.dtype()));  // only compares: int64 or double (ops/dispatch_order.h)
  ReducePlan p = plan_reduce(x, dims, a.boolean(2));
  for (size_t i = 0; p.reduce == 0 && i < p.mask.size(); ++i)  // (reducing along non-empty dims is fine)
    if (p.mask[i] && x0.shape()[i] == 0)
      throw FxError(std::string(kMax ? "amax" : "amin") + "(): Expected reduction dim " + std::to_string(i) +
                    " to have non-zero size.");
  Tensor y = Tensor::empty(p.out_shape, x.dtype());
  dispatch_order(x.dtype(), kMax ? "amax" : "amin", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t o = 0; o < p.outer; ++o) {
      const T* r = p.x.data<T>() + o * p.reduce;
      T best = r[0];
      for (int64_t i = 1; i < p.reduce; ++i) {
        if constexpr (std::is_floating_point_v<T>) {
          if (std::isnan(best)) break;
          if (std::isnan(r[i])) { best = r[i]; break; }
        }
        if (kMax ? r[i] > best : r[i] < best) best = r[i];
      }
      y.data<T>()[o] = best;
    }
  });
  return restore_dtype(y, x0.dtype());
}

template <bool kAny>
Object any_op(const OpCall& call) {
  static const Schema schema(std::string(kAny ? "any" : "all") + "(input|self, dim=None, keepdim=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  Tensor b = to_dtype(x, DType::Bool);
  ReducePlan p = plan_reduce(b, a.int_list(1), a.boolean(2));
  Tensor y = Tensor::empty(p.out_shape, DType::Bool);
  for (int64_t o = 0; o < p.outer && !meta_mode(); ++o) {  // (no kernel in shape inference)
    bool acc = !kAny;
    for (int64_t i = 0; i < p.reduce; ++i) acc = kAny ? (acc || p.x.data<bool>()[o * p.reduce + i])
                                                      : (acc && p.x.data<bool>()[o * p.reduce + i]);
    y.data<bool>()[o] = acc;
  }
  return x.dtype() == DType::UInt8 ? to_dtype(y, DType::UInt8) : y;  // torch keeps uint8 for any/all
}

const OpRow kOps[] = {
    {"torch.mean", "torch.Tensor.mean aten.mean.default aten.mean.dim", "mean", mean_op},
    {"torch.var", "torch.Tensor.var aten.var.default aten.var.dim", "var", var_op<false>},
    {"torch.std", "torch.Tensor.std aten.std.default aten.std.dim", "std", var_op<true>},
    {"aten.var.correction", "", "", var_correction_op<false>},
    {"aten.std.correction", "", "", var_correction_op<true>},
    {"torch.logsumexp", "torch.Tensor.logsumexp aten.logsumexp.default torch.special.logsumexp", "logsumexp", logsumexp_op},
    {"torch.norm", "torch.Tensor.norm torch.functional.norm aten.norm.ScalarOpt_dim", "norm", norm_op},
    {"torch.linalg.vector_norm", "torch._C._linalg.linalg_vector_norm aten.linalg_vector_norm.default", "", vector_norm_op},
    {"torch.prod", "torch.Tensor.prod aten.prod.default aten.prod.dim_int", "prod", prod_op},
    {"torch.amax", "torch.Tensor.amax aten.amax.default", "amax", amax_op<true>},
    {"torch.amin", "torch.Tensor.amin aten.amin.default", "amin", amax_op<false>},
    {"torch.any", "torch.Tensor.any aten.any.default aten.any.dim aten.any.dims", "any", any_op<true>},
    {"torch.all", "torch.Tensor.all aten.all.default aten.all.dim aten.all.dims", "all", any_op<false>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
