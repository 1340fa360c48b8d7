// Graph → graph rewrites over a GraphModule. As torch.fx's PassBase: a pass says whether it changed
// anything, and the graph is linted before and after it, so a pass never hands on a broken graph.
#pragma once
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "program/graph_module.h"

namespace fx {

class Pass {
 public:
  virtual ~Pass() = default;
  virtual const char* name() const = 0;
  // Rewrites `gm` in place; returns whether anything changed. Throws FxError (naming the node) on failure.
  virtual bool run(GraphModule& gm) = 0;
  // Whether the rewritten module computes what the original did (a stored reference stays valid).
  virtual bool keeps_semantics() const { return true; }
};

// Whether call_function / call_method `n` runs one of the ops `names` spell (any one spelling of each:
// the registry maps every alias and method name of an op to the same entry), so a pass matches torch.relu,
// F.relu, aten.relu.default and x.relu() alike.
bool is_op(const Node* n, std::initializer_list<const char*> names);

// Lints, runs, lints again; errors are prefixed "pass '<name>': ".
bool run_pass(Pass& pass, GraphModule& gm);

// The passes that need no options, by name: "dce", "constant_fold", "fold_conv_bn", "fuse" (shape propagation
// needs inputs: passes/shape_prop.h). FxError listing the known names otherwise.
std::unique_ptr<Pass> make_pass(const std::string& name);
std::vector<std::string> pass_names();

// Dead code elimination (Graph::eliminate_dead_code) as a pass.
class DeadCodeElimination : public Pass {
 public:
  const char* name() const override { return "dce"; }
  bool run(GraphModule& gm) override;
};

}  // namespace fx
