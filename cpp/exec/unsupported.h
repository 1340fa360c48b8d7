// Which nodes of a GraphModule the runtime cannot run, grouped by op, for one clear error (and for
// `fxwasm info`) instead of failing at the first one mid-run.
#pragma once
#include <string>
#include <vector>

#include "program/graph_module.h"

namespace fx {

// One op the runtime cannot run and the nodes that use it. kind: "function" (target is the qualified
// name), "method" (method name), "module" (module type) or "attribute" (missing get_attr target).
struct UnsupportedOp {
  std::string kind;
  std::string target;
  std::vector<std::string> nodes;
};

std::vector<UnsupportedOp> find_unsupported(const GraphModule& gm);
// "unsupported ops: torch.foo (nodes: foo, foo_1); method bar (nodes: bar)"
std::string format_unsupported(const std::vector<UnsupportedOp>& ops);

}  // namespace fx
