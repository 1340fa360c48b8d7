#include "serialize/pytree_json.h"

#include <unordered_map>

#include "serialize/limits.h"
#include "support/error.h"

namespace fx {
namespace {

[[noreturn]] void bad(const std::string& message) { throw FxError("fxwasm file: program.pytree" + message); }

bool is_container(const Value& v) {
  return v.kind() == ValueKind::Tuple || v.kind() == ValueKind::List || v.kind() == ValueKind::Dict;
}

// The structure with every leaf replaced by None; `leaves` receives the leaves in pytree order.
Value skeleton(const Value& v, std::vector<Value>& leaves) {
  switch (v.kind()) {
    case ValueKind::Tuple:
    case ValueKind::List: {
      ValueList items;
      for (const Value& x : v.items()) items.push_back(skeleton(x, leaves));
      return v.kind() == ValueKind::Tuple ? Value::tuple(std::move(items)) : Value::list(std::move(items));
    }
    case ValueKind::Dict: {
      Kwargs items;
      for (const auto& [k, x] : v.dict_items()) items.emplace_back(k, skeleton(x, leaves));
      return Value::dict(std::move(items));
    }
    default:
      leaves.push_back(v);
      return Value::none();
  }
}

// The skeleton with its leaves taken from `leaves` in order.
Value fill(const Value& v, const std::vector<Value>& leaves, size_t& next) {
  switch (v.kind()) {
    case ValueKind::Tuple:
    case ValueKind::List: {
      ValueList items;
      for (const Value& x : v.items()) items.push_back(fill(x, leaves, next));
      return v.kind() == ValueKind::Tuple ? Value::tuple(std::move(items)) : Value::list(std::move(items));
    }
    case ValueKind::Dict: {
      Kwargs items;
      for (const auto& [k, x] : v.dict_items()) items.emplace_back(k, fill(x, leaves, next));
      return Value::dict(std::move(items));
    }
    default: return leaves.at(next++);
  }
}

size_t count_leaves(const Value& v) {
  if (!is_container(v)) return 1;
  size_t n = 0;
  if (v.kind() == ValueKind::Dict) {
    for (const auto& kv : v.dict_items()) n += count_leaves(kv.second);
  } else {
    for (const Value& x : v.items()) n += count_leaves(x);
  }
  return n;
}

// Leaf by leaf: the same nodes where either is a node, constants of the same kind elsewhere (NaN constants
// are fine too).
bool same_leaves(const std::vector<Value>& a, const std::vector<Value>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].kind() != b[i].kind()) return false;
    if (a[i].kind() == ValueKind::NodeRef && a[i].as_node() != b[i].as_node()) return false;
  }
  return true;
}

std::vector<Value> placeholder_leaves(const Graph& graph) {
  std::vector<Value> out;
  for (Node* n : graph.nodes())
    if (n->op() == Op::Placeholder) out.push_back(Value::node(n));
  return out;
}

// What _PyTreeCodeGen.process_outputs unflattens: the output node's argument, a list/tuple as its items,
// anything else as one value.
std::vector<Value> output_leaves(const Graph& graph, bool* has_output) {
  const Node* out = graph.output_node();
  *has_output = out && !out->args().empty();
  if (!*has_output) return {};
  const Value& v = out->args()[0];
  if (v.kind() == ValueKind::Tuple || v.kind() == ValueKind::List) return v.items();
  return {v};
}

}  // namespace

void read_pytree(const Json& program, GraphModule& gm) {
  auto it = program.find("pytree");
  if (it == program.end() || it->is_null()) return;
  const Json& p = *it;
  if (!p.is_object()) bad(" must be an object");

  PyTreeCodegen tree;
  if (auto a = p.find("orig_args"); a != p.end()) {
    if (!a->is_array()) bad(".orig_args must be an array of strings");
    for (const Json& s : *a) {
      if (!s.is_string()) bad(".orig_args must be an array of strings");
      fxw::check_string_length(s.get_ref<const std::string&>(), "program.pytree.orig_args");
      tree.orig_args.push_back(s.get<std::string>());
    }
  }

  // File node names → nodes: the graph holds the file's nodes in the file's order.
  std::unordered_map<std::string, Node*> by_name;
  const Json& nodes = program.at("nodes");
  size_t i = 0;
  for (Node* n : gm.graph().nodes()) by_name[nodes.at(i++).at("name").get<std::string>()] = n;
  NodeResolver resolve = [&](const std::string& name) -> Node* {
    auto found = by_name.find(name);
    return found == by_name.end() ? nullptr : found->second;
  };

  if (auto in = p.find("inputs"); in != p.end()) {
    const Value v = value_from_json(*in, resolve, ValueContext{"", "fxwasm file: program.pytree.inputs"});
    std::vector<Value> leaves;
    tree.inputs = skeleton(v, leaves);
    if (!same_leaves(leaves, placeholder_leaves(gm.graph())))
      bad(".inputs: its leaves must be the graph's placeholders, each once, in order");
    tree.has_inputs = true;
  }
  if (auto out = p.find("outputs"); out != p.end()) {
    const Value v = value_from_json(*out, resolve, ValueContext{"", "fxwasm file: program.pytree.outputs"});
    std::vector<Value> leaves;
    tree.outputs = skeleton(v, leaves);
    bool has_output = false;
    const std::vector<Value> flat = output_leaves(gm.graph(), &has_output);
    if (!has_output) bad(".outputs is given but the graph has no output node");
    if (!same_leaves(leaves, flat))
      bad(".outputs: its leaves must be the output node's values in order (" + std::to_string(leaves.size()) +
          " leaves, " + std::to_string(flat.size()) + " values)");
    tree.has_outputs = true;
  }
  tree.present = true;
  gm.pytree() = std::move(tree);
}

Json pytree_to_json(const GraphModule& gm) {
  const PyTreeCodegen& tree = gm.pytree();
  if (!tree.present) return Json();
  Json p = Json::object();
  p["orig_args"] = tree.orig_args;
  if (tree.has_inputs) {
    const std::vector<Value> leaves = placeholder_leaves(gm.graph());
    if (count_leaves(tree.inputs) != leaves.size()) return Json();
    size_t next = 0;
    p["inputs"] = value_to_json(fill(tree.inputs, leaves, next));
  }
  if (tree.has_outputs) {
    bool has_output = false;
    const std::vector<Value> leaves = output_leaves(gm.graph(), &has_output);
    if (!has_output || count_leaves(tree.outputs) != leaves.size()) return Json();
    size_t next = 0;
    p["outputs"] = value_to_json(fill(tree.outputs, leaves, next));
  }
  return p;
}

}  // namespace fx
