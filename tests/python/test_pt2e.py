"""PyTorch 2 quantization (issue #23 item 3): graphs from torchao's prepare_pt2e / convert_pt2e with the
XNNPACK-style quantizer — static (calibrated activations) and dynamic (choose_qparams per call), per-channel
int8 weights — are saved from the converted module and from a re-export of it, pass `fxwasm check` against
torch, and their Linear weights reach the runtime as int8 (the plan's pt2e_weights pass; its C++ test checks
the rewrite itself)."""
import warnings

import pytest
import torch
from torch import nn

from realworld import cli

import fxwasm

# torchao is pinned with the reference torch (python/requirements-reference.txt)
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e  # noqa: E402
from torchao.testing.pt2e._xnnpack_quantizer import (  # noqa: E402
    XNNPACKQuantizer, get_symmetric_quantization_config)


class ConvMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.fc1 = nn.Linear(8 * 6 * 6, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        x = torch.relu(self.conv(x)).flatten(1)
        return self.fc2(torch.relu(self.fc1(x)))


def quantized(dynamic):
    torch.manual_seed(0)
    model = ConvMLP().eval()
    x = torch.randn(2, 3, 8, 8)
    quantizer = XNNPACKQuantizer().set_global(
        get_symmetric_quantization_config(is_per_channel=True, is_dynamic=dynamic))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prepared = prepare_pt2e(torch.export.export(model, (x,)).module(), quantizer)
        for _ in range(4):
            prepared(torch.randn(2, 3, 8, 8))
        converted = convert_pt2e(prepared)
    return model, converted, x


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("door", ["module", "reexport"])
def test_pt2e_graph_checks_against_torch(tmp_path, dynamic, door):
    model, converted, x = quantized(dynamic)
    targets = {str(n.target) for n in converted.graph.nodes if n.op == "call_function"}
    assert "quantized_decomposed.dequantize_per_channel.default" in targets
    assert ("quantized_decomposed.choose_qparams.tensor" in targets) == dynamic
    source = converted if door == "module" else torch.export.export(converted, (x,))
    path = str(tmp_path / "q.fxw")
    fxwasm.save(source, path, (x,))
    code, out, err = cli("check", path)
    assert code == 0 and "check: pass" in out, out + err
    # the quantized model is close to the float one it came from (a sanity check of the flow itself)
    assert torch.allclose(converted(x), model(x), atol=0.1)


def test_pt2e_weights_are_stored_as_int8_and_the_float_originals_are_dropped(tmp_path):
    _, converted, x = quantized(False)
    path = str(tmp_path / "q.fxw")
    fxwasm.save(converted, path, (x,))
    tensors = fxwasm.read(path).tensors
    tensors = {name: t for name, t in tensors.items() if not name.startswith("__ref__.")}  # reference data
    int8 = sorted(name for name, t in tensors.items() if t.dtype == "I8")
    assert len(int8) == 3, tensors.keys()  # conv, fc1, fc2
    # the float weights convert_pt2e leaves on the module (no node reads them) are not saved
    assert not [name for name, t in tensors.items() if t.dtype == "F32" and len(t.shape) >= 2]
