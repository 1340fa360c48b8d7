"""Goldens for the two text views of a graph: print_tabular and GraphModule.code.

Run with the reference Python (torch 2.15, tabulate 0.10):
    /root/.cache/fxwasm/venv-torch-2.15.0/bin/python tests/golden/gen_textviews.py
It rewrites tests/golden/textviews/<name>.json, one file per graph, each holding
  - "nodes": a neutral description of the graph (op, name, canonical target, args/kwargs in tagged JSON,
    type annotation as code prints it, and the meta keys codegen looks at),
  - "tabular": what tabulate prints for the graph with the target column as canonical names,
  - "code": torch's own GraphModule.code.
tests/cpp/ir/textviews_test.cpp rebuilds each graph through the C++ Graph API and compares both texts.

Tagged argument JSON (the same shapes the exporter uses for values):
  null, true/false, JSON integers, JSON strings as themselves; JSON arrays are Python lists;
  {"float": "<repr>"}, {"tuple": [...]}, {"dict": [[key, value], ...]}, {"slice": [start, stop, step]},
  {"ellipsis": true}, {"dtype": "float32"}, {"device": "cuda:0"}, {"memory_format": "channels_last"},
  {"layout": "strided"}, {"node": "<node name>"}.
"""
import json
import math
import operator
import os
import sys

import torch
import torch.fx as fx
from tabulate import tabulate
from torch.fx.graph import _type_repr
from torch.fx.node import _get_qualified_name

OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "textviews")


# ----------------------------------------------------------------------------------------------------
# Neutral description


def canonical_target(target):
    """The canonical qualified name of a node target, as the .fxw format stores it."""
    if isinstance(target, str):
        return target
    if isinstance(target, (torch._ops.OpOverload, torch._ops.OpOverloadPacket)):
        name = _get_qualified_name(target)
        assert name.startswith("torch.ops."), name
        return name[len("torch.ops."):]
    name = _get_qualified_name(target)
    if name.startswith("_operator."):
        name = "operator." + name[len("_operator."):]
    return name


def encode(v):
    if isinstance(v, fx.Node):
        return {"node": v.name}
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return {"float": repr(v)}
    if isinstance(v, tuple):
        return {"tuple": [encode(a) for a in v]}
    if isinstance(v, list):
        return [encode(a) for a in v]
    if isinstance(v, dict):
        for k in v:
            assert isinstance(k, str), f"non-str dict key {k!r}"
        return {"dict": [[k, encode(a)] for k, a in v.items()]}
    if isinstance(v, slice):
        return {"slice": [encode(v.start), encode(v.stop), encode(v.step)]}
    if v is Ellipsis:
        return {"ellipsis": True}
    if isinstance(v, torch.dtype):
        return {"dtype": str(v).split(".")[-1]}
    if isinstance(v, torch.device):
        return {"device": str(v)}
    if isinstance(v, torch.memory_format):
        return {"memory_format": str(v).split(".")[-1]}
    if isinstance(v, torch.layout):
        return {"layout": str(v).split(".")[-1]}
    raise TypeError(f"cannot encode argument {v!r} of type {type(v)}")


def describe(graph):
    nodes = []
    for n in graph.nodes:
        d = {
            "op": n.op,
            "name": n.name,
            "target": canonical_target(n.target),
            "args": [encode(a) for a in n.args],
            "kwargs": [[k, encode(a)] for k, a in n.kwargs.items()],
        }
        if n.type is not None:
            d["type"] = _type_repr(n.type)
        if n.meta.get("is_wrapped", False):
            d["meta"] = {"is_wrapped": True}
        nodes.append(d)
    return nodes


def tabular_text(graph):
    # Graph.print_tabular with the target column as canonical names; print() adds the newline.
    specs = [[n.op, n.name, canonical_target(n.target), n.args, n.kwargs] for n in graph.nodes]
    return tabulate(specs, headers=["opcode", "name", "target", "args", "kwargs"]) + "\n"


GOLDENS = {}


def golden(fn):
    GOLDENS[fn.__name__] = fn
    return fn


def as_module(graph):
    # Kept as a bare Graph: write() takes its code from Graph.python_code(root_module="self"), which is
    # exactly what GraphModule.recompile stores as GraphModule.code.
    return graph


# ----------------------------------------------------------------------------------------------------
# Graphs built with the Graph API


@golden
def toy_example():
    # The seed example: what Dynamo makes of toy_example, rebuilt node by node.
    g = fx.Graph()
    a = g.create_node("placeholder", "L_a_", name="l_a_", type_expr=torch.Tensor)
    b = g.create_node("placeholder", "L_b_", name="l_b_", type_expr=torch.Tensor)
    abs_1 = g.create_node("call_function", torch.abs, (a,), name="abs_1")
    add = g.create_node("call_function", operator.add, (abs_1, 1), name="add")
    x = g.create_node("call_function", operator.truediv, (a, add), name="x")
    sum_1 = g.create_node("call_method", "sum", (b,), name="sum_1")
    lt = g.create_node("call_function", operator.lt, (sum_1, 0), name="lt")
    g.output((lt, x))
    return as_module(g)


@golden
def argument_kinds():
    g = fx.Graph()
    x = g.placeholder("x", type_expr=torch.Tensor)
    y = g.placeholder("y")
    g.call_function(torch.zeros, ((2, 3),), {"dtype": torch.float32, "device": torch.device("cpu"),
                                             "layout": torch.strided, "requires_grad": False})
    g.call_function(torch.ones, (torch.Size([4, 5]),), {"dtype": torch.int64, "device": torch.device("cuda:0")})
    g.call_function(torch.empty, ([1, 2, 3],), {"memory_format": torch.channels_last, "dtype": torch.bool,
                                                "device": torch.device("cuda")})
    g.call_function(torch.clamp, (x,), {"min": -1, "max": 1e-05})
    g.call_function(torch.clamp, (x, -math.inf, math.inf))
    g.call_function(torch.nan_to_num, (x, math.nan, 1e16, -2.5e-300))
    g.call_function(torch.add, (x, 0.1), {"alpha": -0.0})
    g.call_function(torch.add, (x, 1.0, ), {"alpha": 123456789.125})
    g.call_function(operator.getitem, (x, (slice(None, 2, None), Ellipsis, None, -1)))
    g.call_function(operator.getitem, (x, (slice(1, None, 2), slice(None, None, -1))))
    g.call_function(operator.getitem, (x, slice(None, None, None)))
    g.call_function(operator.getitem, (x, Ellipsis))
    g.call_function(torch.cat, ([x, y, x], -1))
    g.call_function(torch.stack, ((x,),), {"dim": 0})
    g.call_function(torch.stack, ((),))
    g.call_function(torch.einsum, ("it's", x))
    g.call_function(torch.einsum, ('say "hi"', x))
    g.call_function(torch.einsum, ("both ' and \"", x))
    g.call_function(torch.einsum, ("back\\slash\ttab\nnewline\x01\x7f", x))
    g.call_function(torch.einsum, ("", x))
    nested = {"a": [1, (2, 3.5), {"b": None, "c": [x, (y,)]}], "d": (), "e": [], "f": {}, "g": True}
    g.call_function(torch.Tensor.to, (x,), {"options": nested, "copy": True, "non_blocking": False})
    g.call_method("to", (x, torch.float16), {"memory_format": torch.preserve_format})
    g.call_method("to", (x,), {"memory_format": torch.contiguous_format, "dtype": torch.complex64})
    g.call_method("view", (x, -1, 2, -3))
    g.call_method("permute", (y, [0, -1, 1]))
    g.call_function(torch.reshape, (x, torch.Size([])))
    g.call_function(torch.reshape, (x, torch.Size([7])))
    g.output({"x": x, "list": [x, y], "n": None})
    return as_module(g)


@golden
def magic_methods():
    g = fx.Graph()
    x = g.placeholder("x", type_expr=torch.Tensor)
    y = g.placeholder("y", type_expr=torch.Tensor)
    out = []
    for fn in [operator.add, operator.sub, operator.mul, operator.floordiv, operator.truediv,
               operator.mod, operator.pow, operator.lshift, operator.rshift, operator.and_,
               operator.or_, operator.xor, operator.matmul, operator.eq, operator.ne, operator.lt,
               operator.gt, operator.le, operator.ge]:
        out.append(g.call_function(fn, (x, y)))
    out.append(g.call_function(operator.add, (2, x)))
    out.append(g.call_function(operator.sub, (x, -1.5)))
    out.append(g.call_function(operator.mul, (x, math.inf)))
    for fn in [operator.pos, operator.neg, operator.invert]:
        out.append(g.call_function(fn, (x,)))
    gi = g.call_function(operator.getitem, (out[0], 0))
    out.append(g.call_function(operator.getitem, (gi, -1)))
    out.append(g.call_function(operator.getitem, (x, (0, slice(None, 3, None)))))
    out.append(g.call_function(operator.getitem, (x, "key")))
    out.append(g.call_function(operator.getitem, (x, y)))
    # In-place operators print as statements followed by the alias.
    t = g.call_function(torch.clone, (x,))
    for fn in [operator.iadd, operator.iand, operator.ifloordiv, operator.ilshift, operator.imod,
               operator.imul, operator.imatmul, operator.ior, operator.ipow, operator.irshift,
               operator.isub, operator.itruediv, operator.ixor]:
        t = g.call_function(fn, (t, y))
    s = g.call_function(operator.setitem, (t, (0, slice(None, None, None)), 1.0))
    # Non-magic functions of the operator module are ordinary globals.
    out.append(g.call_function(operator.not_, (x,)))
    out.append(g.call_function(operator.contains, (x, y)))
    out.append(g.call_function(operator.is_, (x, None)))
    out.append(g.call_function(operator.truth, (x,)))
    g.output((tuple(out), t, s))
    return as_module(g)


def _my_helper(x):
    return x


@golden
def functions_and_globals():
    g = fx.Graph()
    x = g.placeholder("x", type_expr=torch.Tensor)
    n = g.placeholder("n", type_expr=int, default_value=3)
    f = g.placeholder("f", type_expr=float, default_value=-1e-05)
    s = g.placeholder("s", default_value="mode's")
    t = g.placeholder("t", default_value=(1, None))
    r = g.call_function(torch.nn.functional.relu, (x,), {"inplace": False})
    g.call_function(torch.nn.functional.gelu, (r,), {"approximate": "tanh"})
    g.call_function(torch.Tensor.add, (x, 1))          # a method descriptor: a generated global
    g.call_function(torch.Tensor.split, (x, 2))        # defined in torch/_tensor.py: torch.Tensor.split
    g.call_function(torch.Tensor.__rsub__, (x, 2))
    g.call_function(torch._C._nn.linear, (x, x))
    g.call_function(torch._assert, (True, "message"))
    g.call_function(torch.ops.aten.add.Tensor, (x, x))
    g.call_function(math.sqrt, (n,))
    g.call_function(math.sqrt, (f,))
    g.call_function(math.floor, (f,))
    g.call_function(len, (x,))
    g.call_function(max, (n, 2))
    g.call_function(isinstance, (x, 3))
    g.call_function(getattr, (x, "shape"))
    g.call_function(getattr, (x, "shape", None))
    g.call_function(getattr, (x, "0"))
    g.call_function(getattr, (x, "not an identifier"))
    # A node whose name is taken by a global first: codegen renames the local.
    g.create_node("call_function", math.sqrt, (2,), name="math_sqrt")
    g.call_function(_my_helper, (x,))
    g.call_function(torch.fx._symbolic_trace._assert_is_none, (None, "m"))
    g.output(x)
    return as_module(g)


@golden
def globals_after_locals():
    # Locals named like a global that comes later push the global's name on ("math_sqrt_1"); wrapped
    # functions are listed once each, in order of first use.
    g = fx.Graph()
    x = g.placeholder("torch_Tensor_add")
    m = g.create_node("call_function", torch.neg, (x,), name="math_sqrt")
    a = g.call_function(torch.Tensor.add, (x, m))
    b = g.call_function(math.sqrt, (a,))
    c = g.call_function(_my_helper, (b,))
    d = g.call_function(math.sqrt, (c,))
    e = g.call_function(_my_helper, (d,))
    for n in (b, c, d, e):
        n.meta["is_wrapped"] = True
    g.output(e)
    return as_module(g)


@golden
def modules_and_attributes():
    g = fx.Graph()
    x = g.placeholder("x", type_expr=torch.Tensor)
    w = g.get_attr("layer1.0.conv1.weight")
    b = g.get_attr("bias")
    c = g.get_attr("blocks.3.weird-name.scale")
    h = g.call_module("layer1.0.conv1", (x,))
    h = g.call_module("stem", (h,), {"scale": 2.0})
    h = g.call_module("blocks.10", (h, w))
    h = g.call_method("add_", (h, b), {"alpha": 2})
    h = g.call_method("view", (h, -1))
    h = g.call_method("__getitem__", (h, 0))
    g.call_module("unused.0", (h,))  # no users: freed on its own line
    g.call_method("mul", (c, c))
    g.output([h, c], type_expr=list)
    return as_module(g)


@golden
def unused_and_placeholders():
    g = fx.Graph()
    a = g.placeholder("a")
    g.placeholder("b", type_expr=torch.Tensor)  # never used
    g.create_node("placeholder", "*args", name="args")
    g.create_node("placeholder", "**kwargs", name="kwargs")
    c = g.call_function(torch.relu, (a,))
    g.call_function(torch.sigmoid, (c,))
    g.call_function(torch.manual_seed, (0,))
    g.output(None, type_expr=torch.Tensor)
    return as_module(g)


@golden
def empty_graph():
    return as_module(fx.Graph())


@golden
def placeholders_only():
    g = fx.Graph()
    g.placeholder("x")
    g.placeholder("y", type_expr=torch.Tensor, default_value=None)
    return as_module(g)


@golden
def no_output():
    g = fx.Graph()
    x = g.placeholder("x")
    y = g.call_function(torch.neg, (x,))
    g.call_function(torch.exp, (y,))
    return as_module(g)


@golden
def numeric_target_column():
    # Every target looks like a number: tabulate parses the column as float, reformats and
    # right-aligns it (decimal alignment), header included.
    g = fx.Graph()
    g.get_attr("0")
    g.get_attr("12")
    g.get_attr("3.25")
    return as_module(g)


@golden
def integer_target_column():
    g = fx.Graph()
    g.get_attr("7")
    g.get_attr("128")
    return as_module(g)


@golden
def unicode_strings():
    g = fx.Graph()
    x = g.placeholder("x")
    g.call_function(torch.einsum, ("caf\u00e9 \u00fcber", x))
    g.call_function(torch.einsum, ("\u4e2d\u6587", x))
    g.output(x)
    return as_module(g)


@golden
def odd_targets():
    # Cells tabulate treats specially (a line break makes the whole table multiline; surrounding spaces
    # are stripped) and a string that torch's codegen mistakes for its own line-counter comment.
    g = fx.Graph()
    a = g.get_attr("a\nb")
    b = g.get_attr(" padded ")
    g.call_function(torch.einsum, ("# COUNTER: 7", a, b))
    g.call_function(torch.einsum, ("two\nlines", a))
    g.output((a, b))
    return as_module(g)


# ----------------------------------------------------------------------------------------------------
# Graphs made by the tracers


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(4)

    def forward(self, x):
        return torch.relu(self.bn(self.conv1(x)))


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = torch.nn.Sequential(Block(), torch.nn.ReLU())
        self.fc = torch.nn.Linear(4, 2)
        self.scale = torch.nn.Parameter(torch.ones(1))

    def forward(self, x, mask=None):
        h = self.layer1(x)
        h = h * self.layer1[0].conv1.weight.sum()
        n, c = h.shape[0], h.size(1)
        h = h.mean(dim=[2, 3], keepdim=False).view(n, c)
        h = torch.nn.functional.dropout(h, p=0.5, training=self.training)
        return self.fc(h)[:, 0:1] * self.scale, h.dtype


@golden
def symbolic_trace_net():
    return fx.symbolic_trace(Net().eval())


@golden
def symbolic_trace_resnet18():
    import torchvision
    return fx.symbolic_trace(torchvision.models.resnet18())


class StochasticDepthNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        from torchvision.ops import StochasticDepth
        self.sd = StochasticDepth(0.2, "row")
        self.seq = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU())

    def forward(self, x, y=2, *args, **kw):
        return self.sd(self.seq(x)) + x.shape[0] + args[0]


@golden
def symbolic_trace_wrapped():
    return fx.symbolic_trace(StochasticDepthNet())


@golden
def make_fx_aten():
    from torch.fx.experimental.proxy_tensor import make_fx

    def f(x, w):
        y = torch.nn.functional.conv2d(x, w, padding=1).relu()
        y = y.to(torch.float64).contiguous(memory_format=torch.channels_last)
        z = torch.full((2,), float("inf"), device="cpu")
        return y.sum(dim=[1], keepdim=True)[..., 1:], torch.nn.functional.layer_norm(y, [5]), z

    return make_fx(f)(torch.randn(1, 2, 5, 5), torch.randn(3, 2, 3, 3))


def dynamo_graphs(fn, *inputs):
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    torch._dynamo.reset()
    torch.compile(fn, backend=backend)(*inputs)
    return graphs


def toy_example_fn(a, b):
    x = a / (torch.abs(a) + 1)
    if b.sum() < 0:
        b = b * -1
    return x * b


@golden
def dynamo_toy_example():
    torch.manual_seed(0)
    a, b = torch.randn(10), torch.randn(10)
    b = -b.abs()  # take the branch so Dynamo makes two graphs
    return dynamo_graphs(toy_example_fn, a, b)


class DynamoNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 4)
        self.seq = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.GELU())

    def forward(self, x):
        h = torch.nn.functional.relu(self.fc(x), inplace=False)
        h = self.seq(h).view(-1, 2)[:, 0]
        return h.softmax(dim=-1), x.shape[0] * 2


@golden
def dynamo_module():
    return dynamo_graphs(DynamoNet().eval(), torch.randn(3, 8))


# Graphs whose CodeGen is torch's _PyTreeCodeGen (docs/format.md §2 `pytree`): the golden also holds the
# structure, as the exporter stores it.


class ArgsKwargsNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x, pair, *, scale, bias=None):
        h = self.fc(x) * scale + pair[0]
        return {"out": h + bias, "aux": (pair[1].relu(), [h.sum()])}


def export_module(model, args, kwargs=None):
    gm = torch.export.export(model, args, kwargs).module()
    # torch.export adds a call to a guard-checking submodule; the exporter drops it (python/fxwasm/save.py)
    for node in list(gm.graph.nodes):
        if node.op == "call_module" and node.target == "_guards_fn" and not node.users:
            gm.graph.erase_node(node)
    gm.recompile()
    return gm


@golden
def export_args_kwargs():
    x, p0, p1, s, b = (torch.randn(2, 4) for _ in range(5))
    return export_module(ArgsKwargsNet().eval(), (x, (p0, p1)), {"bias": b, "scale": s})


class SingleOut(torch.nn.Module):
    def forward(self, x, y):
        return torch.sin(x) + y


@golden
def export_single_output():
    return export_module(SingleOut(), (torch.randn(3), torch.randn(3)))


class NoInput(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("c", torch.ones(2))

    def forward(self):
        return [self.c * 2]


@golden
def export_no_inputs():
    return export_module(NoInput(), ())


def _concrete(x: torch.Tensor, flag, opts):
    return x * opts["k"] if flag else x


@golden
def symbolic_trace_concrete_args():
    # concrete_args gives symbolic_trace a _PyTreeCodeGen too: an input spec of plain args (not (args,
    # kwargs)), an output spec that is a leaf, and an annotated placeholder (its own line before the
    # flatten call).
    return fx.symbolic_trace(_concrete, concrete_args={"flag": True, "opts": {"k": fx.PH}})


def pytree_structure(graph):
    """The `pytree` field of docs/format.md §2 in this file's tagged encoding, or None."""
    import torch.utils._pytree as pytree
    info = getattr(graph._codegen, "pytree_info", None)
    if info is None:
        return None
    out = {"orig_args": list(info.orig_args)}
    if info.in_spec is not None:
        placeholders = [n for n in graph.nodes if n.op == "placeholder"]
        out["inputs"] = encode(pytree.tree_unflatten(placeholders, info.in_spec))
    if info.out_spec is not None:
        flat = list(graph.nodes)[-1].args[0]
        flat = list(flat) if isinstance(flat, (tuple, list)) else [flat]
        out["outputs"] = encode(pytree.tree_unflatten(flat, info.out_spec))
    return out


# ----------------------------------------------------------------------------------------------------


def write(name, gm):
    if isinstance(gm, fx.GraphModule):
        graph = gm.graph
        code = gm.code
        assert code == graph.python_code(root_module="self").src
    else:
        # A bare Graph: the same source GraphModule.code would hold (GraphModule itself refuses graphs
        # whose code does not compile, e.g. an empty one).
        graph = gm
        code = graph.python_code(root_module="self").src
    doc = {
        "name": name,
        "nodes": describe(graph),
        "tabular": tabular_text(graph),
        "code": code,
    }
    structure = pytree_structure(graph)
    if structure is not None:
        doc["pytree"] = structure
    with open(os.path.join(OUT_DIR, name + ".json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")


# Tables of plain strings that exercise tabulate's number parsing directly (the first `parsed` columns are
# strs tabulate may read as numbers; the rest stand for tuples/dicts, which it never parses).
TABULATE_CASES = [
    {"headers": ["a", "b"], "rows": [["1,000", "x"], ["2.5", "y"]]},
    {"headers": ["a", "b"], "rows": [["True", "x"], ["1", "y"]]},
    {"headers": ["a", "b"], "rows": [["True", "x"], ["False", "y"]]},
    {"headers": ["a", "b"], "rows": [["inf", "x"], ["-1e3", "y"], ["nan", "z"]]},
    {"headers": ["a", "b"], "rows": [["+inf", "x"], ["1e400", "y"]]},
    {"headers": ["a", "b"], "rows": [["1_000", "x"], [" 7 ", "y"], ["-3", "z"]]},
    {"headers": ["a", "b"], "rows": [["123456789", "x"], ["0.5", "y"]]},
    {"headers": ["a", "b"], "rows": [[".5", "x"], ["5.", "y"], ["1,234,567.25", "z"]]},
    {"headers": ["a", "b"], "rows": [["", "x"], ["", "y"]]},
    {"headers": ["a", "b"], "rows": [["", "x"], ["3", "y"]]},
    {"headers": ["long header", "b"], "rows": [["1", "12"], ["22", "3"]]},
    {"headers": ["a", "b"], "rows": [["x\ny", "1"], ["z", "2\r\n3\n4"]]},
    {"headers": ["a", "b"], "rows": [["  lead", "trail  "], ["mid dle", " "]]},
    {"headers": ["a", "b"], "rows": [["1e5", "x"], ["2E-3", "y"], ["1.50", "z"]]},
    {"headers": ["a", "b"], "rows": [["0x10", "x"], ["1,00", "y"]]},
]


def tabulate_cases():
    out = []
    for case in TABULATE_CASES:
        parsed = case.get("parsed", 1)

        class Opaque:  # stands for a tuple/dict cell: str() gives the text, tabulate never parses it
            def __init__(self, text):
                self.text = text

            def __str__(self):
                return self.text

            def __format__(self, spec):
                return self.text

        rows = [[c if i < parsed else Opaque(c) for i, c in enumerate(r)] for r in case["rows"]]
        out.append({"headers": case["headers"], "rows": case["rows"], "parsed": parsed,
                    "expected": tabulate(rows, headers=case["headers"])})
    return out


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    with open(os.path.join(os.path.dirname(OUT_DIR), "tabulate_cases.json"), "w", encoding="utf-8") as f:
        json.dump(tabulate_cases(), f, indent=1, ensure_ascii=False)
        f.write("\n")
    for old in os.listdir(OUT_DIR):
        if old.endswith(".json"):
            os.remove(os.path.join(OUT_DIR, old))
    count = 0
    for name, make in GOLDENS.items():
        result = make()
        if isinstance(result, list):
            for i, gm in enumerate(result):
                write(f"{name}_{i}", gm)
                count += 1
        else:
            write(name, result)
            count += 1
    print(f"wrote {count} goldens to {OUT_DIR}", file=sys.stderr)


if __name__ == "__main__":
    main()
