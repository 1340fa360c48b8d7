// BatchNorm1d/2d, LayerNorm, GroupNorm and InstanceNorm1d/2d. BatchNorm in eval folds its running
// statistics, weight and bias into one scale and shift per channel at bind time.
#include <cmath>

#include "kernels/norm.h"
#include "nn/module_util.h"
#include "ops/nn/nn_util.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

std::vector<double> as_doubles(const Tensor& t) {
  Tensor d = to_dtype(t, DType::Float64).contiguous();
  return std::vector<double>(d.data<double>(), d.data<double>() + d.numel());
}

BoundModule bind_batch_norm(const ModuleBinding& b) {
  Hparams h(b);
  Tensor w = h.tensor("weight", false), bias = h.tensor("bias", false);
  Tensor rm = h.tensor("running_mean", false), rv = h.tensor("running_var", false);
  const double eps = h.number_or("eps", 1e-5), momentum = h.number_or("momentum", 0.1);
  const bool batch_stats = h.boolean_or("training", false) || !rm.defined() || !rv.defined();
  if (batch_stats) {
    OpRef op("torch.batch_norm");
    auto opt = [](const Tensor& t) { return t.defined() ? Object(t) : Object(); };
    return [=](const OpCall& call) -> Object {
      return op({call.args.at(0), opt(w), opt(bias), opt(rm), opt(rv), Object(Value::boolean(true)),
                 Object(Value::floating(momentum)), Object(Value::floating(eps))});
    };
  }
  const std::vector<double> mean = as_doubles(rm), var = as_doubles(rv);
  const int64_t C = static_cast<int64_t>(mean.size());
  std::vector<double> ws = w.defined() ? as_doubles(w) : std::vector<double>(C, 1.0);
  std::vector<double> bs = bias.defined() ? as_doubles(bias) : std::vector<double>(C, 0.0);
  if (static_cast<int64_t>(var.size()) != C || static_cast<int64_t>(ws.size()) != C || static_cast<int64_t>(bs.size()) != C)
    throw FxError("BatchNorm: weight, bias and running statistics must all have " + std::to_string(C) + " values");
  auto scale = std::make_shared<std::vector<double>>(C), shift = std::make_shared<std::vector<double>>(C);
  for (int64_t c = 0; c < C; ++c) {
    (*scale)[c] = ws[c] / std::sqrt(var[c] + eps);
    (*shift)[c] = bs[c] - mean[c] * (*scale)[c];
  }
  return [scale, shift, C](const OpCall& call) -> Object {
    const Tensor& in = call.args.at(0).tensor();
    if (in.dim() < 2 || in.shape()[1] != C)
      throw FxError("running_mean should contain " + std::to_string(in.dim() >= 2 ? in.shape()[1] : 0) +
                    " elements not " + std::to_string(C));
    Tensor x = float_contiguous(in, "batch_norm");
    const int64_t N = x.shape()[0], inner = N * C ? x.numel() / (N * C) : 0;
    Tensor out = Tensor::empty(x.shape(), x.dtype());
    dispatch_float(x.dtype(), "batch_norm", [&](auto tag) {
      using T = decltype(tag);
      kernels::channel_affine<T>(x.data<T>(), out.data<T>(), N, C, inner, scale->data(), shift->data());
    });
    return restore_dtype(out, in.dtype());
  };
}

Object opt(const Tensor& t) { return t.defined() ? Object(t) : Object(); }

BoundModule bind_layer_norm(const ModuleBinding& b) {
  Hparams h(b);
  Tensor w = h.tensor("weight", false), bias = h.tensor("bias", false);
  // The arguments other than the input are Objects made once: a call copies references, not tensors.
  const Object shape = h.object("normalized_shape"), wo = opt(w), bo = opt(bias);
  const Object eps(Value::floating(h.number_or("eps", 1e-5)));
  OpRef op("torch.nn.functional.layer_norm");
  return [=](const OpCall& call) -> Object { return op({call.args.at(0), shape, wo, bo, eps}); };
}

BoundModule bind_group_norm(const ModuleBinding& b) {
  Hparams h(b);
  Tensor w = h.tensor("weight", false), bias = h.tensor("bias", false);
  const Object groups(Value::integer(h.integer("num_groups"))), wo = opt(w), bo = opt(bias);
  const Object eps(Value::floating(h.number_or("eps", 1e-5)));
  OpRef op("torch.nn.functional.group_norm");
  return [=](const OpCall& call) -> Object { return op({call.args.at(0), groups, wo, bo, eps}); };
}

BoundModule bind_instance_norm(const ModuleBinding& b) {
  Hparams h(b);
  Tensor w = h.tensor("weight", false), bias = h.tensor("bias", false);
  Tensor rm = h.tensor("running_mean", false), rv = h.tensor("running_var", false);
  const double eps = h.number_or("eps", 1e-5), momentum = h.number_or("momentum", 0.1);
  const bool use_input_stats = h.boolean_or("training", false) || !h.boolean_or("track_running_stats", false);
  const Object rmo = opt(rm), rvo = opt(rv), wo = opt(w), bo = opt(bias), stats(Value::boolean(use_input_stats));
  const Object momentum_o(Value::floating(momentum)), eps_o(Value::floating(eps));
  OpRef op("torch.nn.functional.instance_norm");
  return [=](const OpCall& call) -> Object {
    return op({call.args.at(0), rmo, rvo, wo, bo, stats, momentum_o, eps_o});
  };
}

const ModuleRegistrar reg_bn{{"torch.nn.modules.batchnorm.BatchNorm1d", "torch.nn.modules.batchnorm.BatchNorm2d",
                              "torch.nn.modules.batchnorm.BatchNorm3d"},
                             bind_batch_norm};
const ModuleRegistrar reg_ln{{"torch.nn.modules.normalization.LayerNorm"}, bind_layer_norm};
const ModuleRegistrar reg_gn{{"torch.nn.modules.normalization.GroupNorm"}, bind_group_norm};
const ModuleRegistrar reg_in{{"torch.nn.modules.instancenorm.InstanceNorm1d",
                              "torch.nn.modules.instancenorm.InstanceNorm2d",
                              "torch.nn.modules.instancenorm.InstanceNorm3d"},
                             bind_instance_norm};

}  // namespace
}  // namespace fx
