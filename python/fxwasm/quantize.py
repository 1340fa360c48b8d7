"""Quantized weight storage (docs/format.md §7): what `save(..., weights=...)` writes. The C++ core's
`fxwasm quantize` (cpp/passes/quantize_weights.cpp, cpp/tensor/quantized.cpp) picks the same tensors and
computes the same bytes: the rules below are the format's, float32 arithmetic, round half to even."""
import torch

WEIGHTS = ("fp32", "fp16", "int8", "int4")
LINEAR_MODULES = {"torch.nn.modules.linear.Linear", "torch.nn.modules.linear.NonDynamicallyQuantizableLinear"}
EMBEDDING_MODULES = {"torch.nn.modules.sparse.Embedding"}
# call_function targets → position of the weight argument (also accepted as the `weight` keyword).
WEIGHT_FUNCTIONS = {"torch._C._nn.linear": 1, "torch.nn.functional.linear": 1, "aten.linear.default": 1,
                    "fxwasm.fused_linear": 1, "torch.nn.functional.embedding": 1, "aten.embedding.default": 0}
BLOCK = 32


def linear_and_embedding_weights(program, tensors):
    """Names of the float32 2-D tensors used as Linear / Embedding weights in the program's graph."""
    get_attr = {n["name"]: n["target"] for n in program["nodes"] if n["op"] == "get_attr"}
    transposes = {}  # aten.t.default of a get_attr → that tensor
    for n in program["nodes"]:
        if n["op"] == "call_function" and n["target"] == "aten.t.default" and n["args"]:
            a = n["args"][0]
            if isinstance(a, dict) and "$node" in a and a["$node"] in get_attr:
                transposes[n["name"]] = get_attr[a["$node"]]
    names = set()
    for n in program["nodes"]:
        if n["op"] == "call_module":
            mtype = program["modules"].get(n["target"], {}).get("type")
            if mtype in LINEAR_MODULES or mtype in EMBEDDING_MODULES:
                names.add(f"{n['target']}.weight" if n["target"] else "weight")
        elif n["op"] == "call_function" and n["target"] in ("aten.addmm.default", "aten.mm.default"):
            # make_fx's Linear: addmm(bias, x, t(w)) and mm(x, t(w)).
            pos = 2 if n["target"] == "aten.addmm.default" else 1
            t = n["args"][pos] if len(n["args"]) > pos else None
            if isinstance(t, dict) and "$node" in t and t["$node"] in transposes:
                names.add(transposes[t["$node"]])
        elif n["op"] == "call_function" and n["target"] in WEIGHT_FUNCTIONS:
            pos = WEIGHT_FUNCTIONS[n["target"]]
            w = n["args"][pos] if len(n["args"]) > pos else n["kwargs"].get("weight")
            if isinstance(w, dict) and "$node" in w and w["$node"] in get_attr:
                names.add(get_attr[w["$node"]])
    return {name for name in names
            if name in tensors and tensors[name].dtype == torch.float32 and tensors[name].dim() == 2}


def quantize_int8(w):
    """Per output channel: scale = max|row| / 127 (1 for a zero row), q = round(w / scale)."""
    scale = w.abs().amax(dim=1) / 127.0
    scale = torch.where(scale == 0, torch.ones_like(scale), scale)
    q = torch.round(w / scale[:, None]).clamp(-127, 127).to(torch.int8)
    return q, scale


def quantize_int4(w):
    """Blocks of 32 along K (zero-padded), GGUF Q4_0: scale = float16(m / -8) with m the block's first value
    of largest magnitude (1 when 0), q = clamp(round(w / scale), -8, 7) + 8; byte j = q[j] | q[16+j] << 4.
    None when a scale overflows float16."""
    n, k = w.shape
    kb = (k + BLOCK - 1) // BLOCK
    blocks = torch.nn.functional.pad(w, (0, kb * BLOCK - k)).reshape(n, kb, BLOCK)
    m = blocks.gather(-1, blocks.abs().argmax(dim=-1, keepdim=True)).squeeze(-1)
    scale16 = (m / -8.0).to(torch.float16)
    if torch.isinf(scale16).any():
        return None
    scale16 = torch.where(scale16 == 0, torch.ones_like(scale16), scale16)
    scale = scale16.to(torch.float32)
    q = (torch.round(blocks / scale[..., None]).clamp(-8, 7) + 8).to(torch.uint8)
    packed = q[..., :16] | (q[..., 16:] << 4)
    return packed.reshape(n, kb * 16), scale16


def quantize_fp16(w):
    h = w.to(torch.float16)
    if (torch.isinf(h) & torch.isfinite(w)).any():
        return None
    return h


def quantize_program(program, stored, weights):
    """Rewrites `program` (its "tensors" kinds and a "quantized" entry) and returns the new list of stored
    (name, tensor) pairs, the tensors of the program stored as `weights` says (see the module docstring)."""
    if weights not in WEIGHTS:
        raise ValueError(f"weights must be one of {', '.join(WEIGHTS)}, not {weights!r}")
    if weights == "fp32":
        return stored
    kinds = program["tensors"]
    tensors = {name: t for name, t in stored if kinds.get(name) != "reference"}
    targets = linear_and_embedding_weights(program, tensors) if weights in ("int8", "int4") else set()
    taken = set(tensors)
    quantized, replaced, scales = {}, {}, []
    for name in sorted(tensors):
        w = tensors[name].detach()
        if w.dtype != torch.float32:
            continue
        entry = None
        if name in targets and w.shape[1] > 0 and torch.isfinite(w).all():
            result = quantize_int8(w) if weights == "int8" else quantize_int4(w)
            if result is not None:
                data, scale = result
                scale_name = f"{name}_scale"
                k = 1
                while scale_name in taken:
                    scale_name, k = f"{name}_scale~{k}", k + 1
                taken.add(scale_name)
                entry = {"scheme": weights, "dtype": "float32", "shape": list(w.shape)}
                entry.update({"axis": 0} if weights == "int8" else {"axis": 1, "block": BLOCK})
                entry["scale"] = scale_name
                scales.append((scale_name, scale))
                kinds[scale_name] = "quant_scale"
        if entry is None:
            data = quantize_fp16(w)
            if data is None:
                continue
            entry = {"scheme": "fp16", "dtype": "float32", "shape": list(w.shape)}
        quantized[name] = entry
        replaced[name] = data
    if quantized:
        program["quantized"] = quantized
    return [(name, replaced.get(name, t)) for name, t in stored] + scales


def dequantize(program, tensors):
    """The float32 values of a file's quantized tensors: {name: torch.Tensor} for each program.quantized
    entry, from `tensors` (name → torch.Tensor as stored)."""
    out = {}
    for name, e in program.get("quantized", {}).items():
        data = tensors[name]
        if e["scheme"] == "fp16":
            out[name] = data.to(torch.float32)
        elif e["scheme"] == "int8":
            out[name] = data.to(torch.float32) * tensors[e["scale"]][:, None]
        else:
            n, k = e["shape"]
            kb = (k + BLOCK - 1) // BLOCK
            b = data.reshape(n, kb, 16)
            q = torch.cat([b & 15, b >> 4], dim=-1).to(torch.float32) - 8.0
            out[name] = (q * tensors[e["scale"]].to(torch.float32)[..., None]).reshape(n, kb * BLOCK)[:, :k].contiguous()
    return out
