"""FX argument values ⇄ the JSON value encoding of docs/format.md §3 (writer side)."""
import math
import numbers

import torch

from .errors import ExportError

MAX_DEPTH = 64  # the format's nesting limit; a deeper value could not be read back


def dtype_name(dtype):
    return str(dtype).removeprefix("torch.")


def encode_float(x):
    x = float(x)
    if math.isnan(x):
        return {"$float": "nan"}
    if math.isinf(x):
        return {"$float": "inf" if x > 0 else "-inf"}
    return x  # json.dumps writes finite floats with '.' or an exponent (repr), so 1.0 stays a float


def encode_value(value, node=None, field="args", tensor_namer=None, depth=1):
    """Encode one FX argument. `tensor_namer(tensor) -> name` allows tensors (reference values only)."""
    if depth > MAX_DEPTH:
        raise ExportError(f"{field}: value nests deeper than {MAX_DEPTH} levels", node)

    def rec(v):
        return encode_value(v, node, field, tensor_namer, depth + 1)

    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, torch.fx.Node):
        return {"$node": value.name}
    if isinstance(value, torch.Tensor):
        if tensor_namer is None:
            raise ExportError(f"{field}: a tensor value cannot be stored here (FX keeps tensors as get_attr)", node)
        return {"$tensor": tensor_namer(value)}
    if isinstance(value, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        hint = value.node.hint if hasattr(value.node, "hint") else None
        if hint is None:
            raise ExportError(f"{field}: symbolic value {value} has no concrete value", node)
        return encode_value(hint, node, field, tensor_namer, depth)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return encode_float(value)
    if isinstance(value, torch.Size):
        return {"$size": [rec(v) for v in value]}
    if isinstance(value, tuple):  # namedtuples too: FX treats them as tuples
        return {"$tuple": [rec(v) for v in value]}
    if isinstance(value, list):  # includes torch.fx.immutable_collections.immutable_list
        return [rec(v) for v in value]
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise ExportError(f"{field}: dict key {k!r} is not a str (only str-keyed dicts are stored)", node)
            out[k] = rec(v)
        return {"$dict": out}
    if isinstance(value, slice):
        return {"$slice": [rec(value.start), rec(value.stop), rec(value.step)]}
    if value is Ellipsis:
        return {"$ellipsis": None}
    if isinstance(value, torch.dtype):
        return {"$dtype": dtype_name(value)}
    if isinstance(value, torch.device):
        return {"$device": str(value)}
    if isinstance(value, torch.memory_format):
        return {"$memory_format": str(value).removeprefix("torch.")}
    if isinstance(value, torch.layout):
        return {"$layout": str(value).removeprefix("torch.")}
    raise ExportError(f"{field}: cannot encode a value of type {type(value).__module__}."
                      f"{type(value).__qualname__} ({value!r:.80})", node)


def is_encodable_plain(value, depth=0):
    """Whether a module attribute is a plain value worth recording as a hyperparameter."""
    if depth > 8:
        return False
    if value is None or isinstance(value, (bool, int, float, str, torch.dtype, torch.device)):
        return True
    if isinstance(value, (tuple, list)):
        return all(is_encodable_plain(v, depth + 1) for v in value)
    return False
