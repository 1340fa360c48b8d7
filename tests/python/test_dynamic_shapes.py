"""Dynamic shapes end to end: a torch.export graph with dynamic_shapes (Dim ranges) and a Dynamo graph
compiled with dynamic=True are saved once, then run in wasm at sizes other than the example's and compared
with torch at those sizes; out-of-range and disagreeing sizes are refused with the input named."""
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest
import torch

from corpus_graphs import ROOT

sys.path.insert(0, os.path.join(ROOT, "tests", "corpus"))
import hf_models  # noqa: E402

import fxwasm  # noqa: E402

RUNNER = r"""
import fs from 'node:fs';
import * as fx from %(index)s;
const [file, spec, out] = process.argv.slice(2);
const inputs = JSON.parse(spec).map((x) => (typeof x === 'number' ? x : fx.readNpy(new Uint8Array(fs.readFileSync(x)))));
const gm = await fx.load(file);
try {
  let result = await gm.run(inputs);
  const flat = [];
  const walk = (v) => { if (v instanceof fx.Tensor) flat.push(v); else if (Array.isArray(v)) v.forEach(walk); else if (v && typeof v === 'object') Object.values(v).forEach(walk); else flat.push(fx.tensor(new Float64Array([v]), [])); };
  walk(result);
  fs.writeFileSync(out, fx.writeNpz(Object.fromEntries(flat.map((t, i) => [`out${i}`, t]))));
} catch (e) {
  process.stderr.write(`${e.constructor.name}: ${e.message}\n`);
  process.exit(2);
}
"""


def run_wasm(tmp_path, path, inputs):
    """The flat outputs of the wasm runtime on `inputs` (tensors or ints), or raise with its error."""
    spec = []
    for i, x in enumerate(inputs):
        if isinstance(x, torch.Tensor):
            p = tmp_path / f"in{i}.npy"
            np.save(p, x.numpy())
            spec.append(str(p))
        else:
            spec.append(x)
    script = tmp_path / "run.mjs"
    script.write_text(RUNNER % {"index": json.dumps(os.path.join(ROOT, "web", "src", "index.js"))})
    out = tmp_path / "out.npz"
    proc = subprocess.run(["node", str(script), str(path), json.dumps(spec), str(out)], capture_output=True,
                          text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip())
    with np.load(out) as z:
        return [torch.from_numpy(z[f"out{i}"]) for i in range(len(z.files))]


def flat(x):
    return [t if isinstance(t, torch.Tensor) else torch.tensor(float(t), dtype=torch.float64)
            for t in torch.utils._pytree.tree_leaves(x)]


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 4)

    def forward(self, x, y):
        return self.fc(x).relu() + y.sum(-1, keepdim=True), x.shape[0] * 2


@pytest.fixture(scope="module")
def export_file(tmp_path_factory):
    torch.manual_seed(0)
    model = Head().eval()
    batch = torch.export.Dim("batch", min=1, max=64)
    path = tmp_path_factory.mktemp("export") / "head.fxw"
    fxwasm.save(model, path, example_inputs=(torch.randn(3, 8), torch.randn(3, 5)), tracer="export",
                dynamic_shapes={"x": {0: batch}, "y": {0: batch}})
    return model, path


@pytest.mark.parametrize("batch", [1, 5, 64])
def test_export_graph_runs_at_other_sizes_in_range(export_file, tmp_path, batch):
    model, path = export_file
    x, y = torch.randn(batch, 8), torch.randn(batch, 5)
    got = run_wasm(tmp_path, path, [x, y])
    want = flat(model(x, y))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        torch.testing.assert_close(g.to(w.dtype), w, rtol=1e-5, atol=1e-5)


def test_export_graph_refuses_sizes_out_of_range_or_disagreeing(export_file, tmp_path):
    _, path = export_file
    with pytest.raises(RuntimeError) as e:
        run_wasm(tmp_path, path, [torch.randn(65, 8), torch.randn(65, 5)])
    assert re.fullmatch(r"FxError: (node 'x': )?input 'x' dim 0 is 65, outside s\d+'s range \[1, 64\]", str(e.value)), str(e.value)
    with pytest.raises(RuntimeError) as e:
        run_wasm(tmp_path, path, [torch.randn(4, 8), torch.randn(5, 5)])
    assert "input 'y' dim 0 is 5, but" in str(e.value) and "(from input 'x')" in str(e.value)
    with pytest.raises(RuntimeError) as e:
        run_wasm(tmp_path, path, [torch.randn(4, 9), torch.randn(4, 5)])
    assert "input 'x' expects float32 [" in str(e.value)


def test_bert_with_dynamic_batch_and_sequence_runs_at_other_sizes(tmp_path):
    model, kwargs = hf_models.build("bert")
    batch, seq = torch.export.Dim("batch", min=1, max=8), torch.export.Dim("seq", min=2, max=32)
    dims = {"input_ids": {0: batch, 1: seq}, "attention_mask": {0: batch, 1: seq}}
    path = tmp_path / "bert.fxw"
    fxwasm.save(model, path, tracer="export", example_kwargs=kwargs, dynamic_shapes=dims)
    for b, s in [(1, 5), (3, 12)]:
        ids = torch.randint(3, 99, (b, s))
        mask = torch.ones(b, s, dtype=torch.long)
        mask[0, s - 1:] = 0
        got = run_wasm(tmp_path, path, [ids, mask])
        with torch.no_grad():
            want = flat(model(input_ids=ids, attention_mask=mask))
        assert [tuple(g.shape) for g in got] == [tuple(w.shape) for w in want]
        for g, w in zip(got, want):
            torch.testing.assert_close(g, w, rtol=1e-4, atol=1e-5)


def test_dynamo_dynamic_graph_runs_at_other_sizes(tmp_path):
    torch._dynamo.reset()
    backend = fxwasm.dynamo_backend(str(tmp_path / "dynamo"))

    def f(a, b):
        return (a * 2).sum(0) + b[: a.shape[0]].mean() + a.shape[0]

    compiled = torch.compile(f, backend=backend, dynamic=True)
    compiled(torch.randn(4, 3), torch.randn(6))
    assert len(backend.saved) == 1
    from fxwasm import reader
    placeholders = [n for n in reader.read(backend.saved[0]).nodes if n["op"] == "placeholder"]
    names = [p["name"] for p in placeholders]
    assert "l_a_" in names and "l_b_" in names and len(names) > 2  # SymInt placeholders too
    for rows, cols, n in [(2, 3, 5), (7, 5, 9)]:
        tensors = {"l_a_": torch.randn(rows, cols), "l_b_": torch.randn(n)}
        # Dynamo's SymInt placeholders are named by their symbols: their values are the sizes they stand for
        symbols = {}
        for p in placeholders:
            if p["name"] in tensors:
                for entry, size in zip(p.get("meta", {}).get("sym_dims") or [], tensors[p["name"]].shape):
                    if entry and entry[0]:
                        symbols[entry[0]] = size
        values = [tensors[name] if name in tensors else symbols[name] for name in names]
        got = run_wasm(tmp_path, backend.saved[0], values)
        want = flat(f(tensors["l_a_"], tensors["l_b_"]))
        assert len(got) == len(want)
        for g, w in zip(got, want):
            torch.testing.assert_close(g.to(w.dtype), w, rtol=1e-5, atol=1e-5)
