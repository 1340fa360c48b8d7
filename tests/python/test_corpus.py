"""The model corpus (tests/corpus): every file reads back as torch's own graph, with a reference run that
torch reproduces.

The corpus is built once into .cache/corpus (or $FXWASM_CORPUS_DIR) by tests/corpus/build_corpus.py, which
skips files newer than itself, models.py and the exporter — so only the first run pays for resnet18 and
friends. The committed small files under examples/ are checked the same way, read-only.
"""
import importlib.util
import math
import os
import subprocess
import sys

import pytest
import torch
from torch.fx.node import _get_qualified_name

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

from fxwasm import reader  # noqa: E402

BUILD_SCRIPT = os.path.join(ROOT, "tests", "corpus", "build_corpus.py")
CACHE_DIR = os.environ.get("FXWASM_CORPUS_DIR", os.path.join(ROOT, ".cache", "corpus"))


def _load_build_module():
    spec = importlib.util.spec_from_file_location("build_corpus", BUILD_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_corpus = _load_build_module()
models = build_corpus.import_models()
ENTRIES = build_corpus.ENTRIES


@pytest.fixture(scope="session")
def corpus_dir():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.join(ROOT, "python")] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    proc = subprocess.run([sys.executable, BUILD_SCRIPT, "--out", CACHE_DIR], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    print(proc.stdout)
    assert proc.returncode == 0, f"build_corpus.py failed:\n{proc.stdout}\n{proc.stderr}"
    return CACHE_DIR


# ------------------------------------------------------------------------------------ torch's own graphs
_models = {}
_graphs = {}


def model_and_inputs(name):
    if name not in _models:  # built once per session (the digits CNN trains); all together < ~400 MB
        _models[name] = models.BUILDERS[name]()
    return _models[name]


def torch_graph(entry):
    """The GraphModule torch makes of the entry's model with the entry's tracer, as the exporter traces."""
    key = (entry.model, entry.tracer)
    if key in _graphs:
        return _graphs[key]
    model, inputs = model_and_inputs(entry.model)
    if entry.tracer in ("symbolic", "dynamo"):
        gm = model if entry.tracer == "dynamo" else torch.fx.symbolic_trace(model)
    elif entry.tracer == "aten":
        from torch.fx.experimental.proxy_tensor import make_fx
        gm = make_fx(model)(*inputs)
    elif entry.tracer == "export":
        gm = torch.export.export(model, tuple(inputs)).module()
        # the guard-checking submodule torch.export adds is not part of the computation (nor of the file)
        for node in list(gm.graph.nodes):
            if node.op == "call_module" and node.target == "_guards_fn" and not node.users:
                gm.graph.erase_node(node)
        gm.recompile()
    else:
        raise AssertionError(entry.tracer)
    _graphs[key] = gm
    return gm


# ------------------------------------------------------------------------------------------ comparison
def canonical_target(node):
    """docs/format.md §2, written independently of the exporter."""
    if node.op != "call_function":
        return node.target
    if isinstance(node.target, torch._ops.OpOverload):
        return str(node.target)
    name = _get_qualified_name(node.target)
    return "operator." + name[len("_operator."):] if name.startswith("_operator.") else name


def canon(v):
    """A value with its Python types made explicit, so (1,) != [1], 1 != 1.0 != True, nan == nan."""
    if isinstance(v, (torch.fx.Node, reader.NodeRef)):
        return ("node", v.name)
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, int):
        return ("int", v)
    if isinstance(v, float):
        return ("float", "nan" if math.isnan(v) else v)
    if isinstance(v, torch.Size):
        return ("size", [canon(x) for x in v])
    if isinstance(v, tuple):
        return ("tuple", [canon(x) for x in v])
    if isinstance(v, list):
        return ("list", [canon(x) for x in v])
    if isinstance(v, dict):
        return ("dict", [(k, canon(x)) for k, x in v.items()])
    if isinstance(v, slice):
        return ("slice", canon(v.start), canon(v.stop), canon(v.step))
    if v is Ellipsis:
        return ("ellipsis",)
    if isinstance(v, (torch.dtype, torch.device, torch.memory_format, torch.layout)):
        return (type(v).__name__, str(v))
    raise AssertionError(f"unexpected value {v!r} of type {type(v)}")


def assert_same_graph(f, gm):
    mine = [(n["op"], n["name"], n["target"], canon(n["args"]), canon(n["kwargs"])) for n in f.nodes]
    theirs = [(n.op, n.name, canonical_target(n), canon(tuple(n.args)), canon(dict(n.kwargs)))
              for n in gm.graph.nodes]
    assert [m[1] for m in mine] == [t[1] for t in theirs], "node names/order differ"
    for m, t in zip(mine, theirs):
        assert m == t, f"node {t[1]}: file has\n  {m}\ntorch has\n  {t}"


def assert_same_value(got, want, where, exact):
    if isinstance(want, torch.Tensor):
        assert isinstance(got, torch.Tensor), f"{where}: expected a tensor, file has {type(got).__name__}"
        assert got.dtype == want.dtype and got.shape == want.shape, \
            f"{where}: file has {got.dtype}{list(got.shape)}, torch {want.dtype}{list(want.shape)}"
        if exact:
            assert torch.equal(got, want.detach()), f"{where}: values differ"
        else:
            torch.testing.assert_close(got, want.detach(), rtol=1e-5, atol=1e-5, msg=where)
    elif isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want), f"{where}: {got!r} vs {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same_value(g, w, f"{where}[{i}]", exact)
    elif isinstance(want, dict):
        assert isinstance(got, dict) and list(got) == list(want), f"{where}: keys differ"
        for k in want:
            assert_same_value(got[k], want[k], f"{where}[{k!r}]", exact)
    else:
        assert canon(got) == canon(want), f"{where}: {got!r} vs {want!r}"


def check_file(path, entry):
    f = reader.read(path)
    assert f.program["producer"]["tracer"] == entry.tracer
    gm = torch_graph(entry)
    assert_same_graph(f, gm)

    assert f.reference is not None, "no reference run stored"
    inputs = [reader.resolve(x, f) for x in f.reference["inputs"]]
    stored = reader.resolve(f.reference["outputs"], f)
    model, example_inputs = model_and_inputs(entry.model)
    # the stored inputs are the builder's example inputs (fixed seeds)
    assert_same_value(tuple(inputs), tuple(example_inputs), "reference inputs", exact=True)
    with torch.no_grad():
        # the value of the graph's output node, without the pytree (un)flattening torch.export's code
        # adds around the graph: the file holds the graph, not that spec
        from_graph = torch.fx.Interpreter(gm).run(*[x.clone() for x in inputs], enable_io_processing=False)
        from_model = model(*[x.clone() for x in inputs]) if entry.tracer != "dynamo" else from_graph
    # the graph torch traced gives the stored outputs bit for bit; the eager model gives the same leaves
    # to rounding (tracers may pick other kernels, e.g. addmm for linear)
    assert_same_value(stored, from_graph, "reference outputs (graph)", exact=True)
    leaves = torch.utils._pytree.tree_leaves
    assert_same_value(leaves(stored), leaves(from_model), "reference outputs (model)", exact=False)
    # every stored tensor the graph reads is the model's own
    for name, kind in f.kinds.items():
        if kind in ("parameter", "buffer", "constant"):
            assert torch.equal(f.tensors[name].to_torch(), graph_attr(gm, name)), name


def graph_attr(gm, qualified):
    obj = gm
    for part in qualified.split("."):
        obj = getattr(obj, part)
    return obj.detach()


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_corpus_file(corpus_dir, entry):
    check_file(entry.output(corpus_dir), entry)


SMALL = [e for e in ENTRIES if e.small]


@pytest.mark.parametrize("entry", SMALL, ids=[e.name for e in SMALL])
def test_committed_example(entry):
    path = entry.output()
    assert os.path.exists(path), f"{os.path.relpath(path, ROOT)} is missing: run tests/corpus/build_corpus.py"
    assert os.path.getsize(path) < build_corpus.SMALL_LIMIT
    check_file(path, entry)


def test_digits_cnn_learns():
    model, _ = model_and_inputs("digits_cnn")
    assert model.accuracy > 0.9, f"held-out accuracy {model.accuracy:.3f}"
