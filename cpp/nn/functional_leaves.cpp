// Leaf modules whose forward is one torch.nn.functional call on their inputs with hyperparameters as
// keywords (LPPool, LocalResponseNorm, Fold/Unfold, Softmax2d, RMSNorm, CosineSimilarity,
// PairwiseDistance, 3-D padding, RReLU at inference), as torch's forward methods write them.
#include <algorithm>

#include "nn/module_util.h"
#include "support/error.h"

namespace fx {
namespace {

// Plain constant data (a table of std::vector and std::string compiled to 12 KB of code).
struct Spec {
  const char* types[2];  // after "torch.nn.modules." (unused entries null)
  const char* target;    // after "torch.nn.functional."
  size_t inputs;         // how many of the call's args go first
  struct {
    const char* hparam;
    const char* keyword;
  } hp[5];
  struct {
    const char* keyword;
    const char* value;  // a string, or an integer's digits
  } fixed[1];
};

const Spec kSpecs[] = {
    {{"pooling.LPPool1d"}, "lp_pool1d", 1,
     {{"norm_type", "norm_type"}, {"kernel_size", "kernel_size"}, {"stride", "stride"}, {"ceil_mode", "ceil_mode"}}, {}},
    {{"pooling.LPPool2d"}, "lp_pool2d", 1,
     {{"norm_type", "norm_type"}, {"kernel_size", "kernel_size"}, {"stride", "stride"}, {"ceil_mode", "ceil_mode"}}, {}},
    {{"pooling.LPPool3d"}, "lp_pool3d", 1,
     {{"norm_type", "norm_type"}, {"kernel_size", "kernel_size"}, {"stride", "stride"}, {"ceil_mode", "ceil_mode"}}, {}},
    {{"normalization.LocalResponseNorm"}, "local_response_norm", 1,
     {{"size", "size"}, {"alpha", "alpha"}, {"beta", "beta"}, {"k", "k"}}, {}},
    {{"fold.Fold"}, "fold", 1,
     {{"output_size", "output_size"}, {"kernel_size", "kernel_size"}, {"dilation", "dilation"},
      {"padding", "padding"}, {"stride", "stride"}}, {}},
    {{"fold.Unfold"}, "unfold", 1,
     {{"kernel_size", "kernel_size"}, {"dilation", "dilation"}, {"padding", "padding"}, {"stride", "stride"}}, {}},
    {{"activation.Softmax2d"}, "softmax", 1, {}, {{"dim", "-3"}}},
    {{"distance.CosineSimilarity"}, "cosine_similarity", 2, {{"dim", "dim"}, {"eps", "eps"}}, {}},
    {{"distance.PairwiseDistance"}, "pairwise_distance", 2, {{"norm", "p"}, {"eps", "eps"}, {"keepdim", "keepdim"}},
     {}},
    {{"padding.ZeroPad3d", "padding.ConstantPad3d"}, "pad", 1, {{"padding", "pad"}, {"value", "value"}},
     {{"mode", "constant"}}},
    {{"padding.ReflectionPad3d"}, "pad", 1, {{"padding", "pad"}}, {{"mode", "reflect"}}},
    {{"padding.ReplicationPad3d"}, "pad", 1, {{"padding", "pad"}}, {{"mode", "replicate"}}},
    {{"padding.CircularPad3d"}, "pad", 1, {{"padding", "pad"}}, {{"mode", "circular"}}},
};

Object fixed_value(const char* v) {
  const std::string s = v;
  if (!s.empty() && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9'))) return Object(Value::integer(std::stoll(s)));
  return Object(Value::str(s));
}

BoundModule bind_spec(const ModuleBinding& b) {
  for (const Spec& s : kSpecs) {
    bool match = false;
    for (const char* t : s.types) match = match || (t && b.info.type == std::string("torch.nn.modules.") + t);
    if (!match) continue;
    Hparams h(b);
    OpRef op(std::string("torch.nn.functional.") + s.target);
    std::vector<std::pair<std::string, Object>> kwargs;
    for (const auto& [kw, v] : s.fixed)
      if (kw) kwargs.emplace_back(kw, fixed_value(v));
    for (const auto& [hp, kw] : s.hp)
      if (hp && b.hparam(hp)) kwargs.emplace_back(kw, h.object(hp));
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
  for (const Spec& s : kSpecs)
    for (const char* t : s.types)
      if (t) out.push_back(std::string("torch.nn.modules.") + t);
  return out;
}

const ModuleRegistrar reg_specs{spec_types(), bind_spec};
const ModuleRegistrar reg_rms{{"torch.nn.modules.normalization.RMSNorm"}, bind_rms_norm};
const ModuleRegistrar reg_rrelu{{"torch.nn.modules.activation.RReLU"}, bind_rrelu};

}  // namespace
}  // namespace fx
