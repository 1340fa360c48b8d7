"""Canonical, importable names for node targets (docs/format.md §2, "Canonical targets")."""
import builtins
import importlib

import torch
from torch.fx.node import _get_qualified_name

from .errors import ExportError


def _resolve(qualified):
    """The object an importable dotted name designates, or raise LookupError."""
    if "." not in qualified:
        if hasattr(builtins, qualified):
            return getattr(builtins, qualified)
        raise LookupError(qualified)
    parts = qualified.split(".")
    # the longest importable module prefix, then attributes
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            continue
        return obj
    raise LookupError(qualified)


def _resolve_op(qualified):
    obj = torch.ops
    for attr in qualified.split("."):
        obj = getattr(obj, attr)
    return obj


def canonical_target(node):
    """The target of `node` as stored in the file; call_function targets must be importable."""
    target = node.target
    if node.op != "call_function":
        if not isinstance(target, str):
            raise ExportError(f"{node.op} target {target!r} is not a string", node.name)
        return target
    if isinstance(target, (torch._ops.OpOverload, torch._ops.OpOverloadPacket)):
        name = str(target)  # "aten.convolution.default"
        try:
            ok = _resolve_op(name) is target
        except (AttributeError, RuntimeError):
            ok = False
        if not ok:
            raise ExportError(f"operator {name} cannot be found again under torch.ops", node.name)
        return name
    if isinstance(target, torch._ops.HigherOrderOperator):
        raise ExportError(f"higher-order operator {target.name()} (with subgraphs) is not supported by the "
                          "format", node.name)
    try:
        name = _get_qualified_name(target)
    except Exception as e:  # lambdas without source, objects without __name__, ...
        raise ExportError(f"target {target!r} has no qualified name ({e})", node.name) from None
    if name.startswith("_operator."):
        name = "operator." + name[len("_operator."):]
    try:
        ok = _resolve(name) is target
    except (LookupError, ImportError):
        ok = False
    if not ok:
        raise ExportError(f"target {target!r} has no importable qualified name ({name!r} does not import "
                          "back to it); use a function defined at module level or a torch op", node.name)
    return name
