"""Every way a graph reaches fxwasm.save: Dynamo (fxwasm.dynamo_backend under a real torch.compile), an
ExportedProgram passed as is, a hand-built torch.fx.Graph and the `python -m fxwasm.export` command line.
Each file is compared with the GraphModule torch holds — node by node, and through the CLI's `table` and
`code` — and its reference run with torch's own.
"""
import pytest
import torch
import torch.nn as nn

import fxwasm
from corpus_graphs import drop_export_guards, model_and_inputs, models, print_tabular
from fxwasm import reader
from test_corpus import assert_same_graph, assert_same_value, canon
from test_tables import fxwasm_cli


def assert_matches(path, gm, tracer):
    """The file at `path` holds `gm`: same nodes, same table and code, a reference torch reproduces."""
    f = reader.read(path)
    assert f.program["producer"]["tracer"] == tracer
    assert_same_graph(f, gm)
    assert fxwasm_cli("table", str(path)) == print_tabular(gm)
    if f.pytree is None:  # (the C++ code generator does not print pytree specs yet: see test_tables)
        assert fxwasm_cli("code", str(path)) == gm.code + "\n"
    inputs = [reader.resolve(x, f) for x in f.reference["inputs"]]
    with torch.no_grad():
        want = torch.fx.Interpreter(gm).run(*[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs],
                                            enable_io_processing=False)
    assert_same_value(reader.resolve(f.reference["outputs"], f), want, "reference outputs", exact=True)
    return f


# ------------------------------------------------------------------------------------------------ dynamo
def compile_and_save(fn, inputs, out_dir):
    """Runs torch.compile(fn, backend=fxwasm.dynamo_backend(out_dir)); returns (output, saved paths,
    the GraphModules Dynamo handed the backend)."""
    saver = fxwasm.dynamo_backend(str(out_dir))
    seen = []

    def backend(gm, example_inputs):
        seen.append(gm)
        return saver(gm, example_inputs)

    torch._dynamo.reset()
    try:
        with torch.no_grad():
            out = torch.compile(fn, backend=backend)(*inputs)
    finally:
        torch._dynamo.reset()
    assert len(saver.saved) == len(seen) > 0
    return out, saver.saved, seen


def test_dynamo_backend_on_the_seed_toy_example(tmp_path):
    torch.manual_seed(0)
    a, b = torch.randn(10), torch.randn(10)
    out, saved, graphs = compile_and_save(models.toy_example, (a, b), tmp_path)
    x = a / (torch.abs(a) + 1)
    torch.testing.assert_close(out, x * (b * -1 if b.sum() < 0 else b))
    assert len(saved) == 2  # the graph break at `if b.sum() < 0` splits it in two
    for path, gm in zip(saved, graphs):
        assert_matches(path, gm, "dynamo")
    f = reader.read(saved[0])
    assert [n["target"] for n in f.nodes[2:5]] == ["torch.abs", "operator.add", "operator.truediv"]


@pytest.mark.parametrize("name", ["digits_cnn", "decoder_block"])
def test_dynamo_backend_on_corpus_models(tmp_path, name):
    model, inputs = model_and_inputs(name)
    out, saved, graphs = compile_and_save(model, inputs, tmp_path)
    with torch.no_grad():
        torch.testing.assert_close(out, model(*inputs))
    assert len(saved) == 1, "a graph break in a corpus model"
    f = assert_matches(saved[0], graphs[0], "dynamo")
    # Dynamo lifts the parameters to graph inputs: they come back as reference inputs, bit for bit
    params = dict(model.named_parameters())
    stored = [reader.resolve(v, f) for v in f.reference["inputs"]]
    assert sum(any(s is not None and torch.equal(s, p) for s in stored) for p in params.values()) == len(params)
    assert f.nodes[0]["type"] in ("torch.Tensor", "torch.nn.parameter.Parameter")


# ------------------------------------------------------------------------------------- ExportedProgram
class Exportable(nn.Module):
    """Parameters, a BatchNorm's buffers, a non-persistent buffer, a lifted tensor constant and a
    structured output: everything torch.export lifts."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.bn = nn.BatchNorm1d(3)
        self.register_buffer("scale", torch.tensor([2.0, 1.0, 0.5]), persistent=False)

    def forward(self, x, y):
        h = self.bn(self.fc(x)) * self.scale + torch.tensor([1.0, 2.0, 3.0])
        return {"h": h, "extra": (h.sum() + y, 7)}


def test_exported_program_saved_as_is(tmp_path):
    torch.manual_seed(0)
    model = Exportable().eval()
    model.bn.running_mean.uniform_()
    inputs = (torch.randn(5, 4), torch.randn(()))
    ep = torch.export.export(model, inputs)
    path = tmp_path / "ep.fxw"
    fxwasm.save(ep, path, example_inputs=inputs)
    gm = drop_export_guards(ep.module())
    f = assert_matches(path, gm, "export")
    # the lifted parameters, buffers and constants, by state_dict name and with their kind
    sig = ep.graph_signature
    want = {**{n: "parameter" for n in sig.parameters}, **{n: "buffer" for n in sig.buffers},
            **{n: "constant" for n in sig.lifted_tensor_constants}}
    assert {k: v for k, v in f.kinds.items() if v != "reference"} == want
    for name in want:
        value = ep.constants[name] if name in ep.constants else ep.state_dict[name]
        assert torch.equal(f.tensors[name].to_torch(), value), name
    assert torch.equal(f.tensors["bn.running_mean"].to_torch(), model.bn.running_mean)
    # the output structure torch.export's code rebuilds around the flat graph
    outputs = f.pytree["outputs"]
    assert list(outputs) == ["h", "extra"] and outputs["extra"][1] == 7
    assert f.pytree["orig_args"] == ["x", "y"]
    flat = reader.resolve(f.reference["outputs"], f)
    torch.testing.assert_close(list(flat[:2]), [model(*inputs)["h"], model(*inputs)["extra"][0]])
    assert flat[2] == 7


# ---------------------------------------------------------------------------------- hand-built Graph
class Holder(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3, bias=False)
        self.w = nn.Parameter(torch.full((3,), 0.5))
        self.sub = nn.Module()
        self.sub.register_buffer("offset", torch.arange(3.0))


def test_hand_built_graph(tmp_path):
    torch.manual_seed(0)
    root = Holder()
    g = torch.fx.Graph()
    x = g.placeholder("x", type_expr=torch.Tensor)
    n = g.placeholder("n", type_expr=int)
    w = g.get_attr("w")
    off = g.get_attr("sub.offset")
    y = g.call_module("lin", (x,))
    y = g.call_function(torch.add, (y, w), {"alpha": 2})
    y = g.call_method("mul_", (y, n))  # in-place
    z = g.call_function(torch.ops.aten.relu_.default, (y,))  # in-place aten overload
    s = g.call_method("size", (z, -1))
    g.output({"out": (g.call_function(torch.sub, (z, off)), s), "n": n})
    gm = torch.fx.GraphModule(root, g)
    path = tmp_path / "hand.fxw"
    fxwasm.save(gm, path, example_inputs=(torch.randn(2, 3), 3))
    f = assert_matches(path, gm, "graph")
    assert f.kinds == {"lin.weight": "parameter", "w": "parameter", "sub.offset": "buffer",
                       "__ref__.in.0": "reference", "__ref__.out.out.0": "reference"}
    assert f.reference["inputs"][1] == 3  # a Python int input
    out = reader.resolve(f.reference["outputs"], f)
    assert out["n"] == 3 and out["out"][1] == 3  # Python ints in the output
    lin = f.program["modules"]["lin"]
    assert lin["type"] == "torch.nn.modules.linear.Linear"
    assert lin["hparams"]["in_features"] == 3 and lin["hparams"]["bias"] is False
    assert f.program["modules"]["sub"]["type"] == "torch.nn.modules.module.Module"
    assert [n["target"] for n in f.nodes if n["op"] == "call_function"] == \
        ["torch.add", "aten.relu_.default", "torch.sub"]
    assert f.nodes[0]["meta"]["shape"] == torch.Size([2, 3]) and f.nodes[1]["type"] == "int"
    assert canon(f.nodes[5]["kwargs"]) == canon({"alpha": 2})


# ---------------------------------------------------------------------------------------- command line
def test_export_cli_traces_a_model_symbolic_cannot_with_aten(tmp_path, capsys):
    """In-process (test_format.test_cli_exit_codes runs `python -m fxwasm.export` itself)."""
    from fxwasm.export import main
    (tmp_path / "branchy.py").write_text(
        "import torch, torch.nn as nn\n"
        "class Branchy(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc = nn.Linear(3, 3)\n"
        "    def forward(self, x):\n"
        "        y = self.fc(x)\n"
        "        return y if y.shape[0] > 1 else -y  # control flow on a shape: aten/export specialise it\n"
        "def branchy(): return Branchy()\n")
    spec = f"{tmp_path}/branchy.py:branchy"
    assert main([spec, "--out", str(tmp_path / "s.fxw"), "--input-shape", "2,3"]) == 2
    err = capsys.readouterr().err
    assert not (tmp_path / "s.fxw").exists()
    assert err.startswith("fxwasm: error: torch.fx.symbolic_trace failed at ")
    assert "branchy.py:8 in forward" in err and "--tracer aten" in err and "Traceback" not in err
    for tracer in ("aten", "export"):
        out = tmp_path / f"{tracer}.fxw"
        assert main([spec, "--out", str(out), "--tracer", tracer, "--input-shape", "2,3", "--seed", "1"]) == 0
        assert capsys.readouterr().out.strip() == f"wrote {out}"
        f = reader.read(out)
        assert f.program["producer"]["tracer"] == tracer
        assert f.program["modules"][""]["type"] == "branchy.Branchy"
        assert f.kinds["fc.weight" if tracer == "export" else "_param_constant0"] == "parameter"
        torch.manual_seed(1)
        nn.Linear(3, 3)  # the model is built first, then the inputs drawn
        assert torch.equal(reader.resolve(f.reference["inputs"][0], f), torch.randn(2, 3))
