"""symbolic_trace's concrete_args through the exporter (issue #18): arguments specialised to a value keep
their placeholders and torch's checks of them (`torch._assert`, `_assert_is_none`); the file passes `fxwasm
check`, its table and code are torch's, and a run with another value for a specialised argument fails with
torch's message, naming the node."""
import torch
from torch import nn

from corpus_graphs import print_tabular
from realworld import cli

import fxwasm


class Flags(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 3)

    def forward(self, x, use_relu=True, scale=None):
        y = self.lin(x)
        if use_relu:
            y = torch.relu(y)
        if scale is not None:
            y = y * scale
        return y


CONCRETE = {"use_relu": False, "scale": None}


def _saved(tmp_path):
    torch.manual_seed(0)
    model = Flags().eval()
    path = str(tmp_path / "flags.fxw")
    fxwasm.save(model, path, example_inputs=(torch.randn(2, 4), False, None), concrete_args=CONCRETE)
    return model, path


def test_concrete_args_file_checks_and_reads_as_torch(tmp_path):
    model, path = _saved(tmp_path)
    code, out, err = cli("check", path)
    assert code == 0 and "check: pass" in out, out + err
    gm = torch.fx.symbolic_trace(model, concrete_args=CONCRETE)
    code, out, err = cli("table", path)
    assert code == 0, err
    assert out == print_tabular(gm)
    code, out, err = cli("code", path)
    assert code == 0, err
    assert "use_relu has been specialized to have value False" in out
    assert "_assert_is_none(scale_1" in out


def test_a_specialised_argument_given_another_value_fails_with_torchs_message(tmp_path):
    import json
    import subprocess
    from corpus_graphs import ROOT
    import os
    _, path = _saved(tmp_path)
    script = tmp_path / "run.mjs"
    script.write_text(f"""
import * as fx from {json.dumps(os.path.join(ROOT, 'web', 'src', 'index.js'))};
const gm = await fx.load(process.argv[2]);
const x = fx.tensor(new Float32Array(8), [2, 4]);
console.log(JSON.stringify((await gm.run([x, false, null])).shape));
try {{ await gm.run([x, true, null]); console.log('no error'); }} catch (e) {{ console.log(e.constructor.name, e.node, e.message); }}
try {{ await gm.run([x, false, 2.0]); console.log('no error'); }} catch (e) {{ console.log(e.constructor.name, e.node, e.message); }}
""")
    proc = subprocess.run(["node", str(script), path], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().split("\n")
    assert lines[0] == "[2,3]"
    assert lines[1].startswith("FxError _assert ") and "use_relu has been specialized to have value False" in lines[1]
    assert lines[2].startswith("FxError _assert_is_none ") and "scale has been specialized" in lines[2]


def test_concrete_args_only_with_the_symbolic_tracer():
    import pytest
    with pytest.raises(fxwasm.ExportError, match="concrete_args goes with tracer='symbolic'"):
        fxwasm.dumps(Flags(), (torch.randn(2, 4),), tracer="aten", concrete_args=CONCRETE)
