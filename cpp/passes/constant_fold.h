// Constant folding: a call_function/call_method node whose inputs are all constant tensors (get_attr of a
// tensor, or an earlier folded node) is evaluated once, here, and replaced by a get_attr of a new constant
// tensor. Like torch.fx.experimental.const_fold, minus the split into two modules: the result is stored
// in the module (kind "constant", named "_folded_<node>"). Only pure nodes with at least one node input
// and a tensor result fold (a call with no inputs, e.g. torch.randn, is left to run each time); a node the
// runtime cannot evaluate is left as it is. Folded constants that end up unused are removed.
#pragma once
#include "passes/pass.h"

namespace fx {

class ConstantFolding : public Pass {
 public:
  const char* name() const override { return "constant_fold"; }
  bool run(GraphModule& gm) override;
};

}  // namespace fx
