"""Patterns the held-out sweep (bench/heldout.py: HF and timm architectures outside the real-world corpus)
found missing, each as a tiny module: the file passes `fxwasm check` in wasm and its table is torch's.

- Python sequence arithmetic in a symbolic trace: `x.shape[:-1] + (-1,)` (timm's MaxViT attention),
  `(n,) * k`, list + list.
- transformers::grouped_mm_fallback, the grouped GEMM every transformers 5 MoE model (Mixtral, Qwen2-MoE…)
  leaves in a torch.export graph on CPU, and aten._grouped_mm.
"""
import pytest
import torch
from torch import nn

from corpus_graphs import print_tabular
from realworld import cli

import fxwasm
from fxwasm.save import trace


def _check(path):
    code, out, err = cli("check", path)
    assert code == 0, out + err
    assert "check: pass" in out


class ShapeTuples(nn.Module):
    def forward(self, x):
        restore = x.shape[:-1]            # torch.Size slice
        y = (x * 2).reshape(restore + (-1,))  # Size + tuple
        ones = (1,) * (x.ndim - 1)        # tuple * int
        z = y.view((x.shape[0],) + ones + (-1,)).flatten(1)
        dims = [x.shape[0]] + [-1]        # list + list
        return y, z.reshape(dims), 2 * (x.shape[-1],)


def test_sequence_arithmetic_in_a_symbolic_trace(tmp_path):
    x = torch.randn(2, 3, 4)
    path = str(tmp_path / "tuples.fxw")
    fxwasm.save(ShapeTuples(), path, example_inputs=(x,))
    _check(path)
    gm, _, _ = trace(ShapeTuples(), (x,), "symbolic")
    code, out, err = cli("table", path)
    assert code == 0, err
    assert out == print_tabular(gm)


class Experts(nn.Module):
    """What transformers 5's MoE experts do on CPU: rows sorted by expert, one GEMM per expert."""

    def __init__(self, op):
        super().__init__()
        self.op = op
        self.weight = nn.Parameter(torch.randn(4, 8, 8))  # torch's CPU _grouped_mm wants 16-byte strides

    def forward(self, x, offs):
        if self.op == "aten":
            return torch._grouped_mm(x, self.weight, offs=offs)
        return torch.ops.transformers.grouped_mm_fallback(x, self.weight, offs)


@pytest.mark.parametrize("op", ["transformers", "aten"])
def test_grouped_mm_of_moe_experts(tmp_path, op):
    if op == "transformers":
        import transformers.integrations.moe  # noqa: F401  (registers transformers::grouped_mm_fallback)
    torch.manual_seed(0)
    model = Experts(op).eval()
    x = torch.randn(10, 8)
    # An empty expert; for the fallback also a row past the last offset (zeros there, as transformers
    # leaves it; torch's _grouped_mm leaves such rows uninitialised, so its offsets cover every row).
    offs = torch.tensor([3, 3, 7, 9 if op == "transformers" else 10], dtype=torch.int32)
    path = str(tmp_path / f"experts_{op}.fxw")
    fxwasm.save(model, path, example_inputs=(x, offs), tracer="export")
    _check(path)
