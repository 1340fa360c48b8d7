// Editing a Model's graph through JSON commands: what the bindings (and so the JS Graph/Node API) call.
// The core stays the single owner of the graph — callers name nodes by their (unique, never reused) names
// and pass values in the format's encoding (docs/format.md §3, {"$node": name} for a node), plus
// {"$float": 1} for a float that has an integral value (JSON cannot tell 1.0 from 1).
// Every command that changes something calls Model::graph_changed, so the next run, table or code
// reflects it. Failures are FxError naming the node.
//
// Commands ({"cmd": ..., ...}; the answer's fields after the colon):
//   create_node {op, target, args?, kwargs?, name?, type?, before?|after?: node}      : {node}
//   erase {node}                                                                     : {}
//   replace_all_uses_with {node, replacement, only?: [user names]}                    : {changed: [names]}
//   replace_input_with {node, old, new}                                              : {}
//   set_args {node, args} / set_kwargs {node, kwargs}                                 : {}
//   update_arg {node, index, value} / update_kwarg {node, key, value}                : {}
//   set_target {node, target}                                                        : {}
//   move {node, anchor, where: "before"|"after"}  (anchor.prepend(node) / append)    : {}
//   lint {}                                                                          : {}
//   eliminate_dead_code {}                                                           : {changed}
//   run_pass {pass}  (shape_prop with inputs: run_shape_prop below)                   : {changed}
//   add_module {name, type, hparams?}                                                : {}
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "api/model.h"
#include "program/object.h"

namespace fx {

nlohmann::ordered_json edit_graph(Model& model, const nlohmann::ordered_json& command);

// Registers (or replaces) a tensor of the module: kind "parameter", "buffer" or "constant".
void add_tensor(Model& model, const std::string& name, Tensor tensor, const std::string& kind);

// Shape propagation on given inputs (empty: random ones from the placeholders' meta).
bool run_shape_prop(Model& model, std::vector<Object> inputs);

// torch.fx.subgraph_rewriter.replace_pattern on the model with two other models' graphs:
// {matches: [{anchor, nodes_map: {pattern name: graph name}, replacements: [names]}]}.
nlohmann::ordered_json replace_pattern(Model& model, const Model& pattern, const Model& replacement);

}  // namespace fx
