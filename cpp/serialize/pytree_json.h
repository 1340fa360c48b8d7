// The program's optional `pytree` field (docs/format.md §2): the input/output structure a flat graph's
// code wraps around it, kept in GraphModule::pytree() so `code` prints torch's _PyTreeCodeGen text and a
// written file keeps the field.
#pragma once
#include "program/graph_module.h"
#include "serialize/value_json.h"

namespace fx {

// Reads program["pytree"] (absent or null: nothing) into gm.pytree(). Runs after the nodes are read:
// the input leaves must be the placeholders in order, and the output leaves as many as the output
// node's flat values.
void read_pytree(const Json& program, GraphModule& gm);

// program["pytree"] for gm.pytree(), its leaves filled in from the graph as it is now; absent (null
// Json) when there is no structure or the graph no longer fits it (a placeholder or flat output was
// added or removed since it was read).
Json pytree_to_json(const GraphModule& gm);

}  // namespace fx
