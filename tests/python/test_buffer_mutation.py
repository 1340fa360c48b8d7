"""Graphs that write into their buffers (issue #18): a static KV cache updated with index_copy_ and a step
counter, through torch.export (its module keeps the in-place ops on the buffers) and make_fx. The
file stores the buffers as they were before the exporter's reference run, the model is left as it was,
`fxwasm check` passes, and runs of the file carry the buffers from run to run exactly as calls of the model
do."""
import json
import os
import subprocess

import pytest
import torch
from torch import nn

from corpus_graphs import ROOT
from realworld import cli

import fxwasm


class StaticCache(nn.Module):
    """A cache of 8 positions written at `pos` each call, and a call counter."""

    def __init__(self):
        super().__init__()
        self.register_buffer("k", torch.zeros(1, 2, 8, 4))
        self.register_buffer("calls", torch.zeros(1))

    def forward(self, x, pos):
        self.k.index_copy_(2, pos, x)
        self.calls.add_(1)
        return self.k.sum(2) * self.calls


STEPS = [(torch.arange(1.0, 9.0).view(1, 2, 1, 4), 3), (torch.full((1, 2, 1, 4), 0.5), 5),
         (torch.arange(8.0).view(1, 2, 1, 4), 3)]


def _run_file(tmp_path, path):
    script = tmp_path / "run.mjs"
    steps = [[x.flatten().tolist(), p] for x, p in STEPS]
    script.write_text(f"""
import * as fx from {json.dumps(os.path.join(ROOT, 'web', 'src', 'index.js'))};
const gm = await fx.load(process.argv[2]);
const out = [];
for (const [x, p] of {json.dumps(steps)}) {{
  const y = await gm.run([fx.tensor(new Float32Array(x), [1, 2, 1, 4]), fx.tensor(BigInt64Array.of(BigInt(p)), [1], 'int64')]);
  out.push(Array.from(y.data));
}}
console.log(JSON.stringify(out));
""")
    proc = subprocess.run(["node", str(script), path], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("tracer", ["export", "aten"])
def test_buffers_written_in_place_carry_over_runs_as_in_torch(tmp_path, tracer):
    model = StaticCache()
    path = str(tmp_path / f"cache_{tracer}.fxw")
    fxwasm.save(model, path, (STEPS[0][0], torch.tensor([STEPS[0][1]])), tracer=tracer)
    # the model is as it was: saving ran it once, on buffers put back afterwards
    assert model.calls.item() == 0 and not model.k.any()
    code, out, err = cli("check", path)
    assert code == 0 and "check: pass" in out, out + err
    want = [model(x, torch.tensor([p])).flatten().tolist() for x, p in STEPS]
    assert _run_file(tmp_path, path) == want
