"""Writes the hand-made hostile inputs of tests/fuzz/regressions/ (the fuzzer's finds are added as they are).

Each case is NAME.fxw plus, for a file that must be rejected, NAME.txt: a line the reader's error must contain. Run with any Python 3:
    python3 tests/fuzz/make_regressions.py
The files are committed; this script only documents how they were made (docs/security.md lists the limits).
"""
import json
import os
import struct

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "regressions")


def node(op, name, target, args=(), kwargs=None, **extra):
    n = {"op": op, "name": name, "target": target, "args": list(args), "kwargs": kwargs or {}}
    n.update(extra)
    return n


def program(nodes=None, tensors=None, **extra):
    p = {"producer": {"torch": "2.15.0", "exporter": "0.1.0", "tracer": "graph"},
         "nodes": nodes if nodes is not None else [
             node("placeholder", "x", "x"),
             node("call_function", "relu", "torch.relu", [{"$node": "x"}]),
             node("output", "output", "output", [{"$node": "relu"}])],
         "modules": {"": {"type": "torch.nn.modules.module.Module"}},
         "tensors": tensors or {}}
    p.update(extra)
    return p


def container(prog, header_tensors=None, data=b"", program_text=None):
    header = {"__metadata__": {"format": "fxwasm", "format_version": "1",
                               "program": program_text if program_text is not None else json.dumps(prog)}}
    header.update(header_tensors or {})
    text = json.dumps(header).encode()
    return struct.pack("<Q", len(text)) + text + data


def write(name, data, expect):
    """expect: the error the load must give, or None for a file that loads (and must then be handled cleanly)."""
    with open(os.path.join(HERE, name + ".fxw"), "wb") as f:
        f.write(data)
    if expect is not None:
        with open(os.path.join(HERE, name + ".txt"), "w") as f:
            f.write(expect + "\n")


def main():
    os.makedirs(HERE, exist_ok=True)
    valid = container(program())
    # Container
    write("truncated_length", valid[:5], "too short (5 bytes)")
    write("header_length_huge", b"\xff" * 8 + valid[8:], "exceeds file size")
    write("header_length_past_end", struct.pack("<Q", len(valid)) + valid[8:], "exceeds file size")
    write("truncated_header", valid[: len(valid) // 2], "exceeds file size")
    write("header_not_object", struct.pack("<Q", 3) + b"[1]", "header must be a JSON object")
    deep = b"[" * 10000 + b"]" * 10000
    write("deep_header", struct.pack("<Q", len(deep)) + deep, "JSON nests 10000 levels deep; the limit is 64")
    unterminated = b'{"__metadata__": "' + b"x" * 20000
    write("unterminated_string", struct.pack("<Q", len(unterminated)) + unterminated, "header is not valid JSON")
    # Tensors
    f32 = struct.pack("<4f", 1, 2, 3, 4)
    t = {"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}
    tp = {"w": "parameter", "v": "parameter"}
    write("offsets_past_end", container(program(tensors={"w": "parameter"}), t, f32[:8]), "run past the data section")
    write("offsets_reversed", container(program(tensors={"w": "parameter"}),
                                        {"w": {"dtype": "F32", "shape": [0], "data_offsets": [16, 0]}}, f32),
          "end before they begin")
    write("wrong_byte_count", container(program(tensors={"w": "parameter"}),
                                        {"w": {"dtype": "F32", "shape": [3], "data_offsets": [0, 16]}}, f32),
          "hold 16 bytes but dtype F32 with shape of 3 elements needs 12")
    write("unknown_dtype", container(program(tensors={"w": "parameter"}),
                                     {"w": {"dtype": "F33", "shape": [4], "data_offsets": [0, 16]}}, f32),
          "unknown dtype 'F33'")
    write("negative_dim", container(program(tensors={"w": "parameter"}),
                                    {"w": {"dtype": "F32", "shape": [-4], "data_offsets": [0, 16]}}, f32),
          "shape dimension must be a non-negative integer")
    write("shape_overflow", container(program(tensors={"w": "parameter"}),
                                      {"w": {"dtype": "F32", "shape": [2**32, 2**32, 2**32], "data_offsets": [0, 16]}},
                                      f32), "element count of its shape overflows")
    write("byte_size_overflow", container(program(tensors={"w": "parameter"}),
                                          {"w": {"dtype": "F64", "shape": [2**62], "data_offsets": [0, 16]}}, f32),
          "byte size of its shape overflows")
    write("rank_17", container(program(tensors={"w": "parameter"}),
                               {"w": {"dtype": "U8", "shape": [1] * 17, "data_offsets": [0, 1]}}, b"\0"),
          "rank 17 exceeds the limit of 16")
    many = {f"t{i}": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]} for i in range(20)}
    write("overlapping_tensors", container(program(tensors={k: "parameter" for k in many}), many, f32),
          "overlap those of tensor")
    write("tensor_not_listed", container(program(), t, f32), "tensor 'w' of the header is not listed")
    write("tensor_listed_not_in_header", container(program(tensors=tp), t, f32), "lists 'v', which is not in the header")
    # Program and nodes
    write("program_deep", container(None, program_text="[" * 70 + "]" * 70), "JSON nests 70 levels deep")
    write("program_not_json", container(None, program_text="{nodes:"), "program is not valid JSON")
    write("nodes_not_array", container(program(nodes={"a": 1})), "program.nodes is missing or not an array")
    write("dangling_reference", container(program(nodes=[
        node("placeholder", "x", "x"), node("call_function", "relu", "torch.relu", [{"$node": "foo"}]),
        node("output", "output", "output", [{"$node": "relu"}])])), "args refer to unknown node 'foo'")
    write("self_cycle", container(program(nodes=[
        node("placeholder", "x", "x"), node("call_function", "relu", "torch.relu", [{"$node": "relu"}]),
        node("output", "output", "output", [{"$node": "relu"}])])), "refers to itself (a cycle)")
    write("forward_reference", container(program(nodes=[
        node("placeholder", "x", "x"), node("call_function", "a", "torch.relu", [{"$node": "b"}]),
        node("call_function", "b", "torch.relu", [{"$node": "a"}]),
        node("output", "output", "output", [{"$node": "b"}])])), "before it is defined")
    write("duplicate_name", container(program(nodes=[
        node("placeholder", "x", "x"), node("placeholder", "x", "y"),
        node("output", "output", "output", [{"$node": "x"}])])), "duplicate node name")
    write("unknown_op", container(program(nodes=[
        node("placeholder", "x", "x"), node("call_lambda", "f", "f", [{"$node": "x"}]),
        node("output", "output", "output", [{"$node": "f"}])])), "unknown op 'call_lambda'")
    write("output_not_last", container(program(nodes=[
        node("placeholder", "x", "x"), node("output", "output", "output", [{"$node": "x"}]),
        node("call_function", "relu", "torch.relu", [{"$node": "x"}])])), "comes after the output node")
    write("empty_name", container(program(nodes=[node("placeholder", "", "x")])), ".name is empty")
    write("long_string", container(program(nodes=[
        node("placeholder", "x", "x"), node("call_function", "add", "operator.add", [{"$node": "x"}, "s" * 70000]),
        node("output", "output", "output", [{"$node": "add"}])])), "string of 70000 bytes exceeds the 65536-byte limit")
    write("int_too_large", container(program(nodes=[
        node("placeholder", "x", "x"), node("call_function", "add", "operator.add", [{"$node": "x"}, 2**64 - 1]),
        node("output", "output", "output", [{"$node": "add"}])])), "does not fit in 64-bit signed")
    write("unknown_tag", container(program(nodes=[
        node("placeholder", "x", "x"), node("call_function", "add", "operator.add", [{"$node": "x"}, {"$code": "1"}]),
        node("output", "output", "output", [{"$node": "add"}])])), "unknown tag '$code'")
    write("tensor_tag_in_args", container(program(nodes=[
        node("placeholder", "x", "x"), node("call_function", "add", "operator.add", [{"$node": "x"}, {"$tensor": "w"}]),
        node("output", "output", "output", [{"$node": "add"}])])), "$tensor is only allowed in reference")
    write("get_attr_missing", container(program(nodes=[
        node("get_attr", "w", "w"), node("output", "output", "output", [{"$node": "w"}])])),
          "get_attr target 'w' names no tensor or module")
    write("call_module_missing", container(program(nodes=[
        node("placeholder", "x", "x"), node("call_module", "fc", "fc", [{"$node": "x"}]),
        node("output", "output", "output", [{"$node": "fc"}])])), "call_module target 'fc' is not in program.modules")
    # Found by the fuzzer: loads (FX graphs may hold such nodes), but torch could not print its code; the
    # views answer with an FxError instead of indexing past the arguments.
    write("getitem_without_args", container(program(nodes=[
        node("placeholder", "x", "x"), node("call_function", "getitem", "operator.getitem"),
        node("output", "output", "output", [{"$node": "getitem"}])])), None)
    write("reference_count", container(program(reference={"inputs": [], "outputs": None})),
          "program.reference has 0 inputs but the graph has 1 placeholders")


if __name__ == "__main__":
    main()
