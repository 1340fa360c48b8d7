// The loss modules of torch.nn.modules.loss as leaves: each forward is one torch.nn.functional loss on its
// inputs (input, target; a third for MarginRanking/CosineEmbedding/TripletMargin/GaussianNLL) with its
// hyperparameters as keywords and its weight / pos_weight buffers, as torch's forward methods write them.
#include "nn/module_util.h"
#include "support/error.h"

namespace fx {
namespace {

// Plain constant data (no std::vector/std::string: a table of those compiles to kilobytes of code).
struct LossSpec {
  const char* type;        // after "torch.nn.modules.loss."
  const char* function;    // after "torch.nn.functional."
  size_t inputs;
  const char* hparams[5];  // passed by the same keyword (unused entries null)
  const char* tensors[2];  // buffers passed by the same keyword (None when absent)
};

const LossSpec kSpecs[] = {
    {"MSELoss", "mse_loss", 2, {"reduction"}, {}},
    {"L1Loss", "l1_loss", 2, {"reduction"}, {}},
    {"SmoothL1Loss", "smooth_l1_loss", 2, {"reduction", "beta"}, {}},
    {"HuberLoss", "huber_loss", 2, {"reduction", "delta"}, {}},
    {"SoftMarginLoss", "soft_margin_loss", 2, {"reduction"}, {}},
    {"KLDivLoss", "kl_div", 2, {"reduction", "log_target"}, {}},
    {"BCELoss", "binary_cross_entropy", 2, {"reduction"}, {"weight"}},
    {"BCEWithLogitsLoss", "binary_cross_entropy_with_logits", 2, {"reduction"}, {"weight", "pos_weight"}},
    {"NLLLoss", "nll_loss", 2, {"ignore_index", "reduction"}, {"weight"}},
    {"CrossEntropyLoss", "cross_entropy", 2, {"ignore_index", "reduction", "label_smoothing"}, {"weight"}},
    {"PoissonNLLLoss", "poisson_nll_loss", 2, {"log_input", "full", "eps", "reduction"}, {}},
    {"GaussianNLLLoss", "gaussian_nll_loss", 3, {"full", "eps", "reduction"}, {}},
    {"HingeEmbeddingLoss", "hinge_embedding_loss", 2, {"margin", "reduction"}, {}},
    {"MarginRankingLoss", "margin_ranking_loss", 3, {"margin", "reduction"}, {}},
    {"CosineEmbeddingLoss", "cosine_embedding_loss", 3, {"margin", "reduction"}, {}},
    {"TripletMarginLoss", "triplet_margin_loss", 3, {"margin", "p", "eps", "swap", "reduction"}, {}},
    {"MultiLabelSoftMarginLoss", "multilabel_soft_margin_loss", 2, {"reduction"}, {"weight"}},
    {"MultiMarginLoss", "multi_margin_loss", 2, {"p", "margin", "reduction"}, {"weight"}},
    {"MultiLabelMarginLoss", "multilabel_margin_loss", 2, {"reduction"}, {}},
};

BoundModule bind_loss(const ModuleBinding& b) {
  for (const LossSpec& s : kSpecs) {
    if (b.info.type != std::string("torch.nn.modules.loss.") + s.type) continue;
    Hparams h(b);
    OpRef op(std::string("torch.nn.functional.") + s.function);
    std::vector<std::pair<std::string, Object>> kwargs;
    for (const char* hp : s.hparams)
      if (hp && b.hparam(hp)) kwargs.emplace_back(hp, h.object(hp));
    for (const char* t : s.tensors) {
      if (!t) continue;
      Tensor v = h.tensor(t, false);
      kwargs.emplace_back(t, v.defined() ? Object(v) : Object());
    }
    const size_t n = s.inputs;
    return [op, kwargs, n](const OpCall& call) -> Object {
      if (call.args.size() < n) throw FxError("loss module expects " + std::to_string(n) + " inputs");
      return op(std::vector<Object>(call.args.begin(), call.args.begin() + static_cast<long>(n)), kwargs);
    };
  }
  throw FxError("no loss spec for " + b.info.type);
}

std::vector<std::string> loss_types() {
  std::vector<std::string> out;
  for (const LossSpec& s : kSpecs) out.push_back(std::string("torch.nn.modules.loss.") + s.type);
  return out;
}

const ModuleRegistrar reg_losses{loss_types(), bind_loss};

}  // namespace
}  // namespace fx
