// Shape propagation, as torch.fx.passes.shape_prop.ShapeProp: runs the graph once and records every node's
// result in its meta — "shape" (torch.Size) and "dtype" for a tensor, tuples of them for a tuple or list
// of tensors. It needs the kernels (shape-only inference without running them is a later step).
// Inputs are given, or made up from the placeholders' meta shape/dtype (random values, fixed seed).
// Lives in passes/ but uses runtime/'s Interpreter: the one way to know a node's result today.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "module/object.h"
#include "passes/pass.h"

namespace fx {

class ShapePropagation : public Pass {
 public:
  ShapePropagation() = default;
  explicit ShapePropagation(std::vector<Object> inputs) : inputs_(std::move(inputs)) {}
  const char* name() const override { return "shape_prop"; }
  // Changed when any node's shape or dtype meta was added or differs.
  bool run(GraphModule& gm) override;

 private:
  std::optional<std::vector<Object>> inputs_;
};

// One input per placeholder from its meta shape/dtype: floats uniform in [-1, 1), integers 0..9, bools
// coin flips. FxError naming the placeholder when its shape or dtype is unknown.
std::vector<Object> random_inputs(const GraphModule& gm, uint64_t seed = 0);

}  // namespace fx
