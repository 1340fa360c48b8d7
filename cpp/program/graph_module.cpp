#include "program/graph_module.h"

#include <unordered_map>

#include "support/error.h"

namespace fx {

const Tensor* GraphModule::find_tensor(const std::string& qualified_name) const {
  auto it = tensors_.find(qualified_name);
  return it == tensors_.end() ? nullptr : &it->second.tensor;
}

std::unique_ptr<GraphModule> GraphModule::copy() const {
  auto out = std::make_unique<GraphModule>();
  std::unordered_map<const Node*, Node*> map;
  auto lookup = [&map](Node* n) {
    auto it = map.find(n);
    if (it == map.end()) throw FxError("graph copy: node used before it was copied", n->name());
    return Value::node(it->second);
  };
  for (const Node* n : graph_.nodes()) map[n] = out->graph_.node_copy(*n, lookup);
  // Meta may name nodes too (a symbolic size's $node): those of the copy, where they exist.
  for (const Node* n : graph_.nodes())
    for (auto& [k, v] : map[n]->meta())
      v = v.map_nodes([&map](Node* m) {
        auto it = map.find(m);
        return Value::node(it == map.end() ? m : it->second);
      });
  out->modules_ = modules_;
  out->tensors_ = tensors_;
  out->producer_ = producer_;
  out->reference_ = reference_;
  out->pytree_ = pytree_;
  return out;
}

}  // namespace fx
