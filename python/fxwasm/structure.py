"""The input/output structure a GraphModule's code wraps around its flat graph (docs/format.md §2, `pytree`).

Graphs from torch.export (and symbolic_trace with concrete_args) keep a pytree spec in their CodeGen:
`forward` flattens its arguments with `fx_pytree.tree_flatten_spec(..., self._in_spec)` and rebuilds its
result with `pytree.tree_unflatten(..., self._out_spec)`. The graph itself only sees flat placeholders and
returns a flat tuple; the file stores that graph, plus — when the specs are made of plain tuples, lists
and dicts only — the structure, as values: the placeholders and the output node's values put back into
their nesting. Anything else (a dataclass, a namedtuple, a custom pytree node) is not stored.
"""
import torch.utils._pytree as pytree

from .errors import ExportError
from .values import encode_value

_PLAIN = (tuple, list, dict)


def _is_plain(spec):
    if spec.is_leaf():
        return True
    if spec.type not in _PLAIN:
        return False
    if spec.type is dict and not all(isinstance(k, str) for k in spec.context):
        return False
    return all(_is_plain(spec.child(i)) for i in range(spec.num_children))


def pytree_structure(gm):
    """{"orig_args", "inputs", "outputs"} for a GraphModule whose code uses pytree specs, else None."""
    info = getattr(gm.graph._codegen, "pytree_info", None)
    if info is None:
        return None
    nodes = list(gm.graph.nodes)
    placeholders = [n for n in nodes if n.op == "placeholder"]
    out = {"orig_args": list(info.orig_args)}
    try:
        if info.in_spec is not None:
            if not _is_plain(info.in_spec) or info.in_spec.num_leaves != len(placeholders):
                return None
            out["inputs"] = encode_value(pytree.tree_unflatten(placeholders, info.in_spec), field="pytree")
        if info.out_spec is not None:
            output = nodes[-1] if nodes and nodes[-1].op == "output" else None
            if output is None or not _is_plain(info.out_spec):
                return None
            flat = output.args[0]
            flat = list(flat) if isinstance(flat, (tuple, list)) else [flat]
            if info.out_spec.num_leaves != len(flat):
                return None
            out["outputs"] = encode_value(pytree.tree_unflatten(flat, info.out_spec), field="pytree")
    except ExportError:
        return None
    return out
