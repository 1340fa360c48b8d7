"""Shared by the corpus tests: the corpus entries, their models and the graphs torch itself makes of them.

Models are built once per session (the digits CNN trains; all together < ~400 MB) and each torch graph is
traced once, exactly as the exporter traces (python/fxwasm/save.py), written here independently of it.
"""
import importlib.util
import os
import sys

import torch
from torch.fx.node import _get_qualified_name

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if os.path.join(ROOT, "python") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "python"))

BUILD_SCRIPT = os.path.join(ROOT, "tests", "corpus", "build_corpus.py")
CACHE_DIR = os.environ.get("FXWASM_CORPUS_DIR", os.path.join(ROOT, ".cache", "corpus"))


def _load_build_module():
    if "build_corpus" in sys.modules:
        return sys.modules["build_corpus"]
    spec = importlib.util.spec_from_file_location("build_corpus", BUILD_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_corpus"] = module
    spec.loader.exec_module(module)
    return module


build_corpus = _load_build_module()
models = build_corpus.import_models()
ENTRIES = build_corpus.ENTRIES
SMALL = [e for e in ENTRIES if e.small]

_models = {}
_graphs = {}


def model_and_inputs(name):
    if name not in _models:
        _models[name] = models.BUILDERS[name]()
    return _models[name]


def drop_export_guards(gm):
    """torch.export's module() calls a guard-checking submodule; it is not part of the computation (nor of
    the file)."""
    for node in list(gm.graph.nodes):
        if node.op == "call_module" and node.target == "_guards_fn" and not node.users:
            gm.graph.erase_node(node)
    gm.recompile()
    return gm


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
        with torch.no_grad():  # an inference graph, as the exporter traces it
            gm = make_fx(model)(*inputs)
    elif entry.tracer == "export":
        gm = drop_export_guards(torch.export.export(model, tuple(inputs)).module())
    else:
        raise AssertionError(entry.tracer)
    _graphs[key] = gm
    return gm


def canonical_target(node):
    """docs/format.md §2, written independently of the exporter."""
    if node.op != "call_function":
        return node.target
    if isinstance(node.target, torch._ops.OpOverload):
        return str(node.target)
    name = _get_qualified_name(node.target)
    return "operator." + name[len("_operator."):] if name.startswith("_operator.") else name


def print_tabular(gm):
    """What torch.fx.Graph.print_tabular prints, with canonical targets (the CLI's `table`)."""
    from tabulate import tabulate
    specs = [[n.op, n.name, canonical_target(n), n.args, n.kwargs] for n in gm.graph.nodes]
    return tabulate(specs, headers=["opcode", "name", "target", "args", "kwargs"]) + "\n"
