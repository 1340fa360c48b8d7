// Normalisation ops: batch_norm (eval with running stats, or batch stats when training), layer_norm,
// group_norm, instance_norm, and their aten forms that return (out, mean, rstd) tuples.
#include <cmath>
#include <vector>

#include "kernels/norm.h"
#include "ops/array/view_util.h"
#include "ops/nn/nn_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

Tensor opt_tensor(const Args& a, size_t i) { return a.is_none(i) ? Tensor() : a.tensor(i); }

// A per-channel vector as doubles (or `fill` when absent), checked to have C values.
std::vector<double> channel_values(const Tensor& t, int64_t C, double fill, const char* what) {
  std::vector<double> v(static_cast<size_t>(C), fill);
  if (!t.defined()) return v;
  if (t.numel() != C)
    throw FxError(std::string("running_mean should contain ") + std::to_string(C) + " elements not " +
                  std::to_string(t.numel()) + " (" + what + ")");
  if (meta_mode()) return v;  // shape inference: the values only feed kernels, which are skipped
  Tensor d = to_dtype(t, DType::Float64).contiguous();
  for (int64_t c = 0; c < C; ++c) v[c] = d.data<double>()[c];
  return v;
}

struct BatchNormResult {
  Tensor out, save_mean, save_rstd;
  std::vector<double> mean, var;  // the batch statistics (biased variance), when computed
  int64_t count = 0;              // values per channel behind them
};

BatchNormResult batch_norm_impl(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& rmean,
                                const Tensor& rvar, bool training, double eps) {
  if (input.dim() < 2 && input.numel() == 0) {  // torch returns an empty input as it is, whatever its rank
    const Tensor none = Tensor::empty({0}, DType::Float32);
    return {input.clone(), none, none};
  }
  if (input.dim() < 2) throw FxError("batch_norm: expected an input with at least 2 dims, got " +
                                     shape_to_string(input.shape()));
  Tensor x = float_contiguous(input, "batch_norm");
  const int64_t N = x.shape()[0], C = x.shape()[1];
  const int64_t inner = C ? x.numel() / (N * C == 0 ? 1 : N * C) : 0;
  std::vector<double> mean, var;
  const std::vector<double> w = channel_values(weight, C, 1.0, "weight"), b = channel_values(bias, C, 0.0, "bias");
  if (training || !rmean.defined() || !rvar.defined()) {
    if (N * inner <= 1)
      throw FxError("Expected more than 1 value per channel when training, got input size " +
                    shape_to_string(input.shape()));
    mean.assign(C, 0.0), var.assign(C, 0.0);
    dispatch_float(x.dtype(), "batch_norm", [&](auto tag) {
      using T = decltype(tag);
      for (int64_t c = 0; c < C; ++c) {
        double s = 0, ss = 0;
        for (int64_t n = 0; n < N; ++n) {
          const T* p = x.data<T>() + (n * C + c) * inner;
          for (int64_t i = 0; i < inner; ++i) s += p[i];
        }
        const double m = s / static_cast<double>(N * inner);
        for (int64_t n = 0; n < N; ++n) {
          const T* p = x.data<T>() + (n * C + c) * inner;
          for (int64_t i = 0; i < inner; ++i) ss += (p[i] - m) * (p[i] - m);
        }
        mean[c] = m, var[c] = ss / static_cast<double>(N * inner);
      }
    });
  } else {
    mean = channel_values(rmean, C, 0.0, "running_mean");
    var = channel_values(rvar, C, 1.0, "running_var");
  }
  std::vector<double> ka(C), kb(C), rstd(C);
  for (int64_t c = 0; c < C; ++c) {
    rstd[c] = 1.0 / std::sqrt(var[c] + eps);
    ka[c] = w[c] * rstd[c];
    kb[c] = b[c] - mean[c] * ka[c];
  }
  BatchNormResult r;
  if (training || !rmean.defined() || !rvar.defined()) r.mean = mean, r.var = var, r.count = N * inner;
  r.out = Tensor::empty(x.shape(), x.dtype());
  dispatch_float(x.dtype(), "batch_norm", [&](auto tag) {
    using T = decltype(tag);
    kernels::channel_affine<T>(x.data<T>(), r.out.data<T>(), N, C, inner, ka.data(), kb.data());
  });
  r.out = restore_dtype(r.out, input.dtype());
  const bool stats = training || !rmean.defined();
  r.save_mean = Tensor::empty({stats ? C : 0}, x.dtype());
  r.save_rstd = Tensor::empty({stats ? C : 0}, x.dtype());
  if (stats && !meta_mode()) {
    Tensor m = Tensor::empty({C}, DType::Float64), s = Tensor::empty({C}, DType::Float64);
    for (int64_t c = 0; c < C; ++c) m.data<double>()[c] = mean[c], s.data<double>()[c] = rstd[c];
    r.save_mean = to_dtype(m, x.dtype()), r.save_rstd = to_dtype(s, x.dtype());
  }
  return r;
}

Object f_batch_norm_op(const OpCall& call) {
  static const Schema schema(
      "batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05)");
  Args a = schema.parse(call);
  return batch_norm_impl(a.tensor(0), opt_tensor(a, 3), opt_tensor(a, 4), opt_tensor(a, 1), opt_tensor(a, 2),
                         a.boolean(5), a.number(7).as_double()).out;
}

Object torch_batch_norm_op(const OpCall& call) {
  static const Schema schema(
      "batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled=True)");
  Args a = schema.parse(call);
  return batch_norm_impl(a.tensor(0), opt_tensor(a, 1), opt_tensor(a, 2), opt_tensor(a, 3), opt_tensor(a, 4),
                         a.boolean(5), a.number(7).as_double()).out;
}

Object native_batch_norm_op(const OpCall& call) {
  static const Schema schema(
      "native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)");
  Args a = schema.parse(call);
  BatchNormResult r = batch_norm_impl(a.tensor(0), opt_tensor(a, 1), opt_tensor(a, 2), opt_tensor(a, 3),
                                      opt_tensor(a, 4), a.boolean(5), a.number(7).as_double());
  return Object::tuple({r.out, r.save_mean, r.save_rstd});
}

// The in-place update of the running statistics the aten training forms make:
// running = momentum · batch + (1 - momentum) · running, with the unbiased batch variance.
void update_running_stats(const Tensor& rmean, const Tensor& rvar, const BatchNormResult& r, double momentum) {
  if (meta_mode() || r.mean.empty()) return;
  const int64_t C = static_cast<int64_t>(r.mean.size());
  const double unbias = r.count > 1 ? static_cast<double>(r.count) / static_cast<double>(r.count - 1) : 1.0;
  const Tensor* stats[2] = {&rmean, &rvar};
  for (int k = 0; k < 2; ++k) {
    const Tensor& t = *stats[k];
    if (!t.defined()) continue;
    if (t.numel() != C) throw FxError("batch_norm: running statistics must have one value per channel");
    Tensor cur = to_dtype(t, DType::Float64).contiguous();
    Tensor next = Tensor::empty(t.shape(), DType::Float64);
    for (int64_t c = 0; c < C; ++c) {
      const double batch = k == 0 ? r.mean[c] : r.var[c] * unbias;
      next.data<double>()[c] = momentum * batch + (1 - momentum) * cur.data<double>()[c];
    }
    copy_into(t, to_dtype(next, t.dtype()));
  }
}

// _native_batch_norm_legit(input, weight, bias, running_mean, running_var, training, momentum, eps) and its
// no_stats overload (no running statistics: batch statistics whatever `training` says).
Object bn_legit_op(const OpCall& call) {
  static const Schema full("_native_batch_norm_legit(input, weight, bias, running_mean, running_var, training, "
                           "momentum, eps)");
  static const Schema no_stats("_native_batch_norm_legit(input, weight, bias, training, momentum, eps)");
  const bool has_stats = call.args.size() + call.kwargs.size() >= 8;
  Args a = (has_stats ? full : no_stats).parse(call);
  const size_t t = has_stats ? 5 : 3;
  BatchNormResult r = batch_norm_impl(a.tensor(0), opt_tensor(a, 1), opt_tensor(a, 2),
                                      has_stats ? opt_tensor(a, 3) : Tensor(), has_stats ? opt_tensor(a, 4) : Tensor(),
                                      a.boolean(t), a.number(t + 2).as_double());
  if (has_stats && a.boolean(t)) update_running_stats(a.tensor(3), a.tensor(4), r, a.number(t + 1).as_double());
  return Object::tuple({r.out, r.save_mean, r.save_rstd});
}

// _batch_norm_with_update: training batch norm updating the running statistics in place; (out, save_mean,
// save_rstd, reserve), reserve empty on CPU
Object bn_with_update_op(const OpCall& call) {
  static const Schema schema("_batch_norm_with_update(input, weight, bias, running_mean, running_var, momentum, eps)");
  Args a = schema.parse(call);
  BatchNormResult r = batch_norm_impl(a.tensor(0), opt_tensor(a, 1), opt_tensor(a, 2), opt_tensor(a, 3),
                                      opt_tensor(a, 4), true, a.number(6).as_double());
  update_running_stats(opt_tensor(a, 3), opt_tensor(a, 4), r, a.number(5).as_double());
  return Object::tuple({r.out, r.save_mean, r.save_rstd, Tensor::empty({0}, DType::UInt8)});
}

Object bn_no_training_op(const OpCall& call) {
  static const Schema schema(
      "_native_batch_norm_legit_no_training(input, weight, bias, running_mean, running_var, momentum, eps)");
  Args a = schema.parse(call);
  BatchNormResult r = batch_norm_impl(a.tensor(0), opt_tensor(a, 1), opt_tensor(a, 2), opt_tensor(a, 3),
                                      opt_tensor(a, 4), false, a.number(6).as_double());
  return Object::tuple({r.out, r.save_mean, r.save_rstd});
}

// Layer norm over the trailing `normalized_shape` dims; returns out, mean and rstd (aten's shapes).
Object layer_norm_impl(const Tensor& input, const std::vector<int64_t>& ns, const Tensor& weight,
                       const Tensor& bias, double eps, bool tuple) {
  const int64_t nd = static_cast<int64_t>(ns.size());
  bool ok = nd <= input.dim();
  for (int64_t i = 0; ok && i < nd; ++i) ok = input.shape()[input.dim() - nd + i] == ns[i];
  if (!ok) {
    std::string ex = "[*";
    for (int64_t v : ns) ex += ", " + std::to_string(v);
    throw FxError("Given normalized_shape=" + shape_to_string(ns) + ", expected input with shape " + ex +
                  "], but got input of size" + shape_to_string(input.shape()));
  }
  Tensor x = float_contiguous(input, "layer_norm");
  int64_t n = 1;
  for (int64_t v : ns) n *= v;
  const int64_t rows = n ? x.numel() / n : 0;
  auto param = [&](const Tensor& t, const char* what) {
    if (!t.defined()) return Tensor();
    if (t.numel() != n) throw FxError(std::string("layer_norm: ") + what + " must have shape " + shape_to_string(ns));
    return to_dtype(t, x.dtype()).contiguous();
  };
  Tensor w = param(weight, "weight"), b = param(bias, "bias");
  Tensor out = Tensor::empty(x.shape(), x.dtype());
  Tensor mean, rstd;  // aten's native_layer_norm returns them; F.layer_norm does not
  if (tuple) {
    Shape stat_shape(x.shape().begin(), x.shape().end() - nd);
    for (int64_t i = 0; i < nd; ++i) stat_shape.push_back(1);
    mean = Tensor::empty(stat_shape, x.dtype());
    rstd = Tensor::empty(stat_shape, x.dtype());
  }
  dispatch_float(x.dtype(), "layer_norm", [&](auto tag) {
    using T = decltype(tag);
    kernels::layer_norm_rows<T>(x.data<T>(), w.defined() ? w.data<T>() : nullptr, b.defined() ? b.data<T>() : nullptr,
                                out.data<T>(), rows, n, eps, tuple ? mean.data<T>() : nullptr,
                                tuple ? rstd.data<T>() : nullptr);
  });
  Tensor y = restore_dtype(out, input.dtype());
  if (!tuple) return y;
  return Object::tuple({y, mean, rstd});
}

Object f_layer_norm_op(const OpCall& call) {
  static const Schema schema("layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True)");
  Args a = schema.parse(call);
  return layer_norm_impl(a.tensor(0), *a.int_list(1), opt_tensor(a, 2), opt_tensor(a, 3), a.number(4).as_double(),
                         false);
}

Object native_layer_norm_op(const OpCall& call) {
  static const Schema schema("native_layer_norm(input, normalized_shape, weight, bias, eps)");
  Args a = schema.parse(call);
  return layer_norm_impl(a.tensor(0), *a.int_list(1), opt_tensor(a, 2), opt_tensor(a, 3), a.number(4).as_double(),
                         true);
}

// Group norm of x [N, C, *] in G groups; mean/rstd [N, G].
Object group_norm_impl(const Tensor& input, int64_t G, const Tensor& weight, const Tensor& bias, double eps,
                       bool tuple) {
  if (input.dim() < 2) throw FxError("group_norm: expected at least 2 dims, got " + shape_to_string(input.shape()));
  const int64_t N = input.shape()[0], C = input.shape()[1];
  if (G <= 0) throw FxError("Expected num groups to be greater than 0, got " + std::to_string(G));
  if (C % G != 0)
    throw FxError("Expected number of channels in input to be divisible by num_groups, but got input of shape " +
                  shape_to_string(input.shape()) + " and num_groups=" + std::to_string(G));
  Tensor x = float_contiguous(input, "group_norm");
  const int64_t inner = N * C ? x.numel() / (N * C) : 0, cg = C / G;
  const std::vector<double> w = channel_values(weight, C, 1.0, "weight"), b = channel_values(bias, C, 0.0, "bias");
  Tensor out = Tensor::empty(x.shape(), x.dtype());
  Tensor mean = Tensor::empty({N, G}, x.dtype()), rstd = Tensor::empty({N, G}, x.dtype());
  dispatch_float(x.dtype(), "group_norm", [&](auto tag) {
    using T = decltype(tag);
    std::vector<double> ka(cg), kb(cg);
    for (int64_t n = 0; n < N; ++n)
      for (int64_t g = 0; g < G; ++g) {
        const int64_t base = (n * C + g * cg) * inner;
        double m, r;
        kernels::moments(x.data<T>() + base, cg * inner, eps, m, r);
        for (int64_t c = 0; c < cg; ++c) {
          ka[c] = w[g * cg + c] * r;
          kb[c] = b[g * cg + c] - m * ka[c];
        }
        kernels::channel_affine<T>(x.data<T>() + base, out.data<T>() + base, 1, cg, inner, ka.data(), kb.data());
        mean.data<T>()[n * G + g] = static_cast<T>(m);
        rstd.data<T>()[n * G + g] = static_cast<T>(r);
      }
  });
  Tensor y = restore_dtype(out, input.dtype());
  if (!tuple) return y;
  return Object::tuple({y, mean, rstd});
}

Object f_group_norm_op(const OpCall& call) {
  static const Schema schema("group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True)");
  Args a = schema.parse(call);
  return group_norm_impl(a.tensor(0), a.integer(1), opt_tensor(a, 2), opt_tensor(a, 3), a.number(4).as_double(), false);
}

Object native_group_norm_op(const OpCall& call) {
  static const Schema schema("native_group_norm(input, weight, bias, N, C, HxW, group, eps)");
  Args a = schema.parse(call);
  return group_norm_impl(a.tensor(0), a.integer(6), opt_tensor(a, 1), opt_tensor(a, 2), a.number(7).as_double(), true);
}

// instance_norm: group norm with one channel per group when it uses input statistics; otherwise the
// running statistics, as batch_norm in eval.
Object instance_norm_impl(const Tensor& x, const Tensor& rmean, const Tensor& rvar, const Tensor& w, const Tensor& b,
                          bool use_input_stats, double eps) {
  if (x.dim() < 2) throw FxError("instance_norm: expected at least 2 dims");
  if (!use_input_stats) return batch_norm_impl(x, w, b, rmean, rvar, false, eps).out;
  return group_norm_impl(x, x.shape()[1], w, b, eps, false);
}

Object f_instance_norm_op(const OpCall& call) {
  static const Schema schema("instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, "
                             "use_input_stats=True, momentum=0.1, eps=1e-05)");
  Args a = schema.parse(call);
  return instance_norm_impl(a.tensor(0), opt_tensor(a, 1), opt_tensor(a, 2), opt_tensor(a, 3), opt_tensor(a, 4),
                            a.boolean(5), a.number(7).as_double());
}

Object torch_instance_norm_op(const OpCall& call) {
  static const Schema schema("instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, "
                             "momentum, eps, cudnn_enabled=True)");
  Args a = schema.parse(call);
  return instance_norm_impl(a.tensor(0), opt_tensor(a, 3), opt_tensor(a, 4), opt_tensor(a, 1), opt_tensor(a, 2),
                            a.boolean(5), a.number(7).as_double());
}

const OpRow kOps[] = {
    {"torch.nn.functional.batch_norm", "", "", f_batch_norm_op},
    {"torch.batch_norm", "aten.batch_norm.default", "", torch_batch_norm_op},
    {"torch.native_batch_norm", "aten.native_batch_norm.default", "", native_batch_norm_op},
    {"aten._native_batch_norm_legit_no_training.default", "", "", bn_no_training_op},
    {"torch._native_batch_norm_legit", "aten._native_batch_norm_legit.default aten._native_batch_norm_legit.no_stats",
     "", bn_legit_op},
    {"aten._batch_norm_with_update.default", "aten._batch_norm_with_update torch._batch_norm_with_update", "",
     bn_with_update_op},
    {"torch.nn.functional.layer_norm", "torch.layer_norm aten.layer_norm.default", "", f_layer_norm_op},
    {"torch.native_layer_norm", "aten.native_layer_norm.default", "", native_layer_norm_op},
    {"torch.nn.functional.group_norm", "torch.group_norm aten.group_norm.default", "", f_group_norm_op},
    {"torch.native_group_norm", "aten.native_group_norm.default", "", native_group_norm_op},
    {"torch.nn.functional.instance_norm", "", "", f_instance_norm_op},
    {"torch.instance_norm", "aten.instance_norm.default", "", torch_instance_norm_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
