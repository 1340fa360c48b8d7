"""Asks the reference torch which names FX makes, for tests/cpp/ir/naming_test.cpp.

Run with the project's reference Python:  npm run -s python -- tests/golden/ir/gen_naming.py
Writes tests/golden/ir/naming.json next to this file:
  namespace_sequences: candidates fed one after another to a fresh torch.fx.graph._Namespace, and the names it made
  targets:             Graph._target_to_str for (op, canonical target)
  graph_sequence:      nodes created one after another in one torch.fx.Graph, with the names torch gave them
"""
import json
import os

import torch
import torch.fx
from torch.fx.graph import _Namespace

from ir_golden_common import resolve_target

NAMESPACE_SEQUENCES = [
    ["abs", "abs", "abs_1", "abs", "sum", "sum", "add", "add_1", "add", "add_1", "add_1", "x_1", "x", "x"],
    ["if", "class", "None", "True", "False", "def", "lambda", "match", "case", "type", "if", "_"],
    ["list", "input", "sum", "len", "print", "__name__", "__doc__", "__build_class__", "__debug__", "copyright",
     "exit", "torch", "device", "inf", "nan", "NoneType", "pytree", "fx_pytree", "input", "input_1"],
    ["0", "1abc", "123_4", "a.b.c", "a-b", "a  b", "", "...", "foo bar!", "x.1", "layer1.0.conv1", "_1", "__1",
     "a__1", "\u00e9", "na\u00efve", "a_01", "a_1", "a_01", "1", "_unnamed", "-"],
    ["x_5", "x", "x", "x_5", "x_2", "x_6", "input_1", "input", "sum_2", "sum", "sum", "y_0", "y", "y_0"],
    ["MyModule", "myModule", "self", "cls", "forward", "getattr", "getitem", "output", "output", "placeholder"],
    ["z_12345678901", "z", "z_12345678901", "b_007", "b", "b_007"],
]

TARGETS = [
    ("call_function", "torch.abs"), ("call_function", "torch.sum"), ("call_function", "operator.add"),
    ("call_function", "operator.getitem"), ("call_function", "torch.nn.functional.relu"),
    ("call_function", "torch.nn.functional.adaptive_avg_pool2d"), ("call_function", "torch.flatten"),
    ("call_function", "torch.cat"), ("call_function", "torch._C._nn.gelu"),
    ("call_function", "aten.convolution.default"), ("call_function", "aten.add_.Tensor"),
    ("call_function", "aten.add.Tensor"), ("call_function", "aten.relu.default"), ("call_function", "aten.add"),
    ("call_function", "aten._to_copy.default"), ("call_function", "aten.native_batch_norm.default"),
    ("call_function", "aten.__and__.Tensor"), ("call_function", "getattr"), ("call_function", "torch.Tensor.add_"),
    ("call_function", "torch.nn.functional.scaled_dot_product_attention"), ("call_function", "math.sqrt"),
    ("call_function", "torchvision.ops.stochastic_depth.stochastic_depth"), ("call_function", "operator.__add__"),
    ("call_method", "add"), ("call_method", "add_"), ("call_method", "view"), ("call_method", "__add__"),
    ("call_method", "__getitem__"), ("call_method", "size"), ("call_method", "softMax"), ("call_method", "t"),
    ("call_method", "__"), ("call_method", "____"), ("call_method", "__x"),
    ("call_module", "layer1.0.conv1"), ("call_module", "fc"), ("call_module", "features.0"),
    ("call_module", "MyModule"), ("call_module", "blockA.convB"), ("call_module", "layer1.0.Conv1"),
    ("call_module", "0"), ("call_module", "encoder.layers.10.self_attn"), ("call_module", "ABCDef"),
    ("call_module", "HTTPServer"), ("call_module", "a1B"),
    ("get_attr", "layer1.0.conv1.weight"), ("get_attr", "_tensor_constant0"), ("get_attr", "bias"),
    ("get_attr", "pos_embedding"), ("get_attr", "cls_token"), ("get_attr", "MyParam"),
    ("placeholder", "x"), ("placeholder", "input"), ("placeholder", "myInput"), ("placeholder", "x_1"),
    ("placeholder", "self"), ("placeholder", "__x__"), ("placeholder", "x"), ("placeholder", "0d"),
    ("output", "output"),
]

# (op, target, explicit name or None): created in one Graph, in order.
GRAPH_SEQUENCE = [(op, target, None) for op, target in TARGETS] + [
    ("call_function", "torch.abs", "abs"), ("call_function", "torch.abs", "my_abs"),
    ("call_function", "torch.abs", "my_abs"), ("call_function", "torch.abs", "input"),
    ("call_function", "operator.add", "add_7"), ("call_function", "operator.add", None),
    ("call_function", "operator.add", "add_7"), ("call_module", "fc", "fc"), ("get_attr", "fc.weight", "1x"),
]


def main():
    out = {"namespace_sequences": [], "targets": [], "graph_sequence": []}
    for seq in NAMESPACE_SEQUENCES:
        ns = _Namespace()
        out["namespace_sequences"].append({"candidates": seq, "names": [ns.create_name(c, None) for c in seq]})

    g = torch.fx.Graph()
    for op, target in TARGETS:
        obj = resolve_target(target) if op == "call_function" else target
        out["targets"].append({"op": op, "target": target, "candidate": g._target_to_str(obj)})

    g = torch.fx.Graph()
    for op, target, name in GRAPH_SEQUENCE:
        obj = resolve_target(target) if op == "call_function" else target
        node = g.create_node(op, obj, name=name)
        out["graph_sequence"].append({"op": op, "target": target, "name": name, "result": node.name,
                                      "stored_target": node.target if isinstance(node.target, str) else target})

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "naming.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
