// Epilogue fusion: a convolution or matrix product followed by a residual add and/or an activation
// becomes one node whose target is a fused op (ops/nn/fused.cpp), so the add and the activation run in the
// producing kernel's epilogue instead of as passes over memory of their own:
//
//     conv1 = self.conv1(x); add = conv1 + identity; relu = torch.relu(add)
//  →  conv1 = fxwasm.fused_conv2d(x, conv1_weight, conv1_bias, (1, 1), (1, 1), (1, 1), 1,
//                                 residual = identity, activation = 'relu')
//
// Producers: call_module Conv2d and Linear; call_function conv2d (torch / F / aten.conv2d,
// aten.convolution when not transposed) and linear (F.linear, aten.linear); aten.addmm(bias, x, t(w)) as
// make_fx writes Linear. Residual: `y + r` / `y += r` (no alpha) right after the producer. Activations:
// relu, relu6, hardtanh, gelu, silu (function, method or module form). Every intermediate value must have
// the chain's next node as its only user. Ops are matched by the registry's op (ops/registry.h), so every
// spelling of one (torch.relu, F.relu, aten.relu.default, x.relu()) matches alike.
//
// The pass is also the runtime's: the plan (runtime/plan.h) runs it on its own copy of a graph at load,
// with BatchNorm::AsScale, so a model's convolutions run fused whether or not the user ran the pass.
#pragma once
#include <limits>
#include <string>
#include <vector>

#include "passes/pass.h"

namespace fx {

enum class FusionHead {
  Conv2dModule,    // call_module torch.nn.Conv2d
  LinearModule,    // call_module torch.nn.Linear
  Conv2dFunction,  // call_function conv2d / aten.convolution
  LinearFunction,  // call_function F.linear / aten.linear
  Addmm,           // aten.addmm / torch.addmm(bias, x, t(w)): a Linear after make_fx
};

struct FusionActivation {
  std::string kind;  // "" (none), "relu", "relu6", "hardtanh", "gelu", "silu"
  float min = -std::numeric_limits<float>::infinity();  // the clamp of relu / relu6 / hardtanh
  float max = std::numeric_limits<float>::infinity();
  std::string approximate = "none";  // gelu's
  bool is_clamp() const { return kind == "relu" || kind == "relu6" || kind == "hardtanh"; }
};

struct FusionChain {
  FusionHead head_kind = FusionHead::Conv2dModule;
  const Node* head = nullptr;        // the producer
  const Node* transpose = nullptr;   // Addmm: the t(w) node feeding it
  const Node* batch_norm = nullptr;  // FusionOptions::batch_norm: a BatchNorm2d module (eval) after a Conv2d
  const Node* residual = nullptr;    // the add's other operand, or null
  std::vector<const Node*> absorbed;  // the nodes after head, in order; the last one's value is the chain's
  FusionActivation activation;
};

struct FusionOptions {
  // Absorb an eval-mode BatchNorm2d module after a Conv2d module (one whose statistics fold:
  // passes/fold_conv_bn.h batch_norm_affine).
  bool batch_norm = false;
};

// Chains in `gm` (greedy, in graph order); a node belongs to at most one chain; chains with nothing
// absorbed are not returned.
std::vector<FusionChain> find_fusion_chains(const GraphModule& gm, const FusionOptions& options = {});

// The pass: rewrites every chain into one fxwasm.fused_conv2d / fxwasm.fused_linear node (named after the
// producer; meta "fused_nodes" lists the nodes it absorbed). A fused Conv2d / Linear module no other node
// calls leaves the module tree; its tensors stay, read by get_attr nodes. BatchNorm after a convolution:
//  - IntoWeights (the default, what a user's `fuse` does): FoldConvBatchNorm first — new folded weights,
//    the graph as torch's own conv-bn fusion would leave it;
//  - AsScale (the runtime's plan): the BatchNorm joins the chain as the fused op's per-channel `scale`
//    with a folded bias (the same fold, passes/fold_conv_bn.h), and the weight stays the file's tensor,
//    never copied (the conv kernels apply the scale per output channel).
class FuseEpilogues : public Pass {
 public:
  enum class BatchNorm { IntoWeights, AsScale };
  explicit FuseEpilogues(BatchNorm batch_norm = BatchNorm::IntoWeights) : batch_norm_(batch_norm) {}
  const char* name() const override { return "fuse"; }
  bool run(GraphModule& gm) override;

 private:
  BatchNorm batch_norm_;
};

}  // namespace fx
