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
