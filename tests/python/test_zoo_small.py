"""A light slice of the torchvision zoo (tests/corpus/zoo.py): three small classifiers at 64×64, random
init, exported with the real exporter and run through `node web/bin/fxwasm.js check` against torch's
reference outputs. The full zoo is too slow for the test suite; run tests/corpus/zoo.py for it.
"""
import os
import shutil
import subprocess
import sys

import pytest
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "tests", "corpus"))

import fxwasm  # noqa: E402

torchvision = pytest.importorskip("torchvision")
from zoo import ZOO  # noqa: E402

CLI = os.path.join(ROOT, "web", "bin", "fxwasm.js")
CASES = [("squeezenet1_0", "symbolic"), ("shufflenet_v2_x0_5", "symbolic"), ("mobilenet_v3_small", "aten")]


@pytest.mark.parametrize("name,tracer", CASES, ids=[f"{n}-{t}" for n, t in CASES])
def test_zoo_model_matches_torch(tmp_path, name, tracer):
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    torch.manual_seed(0)
    model = ZOO[name]().eval()
    path = tmp_path / f"{name}_{tracer}.fxw"
    fxwasm.save(model, str(path), example_inputs=(torch.randn(1, 3, 64, 64),), tracer=tracer, reference=True)
    p = subprocess.run(["node", CLI, "check", str(path)], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, f"fxwasm check failed ({p.returncode}):\n{p.stdout}\n{p.stderr}"
