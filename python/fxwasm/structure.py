"""The input/output structure a GraphModule's code wraps around its flat graph (docs/format.md §2, `pytree`).

Graphs from torch.export (and symbolic_trace with concrete_args) keep a pytree spec in their CodeGen:
`forward` flattens its arguments with `fx_pytree.tree_flatten_spec(..., self._in_spec)` and rebuilds its
result with `pytree.tree_unflatten(..., self._out_spec)`. The graph itself only sees flat placeholders and
returns a flat tuple; the file stores that graph, plus — when the specs are made of tuples, lists and
mappings — the structure, as values: the placeholders and the output node's values put back into their
nesting. Mappings (dicts and dict subclasses such as Hugging Face's ModelOutput) and namedtuples are
stored as dicts of their fields, so outputs keep their names; other pytree nodes (a dataclass, a custom
node) leave the structure unstored.
"""
from .errors import ExportError
from .values import encode_value

class _NotPlain(Exception):
    pass


def _field_names(spec):
    """The names a mapping node (dict, or a dict subclass such as Hugging Face's ModelOutput) or a namedtuple
    keeps its children under, or None for other node types."""
    t = spec.type
    if isinstance(t, type) and issubclass(t, dict):
        keys = list(spec.context or [])
        return keys if all(isinstance(k, str) for k in keys) else None
    if isinstance(t, type) and issubclass(t, tuple) and hasattr(t, "_fields"):
        return list(t._fields)
    return None


def _rebuild(spec, leaves):
    """The nesting of `spec` over `leaves` in plain containers: tuples and lists as they are, mappings and
    namedtuples as dicts of their fields (so a ModelOutput's fields keep their names); _NotPlain otherwise."""
    if spec.is_leaf():
        return next(leaves)
    kids = [_rebuild(spec.child(i), leaves) for i in range(spec.num_children)]
    if spec.type in (tuple, list):
        return spec.type(kids)
    names = _field_names(spec)
    if names is None or len(names) != len(kids):
        raise _NotPlain(spec.type)
    return dict(zip(names, kids))


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
            if info.in_spec.num_leaves != len(placeholders):
                return None
            out["inputs"] = encode_value(_rebuild(info.in_spec, iter(placeholders)), field="pytree")
        if info.out_spec is not None:
            output = nodes[-1] if nodes and nodes[-1].op == "output" else None
            if output is None:
                return None
            flat = output.args[0]
            flat = list(flat) if isinstance(flat, (tuple, list)) else [flat]
            if info.out_spec.num_leaves != len(flat):
                return None
            out["outputs"] = encode_value(_rebuild(info.out_spec, iter(flat)), field="pytree")
    except (ExportError, _NotPlain):
        return None
    return out
