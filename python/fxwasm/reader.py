"""A pure-Python reader of .fxw files (docs/format.md), for tests and tooling. Needs only the standard
library; with torch installed, dtypes/devices/sizes decode to torch objects and tensors convert to torch."""
import json
import math
import struct
from dataclasses import dataclass, field

try:
    import torch
except ImportError:  # the reader works without torch
    torch = None

MAX_HEADER = 256 * 1024 * 1024
OPS = ("placeholder", "get_attr", "call_function", "call_module", "call_method", "output")
ELEMENT_SIZE = {"F32": 4, "F64": 8, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1,
                "BOOL": 1, "C64": 8, "C128": 16}
TORCH_DTYPE = {"F32": "float32", "F64": "float64", "F16": "float16", "BF16": "bfloat16", "I64": "int64",
               "I32": "int32", "I16": "int16", "I8": "int8", "U8": "uint8", "BOOL": "bool",
               "C64": "complex64", "C128": "complex128"}


class FormatError(ValueError):
    pass


@dataclass(frozen=True)
class NodeRef:
    name: str


@dataclass(frozen=True)
class TensorRef:
    name: str


@dataclass(frozen=True)
class Tagged:
    """A dtype/device/memory_format/layout when torch is not available: ("$dtype", "float32")."""
    tag: str
    value: str


@dataclass
class TensorData:
    dtype: str      # safetensors name: "F32", ...
    shape: list
    data: bytes

    def to_torch(self):
        if torch is None:
            raise RuntimeError("torch is not installed")
        dt = getattr(torch, TORCH_DTYPE[self.dtype])
        if not self.data:
            return torch.empty(self.shape, dtype=dt)
        return torch.frombuffer(bytearray(self.data), dtype=torch.uint8).view(dt).reshape(self.shape).clone()


@dataclass
class FxwFile:
    metadata: dict
    program: dict                # the program JSON as parsed (values still encoded)
    nodes: list                  # [{"op", "name", "target", "args", "kwargs", "type", "meta"}] decoded
    tensors: dict                # name → TensorData (no __pad__ tensors)
    kinds: dict                  # name → "parameter" | "buffer" | "constant" | "reference"
    reference: dict = field(default=None)  # {"inputs": [...], "outputs": ...} decoded, or None
    pytree: dict = field(default=None)     # {"orig_args": [...], "inputs": ..., "outputs": ...} decoded, or None


def _torchish(tag, value):
    if torch is None:
        return Tagged(tag, value)
    if tag == "$device":
        return torch.device(value)
    obj = getattr(torch, value, None)
    kinds = {"$dtype": torch.dtype, "$memory_format": torch.memory_format, "$layout": torch.layout}
    if not isinstance(obj, kinds[tag]):
        raise FormatError(f"unknown {tag[1:]} '{value}'")
    return obj


def decode_value(v, known_nodes=None, allow_tensors=False, where="value"):
    """Decode one encoded value. known_nodes: names that {"$node"} may refer to (None: any)."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, list):
        return [decode_value(x, known_nodes, allow_tensors, where) for x in v]
    if not isinstance(v, dict) or len(v) != 1:
        raise FormatError(f"{where}: an object must have exactly one tag key, found {sorted(v)}")
    (tag, body), = v.items()

    def rec(x):
        return decode_value(x, known_nodes, allow_tensors, where)

    if tag == "$node":
        if not isinstance(body, str):
            raise FormatError(f"{where}: $node needs a string")
        if known_nodes is not None and body not in known_nodes:
            raise FormatError(f"{where} refer to unknown node '{body}'")
        return NodeRef(body)
    if tag == "$tuple":
        return tuple(rec(x) for x in body)
    if tag == "$dict":
        return {k: rec(x) for k, x in body.items()}
    if tag == "$slice":
        if not isinstance(body, list) or len(body) != 3:
            raise FormatError(f"{where}: $slice needs [start, stop, step]")
        return slice(*(rec(x) for x in body))
    if tag == "$ellipsis":
        return Ellipsis
    if tag == "$float":
        if body not in ("inf", "-inf", "nan"):
            raise FormatError(f"{where}: bad $float '{body}'")
        return float(body)
    if tag == "$size":
        items = tuple(rec(x) for x in body)
        if torch is not None and all(isinstance(i, int) for i in items):
            return torch.Size(items)
        return items
    if tag in ("$dtype", "$device", "$memory_format", "$layout"):
        return _torchish(tag, body)
    if tag == "$tensor" and allow_tensors:
        return TensorRef(body)
    raise FormatError(f"{where}: unknown tag '{tag}'")


def read(path_or_bytes):
    data = path_or_bytes
    if not isinstance(data, (bytes, bytearray, memoryview)):
        with open(path_or_bytes, "rb") as f:
            data = f.read()
    data = bytes(data)
    if len(data) < 8:
        raise FormatError(f"fxwasm file: too short ({len(data)} bytes)")
    (n,) = struct.unpack("<Q", data[:8])
    if n > MAX_HEADER or n > len(data) - 8:
        raise FormatError(f"fxwasm file: header length {n} exceeds file size {len(data)}")
    header = json.loads(data[8:8 + n].decode("utf-8"))
    body = data[8 + n:]
    meta = header.pop("__metadata__", None)
    if not isinstance(meta, dict) or meta.get("format") != "fxwasm":
        raise FormatError("fxwasm file: __metadata__.format is not 'fxwasm'")
    if meta.get("format_version") != "1":
        raise FormatError(f"fxwasm file: unsupported format_version {meta.get('format_version')!r}")
    program = json.loads(meta["program"])

    tensors = {}
    for name, info in header.items():
        begin, end = info["data_offsets"]
        count = math.prod(info["shape"])
        if not (0 <= begin <= end <= len(body)) or end - begin != count * ELEMENT_SIZE[info["dtype"]]:
            raise FormatError(f"tensor '{name}': data_offsets {info['data_offsets']} do not fit")
        if not name.startswith("__pad__."):
            tensors[name] = TensorData(info["dtype"], list(info["shape"]), body[begin:end])
    kinds = dict(program.get("tensors", {}))
    for name in kinds:
        if name not in tensors:
            raise FormatError(f"program.tensors: tensor '{name}' is not in the header")

    nodes, seen = [], set()
    for i, n in enumerate(program["nodes"]):
        if n["op"] not in OPS:
            raise FormatError(f"node '{n['name']}': unknown op '{n['op']}'")
        if n["name"] in seen:
            raise FormatError(f"node '{n['name']}': duplicate name")
        where = f"node '{n['name']}': args"
        args = tuple(decode_value(n.get("args", []), seen, where=where))
        kwargs = decode_value({"$dict": n.get("kwargs", {})}, seen, where=f"node '{n['name']}': kwargs")
        meta_d = decode_value({"$dict": n.get("meta", {})}, seen, where=f"node '{n['name']}': meta")
        nodes.append({"op": n["op"], "name": n["name"], "target": n["target"], "args": args, "kwargs": kwargs,
                      "type": n.get("type"), "meta": meta_d})
        seen.add(n["name"])

    reference = None
    if "reference" in program:
        r = program["reference"]
        reference = {"inputs": [decode_value(x, set(), True, "reference") for x in r["inputs"]],
                     "outputs": decode_value(r["outputs"], set(), True, "reference")}
    structure = None
    if "pytree" in program:
        p = program["pytree"]
        structure = {"orig_args": list(p.get("orig_args", []))}
        for key in ("inputs", "outputs"):
            if key in p:
                structure[key] = decode_value(p[key], seen, where=f"pytree.{key}")
    return FxwFile(meta, program, nodes, tensors, kinds, reference, structure)


def resolve(value, f):
    """Replace TensorRefs in a decoded reference value by torch tensors."""
    if isinstance(value, TensorRef):
        return f.tensors[value.name].to_torch()
    if isinstance(value, tuple) and not (torch is not None and isinstance(value, torch.Size)):
        return tuple(resolve(v, f) for v in value)
    if isinstance(value, list):
        return [resolve(v, f) for v in value]
    if isinstance(value, dict):
        return {k: resolve(v, f) for k, v in value.items()}
    return value
