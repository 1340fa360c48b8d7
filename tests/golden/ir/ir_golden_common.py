"""Shared by the IR golden generators: canonical target names <-> torch objects, and the tagged JSON encoding of
FX argument values that tests/cpp/ir/golden_values.h decodes."""
import builtins
import importlib
import math
import struct

import torch
import torch.fx

# torch.ops namespaces whose canonical targets are written without the "torch.ops." prefix.
OP_NAMESPACES = ("aten", "prims", "quantized", "profiler", "inductor", "higher_order")


def resolve_target(canonical):
    """The callable a canonical call_function target names: "torch.abs", "operator.add", "aten.add.Tensor"."""
    if canonical.startswith("torch.ops."):
        canonical = canonical[len("torch.ops."):]
    parts = canonical.split(".")
    if parts[0] in OP_NAMESPACES:
        obj = getattr(torch.ops, parts[0])
        for p in parts[1:]:
            obj = getattr(obj, p)
        return obj
    if len(parts) == 1:
        return getattr(builtins, parts[0])
    for i in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for p in parts[i:]:
            obj = getattr(obj, p)
        return obj
    raise ValueError(f"cannot resolve {canonical}")


def encode(v):
    """Tagged JSON for one FX argument value (Nodes by name)."""
    if v is None:
        return {"t": "none"}
    if isinstance(v, bool):
        return {"t": "bool", "v": v}
    if isinstance(v, int):
        return {"t": "int", "v": v}
    if isinstance(v, float):
        return {"t": "float", "bits": struct.pack(">d", v).hex()}
    if isinstance(v, str):
        return {"t": "str", "v": v}
    if isinstance(v, torch.Size):
        return {"t": "size", "v": [encode(x) for x in v]}
    if isinstance(v, tuple):
        return {"t": "tuple", "v": [encode(x) for x in v]}
    if isinstance(v, list):
        return {"t": "list", "v": [encode(x) for x in v]}
    if isinstance(v, dict):
        return {"t": "dict", "v": [[k, encode(x)] for k, x in v.items()]}
    if isinstance(v, slice):
        return {"t": "slice", "v": [encode(v.start), encode(v.stop), encode(v.step)]}
    if v is Ellipsis:
        return {"t": "ellipsis"}
    if isinstance(v, torch.dtype):
        return {"t": "dtype", "v": str(v)[len("torch."):]}
    if isinstance(v, torch.device):
        return {"t": "device", "v": str(v)}
    if isinstance(v, torch.memory_format):
        return {"t": "memory_format", "v": str(v)[len("torch."):]}
    if isinstance(v, torch.layout):
        return {"t": "layout", "v": str(v)[len("torch."):]}
    if isinstance(v, torch.fx.Node):
        return {"t": "node", "v": v.name}
    raise TypeError(f"cannot encode {type(v)}")
