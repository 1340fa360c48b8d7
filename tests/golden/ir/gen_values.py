"""Asks the reference torch how FX prints argument values and nodes, for tests/cpp/ir/value_test.cpp and
node_test.cpp.

Run with the project's reference Python:  npm run -s python -- tests/golden/ir/gen_values.py
Writes tests/golden/ir/values.json:
  reprs: [{value (tagged, see ir_golden_common.encode), repr}]  -- repr() as print_tabular shows it
  graph: the nodes of one FX graph in order, each with op, name, target (canonical), args, kwargs,
         type_expr, and torch's format_node(), str(args) and str(kwargs)
"""
import json
import math
import operator
import os
import random
import struct

import torch
import torch.fx
from torch.fx.node import _type_repr

from ir_golden_common import encode, resolve_target


def float_cases():
    cases = [0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 0.30000000000000004, 1 / 3, 2 / 3, 1e-5, 1e-4, 0.0001234,
             1e16, 1e15, 1234567890123456.0, 12345678901234567.0, 1e22, 1e-7, 3.14159, -2.5, 100.0, 1.5e300,
             5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, float(2 ** 53 + 1), 9.999999999999999e22,
             math.pi, math.e, 0.5, 123.456, 1e-10, 6.02214076e23, float("inf"), float("-inf"), float("nan")]
    cases += [math.ldexp(1.0, k) for k in range(-1074, 1024, 37)]
    rng = random.Random(0)
    for _ in range(300):
        bits = rng.getrandbits(64)
        d = struct.unpack(">d", bits.to_bytes(8, "big"))[0]
        if math.isfinite(d):
            cases.append(d)
    for _ in range(100):
        cases.append(round(rng.uniform(-1000, 1000), rng.randint(0, 6)))
    return cases


def value_cases(x, y):
    strings = ["hi", "it's", 'say "hi"', "both ' and \"", "back\\slash", "tab\tnl\nret\r", "\x00\x1f\x7f",
               "\u00e9", "\u65e5\u672c", "\xa0", "\xad", "\u2028", "\U0001F600", "\ue000", "", "\x85", "a\u200bb"]
    others = [None, True, False, 0, -5, 2 ** 62, -(2 ** 63), (), (1,), (1, 2), [], [1, 2], {}, {"dim": 1},
              {"a": [1, (2,)], "b's": None}, slice(None, 2, None), slice(1, None, -1), slice("a", 1.0, x),
              Ellipsis, torch.float32, torch.int64, torch.bool, torch.bfloat16, torch.complex64, torch.uint8,
              torch.device("cpu"), torch.device("cuda:0"), torch.device("cuda"), torch.device("mps"),
              torch.contiguous_format, torch.channels_last, torch.preserve_format, torch.strided,
              torch.sparse_coo, torch.Size([1, 2]), torch.Size([]), torch.Size([3]), x, (x,), (x, y, 1),
              [x, [y, (x,)]], {"input": x, "other": (y, 2.0)}, (Ellipsis, None, slice(None, None, None)),
              ("s", [1.0, -0.0], {"k": "v"})]
    return float_cases() + strings + others


def build_graph():
    aten = torch.ops.aten
    g = torch.fx.Graph()
    x = g.placeholder("x", type_expr=torch.Tensor)
    y = g.placeholder("y")
    g.placeholder("z", default_value=3)
    g.placeholder("s", default_value="hi")
    g.placeholder("t", default_value=(1, "a"))
    w = g.get_attr("layer1.0.conv1.weight")
    a = g.call_function(torch.abs, (x,))
    b = g.call_function(operator.add, (a, 1.5), type_expr=torch.Tensor)
    c = g.call_function(operator.getitem, (x, (slice(None, 2), Ellipsis, None, slice(1, None, -1))))
    d = g.call_method("view", (b, -1, torch.Size([1, 2])))
    e = g.call_module("layer1.0.conv1", (c,), {
        "dim": 1, "dtype": torch.float32, "device": torch.device("cuda:0"), "s": "it's", "l": [1, 2.5, True, None],
        "mf": torch.channels_last, "layout": torch.strided, "cpu": torch.device("cpu"), "f": float("inf"),
        "n": -0.0, "e": 1e-05, "big": 1e16, "t": ("a", (x,)), "sl": slice(None, x, "q")})
    f = g.call_function(aten.convolution.default, (x, w, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1))
    g.call_function(getattr, (x, "shape"))
    g.call_function(torch.cat, ([a, b],), {"dim": 0})
    g.call_function(aten.add_.Tensor, (x, y))
    g.call_function(torch.sum, (x,), {"dim": (1,), "keepdim": False})
    g.call_method("to", (x,), {"dtype": torch.int64, "memory_format": torch.contiguous_format})
    g.call_function(operator.setitem, (x, 0, y))
    g.call_function(torch.nn.functional.relu, (x,), {"inplace": False})
    g.output((a, b, [c, d], {"e": e, "f": f}))
    return g


CANONICAL = {}  # id(target object) -> canonical name
for name in ["torch.abs", "operator.add", "operator.getitem", "aten.convolution.default", "getattr", "torch.cat",
             "aten.add_.Tensor", "torch.sum", "operator.setitem", "torch.nn.functional.relu"]:
    CANONICAL[id(resolve_target(name))] = name


def main():
    g = build_graph()
    x, y = list(g.nodes)[:2]
    out = {"reprs": [], "graph": []}
    for v in value_cases(x, y):
        out["reprs"].append({"value": encode(v), "repr": repr(v)})
    for n in g.nodes:
        target = n.target if isinstance(n.target, str) else CANONICAL[id(n.target)]
        out["graph"].append({
            "op": n.op, "name": n.name, "target": target,
            "args": [encode(a) for a in n.args], "kwargs": [[k, encode(v)] for k, v in n.kwargs.items()],
            "type_expr": _type_repr(n.type) if n.type is not None else "",
            "format_node": n.format_node(), "str_args": str(n.args), "str_kwargs": str(n.kwargs),
            "users": [u.name for u in n.users]})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "values.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
