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
// the chain's next node as its only user.
//
// The matcher is shared with the runtime: the Interpreter's load-time fusion (Interpreter(gm, fuse=true))
// runs the chains find_fusion_chains gives it with FusionOptions::runtime(), so the graph a user sees
// after the pass and the plan the runtime makes without it come from one set of rules.
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
  bool module_heads_only = false;     // only call_module Conv2d / Linear
  bool batch_norm = false;            // absorb a BatchNorm2d module after a Conv2d
  bool clamp_activations_only = false;
  bool linear_residual = true;        // a residual after a Linear / linear / addmm
  bool residual_before_head = false;  // the residual must be computed before the producer
  // What the Interpreter's load-time fusion can bind (modules/fused.h): modules, BatchNorm folded at bind
  // time, clamp activations, residuals only after convolutions and computed before them.
  static FusionOptions runtime() { return {true, true, true, false, true}; }
};

// Chains in `gm` (greedy, in graph order); a node belongs to at most one chain; chains with nothing
// absorbed are not returned.
std::vector<FusionChain> find_fusion_chains(const GraphModule& gm, const FusionOptions& options = {});

// The pass: folds Conv2d → BatchNorm2d first (FoldConvBatchNorm), then rewrites every chain into one
// fxwasm.fused_conv2d / fxwasm.fused_linear node (named after the producer). A fused Conv2d / Linear
// module no other node calls leaves the module tree; its tensors stay, read by get_attr nodes.
class FuseEpilogues : public Pass {
 public:
  const char* name() const override { return "fuse"; }
  bool run(GraphModule& gm) override;
};

}  // namespace fx
