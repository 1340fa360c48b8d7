#include "api/graph_edit.h"

#include <algorithm>
#include <functional>
#include <optional>

#include "passes/pass.h"
#include "passes/quantize_weights.h"
#include "passes/shape_prop.h"
#include "passes/subgraph_rewriter.h"
#include "serialize/value_json.h"
#include "support/error.h"

namespace fx {
namespace {

using json = nlohmann::ordered_json;  // (the one JSON type: see api/wire.cpp)
using ojson = nlohmann::ordered_json;

const json& field(const json& cmd, const char* key) {
  auto it = cmd.find(key);
  if (it == cmd.end()) throw FxError(std::string("graph edit: missing '") + key + "'");
  return *it;
}

std::string string_field(const json& cmd, const char* key) {
  const json& v = field(cmd, key);
  if (!v.is_string()) throw FxError(std::string("graph edit: '") + key + "' must be a string");
  return v.get<std::string>();
}

Node* node_field(const Graph& g, const json& cmd, const char* key) {
  const std::string name = string_field(cmd, key);
  Node* n = g.find(name);
  if (!n) throw FxError("no node named '" + name + "' in the graph (erased?)");
  return n;
}

Value value_field(const Graph& g, const json& j, const std::string& node, const std::string& what) {
  NodeResolver resolve = [&g](const std::string& name) { return g.find(name); };
  return value_from_json(j, resolve, ValueContext{node, what});
}

ValueList args_field(const Graph& g, const json& cmd, const std::string& node) {
  ValueList args;
  auto it = cmd.find("args");
  if (it == cmd.end() || it->is_null()) return args;
  if (!it->is_array()) throw FxError("args must be an array", node);
  for (const json& a : *it) args.push_back(value_field(g, a, node, "args"));
  return args;
}

Kwargs kwargs_field(const Graph& g, const json& cmd, const std::string& node) {
  Kwargs kwargs;
  auto it = cmd.find("kwargs");
  if (it == cmd.end() || it->is_null()) return kwargs;
  if (!it->is_object()) throw FxError("kwargs must be an object", node);
  for (auto kv = it->begin(); kv != it->end(); ++kv)
    kwargs.emplace_back(kv.key(), value_field(g, kv.value(), node, "kwargs"));
  return kwargs;
}

// The checks the reader makes of a file's node, made when the node is created.
void check_target(const GraphModule& gm, Op op, const std::string& target, const ValueList& args) {
  switch (op) {
    case Op::GetAttr:
      if (!gm.tensors().count(target) && !gm.modules().count(target))
        throw FxError("get_attr target '" + target + "' names no tensor or module (add it with addTensor)");
      break;
    case Op::CallModule:
      if (!gm.modules().count(target))
        throw FxError("call_module target '" + target + "' names no module (add it with addModule)");
      break;
    case Op::Output:
      if (gm.graph().output_node()) throw FxError("the graph already has an output node");
      if (args.size() != 1) throw FxError("output takes exactly one argument");
      break;
    default:
      if (target.empty()) throw FxError(std::string("a ") + op_name(op) + " node needs a target");
  }
}

ojson create_node(GraphModule& gm, const json& cmd) {
  Graph& g = gm.graph();
  const Op op = parse_op(string_field(cmd, "op"));
  std::string target = op == Op::Output ? "output" : string_field(cmd, "target");
  std::optional<std::string> name;
  if (cmd.contains("name") && !cmd["name"].is_null()) name = string_field(cmd, "name");
  const std::string label = name ? *name : target;
  ValueList args = args_field(g, cmd, label);
  Kwargs kwargs = kwargs_field(g, cmd, label);
  check_target(gm, op, target, args);
  std::string type_expr;
  if (cmd.contains("type") && !cmd["type"].is_null()) type_expr = string_field(cmd, "type");
  Node* anchor = nullptr;
  bool after = false;
  if (cmd.contains("before") && !cmd["before"].is_null()) anchor = node_field(g, cmd, "before");
  if (cmd.contains("after") && !cmd["after"].is_null()) {
    anchor = node_field(g, cmd, "after");
    after = true;
  }
  Node* n;
  if (anchor) {
    auto guard = after ? g.inserting_after(anchor) : g.inserting_before(anchor);
    n = g.create_node(op, std::move(target), std::move(args), std::move(kwargs), name, std::move(type_expr));
  } else {
    n = g.create_node(op, std::move(target), std::move(args), std::move(kwargs), name, std::move(type_expr));
  }
  return ojson{{"node", n->name()}};
}

ojson names_json(const std::vector<Node*>& nodes) {
  ojson out = ojson::array();
  for (const Node* n : nodes) out.push_back(n->name());
  return out;
}

}  // namespace

ojson edit_graph(Model& model, const json& command) {
  if (!command.is_object()) throw FxError("graph edit: the command must be an object");
  const std::string cmd = string_field(command, "cmd");
  GraphModule& gm = model.mutable_graph_module();
  Graph& g = gm.graph();

  if (cmd == "lint") {
    g.lint();
    return ojson::object();
  }
  if (cmd == "run_pass") {
    std::unique_ptr<Pass> pass = make_pass(string_field(command, "pass"));
    const bool changed = run_pass(*pass, gm);
    if (changed) model.graph_changed(pass->keeps_semantics());
    return ojson{{"changed", changed}};
  }
  if (cmd == "quantize_weights") {  // passes/quantize_weights.h; the stored torch reference is kept
    const QuantizeSummary q = quantize_weights(gm, string_field(command, "weights"));
    model.graph_changed(true);
    return ojson{{"int8", q.int8}, {"int4", q.int4}, {"fp16", q.fp16}, {"fp32", q.fp32}};
  }
  if (cmd == "eliminate_dead_code") {
    const bool changed = g.eliminate_dead_code();
    if (changed) model.graph_changed(true);
    return ojson{{"changed", changed}};
  }

  ojson reply = ojson::object();
  if (cmd == "create_node") {
    reply = create_node(gm, command);
  } else if (cmd == "erase") {
    g.erase_node(node_field(g, command, "node"));
  } else if (cmd == "replace_all_uses_with") {
    Node* n = node_field(g, command, "node");
    Node* replacement = node_field(g, command, "replacement");
    std::function<bool(Node*)> filter;
    std::vector<std::string> only;
    if (command.contains("only") && !command["only"].is_null()) {
      only = command["only"].get<std::vector<std::string>>();
      filter = [&only](Node* user) { return std::find(only.begin(), only.end(), user->name()) != only.end(); };
    }
    reply["changed"] = names_json(n->replace_all_uses_with(replacement, filter));
  } else if (cmd == "replace_input_with") {
    Node* n = node_field(g, command, "node");
    n->replace_input_with(node_field(g, command, "old"), node_field(g, command, "new"));
  } else if (cmd == "set_args") {
    Node* n = node_field(g, command, "node");
    n->set_args(args_field(g, command, n->name()));
  } else if (cmd == "set_kwargs") {
    Node* n = node_field(g, command, "node");
    n->set_kwargs(kwargs_field(g, command, n->name()));
  } else if (cmd == "update_arg") {
    Node* n = node_field(g, command, "node");
    const json& index = field(command, "index");
    if (!index.is_number_integer() || index.get<int64_t>() < 0 ||
        index.get<size_t>() >= n->args().size())
      throw FxError("update_arg: index " +
                        (index.is_number() ? index.dump() : std::string("(a JSON ") + index.type_name() + ")") +
                        " is out of range for " +
                        std::to_string(n->args().size()) + " args", n->name());
    n->update_arg(index.get<size_t>(), value_field(g, field(command, "value"), n->name(), "args"));
  } else if (cmd == "update_kwarg") {
    Node* n = node_field(g, command, "node");
    n->update_kwarg(string_field(command, "key"), value_field(g, field(command, "value"), n->name(), "kwargs"));
  } else if (cmd == "set_target") {
    Node* n = node_field(g, command, "node");
    const std::string target = string_field(command, "target");
    if (n->op() == Op::Output || n->op() == Op::Placeholder)
      throw FxError(std::string("cannot change the target of a ") + op_name(n->op()) + " node", n->name());
    check_target(gm, n->op(), target, n->args());
    n->set_target(target);
  } else if (cmd == "move") {
    Node* n = node_field(g, command, "node");
    Node* anchor = node_field(g, command, "anchor");
    const std::string where = string_field(command, "where");
    if (where == "before") anchor->prepend(n);
    else if (where == "after") anchor->append(n);
    else throw FxError("move: 'where' must be \"before\" or \"after\"");
  } else if (cmd == "add_module") {
    const std::string name = string_field(command, "name");
    if (name.empty()) throw FxError("add_module: the root module cannot be replaced");
    ModuleInfo info{string_field(command, "type"), {}};
    if (command.contains("hparams") && !command["hparams"].is_null()) {
      const json& h = command["hparams"];
      if (!h.is_object()) throw FxError("add_module: hparams must be an object");
      for (auto kv = h.begin(); kv != h.end(); ++kv)
        info.hparams.emplace_back(kv.key(), value_field(g, kv.value(), "", "module '" + name + "' hparams"));
    }
    gm.modules()[name] = std::move(info);
  } else {
    throw FxError("graph edit: unknown command '" + cmd + "'");
  }
  model.graph_changed(false);
  return reply;
}

void add_tensor(Model& model, const std::string& name, Tensor tensor, const std::string& kind) {
  if (name.empty()) throw FxError("addTensor: the name is empty");
  if (name.rfind("__ref__.", 0) == 0 || name.rfind("__pad__.", 0) == 0 || name == "__metadata__")
    throw FxError("addTensor: the name '" + name + "' is reserved by the format");
  TensorKind k;
  if (kind == "parameter") k = TensorKind::Parameter;
  else if (kind == "buffer") k = TensorKind::Buffer;
  else if (kind == "constant") k = TensorKind::Constant;
  else throw FxError("addTensor: kind must be 'parameter', 'buffer' or 'constant', not '" + kind + "'");
  model.mutable_graph_module().tensors()[name] = NamedTensor{k, std::move(tensor)};
  model.graph_changed(false);
}

bool run_shape_prop(Model& model, std::vector<Object> inputs) {
  ShapePropagation pass = inputs.empty() ? ShapePropagation() : ShapePropagation(std::move(inputs));
  const bool changed = run_pass(pass, model.mutable_graph_module());
  if (changed) model.graph_changed(true);
  return changed;
}

ojson replace_pattern(Model& model, const Model& pattern, const Model& replacement) {
  GraphModule& gm = model.mutable_graph_module();
  gm.graph().lint();
  const std::vector<PatternMatch> matches = replace_pattern(gm, pattern.graph_module().graph(),
                                                            replacement.graph_module().graph());
  gm.graph().lint();
  if (!matches.empty()) model.graph_changed(false);
  ojson out = ojson::array();
  for (const PatternMatch& m : matches) {
    ojson map = ojson::object();
    for (const auto& [p, gname] : m.nodes_map) map[p] = gname;
    out.push_back(ojson{{"anchor", m.anchor}, {"nodes_map", std::move(map)}, {"replacements", m.replacements}});
  }
  return ojson{{"matches", std::move(out)}};
}

}  // namespace fx
