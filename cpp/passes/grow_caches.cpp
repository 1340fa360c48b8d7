#include "passes/grow_caches.h"

#include "passes/mutation.h"

namespace fx {
namespace {

const Node* node_of(const Value& v) { return v.is_node() ? v.as_node() : nullptr; }

// cat([placeholder, x], dim): two tensors, the first an input of the graph, dim given as `dim` if by name.
bool is_cache_cat(const Node* n) {
  if (n->op() != Op::CallFunction || !is_op(n, {"torch.cat"}) || n->args().empty() || n->args().size() > 2)
    return false;
  for (const auto& [k, v] : n->kwargs())
    if (k != "dim") return false;
  const Value& list = n->args()[0];
  if (!list.is_sequence() || list.items().size() != 2) return false;
  const Node* past = node_of(list.items()[0]);
  return past && past->op() == Op::Placeholder && node_of(list.items()[1]);
}

bool returned(const Node* n) {
  for (const Node* u : n->users())
    if (u->op() == Op::Output) return true;
  return false;
}

}  // namespace

bool GrowCaches::run(GraphModule& gm) {
  if (graph_mutates_in_place(gm)) return false;
  bool changed = false;
  for (Node* n : gm.graph().nodes()) {
    if (!is_cache_cat(n) || !returned(n)) continue;
    n->set_target("fxwasm.cat_grow");
    changed = true;
  }
  return changed;
}

}  // namespace fx
