#include "passes/pass.h"

#include "passes/constant_fold.h"
#include "passes/fold_conv_bn.h"
#include "passes/fuse.h"
#include "passes/grow_caches.h"
#include "passes/pt2e_weights.h"
#include "passes/shape_prop.h"
#include "ops/registry.h"
#include "support/error.h"

namespace fx {

bool is_op(const Node* n, std::initializer_list<const char*> names) {
  if (n->op() != Op::CallFunction && n->op() != Op::CallMethod) return false;
  const OpRegistry& ops = OpRegistry::global();
  const OpDef* def = ops.find(n->op(), n->target());
  if (!def) return false;
  for (const char* name : names)
    if (ops.find_function(name) == def) return true;
  return false;
}

bool run_pass(Pass& pass, GraphModule& gm) {
  const std::string prefix = std::string("pass '") + pass.name() + "': ";
  try {
    gm.graph().lint();
  } catch (const FxError& e) {
    throw FxError(prefix + "the graph is invalid before the pass: " + e.bare_message(), e.node());
  }
  bool changed = false;
  try {
    changed = pass.run(gm);
  } catch (const FxError& e) {
    throw FxError(prefix + e.bare_message(), e.node());
  }
  try {
    gm.graph().lint();
  } catch (const FxError& e) {
    throw FxError(prefix + "left an invalid graph: " + e.bare_message(), e.node());
  }
  return changed;
}

bool DeadCodeElimination::run(GraphModule& gm) { return gm.graph().eliminate_dead_code(); }

std::vector<std::string> pass_names() { return {"dce", "constant_fold", "fold_conv_bn", "fuse", "grow_caches", "pt2e_weights", "shape_prop"}; }

std::unique_ptr<Pass> make_pass(const std::string& name) {
  if (name == "dce" || name == "eliminate_dead_code") return std::make_unique<DeadCodeElimination>();
  if (name == "constant_fold") return std::make_unique<ConstantFolding>();
  if (name == "fold_conv_bn") return std::make_unique<FoldConvBatchNorm>();
  if (name == "fuse") return std::make_unique<FuseEpilogues>();
  if (name == "grow_caches") return std::make_unique<GrowCaches>();
  if (name == "pt2e_weights") return std::make_unique<Pt2eWeights>();
  if (name == "shape_prop") return std::make_unique<ShapePropagation>();
  std::string known;
  for (const auto& n : pass_names()) known += (known.empty() ? "" : ", ") + n;
  throw FxError("unknown pass '" + name + "' (known: " + known + ")");
}

}  // namespace fx
