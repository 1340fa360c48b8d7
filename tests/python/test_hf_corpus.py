"""Hugging Face transformers models (tests/corpus/hf_models.py: encoders, decoders, encoder-decoders, vision,
audio) through torch.export with keyword inputs and padding masks: each file passes `fxwasm check` in wasm
and its table is torch's print_tabular of the exported graph. Files are built once into
a per-user cache (realworld.py)."""
import os
import sys

import pytest
import torch

from corpus_graphs import ROOT, print_tabular
from realworld import cached_file, cli

sys.path.insert(0, os.path.join(ROOT, "tests", "corpus"))
import hf_models  # noqa: E402
import transformers  # noqa: E402

import fxwasm  # noqa: E402
from fxwasm.save import trace  # noqa: E402

VERSIONS = f"torch {torch.__version__} transformers {transformers.__version__}"


def hf_file(name):
    def build(path):
        model, kwargs = hf_models.build(name)
        fxwasm.save(model, path, tracer="export", example_kwargs=kwargs)
    return cached_file("hf", name, build, VERSIONS, [hf_models.__file__])


@pytest.mark.parametrize("name", sorted(hf_models.BUILDERS))
def test_hf_model_passes_check_in_wasm(name):
    code, out, err = cli("check", hf_file(name))
    assert code == 0, f"fxwasm check {name}: exit {code}\n{out}{err}"
    assert "check: pass" in out


@pytest.mark.parametrize("name", sorted(hf_models.BUILDERS))
def test_hf_model_table_is_torchs(name):
    path = hf_file(name)
    model, kwargs = hf_models.build(name)
    gm, _, _ = trace(model, None, "export", kwargs)
    code, out, err = cli("table", path)
    assert code == 0, err
    assert out == print_tabular(gm)


NAMED_OUTPUTS = r"""
import * as fx from %(index)s;
const gm = await fx.load(process.argv[2]);
const out = await gm.run(gm.reference().inputs);
const describe = (v) => (v instanceof fx.Tensor ? v.shape : Array.isArray(v) ? v.map(describe)
  : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, describe(x)])) : v);
console.log(JSON.stringify(describe(out)));
"""


def _shapes(v):
    """torch's output in the JSON the runner prints: tensors as shapes, ModelOutputs/dicts by field."""
    if isinstance(v, torch.Tensor):
        return list(v.shape)
    if isinstance(v, dict):  # ModelOutput is an OrderedDict of its non-None fields
        return {k: _shapes(x) for k, x in v.items()}
    if isinstance(v, (tuple, list)):
        return [_shapes(x) for x in v]
    return v


@pytest.mark.parametrize("name", ["bert", "gpt2", "t5"])
def test_hf_outputs_come_back_by_field_name_in_js(name, tmp_path):
    """run() rebuilds the ModelOutput the exported program returns: its fields by name, in torch's order."""
    import json
    import subprocess
    path = hf_file(name)
    model, kwargs = hf_models.build(name)
    with torch.no_grad():
        want = _shapes(model(**kwargs))
    script = tmp_path / "named.mjs"
    script.write_text(NAMED_OUTPUTS % {"index": json.dumps(os.path.join(ROOT, "web", "src", "index.js"))})
    proc = subprocess.run(["node", str(script), path], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got == want
    assert list(got) == list(want)  # the fields in torch's order
