"""The safetensors container of docs/format.md §1: header, 64-byte aligned data, __pad__ tensors."""
import json
import struct

import torch

ALIGN = 64

SAFETENSORS_DTYPES = {
    torch.float32: "F32", torch.float64: "F64", torch.float16: "F16", torch.bfloat16: "BF16",
    torch.int64: "I64", torch.int32: "I32", torch.int16: "I16", torch.int8: "I8", torch.uint8: "U8",
    torch.bool: "BOOL", torch.complex64: "C64", torch.complex128: "C128",
}


def tensor_bytes(t):
    t = t.detach().to("cpu").resolve_conj().resolve_neg()
    if t.numel() == 0:
        return b""
    # a fresh copy with canonical strides: .contiguous() keeps a size-1 dim's stride (a [1] view of stride 4
    # is "contiguous"), which .view(torch.uint8) refuses
    packed = torch.empty(t.shape, dtype=t.dtype).copy_(t)
    return packed.reshape(-1).view(torch.uint8).numpy().tobytes()  # native order: little-endian hosts only


def build(metadata, tensors):
    """metadata: str → str; tensors: list of (name, torch.Tensor). Returns the file's bytes."""
    import sys
    assert sys.byteorder == "little", "the .fxw writer needs a little-endian host"
    entries, chunks, offset, pads = {}, [], 0, 0
    for name, t in tensors:
        if t.dtype not in SAFETENSORS_DTYPES:
            raise ValueError(f"tensor '{name}': dtype {t.dtype} cannot be stored "
                             f"(supported: {', '.join(str(d) for d in SAFETENSORS_DTYPES)})")
        gap = -offset % ALIGN
        if gap:
            entries[f"__pad__.{pads}"] = {"dtype": "U8", "shape": [gap], "data_offsets": [offset, offset + gap]}
            chunks.append(bytes(gap))
            offset += gap
            pads += 1
        data = tensor_bytes(t)
        entries[name] = {"dtype": SAFETENSORS_DTYPES[t.dtype], "shape": list(t.shape),
                         "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    header = {"__metadata__": metadata}
    header.update(entries)
    text = json.dumps(header, separators=(",", ":"), allow_nan=False).encode("utf-8")
    text += b" " * (-(8 + len(text)) % ALIGN)
    return b"".join([struct.pack("<Q", len(text)), text] + chunks)
