// Load-time fusion in the interpreter's plan (the user's graph is left as it is, so print_tabular, code and
// the profile still show every node). A chain
//     Conv2d ─▶ [BatchNorm2d, eval] ─▶ [add(·, r)] ─▶ [relu | relu6 | hardtanh]
// (each intermediate value with one user, r computed before the conv) runs as one bound conv whose
// weights hold the folded BatchNorm and whose GEMM epilogue adds r and clamps; Linear ─▶ activation the
// same with a clamp. The absorbed nodes become aliases of the chain's value.
#pragma once
#include <vector>

#include "module/graph_module.h"
#include "modules/fused.h"

namespace fx {

struct FusedChain {
  const Node* head = nullptr;                 // the call_module conv / linear
  const Node* batch_norm = nullptr;           // folded BatchNorm2d node, or null
  const Node* residual = nullptr;             // the add's other operand, or null
  std::vector<const Node*> absorbed;          // nodes after head, in order (each aliases its predecessor)
  FusedEpilogue epilogue;
};

// Chains found in `gm` (greedy, in graph order); a node belongs to at most one chain.
std::vector<FusedChain> plan_fusions(const GraphModule& gm);

}  // namespace fx
