// Which nodes write into a tensor in place — by name, as torch spells in-place ops: a method or aten op
// ending in `_` (add_, copy_, masked_fill_, aten.index_put_.default), operator.setitem and the augmented
// assignments (operator.iadd, __iadd__), `out=`, `inplace=True` (a keyword, a module's hyperparameter, or
// a positional True given to torch.nn.functional). Clients keep away from graphs that do: the shape-static
// cache (a cached tensor could be changed under it) and passes/grow_caches.h (values share blocks).
#pragma once
#include "program/graph_module.h"

namespace fx {

bool writes_in_place(const Node& n, const GraphModule& gm);
bool graph_mutates_in_place(const GraphModule& gm);

}  // namespace fx
