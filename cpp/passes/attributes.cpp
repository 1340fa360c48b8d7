#include "passes/attributes.h"

#include <vector>

namespace fx {
namespace {

bool is_within(const std::string& name, const std::string& path) {
  return name == path || (name.size() > path.size() && name.compare(0, path.size(), path) == 0 &&
                          name[path.size()] == '.');
}

}  // namespace

std::string unique_attribute_name(const GraphModule& gm, const std::string& base) {
  std::string clean = base;
  for (char& c : clean)
    if (c == '.') c = '_';
  std::string name = clean;
  for (int k = 1; gm.tensors().count(name) || gm.modules().count(name); ++k) name = clean + "_" + std::to_string(k);
  return name;
}

bool attribute_is_used(const GraphModule& gm, const std::string& qualified_name) {
  for (const Node* n : gm.graph().nodes()) {
    if (n->op() != Op::GetAttr && n->op() != Op::CallModule) continue;
    // A node using the whole module or anything inside it, or a module containing the tensor.
    if (is_within(n->target(), qualified_name) || is_within(qualified_name, n->target())) return true;
  }
  return false;
}

bool remove_module_if_unused(GraphModule& gm, const std::string& path) {
  if (path.empty() || !gm.modules().count(path) || attribute_is_used(gm, path)) return false;
  for (const auto& [name, info] : gm.modules())
    if (name != path && is_within(name, path)) return false;
  std::vector<std::string> own;
  for (const auto& [name, t] : gm.tensors())
    if (is_within(name, path) && name.find('.', path.size() + 1) == std::string::npos) own.push_back(name);
  for (const auto& name : own) gm.tensors().erase(name);
  gm.modules().erase(path);
  return true;
}

bool remove_tensor_if_unused(GraphModule& gm, const std::string& name) {
  if (!gm.tensors().count(name) || attribute_is_used(gm, name)) return false;
  gm.tensors().erase(name);
  return true;
}

}  // namespace fx
