"""What the fxwasm runtime can run, so that a graph it cannot run fails at export, not in the browser.

`supported_ops.json` (next to this file) is the runtime's own list — `fxwasm ops --json`, which reads the op
and module registries compiled into the wasm; tests/js/supported_ops.test.js keeps the two equal
(regenerate with `node web/bin/fxwasm.js ops --json > python/fxwasm/supported_ops.json`)."""
import functools
import json
import os

import torch

from .modules import class_name
from .targets import canonical_target


@functools.lru_cache(maxsize=1)
def supported():
    """{"functions": set, "methods": set, "modules": set} of the runtime this exporter was released with."""
    with open(os.path.join(os.path.dirname(__file__), "supported_ops.json"), encoding="utf8") as f:
        lists = json.load(f)
    return {key: frozenset(lists[key]) for key in ("functions", "methods", "modules")}


def _module_type(gm, target):
    obj = gm
    for part in target.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return class_name(type(obj))


def unsupported_nodes(gm):
    """[(kind, target, [node names])] for the nodes of `gm` the runtime cannot run, in graph order; kind is
    'function', 'method' or 'module'. Targets that have no canonical name are left to the writer's error."""
    lists = supported()
    found = {}
    for node in gm.graph.nodes:
        if node.op == "call_function":
            if isinstance(node.target, torch._ops.HigherOrderOperator):
                key = ("function", node.target.name())
            else:
                try:
                    key = ("function", canonical_target(node))
                except Exception:
                    continue
            if key[1] in lists["functions"]:
                continue
        elif node.op == "call_method":
            if node.target in lists["methods"]:
                continue
            key = ("method", node.target)
        elif node.op == "call_module":
            kind = _module_type(gm, node.target)
            if kind is None or kind in lists["modules"] or kind == "torch.fx.graph_module.GraphModule":
                continue
            key = ("module", kind)
        else:
            continue
        found.setdefault(key, []).append(node.name)
    return [(kind, target, names) for (kind, target), names in found.items()]


def describe(missing):
    """One line: 'aten.foo.default (nodes: foo, foo_1); method bar (nodes: bar)'."""
    parts = []
    for kind, target, names in missing:
        label = {"function": "", "method": "method ", "module": "module type "}[kind] + target
        shown = ", ".join(names[:5]) + (f", … ({len(names)} nodes)" if len(names) > 5 else "")
        parts.append(f"{label} (nodes: {shown})")
    return "; ".join(parts)
