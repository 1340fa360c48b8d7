// Which nodes of a graph compute the same value on every run with inputs of the same shapes and dtypes:
// the Python values read from shapes (x.size(), the ints computed from them: B, T, C // n_heads, sqrt(hd))
// and what pure ops compute from those, constants and the module's tensors alone (a position
// arange(T), a causal mask pos.view(T, 1) < pos.view(1, T), the position embedding of that arange). The
// interpreter computes them on the first run of an input signature and reuses them after, as
// torch.fx.experimental.const_fold folds constants, here specialised to the inputs' shapes.
//
// A Python value is shape-static when meta inference (tensor/meta.h: tensors without data, an op that
// reads data gives "unknown") computes it: it can then depend on nothing but shapes, dtypes and constants.
// A tensor is shape-static when every node it reads is. Never static: placeholders, random ops (their
// value changes from run to run), uninitialised memory (empty), Dropout modules, and tensors the output
// returns (a caller may write into an output). A graph that writes into a tensor in place (add_, x[i] = v,
// out=, inplace=True) has no static nodes: a cached tensor could be changed under it.
//
// ShapeStaticCache is the executor's memo (exec/interpreter.h RunMemo) that serves them: the values of the
// last input signature, recomputed when the signature changes, given up on a graph whose signature keeps
// changing (kMaxMisses) so that memory and time stay bounded, and given up on at once when its first
// analysis finds nothing static but the module's attributes.
#pragma once
#include <utility>
#include <vector>

#include "exec/interpreter.h"
#include "program/graph_module.h"
#include "program/object.h"

namespace fx {

// One flag per node of gm's graph, in graph order, for inputs like `inputs` (the interpreter of gm runs
// meta inference on them). All false when the graph mutates in place or inference fails.
std::vector<bool> shape_static_nodes(const Interpreter& interp, const GraphModule& gm,
                                     const std::vector<Object>& inputs);

class ShapeStaticCache : public RunMemo {
 public:
  explicit ShapeStaticCache(const Interpreter& interp) : interp_(interp) {}
  bool start(const std::vector<Object>& inputs) override;
  const Object* find(size_t step) const override;
  void store(size_t step, const Object& value) override;

 private:
  static constexpr int kMaxMisses = 8;
  const Interpreter& interp_;
  std::vector<std::pair<DType, Shape>> signature_;  // the inputs' dtypes and shapes
  bool ready_ = false;
  bool any_ = false;  // some node is static
  int misses_ = 0;    // signatures seen
  std::vector<bool> is_static_, have_;
  std::vector<Object> values_;
};

}  // namespace fx
