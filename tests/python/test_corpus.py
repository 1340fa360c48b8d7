"""The model corpus (tests/corpus): every file reads back as torch's own graph, with a reference run that
torch reproduces.

The corpus is built once into .cache/corpus (or $FXWASM_CORPUS_DIR) by tests/corpus/build_corpus.py, which
skips files newer than itself, models.py and the exporter — so only the first run pays for resnet18 and
friends. The committed small files under examples/ are checked the same way, read-only.
"""
import math
import json
import os
import sys

import pytest
import torch

from corpus_graphs import (ENTRIES, ROOT, SMALL, build_corpus, canonical_target,  # noqa: F401
                           model_and_inputs, torch_graph)
from fxwasm import reader  # noqa: E402


# ------------------------------------------------------------------------------------------ comparison
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


def check_file(path, entry, built_here=True):
    f = reader.read(path)
    assert f.program["producer"]["tracer"] == entry.tracer
    gm = torch_graph(entry)
    assert_same_graph(f, gm)

    assert f.reference is not None, "no reference run stored"
    inputs = [reader.resolve(x, f) for x in f.reference["inputs"]]
    stored = reader.resolve(f.reference["outputs"], f)
    model, example_inputs = model_and_inputs(entry.model)
    if not built_here:
        # A committed example was built on another machine: a model trained by its builder (digits_cnn) may
        # have learned other weights on this CPU. Torch then runs with the file's own tensors.
        state = model.state_dict() if isinstance(model, torch.nn.Module) else {}
        with torch.no_grad():
            for name, kind in f.kinds.items():
                if kind in ("parameter", "buffer", "constant"):
                    graph_attr(gm, name).copy_(f.tensors[name].to_torch())
                    if name in state:
                        state[name].copy_(f.tensors[name].to_torch())
    # the stored inputs are the builder's example inputs (fixed seeds)
    assert_same_value(tuple(inputs), tuple(example_inputs), "reference inputs", exact=True)
    with torch.no_grad():
        # the value of the graph's output node, without the pytree (un)flattening torch.export's code
        # adds around the graph: the file holds the graph, not that spec
        from_graph = torch.fx.Interpreter(gm).run(*[x.clone() for x in inputs], enable_io_processing=False)
        from_model = model(*[x.clone() for x in inputs]) if entry.tracer != "dynamo" else from_graph
    # the graph torch traced gives the stored outputs bit for bit on the machine that built the file (a
    # committed example was built on another one, whose CPU kernels may round differently: to rounding
    # there); the eager model gives the same leaves to rounding (tracers may pick other kernels, e.g. addmm)
    assert_same_value(stored, from_graph, "reference outputs (graph)", exact=built_here)
    leaves = torch.utils._pytree.tree_leaves
    assert_same_value(leaves(stored), leaves(from_model), "reference outputs (model)", exact=False)
    # every stored tensor the graph reads is the model's own, with the kind it has in the model
    params = {id(p) for p in model.parameters()} if isinstance(model, torch.nn.Module) else set()
    buffers = {id(b) for b in model.buffers()} if isinstance(model, torch.nn.Module) else set()
    for name, kind in f.kinds.items():
        if kind in ("parameter", "buffer", "constant"):
            attr = graph_attr(gm, name)
            assert torch.equal(f.tensors[name].to_torch(), attr.detach()), name
            if entry.tracer != "dynamo":
                want = "parameter" if id(attr) in params else "buffer" if id(attr) in buffers else "constant"
                assert kind == want, f"tensor {name}: kind {kind}, but it is a {want} of the model"
    if entry.tracer == "export":  # the structure torch.export's code puts around the flat graph
        info = gm.graph._codegen.pytree_info
        unflatten = torch.utils._pytree.tree_unflatten
        assert f.pytree["orig_args"] == list(info.orig_args)
        placeholders = [reader.NodeRef(n.name) for n in gm.graph.nodes if n.op == "placeholder"]
        assert canon(f.pytree["inputs"]) == canon(unflatten(placeholders, info.in_spec))
        flat = [reader.NodeRef(a.name) if isinstance(a, torch.fx.Node) else a for a in gm.graph.output_node().args[0]]
        assert canon(f.pytree["outputs"]) == canon(unflatten(flat, info.out_spec))
    assert_portable(path)
    assert_plain_safetensors(path, f)


def assert_plain_safetensors(path, f):
    """The file is a safetensors file to a minimal reader (struct + json) and to safetensors itself."""
    import json
    import struct

    from safetensors import safe_open
    size = os.path.getsize(path)
    with open(path, "rb") as fh:
        (n,) = struct.unpack("<Q", fh.read(8))
        header = json.loads(fh.read(n))
    assert (8 + n) % 64 == 0 and set(header.pop("__metadata__")) == {"format", "format_version", "program"}
    sizes = {"F32": 4, "F64": 8, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1, "BOOL": 1}
    spans = sorted(tuple(v["data_offsets"]) for v in header.values())
    assert spans[0][0] == 0 and spans[-1][1] == size - 8 - n, "tensors must cover the data section"
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:])), "gaps between tensors"
    for name, info in header.items():
        begin, end = info["data_offsets"]
        assert end - begin == math.prod(info["shape"]) * sizes[info["dtype"]], name
        assert begin % 64 == 0 or name.startswith("__pad__."), f"{name} is not 64-byte aligned"
    assert {k for k in header if not k.startswith("__pad__.")} == set(f.kinds)
    with safe_open(path, framework="pt") as st:
        assert set(st.keys()) == set(header)
        for name in list(f.kinds)[:3]:
            assert torch.equal(st.get_tensor(name), f.tensors[name].to_torch()), name


def assert_portable(path):
    """No machine paths in the file (docs/format.md §5): a rebuild elsewhere gives the same bytes."""
    f = reader.read(path)
    text = f.metadata["program"]
    for prefix in {ROOT, os.path.realpath(ROOT), sys.prefix, os.path.expanduser("~")}:
        assert prefix + "/" not in text, f"{path} names {prefix}"
    assert "/site-packages/" not in text.replace('"site-packages/', "")


def graph_attr(gm, qualified):
    obj = gm
    for part in qualified.split("."):
        obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_corpus_file(corpus_dir, entry):
    check_file(entry.output(corpus_dir), entry)


@pytest.mark.parametrize("entry", SMALL, ids=[e.name for e in SMALL])
def test_committed_example(entry):
    path = entry.output()
    assert os.path.exists(path), f"{os.path.relpath(path, ROOT)} is missing: run tests/corpus/build_corpus.py"
    assert os.path.getsize(path) < build_corpus.SMALL_LIMIT
    check_file(path, entry, built_here=False)


def test_a_rebuild_differing_only_in_reference_rounding_keeps_the_committed_bytes(tmp_path):
    """build_corpus.same_but_rounding: what lets a test run rebuild the committed examples without
    rewriting them when only torch's reference outputs round differently (another CPU's kernels)."""
    import fxwasm
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.ReLU())
    x = torch.randn(3, 8)
    paths = {k: str(tmp_path / f"{k}.fxw") for k in ("a", "same", "rounded", "other_weight", "other_graph")}
    fxwasm.save(model, paths["a"], (x,), reference=True)
    fxwasm.save(model, paths["same"], (x,), reference=True)
    fxwasm.save(model, paths["rounded"], (x * (1 + 2e-7),), reference=True)  # references within 1e-5
    other = torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.ReLU())
    other.load_state_dict(model.state_dict())
    with torch.no_grad():
        other[0].weight[0, 0] += 1e-6  # a weight: must match byte for byte
    fxwasm.save(other, paths["other_weight"], (x,), reference=True)
    fxwasm.save(torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.Sigmoid()), paths["other_graph"], (x,),
                reference=True)
    read = lambda k: open(paths[k], "rb").read()  # noqa: E731
    assert read("same") == read("a") and read("rounded") != read("a")
    same = build_corpus.same_but_rounding
    assert same(paths["same"], paths["a"])
    assert same(paths["rounded"], paths["a"])
    assert not same(paths["other_weight"], paths["a"])
    assert not same(paths["other_graph"], paths["a"])


def test_digits_cnn_learns():
    model, _ = model_and_inputs("digits_cnn")
    assert model.accuracy > 0.9, f"held-out accuracy {model.accuracy:.3f}"


def test_rebuild_from_another_checkout_is_byte_identical(tmp_path):
    """Files name no machine paths: the examples with stack traces (Dynamo's and torch.export's), rebuilt
    from a copy of the sources at another path, equal the committed ones byte for byte."""
    import shutil
    import subprocess
    clone = tmp_path / "elsewhere" / "fxwasm"
    shutil.copytree(os.path.join(ROOT, "python", "fxwasm"), clone / "python" / "fxwasm")
    shutil.copytree(os.path.join(ROOT, "tests", "corpus"), clone / "tests" / "corpus",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (clone / "examples" / "seed").mkdir(parents=True)
    shutil.copy(os.path.join(ROOT, "examples", "seed", "make_toy_example.py"), clone / "examples" / "seed")
    names = ["toy_example", "decoder_block_export"]
    proc = subprocess.run([sys.executable, str(clone / "tests" / "corpus" / "build_corpus.py"), "--out",
                           str(tmp_path / "out"), "--only", *names], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, env=dict(os.environ, PYTHONPATH=str(clone / "python")))
    assert proc.returncode == 0, proc.stderr
    for name in names:
        rebuilt, committed = reader.read(str(tmp_path / "out" / f"{name}.fxw")), reader.read(build_corpus.BY_NAME[name].output())
        # the program (node names, stack traces, producer) byte for byte; the tensors too, except torch's
        # reference outputs, which another CPU's kernels may round differently
        assert json.dumps(rebuilt.program, sort_keys=True) == json.dumps(committed.program, sort_keys=True), \
            f"{name}: rebuilt elsewhere, the program differs from the committed file"
        assert sorted(rebuilt.tensors) == sorted(committed.tensors)
        for t in rebuilt.tensors:
            a, b = rebuilt.tensors[t].to_torch(), committed.tensors[t].to_torch()
            if t.startswith("__ref__.out"):
                torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6, msg=f"{name}: {t}")
            else:
                assert torch.equal(a, b), f"{name}: tensor {t} differs from the committed file"
