// Shape propagation, as torch.fx.passes.shape_prop.ShapeProp but without running kernels: shape and
// dtype inference (exec/interpreter.h infer(), tensor/meta.h) records every node's result in its
// meta — "shape" (torch.Size) and "dtype" for a tensor, tuples of them for a tuple or list of tensors.
// The inputs' shapes and dtypes come from given inputs (only their shapes and dtypes are used) or from
// the placeholders' meta. A node whose result depends on tensor values (nonzero, item(), and whatever
// uses those) is unknown, as on torch's meta device: its meta is left as it was.
// Lives in passes/ but uses runtime/'s Interpreter: the one place that walks a graph with values.
#pragma once
#include <optional>
#include <vector>

#include "program/object.h"
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

// One meta input per placeholder from its meta shape/dtype (dtype float32 when unrecorded). FxError
// naming the placeholder when its shape is unknown or symbolic.
std::vector<Object> meta_inputs(const GraphModule& gm);
// `o` with every tensor replaced by a meta tensor of its shape and dtype (sequences and dicts kept).
Object to_meta(const Object& o);

// The meta a result gets: (shape, dtype) for a tensor, tuples of them for a sequence holding tensors;
// false when it holds no tensor.
bool shape_meta_of(const Object& o, Value& shape, Value& dtype);

}  // namespace fx
