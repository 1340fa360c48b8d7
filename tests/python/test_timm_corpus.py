"""timm models (tests/corpus/timm_models.py) through symbolic_trace and torch.export: each file passes
`fxwasm check` in wasm, and its table is torch's print_tabular of the same trace. Built once into
a per-user cache (realworld.py)."""
import os
import sys

import pytest
import torch

from corpus_graphs import ROOT, print_tabular
from realworld import cached_file, cli

sys.path.insert(0, os.path.join(ROOT, "tests", "corpus"))
import timm  # noqa: E402
import timm_models  # noqa: E402

import fxwasm  # noqa: E402
from fxwasm.save import trace  # noqa: E402

VERSIONS = f"torch {torch.__version__} timm {timm.__version__}"
IDS = [f"{name}-{tracer}" for name, tracer in timm_models.MODELS]


def timm_file(name, tracer):
    def build(path):
        model, x = timm_models.build(name)
        fxwasm.save(model, path, example_inputs=(x,), tracer=tracer)
    return cached_file("timm", f"{name}_{tracer}", build, VERSIONS, [timm_models.__file__])


@pytest.mark.parametrize("name,tracer", timm_models.MODELS, ids=IDS)
def test_timm_model_passes_check_in_wasm(name, tracer):
    code, out, err = cli("check", timm_file(name, tracer))
    assert code == 0, f"fxwasm check {name} ({tracer}): exit {code}\n{out}{err}"
    assert "check: pass" in out


@pytest.mark.parametrize("name,tracer", timm_models.MODELS, ids=IDS)
def test_timm_model_table_is_torchs(name, tracer):
    path = timm_file(name, tracer)
    model, x = timm_models.build(name)
    gm, _, _ = trace(model, (x,), tracer)
    code, out, err = cli("table", path)
    assert code == 0, err
    assert out == print_tabular(gm)
