"""The module tree of a traced program: qualified name → class and hyperparameters, read generically.

Hyperparameters come from two places, with no per-class table: the parameters of the class's __init__
matched against same-named attributes of the instance (a constructor flag whose attribute holds a tensor
or None, like Conv2d's `bias`, is recorded as whether the tensor is present), then the instance's other
public plain-valued attributes — what extra_repr shows (Conv2d's padding_mode, BatchNorm's momentum...).
"""
import inspect
import types

import torch
from torch.fx.node import _get_qualified_name

from .values import encode_value, is_encodable_plain


def class_name(cls):
    """Qualified class name; classes made inside functions (GraphModuleImpl) give their importable base,
    and torch's internal GraphModule variants (_LazyGraphModule, ...) are written as GraphModule."""
    if issubclass(cls, torch.fx.GraphModule) and cls.__module__.startswith("torch."):
        return "torch.fx.graph_module.GraphModule"
    for c in cls.__mro__:
        if "<locals>" not in c.__qualname__:
            return f"{c.__module__}.{c.__qualname__}"
    return f"{cls.__module__}.{cls.__qualname__}"


def _init_parameter_names(cls):
    try:
        sig = inspect.signature(cls.__init__)
    except (TypeError, ValueError):
        return []
    names = []
    for p in list(sig.parameters.values())[1:]:  # skip self
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        names.append((p.name, p.default))
    return names


def hyperparameters(module):
    """Ordered dict of name → encoded value."""
    hparams = {}
    if isinstance(module, torch.fx.GraphModule):
        return hparams  # a GraphModule's state is its graph, not constructor arguments
    for name, default in _init_parameter_names(type(module)):
        if name in module._parameters or name in module._buffers:
            if isinstance(default, bool):
                hparams[name] = getattr(module, name) is not None
            continue
        if name in module._modules:
            continue
        if name in module.__dict__ and is_encodable_plain(module.__dict__[name]):
            hparams[name] = encode_value(module.__dict__[name], field=f"hparams.{name}")
    for name, value in module.__dict__.items():
        if name.startswith("_") or name in hparams:
            continue
        if is_encodable_plain(value):
            hparams[name] = encode_value(value, field=f"hparams.{name}")
        elif callable(value) and not isinstance(value, torch.nn.Module):
            fn = _function_name(value)
            if fn is not None:  # a torch function held as an attribute (TransformerDecoderLayer.activation)
                hparams[name] = fn
    return hparams


def _function_name(fn):
    """The importable name of a torch function ("torch.nn.functional.relu"), or None."""
    if not isinstance(fn, (types.FunctionType, types.BuiltinFunctionType)):
        return None
    try:
        name = _get_qualified_name(fn)
    except Exception:
        return None
    return name if name.startswith("torch.") and "<" not in name else None


def _source_submodule(source, name):
    """The submodule of the traced model at a qualified name, or None when it has none there."""
    if not isinstance(source, torch.nn.Module):
        return None
    try:
        module = source.get_submodule(name)
    except AttributeError:
        return None
    return module if isinstance(module, torch.nn.Module) else None


def module_tree(root, source=None):
    """{qualified name: {"type", "hparams"}} for the root and every submodule of `root` (a GraphModule).

    `source` is the model that was traced, when there is one: a tracer copies only the leaf modules the
    graph calls and fills the path to them with plain torch.nn.Module objects (symbolic_trace's `layer1`
    and `layer1.0`; torch.export's holders of weights), so each name's class and hyperparameters are read
    from the traced model's own submodule of that name (torchvision's BasicBlock), and from `root` only
    where the model has none (a GraphModule given as is, names a tracer made up)."""
    tree = {}
    for name, module in root.named_modules(remove_duplicate=False):
        if name in tree:
            continue
        module = _source_submodule(source, name) or module
        tree[name] = {"type": class_name(type(module)), "hparams": hyperparameters(module)}
    return tree
