"""The Python side of the .fxw format (docs/format.md): exporter, Dynamo backend, CLI and pure-Python reader."""
import json
import math
import os
import struct
import subprocess
import sys

import pytest
import torch
import torch.nn as nn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

import fxwasm  # noqa: E402
from fxwasm import reader  # noqa: E402
from fxwasm.errors import ExportError  # noqa: E402

TOY = os.path.join(ROOT, "examples", "seed", "toy_example.fxw")


def to_refs(v):
    """torch's args with Nodes as reader.NodeRef, for comparison with what the reader decodes."""
    return torch.fx.node.map_aggregate(v, lambda x: reader.NodeRef(x.name) if isinstance(x, torch.fx.Node) else x)


def same(a, b):
    """Equality that treats nan == nan and keeps int/float/bool and tuple/list distinct
    (subclasses such as FX's immutable_list, torch.Size count as their base)."""
    def category(v):
        for t in (bool, int, float, str, torch.Size, tuple, list, dict, slice):
            if isinstance(v, t):
                return t
        return type(v)
    if category(a) is not category(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, slice):
        return same((a.start, a.stop, a.step), (b.start, b.stop, b.step))
    return a == b


def minimal_safetensors(path):
    """An independent reader: struct + json only."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    return n, header, data[8 + n:]


def mlp():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 3)).eval()


# ----------------------------------------------------------------------------------------- the example
def _dynamo_graph_of_toy():
    sys.path.insert(0, os.path.join(ROOT, "examples", "seed"))
    import make_toy_example
    graphs = []

    def capture(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    torch.manual_seed(0)
    torch._dynamo.reset()
    torch.compile(make_toy_example.toy_example, backend=capture)(torch.randn(10), torch.randn(10))
    torch._dynamo.reset()
    return make_toy_example, graphs[0]


def test_toy_example_matches_torch_graph_node_by_node(tmp_path):
    make_toy_example, gm = _dynamo_graph_of_toy()
    fresh = make_toy_example.main(str(tmp_path / "toy.fxw"))
    for path in (fresh, TOY):  # freshly exported and the committed file
        f = reader.read(path)
        assert len(f.nodes) == len(gm.graph.nodes)
        for mine, theirs in zip(f.nodes, gm.graph.nodes):
            assert mine["op"] == theirs.op
            assert mine["name"] == theirs.name
            target = theirs.target if isinstance(theirs.target, str) else \
                torch.fx.node._get_qualified_name(theirs.target).replace("_operator.", "operator.")
            assert mine["target"] == target
            assert same(mine["args"], to_refs(theirs.args)), theirs.name
            assert same(mine["kwargs"], to_refs(dict(theirs.kwargs))), theirs.name
        assert [(n["op"], n["name"], n["target"]) for n in f.nodes] == [
            ("placeholder", "l_a_", "L_a_"), ("placeholder", "l_b_", "L_b_"),
            ("call_function", "abs_1", "torch.abs"), ("call_function", "add", "operator.add"),
            ("call_function", "x", "operator.truediv"), ("call_method", "sum_1", "sum"),
            ("call_function", "lt", "operator.lt"), ("output", "output", "output")]
        assert f.nodes[0]["type"] == "torch.Tensor" and f.nodes[1]["type"] == "torch.Tensor"
        assert f.nodes[3]["args"] == (reader.NodeRef("abs_1"), 1)
        assert f.nodes[-1]["args"] == ((reader.NodeRef("lt"), reader.NodeRef("x")),)
        assert f.nodes[2]["meta"]["shape"] == torch.Size([10])
        assert f.program["producer"] == {"torch": "2.15.0", "exporter": fxwasm.__version__, "tracer": "dynamo"}
        # the reference is what the graph computes on the stored inputs
        a, b = [reader.resolve(x, f) for x in f.reference["inputs"]]
        lt, x = reader.resolve(f.reference["outputs"], f)
        assert torch.equal(x, a / (torch.abs(a) + 1))
        assert lt.dtype == torch.bool and lt.dim() == 0 and bool(lt) == bool(b.sum() < 0)
        assert torch.equal(a, (torch.manual_seed(0), torch.randn(10))[1])


# ------------------------------------------------------------------------------------------- containers
def test_safetensors_reads_every_weight(tmp_path):
    from safetensors import safe_open
    model = mlp()
    path = tmp_path / "mlp.fxw"
    fxwasm.save(model, path, example_inputs=(torch.randn(4, 6),))
    state = model.state_dict()
    with safe_open(str(path), framework="pt") as f:
        names = set(f.keys())
        for name, value in state.items():
            assert torch.equal(f.get_tensor(name), value), name
        meta = f.metadata()
    assert set(state) <= names
    assert meta["format"] == "fxwasm" and meta["format_version"] == "1"
    assert json.loads(meta["program"])["tensors"]["0.weight"] == "parameter"


def test_minimal_reader_lists_aligned_tensors(tmp_path):
    model = mlp()
    path = tmp_path / "mlp.fxw"
    fxwasm.save(model, path, example_inputs=(torch.randn(3, 6),))
    n, header, data = minimal_safetensors(path)
    assert (8 + n) % 64 == 0
    meta = header.pop("__metadata__")
    program = json.loads(meta["program"])
    real = {k: v for k, v in header.items() if not k.startswith("__pad__.")}
    assert set(real) == set(program["tensors"])
    assert set(model.state_dict()) | {"__ref__.in.0", "__ref__.out"} == set(real)
    spans = sorted(tuple(v["data_offsets"]) for v in header.values())
    assert spans[0][0] == 0 and spans[-1][1] == len(data)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))  # gap-free, as safetensors requires
    for name, info in real.items():
        begin, end = info["data_offsets"]
        assert begin % 64 == 0, name
        if name in model.state_dict():
            t = model.state_dict()[name]
            assert info["dtype"] == "F32" and info["shape"] == list(t.shape)
            assert data[begin:end] == t.numpy().tobytes()


# ------------------------------------------------------------------------------------------------ values
def helper_fn(x, *args, **kwargs):  # a module-level function: importable, so exportable
    return x


def test_args_of_every_kind_round_trip(tmp_path):
    g = torch.fx.Graph()
    x = g.placeholder("x", type_expr=torch.Tensor)
    args = (x, None, True, False, 0, -7, 2**62, 1.0, -0.5, 1e-30, float("inf"), float("-inf"), float("nan"), "s'q\"",
            [1, 2.0, [x]], (), (x, (1,)), slice(None, 3, None), slice(x, None, -1), Ellipsis, torch.float16,
            torch.bool, torch.device("cpu"), torch.channels_last, torch.strided, torch.Size([2, 3]), {"k": (1,)})
    kwargs = {"dtype": torch.int64, "z": {"b": 1, "a": [None]}, "sl": (slice(1, 2), Ellipsis)}
    y = g.call_function(helper_fn, args, kwargs)
    m = g.call_method("view", (y, -1))
    g.output((m, {"y": y}))
    gm = torch.fx.GraphModule(nn.Module(), g)
    path = tmp_path / "args.fxw"
    fxwasm.save(gm, path, allow_unsupported=True)  # helper_fn is no op of the runtime: a format-only file
    f = reader.read(path)
    node = f.nodes[1]
    assert node["target"] == "test_format.helper_fn" or node["target"].endswith(".helper_fn")
    assert same(node["args"], to_refs(args))
    assert same(node["kwargs"], to_refs(kwargs))
    assert f.nodes[0]["type"] == "torch.Tensor"
    assert f.nodes[-1]["args"] == ((reader.NodeRef("view"), {"y": reader.NodeRef("helper_fn")}),)
    raw = f.program["nodes"][1]["args"]
    assert raw[7] == 1.0 and isinstance(raw[7], float) and raw[4] == 0 and isinstance(raw[4], int)
    assert raw[12] == {"$float": "nan"} and raw[15] == {"$tuple": []} and raw[19] == {"$ellipsis": None}
    assert raw[20] == {"$dtype": "float16"}
    assert raw[25] == {"$tuple": [2, 3]}  # FX itself turns a torch.Size argument into a tuple
    assert f.program["tensors"] == {} and f.program["producer"]["tracer"] == "graph"


def test_encoding_floats_keeps_them_floats():
    from fxwasm.values import encode_value
    assert json.dumps(encode_value([1.0, 1, 1e-5, 3e20])) == "[1.0, 1, 1e-05, 3e+20]"
    assert encode_value(torch.Size([2, 3])) == {"$size": [2, 3]}
    assert encode_value(torch.contiguous_format) == {"$memory_format": "contiguous_format"}


# ----------------------------------------------------------------------------------------------- errors
def test_non_exportable_target_names_the_node():
    def local_fn(x):  # defined inside a function: no importable name
        return x + 1

    g = torch.fx.Graph()
    x = g.placeholder("x")
    y = g.call_function(local_fn, (x,))
    g.output(y)
    gm = torch.fx.GraphModule(nn.Module(), g)
    with pytest.raises(ExportError) as e:
        fxwasm.dumps(gm)
    assert e.value.node == "local_fn"
    assert "node 'local_fn'" in str(e.value) and "importable" in str(e.value)

    g = torch.fx.Graph()
    x = g.placeholder("x")
    g.output(g.call_function(lambda t: t, (x,)))
    with pytest.raises(ExportError, match="node '"):
        fxwasm.dumps(torch.fx.GraphModule(nn.Module(), g))


def test_unencodable_argument_names_the_node():
    g = torch.fx.Graph()
    x = g.placeholder("x")
    g.output(g.call_function(torch.add, (x, 1j)))
    with pytest.raises(ExportError, match="node 'add': args: cannot encode a value of type builtins.complex"):
        fxwasm.dumps(torch.fx.GraphModule(nn.Module(), g))


def test_cli_exit_codes(tmp_path):
    (tmp_path / "models.py").write_text(
        "import torch.nn as nn\n"
        "class Branchy(nn.Module):\n"
        "    def forward(self, x):\n"
        "        return x if x.sum() > 0 else -x\n"
        "def branchy(): return Branchy()\n"
        "def small(): return nn.Sequential(nn.Linear(4, 2), nn.ReLU())\n")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    run = lambda *a: subprocess.run([sys.executable, "-m", "fxwasm.export", *a], capture_output=True, text=True,
                                    env=env, timeout=300)
    out = tmp_path / "small.fxw"
    ok = run(f"{tmp_path}/models.py:small", "--out", str(out), "--input-shape", "2,4", "--seed", "3")
    assert ok.returncode == 0, ok.stderr
    f = reader.read(out)
    assert f.program["producer"]["tracer"] == "symbolic"
    x = reader.resolve(f.reference["inputs"][0], f)
    torch.manual_seed(3)
    nn.Sequential(nn.Linear(4, 2), nn.ReLU())  # the model is built first, then the inputs drawn
    assert torch.equal(x, torch.randn(2, 4))
    bad = run(f"{tmp_path}/models.py:branchy", "--out", str(tmp_path / "b.fxw"), "--input-shape", "3")
    assert bad.returncode == 2
    assert bad.stderr.startswith("fxwasm: error:") and "--tracer aten" in bad.stderr
    assert "Traceback" not in bad.stderr
    missing = run("no_such_module_xyz:f", "--out", str(tmp_path / "c.fxw"))
    assert missing.returncode == 2 and "fxwasm: error:" in missing.stderr


# -------------------------------------------------------------------------------------- tracers, modules
class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, stride=2, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4, 2)
        self.register_buffer("scale", torch.tensor(0.5))

    def forward(self, x):
        x = torch.relu(self.bn(self.conv(x)))
        x = x.mean(dim=(2, 3)) * self.scale
        return self.fc(x), x.shape[0]


@pytest.mark.parametrize("tracer", ["symbolic", "aten", "export"])
def test_tracers_store_a_matching_reference(tmp_path, tracer):
    torch.manual_seed(0)
    model = ConvNet().eval()
    x = torch.randn(2, 3, 8, 8)
    path = tmp_path / f"{tracer}.fxw"
    fxwasm.save(model, path, example_inputs=(x,), tracer=tracer)
    f = reader.read(path)
    assert f.program["producer"]["tracer"] == tracer
    assert f.program["modules"][""]["type"] == "test_format.ConvNet"
    inputs = [reader.resolve(v, f) for v in f.reference["inputs"]]
    assert torch.equal(inputs[0], x)
    out = reader.resolve(f.reference["outputs"], f)
    flat = [o for o in torch.utils._pytree.tree_leaves(out) if isinstance(o, torch.Tensor)]
    torch.testing.assert_close(flat[0], model(x)[0])
    kinds = f.kinds
    for name in model.state_dict():
        if tracer != "aten":
            assert name in kinds, name
    assert all(k in ("parameter", "buffer", "constant", "reference") for k in kinds.values())
    for node in f.nodes:
        if node["op"] == "get_attr":
            assert node["target"] in f.tensors or node["target"] in f.program["modules"]
        if node["op"] == "call_function" and tracer != "symbolic":
            assert node["target"].startswith(("aten.", "operator.")), node["target"]


def test_module_tree_hyperparameters_are_generic(tmp_path):
    torch.manual_seed(0)
    path = tmp_path / "conv.fxw"
    fxwasm.save(ConvNet().eval(), path)
    mods = reader.read(path).program["modules"]
    conv = mods["conv"]
    assert conv["type"] == "torch.nn.modules.conv.Conv2d"
    assert conv["hparams"]["in_channels"] == 3 and conv["hparams"]["out_channels"] == 4
    assert conv["hparams"]["kernel_size"] == {"$tuple": [3, 3]}
    assert conv["hparams"]["stride"] == {"$tuple": [2, 2]}
    assert conv["hparams"]["bias"] is False and conv["hparams"]["padding_mode"] == "zeros"
    assert mods["bn"]["hparams"]["eps"] == 1e-05 and mods["bn"]["hparams"]["momentum"] == 0.1
    assert mods["fc"]["hparams"]["bias"] is True and mods["fc"]["hparams"]["in_features"] == 4
    assert list(mods) == ["", "conv", "bn", "fc"]


def test_container_modules_keep_their_class(tmp_path):
    """A tracer fills the path to the leaf modules it calls with plain nn.Module objects (symbolic_trace's
    resnet `layer1.0`, torch.export's holders of weights): the file names the model's own classes."""
    import torchvision
    torch.manual_seed(0)
    path = tmp_path / "resnet18.fxw"
    fxwasm.save(torchvision.models.resnet18(weights=None).eval(), path, example_inputs=(torch.randn(1, 3, 32, 32),),
                reference=False)
    mods = reader.read(path).program["modules"]
    assert mods[""]["type"] == "torchvision.models.resnet.ResNet"
    assert mods["layer1"]["type"] == "torch.nn.modules.container.Sequential"
    assert mods["layer1.0"]["type"] == "torchvision.models.resnet.BasicBlock"
    assert mods["layer1.0"]["hparams"]["stride"] == 1
    assert mods["layer2.0.downsample"]["type"] == "torch.nn.modules.container.Sequential"
    assert mods["layer1.0.conv1"]["hparams"]["kernel_size"] == {"$tuple": [3, 3]}
    generic = [name for name, m in mods.items() if m["type"] == "torch.nn.modules.module.Module"]
    assert generic == [], f"modules stored as plain nn.Module: {generic}"

    path = tmp_path / "convnet_export.fxw"
    fxwasm.save(ConvNet().eval(), path, example_inputs=(torch.randn(2, 3, 8, 8),), tracer="export")
    mods = reader.read(path).program["modules"]
    assert mods["conv"]["type"] == "torch.nn.modules.conv.Conv2d" and mods["conv"]["hparams"]["out_channels"] == 4
    assert mods["bn"]["type"] == "torch.nn.modules.batchnorm.BatchNorm2d"


def test_files_with_plain_module_containers_still_load(tmp_path):
    """Files written before containers kept their class (every container a torch.nn.modules.module.Module)
    read back in Python and load, run and check in the JS runtime."""
    import shutil
    from fxwasm.container import build
    torch.manual_seed(0)
    new = tmp_path / "new.fxw"
    fxwasm.save(nn.Sequential(nn.Sequential(nn.Linear(4, 8), nn.ReLU()), nn.Linear(8, 2)).eval(), new,
                example_inputs=(torch.randn(3, 4),))
    f = reader.read(new)
    program = json.loads(f.metadata["program"])
    assert program["modules"]["0"]["type"] == "torch.nn.modules.container.Sequential"
    program["modules"]["0"] = {"type": "torch.nn.modules.module.Module", "hparams": {"training": True}}
    old = tmp_path / "old.fxw"
    metadata = dict(f.metadata, program=json.dumps(program, separators=(",", ":")))
    old.write_bytes(build(metadata, [(name, t.to_torch()) for name, t in f.tensors.items()]))
    assert reader.read(old).program["modules"]["0"]["type"] == "torch.nn.modules.module.Module"
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the JS half of this check needs it")
    proc = subprocess.run([node, os.path.join(ROOT, "web", "bin", "fxwasm.js"), "check", str(old)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([node, os.path.join(ROOT, "web", "bin", "fxwasm.js"), "info", "--json", str(old)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["modules"]["0"]["type"] == "torch.nn.modules.module.Module"


def test_function_attributes_are_recorded_by_name(tmp_path):
    # TransformerDecoderLayer keeps its activation as a function (F.relu / F.gelu): the runtime needs its name.
    model = nn.Sequential(nn.TransformerDecoderLayer(8, 2, 12, activation="gelu"))
    mods = fxwasm.modules.module_tree(model)
    assert mods["0"]["hparams"]["activation"] == "torch._C._nn.gelu"
    mods = fxwasm.modules.module_tree(nn.Sequential(nn.TransformerDecoderLayer(8, 2, 12)))
    assert mods["0"]["hparams"]["activation"] == "torch.nn.functional.relu"


def test_symbolic_trace_constants_and_shared_names(tmp_path):
    class WithConstant(nn.Module):
        def forward(self, x):
            return x + torch.tensor([1.0, 2.0])

    path = tmp_path / "c.fxw"
    fxwasm.save(WithConstant(), path, example_inputs=(torch.ones(2),))
    f = reader.read(path)
    assert f.kinds["_tensor_constant0"] == "constant"
    assert torch.equal(f.tensors["_tensor_constant0"].to_torch(), torch.tensor([1.0, 2.0]))
    assert torch.equal(reader.resolve(f.reference["outputs"], f), torch.tensor([2.0, 3.0]))


# ------------------------------------------------------------------------------------------------ dynamo
def test_dynamo_backend_saves_each_graph(tmp_path):
    torch.manual_seed(0)
    model = mlp()
    backend = fxwasm.dynamo_backend(str(tmp_path / "graphs"))
    torch._dynamo.reset()
    compiled = torch.compile(model, backend=backend)
    x = torch.randn(5, 6)
    with torch.no_grad():
        got = compiled(x)
    torch._dynamo.reset()
    torch.testing.assert_close(got, model(x))
    assert backend.saved and os.path.basename(backend.saved[0]) == "graph_0.fxw"
    f = reader.read(backend.saved[0])
    assert f.program["producer"]["tracer"] == "dynamo"
    assert len(f.reference["inputs"]) == sum(n["op"] == "placeholder" for n in f.nodes)
    inputs = [reader.resolve(v, f) for v in f.reference["inputs"]]
    assert any(torch.equal(i, x) for i in inputs if isinstance(i, torch.Tensor) and i.shape == x.shape)
    out = reader.resolve(f.reference["outputs"], f)
    flat = [o for o in torch.utils._pytree.tree_leaves(out) if isinstance(o, torch.Tensor)]
    torch.testing.assert_close(flat[0], model(x))


def test_reader_rejects_forward_references(tmp_path):
    data = bytearray(fxwasm.dumps(mlp(), (torch.randn(1, 6),)))
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    program = json.loads(header["__metadata__"]["program"])
    program["nodes"][1]["args"] = [{"$node": "output"}]
    header["__metadata__"]["program"] = json.dumps(program)
    text = json.dumps(header).encode()
    with pytest.raises(reader.FormatError, match="unknown node 'output'"):
        reader.read(struct.pack("<Q", len(text)) + text + bytes(data[8 + n:]))


def test_dynamo_backend_with_dynamic_shapes_stores_concrete_sizes(tmp_path):
    def f(x):
        return torch.relu(x).reshape(x.shape[0], -1) * 2

    backend = fxwasm.dynamo_backend(str(tmp_path))
    torch._dynamo.reset()
    x = torch.randn(3, 4)
    out = torch.compile(f, backend=backend, dynamic=True)(x)
    torch._dynamo.reset()
    f_ = reader.read(backend.saved[0])
    kinds = [n["type"] for n in f_.nodes if n["op"] == "placeholder"]
    assert "torch.SymInt" in kinds
    inputs = f_.reference["inputs"]
    assert [v for v, k in zip(inputs, kinds) if k == "torch.SymInt"] == [3, 4]
    (stored,) = reader.resolve(f_.reference["outputs"], f_)
    assert torch.equal(stored, out)


def test_a_graph_the_runtime_cannot_run_is_refused_at_export_naming_what_is_missing(tmp_path):
    g = torch.fx.Graph()
    x = g.placeholder("x")
    y = g.call_function(helper_fn, (x,))
    z = g.call_method("no_such_method", (y,))
    g.output(g.call_function(torch.relu, (z,)))
    gm = torch.fx.GraphModule(nn.Module(), g)
    with pytest.raises(fxwasm.ExportError) as e:
        fxwasm.save(gm, tmp_path / "x.fxw")
    assert str(e.value) == ("the fxwasm runtime cannot run this graph: unsupported test_format.helper_fn (nodes: "
                            "helper_fn); method no_such_method (nodes: no_such_method) (allow_unsupported=True "
                            "saves it anyway, for inspection)")
    assert not (tmp_path / "x.fxw").exists()
    fxwasm.save(gm, tmp_path / "x.fxw", allow_unsupported=True)
    assert (tmp_path / "x.fxw").exists()


def test_export_decomposes_what_the_runtime_lacks_and_keeps_what_it_runs_whole():
    class M(nn.Module):
        def forward(self, x, mask):
            # aten.__and__ (no runtime op) decomposes to bitwise_and; layer_norm and sdpa stay whole
            keep = (mask > 0) & (x.sum(-1, keepdim=True) > -100)
            q = torch.nn.functional.layer_norm(x, (8,))
            att = torch.nn.functional.scaled_dot_product_attention(q, q, q, attn_mask=keep.unsqueeze(1))
            return att
    from fxwasm.save import trace
    x, mask = torch.randn(2, 4, 8), torch.ones(2, 4, 1)
    gm, _, _ = trace(M().eval(), (x,), "export", {"mask": mask})
    targets = {str(n.target) for n in gm.graph.nodes if n.op == "call_function"}
    assert "aten.__and__.Tensor" not in targets and "aten.bitwise_and.Tensor" in targets
    assert {"aten.layer_norm.default", "aten.scaled_dot_product_attention.default"} <= targets


def test_tensors_of_one_element_with_any_stride_are_stored(tmp_path):
    """A [1] view of stride 4 counts as contiguous in torch, and .view(torch.uint8) refused it (found by
    OpInfo's int64 diagonal samples): the writer packs every tensor with canonical strides."""
    class Diagonal(nn.Module):
        def forward(self, x):
            return torch.diagonal(x, 1)

    x = torch.arange(6).reshape(3, 2)
    assert torch.diagonal(x, 1).stride() == (3,)
    path = str(tmp_path / "diag.fxw")
    fxwasm.save(Diagonal(), path, (x,))
    f = reader.read(path)
    assert torch.equal(reader.resolve(f.reference["outputs"], f), torch.tensor([1]))
