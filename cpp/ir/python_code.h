// The graph as Python source: torch 2.15's GraphModule.code (Graph.python_code(root_module="self").src,
// default CodeGen), byte for byte, for graphs whose call_function targets are canonical qualified names.
#pragma once
#include <string>

namespace fx {

class Graph;
class Value;

std::string python_code(const Graph& graph);

// How torch's codegen spells the callable behind a canonical call_function target when it is not pretty
// printed as an operator: "torch.abs" → "torch.abs", "aten.relu.default" → "torch.ops.aten.relu.default",
// "len" → "len", "math.sqrt" → "math.sqrt" before renaming (non-torch globals are then given a unique
// identifier, "math_sqrt", by python_code). `from_torch` tells which of the two cases applies.
std::string codegen_qualified_name(const std::string& target, bool* from_torch, bool* builtin);

}  // namespace fx
