// Activation modules as one table: each maps to the functional op that torch's forward calls, with
// the hyperparameters it passes (by the functional's keyword names). The op is looked up at bind time,
// so a missing op is reported when the interpreter is built, naming the module.
#include "nn/module_util.h"
#include "support/error.h"

namespace fx {
namespace {

// Plain constant data (no std::vector/std::string: a table of those compiles to kilobytes of code).
struct ActivationSpec {
  const char* type;    // class name after "torch.nn.modules.activation."
  const char* target;  // functional op
  struct {
    const char* hparam;
    const char* keyword;
  } hparams[2];  // (unused entries null)
};

const ActivationSpec kSpecs[] = {
    {"ReLU", "torch.nn.functional.relu", {}},
    {"ReLU6", "torch.nn.functional.relu6", {}},
    {"LeakyReLU", "torch.nn.functional.leaky_relu", {{"negative_slope", "negative_slope"}}},
    {"ELU", "torch.nn.functional.elu", {{"alpha", "alpha"}}},
    {"CELU", "torch.nn.functional.celu", {{"alpha", "alpha"}}},
    {"SELU", "torch.nn.functional.selu", {}},
    {"GELU", "torch.nn.functional.gelu", {{"approximate", "approximate"}}},
    {"SiLU", "torch.nn.functional.silu", {}},
    {"Mish", "torch.nn.functional.mish", {}},
    {"Sigmoid", "torch.sigmoid", {}},
    {"Tanh", "torch.tanh", {}},
    {"Hardswish", "torch.nn.functional.hardswish", {}},
    {"Hardsigmoid", "torch.nn.functional.hardsigmoid", {}},
    {"Hardtanh", "torch.nn.functional.hardtanh", {{"min_val", "min_val"}, {"max_val", "max_val"}}},
    {"Softplus", "torch.nn.functional.softplus", {{"beta", "beta"}, {"threshold", "threshold"}}},
    {"Softsign", "torch.nn.functional.softsign", {}},
    {"Tanhshrink", "torch.nn.functional.tanhshrink", {}},
    {"Hardshrink", "torch.nn.functional.hardshrink", {{"lambd", "lambd"}}},
    {"Softshrink", "torch.nn.functional.softshrink", {{"lambd", "lambd"}}},
    {"Threshold", "torch.nn.functional.threshold", {{"threshold", "threshold"}, {"value", "value"}}},
    {"LogSigmoid", "torch.nn.functional.logsigmoid", {}},
    {"Softmax", "torch.nn.functional.softmax", {{"dim", "dim"}}},
    {"LogSoftmax", "torch.nn.functional.log_softmax", {{"dim", "dim"}}},
    {"Softmin", "torch.nn.functional.softmin", {{"dim", "dim"}}},
    {"GLU", "torch.nn.functional.glu", {{"dim", "dim"}}},
};

BoundModule bind_activation(const ModuleBinding& b) {
  const std::string prefix = "torch.nn.modules.activation.";
  const std::string name = b.info.type.substr(prefix.size());
  for (const ActivationSpec& s : kSpecs) {
    if (name != s.type) continue;
    Hparams h(b);
    OpRef op(s.target);
    std::vector<std::pair<std::string, Object>> kwargs;
    for (const auto& [hp, kw] : s.hparams)
      if (hp && b.hparam(hp)) kwargs.emplace_back(kw, h.object(hp));
    return [op, kwargs](const OpCall& call) -> Object { return op({call.args.at(0)}, kwargs); };
  }
  throw FxError("no activation named " + name);
}

BoundModule bind_prelu(const ModuleBinding& b) {
  Hparams h(b);
  Tensor w = h.tensor("weight");
  OpRef op("torch.nn.functional.prelu");
  return [op, w](const OpCall& call) -> Object { return op({call.args.at(0), w}); };
}

std::vector<std::string> activation_types() {
  std::vector<std::string> out;
  for (const ActivationSpec& s : kSpecs) out.push_back(std::string("torch.nn.modules.activation.") + s.type);
  return out;
}

const ModuleRegistrar reg_activations{activation_types(), bind_activation};
const ModuleRegistrar reg_prelu{{"torch.nn.modules.activation.PReLU"}, bind_prelu};

}  // namespace
}  // namespace fx
