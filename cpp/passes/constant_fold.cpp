#include "passes/constant_fold.h"

#include <unordered_map>
#include <unordered_set>

#include "ops/registry.h"
#include "passes/attributes.h"
#include "support/error.h"

namespace fx {
namespace {

// A node's argument as a runtime Object, with its (constant) input nodes replaced by their values.
Object evaluate(const Value& v, const std::unordered_map<const Node*, Object>& constants) {
  bool has_node = false;
  v.for_each_node([&](Node*) { has_node = true; });
  if (!has_node) return Object(v);
  switch (v.kind()) {
    case ValueKind::NodeRef: return constants.at(v.as_node());
    case ValueKind::Tuple: case ValueKind::Size: case ValueKind::List: {
      std::vector<Object> items;
      for (const Value& x : v.items()) items.push_back(evaluate(x, constants));
      return v.kind() == ValueKind::List ? Object::list(std::move(items)) : Object::tuple(std::move(items));
    }
    case ValueKind::Dict: {
      std::vector<std::pair<std::string, Object>> items;
      for (const auto& [k, x] : v.dict_items()) items.emplace_back(k, evaluate(x, constants));
      return Object::dict(std::move(items));
    }
    default: break;
  }
  throw FxError("cannot evaluate " + v.repr() + " as a constant");
}

}  // namespace

bool ConstantFolding::run(GraphModule& gm) {
  Graph& g = gm.graph();
  std::unordered_map<const Node*, Object> constants;
  std::unordered_set<std::string> created;
  std::unordered_set<Node*> fed;  // get_attr nodes that fed a folded node
  bool changed = false;
  for (Node* n : g.nodes()) {
    if (n->op() == Op::GetAttr) {
      if (const Tensor* t = gm.find_tensor(n->target())) constants.emplace(n, Object(*t));
      continue;
    }
    if (n->op() != Op::CallFunction && n->op() != Op::CallMethod) continue;
    const std::vector<Node*> inputs = n->all_input_nodes();
    if (inputs.empty() || n->is_impure()) continue;
    bool all_constant = true;
    for (Node* in : inputs) all_constant = all_constant && constants.count(in);
    if (!all_constant) continue;
    const OpDef* def = OpRegistry::global().find(n->op(), n->target());
    if (def == nullptr) continue;
    OpCall call;
    call.node = n;
    Object result;
    try {
      for (const Value& a : n->args()) call.args.push_back(evaluate(a, constants));
      for (const auto& [k, v] : n->kwargs()) call.kwargs.emplace_back(k, evaluate(v, constants));
      result = def->run(call);
    } catch (const FxError&) {
      continue;  // the runtime cannot evaluate it here; running it later will say why
    }
    if (!result.is_tensor()) continue;

    const std::string attr = unique_attribute_name(gm, "_folded_" + n->name());
    gm.tensors()[attr] = NamedTensor{TensorKind::Constant, result.tensor().contiguous()};
    created.insert(attr);
    Node* folded;
    {
      auto guard = g.inserting_before(n);
      folded = g.get_attr(attr);
    }
    folded->meta() = n->meta();
    for (Node* in : inputs) fed.insert(in);
    n->replace_all_uses_with(folded);
    g.erase_node(n);
    constants.emplace(folded, result);
    changed = true;
  }
  if (!changed) return false;
  // Inputs of folded nodes (get_attr of parameters, earlier folded constants) may now be unused.
  for (Node* n : g.nodes()) {
    if (n->op() == Op::GetAttr && n->users().empty() && fed.count(n)) g.erase_node(n);
  }
  for (const std::string& attr : created) remove_tensor_if_unused(gm, attr);
  return true;
}

}  // namespace fx
