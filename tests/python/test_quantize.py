"""Quantized weights end to end (docs/format.md §7): fxwasm.save(..., weights=...) for an MLP (symbolic
trace: nn.Linear modules; make_fx: addmm(bias, x, t(w)) on get_attr weights) and a GPT-style decoder (torch.export: aten.linear / aten.embedding on get_attr
weights), run in the wasm runtime through the CLI and compared with torch float32; file sizes; and
`fxwasm quantize` of the float32 file giving the same tensors as the exporter."""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fxwasm  # noqa: E402
from fxwasm.quantize import dequantize  # noqa: E402
from quantize_models import MLP, Decoder  # noqa: E402

CLI = os.path.join(ROOT, "web", "bin", "fxwasm.js")
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

# (cosine goal, file-size goal as a fraction of the float32 file)
GOALS = {"fp32": (0.99999, 1.0), "fp16": (0.9999, 0.51), "int8": (0.999, 0.27), "int4": (0.99, 0.16)}


def cases():
    torch.manual_seed(0)
    mlp = MLP().eval()
    x = torch.randn(4, 256)
    dec = Decoder().eval()
    idx = torch.randint(0, 1024, (1, 24))
    return {"mlp": (mlp, (x,), "symbolic"), "mlp_aten": (mlp, (x[:1],), "aten"), "decoder": (dec, (idx,), "export")}


CASES = cases()


def cli(*args):
    p = subprocess.run(["node", CLI, *args], capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def run_fxwasm(path, inputs, tmp_path):
    f = fxwasm.read(str(path))
    names = [n["name"] for n in f.nodes if n["op"] == "placeholder"]
    args = []
    for i, (name, x) in enumerate(zip(names, inputs)):
        npy = tmp_path / f"in{i}.npy"
        np.save(npy, x.numpy())
        args += ["--input", f"{name}={npy}"]
    out = tmp_path / "out.npy"
    code, stdout, stderr = cli("run", str(path), *args, "--out", str(out))
    assert code == 0, stderr
    return torch.from_numpy(np.load(out))


def cosine(a, b):
    return torch.nn.functional.cosine_similarity(a.reshape(1, -1).double(), b.reshape(1, -1).double()).item()


@pytest.mark.parametrize("model", list(CASES))
@pytest.mark.parametrize("weights", list(GOALS))
def test_quantized_model_matches_torch(tmp_path, model, weights):
    net, inputs, tracer = CASES[model]
    with torch.no_grad():
        want = net(*inputs)
    path = tmp_path / f"{model}_{weights}.fxw"
    fxwasm.save(net, str(path), example_inputs=inputs, tracer=tracer, weights=weights, reference=False)
    fp32 = tmp_path / f"{model}_fp32_noref.fxw"
    fxwasm.save(net, str(fp32), example_inputs=inputs, tracer=tracer, reference=False)
    got = run_fxwasm(path, inputs, tmp_path)
    cos = cosine(got, want)
    ratio = os.path.getsize(path) / os.path.getsize(fp32)
    print(f"{model} {weights}: cosine {cos:.6f}, file {os.path.getsize(path)} bytes = {ratio:.3f} x fp32")
    min_cos, max_ratio = GOALS[weights]
    assert cos >= min_cos
    assert ratio <= max_ratio
    # The pure-Python reader's dequantisation agrees with what the file stores.
    f = fxwasm.read(str(path))
    q = f.program.get("quantized", {})
    if weights == "fp32":
        assert q == {}
        return
    stored = {name: t.to_torch() for name, t in f.tensors.items()}
    values = dequantize(f.program, stored)
    kinds = {e["scheme"] for e in q.values()}
    assert kinds == ({"fp16"} if weights == "fp16" else {weights, "fp16"})
    state = net.state_dict()
    for name, v in values.items():
        if name in state:  # torch.export keeps the state_dict names
            tol = {"fp16": 1e-3, "int8": 0.01, "int4": 0.2}[q[name]["scheme"]]
            assert torch.allclose(v, state[name], rtol=0, atol=tol * state[name].abs().max().item() + 1e-6), name


@pytest.mark.parametrize("model", list(CASES))
@pytest.mark.parametrize("weights", ["int8", "int4", "fp16"])
def test_cli_quantize_equals_save(tmp_path, model, weights):
    net, inputs, tracer = CASES[model]
    fp32 = tmp_path / "fp32.fxw"
    fxwasm.save(net, str(fp32), example_inputs=inputs, tracer=tracer)
    direct = tmp_path / "direct.fxw"
    fxwasm.save(net, str(direct), example_inputs=inputs, tracer=tracer, weights=weights)
    via_cli = tmp_path / "cli.fxw"
    code, stdout, stderr = cli("quantize", str(fp32), str(via_cli), "--weights", weights)
    assert code == 0, stderr
    assert "tensors stored" in stdout
    a, b = fxwasm.read(str(direct)), fxwasm.read(str(via_cli))
    assert a.program["quantized"] == b.program["quantized"]
    assert a.kinds == b.kinds
    assert set(a.tensors) == set(b.tensors)
    for name in a.tensors:
        assert (a.tensors[name].dtype, a.tensors[name].shape) == (b.tensors[name].dtype, b.tensors[name].shape), name
        assert a.tensors[name].data == b.tensors[name].data, name
    # The quantized file still checks against torch's float32 reference within quantization's error.
    tol = "0.5" if weights == "int4" else "0.05"
    code, stdout, stderr = cli("check", str(via_cli), "--rtol", tol, "--atol", tol)
    assert code == 0, stdout + stderr


def test_cli_quantize_errors(tmp_path):
    net, inputs, tracer = CASES["mlp"]
    fp32 = tmp_path / "fp32.fxw"
    fxwasm.save(net, str(fp32), example_inputs=inputs, tracer=tracer)
    code, _, stderr = cli("quantize", str(fp32), str(tmp_path / "o.fxw"), "--weights", "int2")
    assert code == 2 and stderr.startswith("fxwasm: error: --weights must be one of int8, int4, fp16, fp32")
    code, _, stderr = cli("quantize", str(tmp_path / "missing.fxw"), str(tmp_path / "o.fxw"), "--weights", "int8")
    assert code == 2 and stderr.startswith("fxwasm: error:") and "missing.fxw" in stderr
    code, _, stderr = cli("quantize", str(fp32), str(tmp_path / "no" / "dir" / "o.fxw"), "--weights", "int8")
    assert code == 2 and "cannot write: no such directory" in stderr, stderr
    assert not (tmp_path / "o.fxw").exists()


def test_save_rejects_unknown_weights(tmp_path):
    net, inputs, tracer = CASES["mlp"]
    with pytest.raises(fxwasm.ExportError, match="weights must be one of fp32, fp16, int8, int4"):
        fxwasm.save(net, str(tmp_path / "x.fxw"), example_inputs=inputs, weights="int3")
