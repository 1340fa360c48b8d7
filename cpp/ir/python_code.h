// The graph as Python source: torch 2.15's GraphModule.code (Graph.python_code(root_module="self").src,
// default CodeGen), byte for byte, for graphs whose call_function targets are canonical qualified names.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace fx {

class Graph;
class Value;

// What torch's _PyTreeCodeGen prints around a flat graph (torch.export, symbolic_trace with concrete_args;
// docs/format.md §2 `pytree`): the signature takes `orig_args`, a line flattens them with
// fx_pytree.tree_flatten_spec, and the output is rebuilt with pytree.tree_unflatten. Only the shape of
// the specs matters to the text, so this holds just that.
struct PyTreeCode {
  std::vector<std::string> orig_args;  // forward's parameters, as the `def forward(...)` line prints them
  // The input spec is ((args...), {kwargs...}): the flatten call then splits orig_args into the first
  // `count_args` (a list) and a dict keyed by `kwarg_keys`.
  bool args_kwargs = false;
  size_t count_args = 0;
  std::vector<std::string> kwarg_keys;
  bool has_out_spec = false;  // the return line is wrapped in pytree.tree_unflatten(..., self._out_spec)
};

// The PyTreeCode of a stored structure (docs/format.md §2): `inputs` / `outputs` are the in/out specs as
// values (tuples, lists, str-keyed dicts; anything else a leaf), nullptr when that spec is absent.
PyTreeCode pytree_code(std::vector<std::string> orig_args, const Value* inputs, const Value* outputs);

std::string python_code(const Graph& graph);
// GraphModule.code of a graph whose CodeGen is torch's _PyTreeCodeGen.
std::string python_code(const Graph& graph, const PyTreeCode& pytree);

// How torch's codegen spells the callable behind a canonical call_function target when it is not pretty
// printed as an operator: "torch.abs" → "torch.abs", "aten.relu.default" → "torch.ops.aten.relu.default",
// "len" → "len", "math.sqrt" → "math.sqrt" before renaming (non-torch globals are then given a unique
// identifier, "math_sqrt", by python_code). `from_torch` tells which of the two cases applies.
std::string codegen_qualified_name(const std::string& target, bool* from_torch, bool* builtin);

}  // namespace fx
