// Helpers for passes that add or drop a GraphModule's tensors and modules (constant folding, conv-bn
// folding): fresh attribute names, and removing what no node refers to any more.
#pragma once
#include <string>

#include "program/graph_module.h"

namespace fx {

// `base` if no tensor or module has that name, else base_1, base_2, ... ('.' kept out: a top-level name).
std::string unique_attribute_name(const GraphModule& gm, const std::string& base);

// Whether a get_attr or call_module node refers to `qualified_name` (or to something inside it).
bool attribute_is_used(const GraphModule& gm, const std::string& qualified_name);

// Removes module `path` and its own tensors (path.weight, path.running_mean, ...) when no node refers to
// them and it has no submodules; returns whether it did.
bool remove_module_if_unused(GraphModule& gm, const std::string& path);

// Removes tensor `name` when no node refers to it; returns whether it did.
bool remove_tensor_if_unused(GraphModule& gm, const std::string& name);

}  // namespace fx
