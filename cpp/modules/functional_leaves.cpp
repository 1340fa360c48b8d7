// Leaf modules whose forward is one torch.nn.functional call on their inputs with hyperparameters as
// keywords (LPPool, LocalResponseNorm, Fold/Unfold, Softmax2d, RMSNorm, CosineSimilarity,
// PairwiseDistance, 3-D padding, RReLU at inference), as torch's forward methods write them.
#include <algorithm>

#include "modules/module_util.h"
#include "support/error.h"

namespace fx {
namespace {

struct Spec {
  std::vector<std::string> types;  // after "torch.nn.modules."
  std::string target;
  size_t inputs;                                      // how many of the call's args go first
  std::vector<std::pair<std::string, std::string>> hp;  // hparam → keyword (or positional when it starts with '#')
  std::vector<std::pair<std::string, Object>> fixed;
};

Object str(const char* s) { return Object(Value::str(s)); }

const std::vector<Spec>& specs() {
  const std::string F = "torch.nn.functional.";
  static const std::vector<Spec> s = {
      {{"pooling.LPPool1d"}, F + "lp_pool1d", 1,
       {{"norm_type", "norm_type"}, {"kernel_size", "kernel_size"}, {"stride", "stride"}, {"ceil_mode", "ceil_mode"}}, {}},
      {{"pooling.LPPool2d"}, F + "lp_pool2d", 1,
       {{"norm_type", "norm_type"}, {"kernel_size", "kernel_size"}, {"stride", "stride"}, {"ceil_mode", "ceil_mode"}}, {}},
      {{"pooling.LPPool3d"}, F + "lp_pool3d", 1,
       {{"norm_type", "norm_type"}, {"kernel_size", "kernel_size"}, {"stride", "stride"}, {"ceil_mode", "ceil_mode"}}, {}},
      {{"normalization.LocalResponseNorm"}, F + "local_response_norm", 1,
       {{"size", "size"}, {"alpha", "alpha"}, {"beta", "beta"}, {"k", "k"}}, {}},
      {{"fold.Fold"}, F + "fold", 1,
       {{"output_size", "output_size"}, {"kernel_size", "kernel_size"}, {"dilation", "dilation"},
        {"padding", "padding"}, {"stride", "stride"}}, {}},
      {{"fold.Unfold"}, F + "unfold", 1,
       {{"kernel_size", "kernel_size"}, {"dilation", "dilation"}, {"padding", "padding"}, {"stride", "stride"}}, {}},
      {{"activation.Softmax2d"}, F + "softmax", 1, {}, {{"dim", Object(Value::integer(-3))}}},
      {{"distance.CosineSimilarity"}, F + "cosine_similarity", 2, {{"dim", "dim"}, {"eps", "eps"}}, {}},
      {{"distance.PairwiseDistance"}, F + "pairwise_distance", 2,
       {{"norm", "p"}, {"eps", "eps"}, {"keepdim", "keepdim"}}, {}},
      {{"padding.ZeroPad3d", "padding.ConstantPad3d"}, F + "pad", 1, {{"padding", "pad"}, {"value", "value"}},
       {{"mode", str("constant")}}},
      {{"padding.ReflectionPad3d"}, F + "pad", 1, {{"padding", "pad"}}, {{"mode", str("reflect")}}},
      {{"padding.ReplicationPad3d"}, F + "pad", 1, {{"padding", "pad"}}, {{"mode", str("replicate")}}},
      {{"padding.CircularPad3d"}, F + "pad", 1, {{"padding", "pad"}}, {{"mode", str("circular")}}},
  };
  return s;
}

BoundModule bind_spec(const ModuleBinding& b) {
  for (const Spec& s : specs()) {
    bool match = false;
    for (const std::string& t : s.types) match = match || b.info.type == "torch.nn.modules." + t;
    if (!match) continue;
    Hparams h(b);
    OpRef op(s.target);
    std::vector<std::pair<std::string, Object>> kwargs = s.fixed;
    for (const auto& [hp, kw] : s.hp)
      if (b.hparam(hp)) kwargs.emplace_back(kw, h.object(hp));
    const size_t n = s.inputs;
    return [op, kwargs, n](const OpCall& call) -> Object {
      if (call.args.size() < n) throw FxError("module expects " + std::to_string(n) + " inputs");
      return op(std::vector<Object>(call.args.begin(), call.args.begin() + static_cast<long>(n)), kwargs);
    };
  }
  throw FxError("no functional spec for " + b.info.type);
}

// RMSNorm(normalized_shape, eps=None, elementwise_affine=True): F.rms_norm with its weight.
BoundModule bind_rms_norm(const ModuleBinding& b) {
  Hparams h(b);
  Tensor w = h.tensor("weight", false);
  Object shape = h.object("normalized_shape"), eps = h.object("eps");
  OpRef op("torch.nn.functional.rms_norm");
  return [=](const OpCall& call) -> Object {
    return op({call.args.at(0), shape, w.defined() ? Object(w) : Object(), eps});
  };
}

// RReLU at inference: leaky_relu with the mean of its slope range.
BoundModule bind_rrelu(const ModuleBinding& b) {
  Hparams h(b);
  const double slope = (h.number_or("lower", 1.0 / 8) + h.number_or("upper", 1.0 / 3)) / 2;
  OpRef op("torch.nn.functional.leaky_relu");
  return [=](const OpCall& call) -> Object { return op({call.args.at(0), Object(Value::floating(slope))}); };
}

std::vector<std::string> spec_types() {
  std::vector<std::string> out;
  for (const Spec& s : specs())
    for (const std::string& t : s.types) out.push_back("torch.nn.modules." + t);
  return out;
}

const ModuleRegistrar reg_specs{spec_types(), bind_spec};
const ModuleRegistrar reg_rms{{"torch.nn.modules.normalization.RMSNorm"}, bind_rms_norm};
const ModuleRegistrar reg_rrelu{{"torch.nn.modules.activation.RReLU"}, bind_rrelu};

}  // namespace
}  // namespace fx
