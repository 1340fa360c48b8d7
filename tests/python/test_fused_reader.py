"""A graph after the fusion pass (gm.applyPass('fuse')) read by the pure-Python reader: the fxwasm.fused_*
targets and their epilogue kwargs decode, and torch, running each fused node as the ops it stands for,
gives the stored reference outputs."""
import inspect
import os
import subprocess

import torch
import torch.nn.functional as F

from fxwasm import reader
from fxwasm.targets import _resolve

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIGITS = os.path.join(ROOT, "examples", "digits_cnn", "digits_cnn.fxw")

FUSE = """
import fs from 'node:fs';
import * as fxwasm from './web/src/index.js';
const gm = await fxwasm.load(process.argv[1]);
gm.applyPass('fuse');
fs.writeFileSync(process.argv[2], fxwasm.save(gm));
gm.dispose();
"""

ACTIVATIONS = {
    None: lambda y, kw: y,
    "relu": lambda y, kw: F.relu(y),
    "relu6": lambda y, kw: F.relu6(y),
    "hardtanh": lambda y, kw: F.hardtanh(y, kw.get("min_val", -1.0), kw.get("max_val", 1.0)),
    "gelu": lambda y, kw: F.gelu(y, approximate=kw.get("approximate", "none")),
    "silu": lambda y, kw: F.silu(y),
}


def epilogue(y, kw):
    if kw.get("residual") is not None:
        y = y + kw["residual"]
    return ACTIVATIONS[kw.get("activation")](y, kw)


def fused_conv2d(x, w, b=None, stride=1, padding=0, dilation=1, groups=1, **kw):
    return epilogue(F.conv2d(x, w, b, stride, padding, dilation, groups), kw)


def fused_linear(x, w, b=None, **kw):
    return epilogue(F.linear(x, w, b), kw)


def module(f, path):
    spec = f.program["modules"][path]
    cls = _resolve(spec["type"])
    hp = {k: reader.decode_value(v) for k, v in spec["hparams"].items()}
    m = cls(**{k: hp[k] for k in inspect.signature(cls.__init__).parameters if k in hp})
    state = {k[len(path) + 1:]: t.to_torch() for k, t in f.tensors.items() if k.startswith(path + ".")}
    m.load_state_dict(state, strict=False)
    return m.eval()


def run_with_torch(f, inputs):
    env, inputs = {}, list(inputs)
    val = lambda v: torch.fx.node.map_aggregate(v, lambda a: env[a.name] if isinstance(a, reader.NodeRef) else a)
    for n in f.nodes:
        args, kwargs = val(n["args"]), val(n["kwargs"])
        if n["op"] == "placeholder":
            env[n["name"]] = inputs.pop(0)
        elif n["op"] == "get_attr":
            env[n["name"]] = f.tensors[n["target"]].to_torch()
        elif n["op"] == "call_module":
            env[n["name"]] = module(f, n["target"])(*args, **kwargs)
        elif n["op"] == "call_function":
            fn = {"fxwasm.fused_conv2d": fused_conv2d, "fxwasm.fused_linear": fused_linear}.get(n["target"])
            env[n["name"]] = (fn or _resolve(n["target"]))(*args, **kwargs)
        elif n["op"] == "output":
            return args[0]


def test_fused_graph_reads_and_matches_torch(tmp_path):
    out = tmp_path / "digits_fused.fxw"
    subprocess.run(["node", "--input-type=module", "-e", FUSE, DIGITS, str(out)], cwd=ROOT, check=True, timeout=120)
    f = reader.read(str(out))
    fused = {n["name"]: n for n in f.nodes if n["target"].startswith("fxwasm.")}
    assert {k: v["target"] for k, v in fused.items()} == {
        "conv1": "fxwasm.fused_conv2d", "conv2": "fxwasm.fused_conv2d", "fc1": "fxwasm.fused_linear"}
    assert fused["conv1"]["kwargs"] == {"activation": "relu"}
    assert [a.name for a in fused["conv1"]["args"][1:3]] == ["conv1_weight", "conv1_bias"]
    for n in f.nodes:
        if n["op"] == "get_attr":
            assert n["target"] in f.tensors
    assert "conv1" not in f.program["modules"]  # fused: no call_module uses it any more

    with torch.no_grad():
        inputs = reader.resolve(f.reference["inputs"], f)
        got = run_with_torch(f, inputs)
        torch.testing.assert_close(got, reader.resolve(f.reference["outputs"], f), rtol=1e-4, atol=1e-5)
