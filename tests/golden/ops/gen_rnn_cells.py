"""Generates tests/golden/ops/rnn_cells.json: one recurrent step as aten runs it (ops/nn/rnn_cell.cpp) —
aten.rnn_tanh_cell / rnn_relu_cell / gru_cell / lstm_cell and their torch.* spellings — with and without
biases, float64 and float16, an empty batch, non-contiguous inputs, keyword biases and torch's errors.
Run with the reference Python:  npm run -s python -- tests/golden/ops/gen_rnn_cells.py
(case format: gen_shape_ops.py)."""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden_format import F16, F64, case, cases, tensor  # noqa: E402

torch.manual_seed(0)
B, I, H = 3, 4, 5
CELLS = {"rnn_tanh_cell": 1, "rnn_relu_cell": 1, "gru_cell": 3, "lstm_cell": 4}


def hidden(name, b=B, dtype=torch.float32):
    h = tensor([b, H], dtype, lo=-1, hi=1)
    return [h, tensor([b, H], dtype, lo=-1, hi=1)] if name == "lstm_cell" else h


for name, g in CELLS.items():
    w_ih, w_hh = tensor([g * H, I], lo=-1, hi=1), tensor([g * H, H], lo=-1, hi=1)
    b_ih, b_hh = tensor([g * H], lo=-1, hi=1), tensor([g * H], lo=-1, hi=1)
    x, hx = tensor([B, I], lo=-2, hi=2), hidden(name)
    aten = f"aten.{name}.default"
    case(f"{name}/bias", aten, [x, hx, w_ih, w_hh, b_ih, b_hh])
    case(f"{name}/no_bias", aten, [x, hx, w_ih, w_hh])
    case(f"{name}/torch_kw_bias", f"torch.{name}", [x, hx, w_ih, w_hh], {"b_ih": b_ih, "b_hh": b_hh})
    case(f"{name}/one_bias", aten, [x, hx, w_ih, w_hh, None, b_hh])
    d = lambda t: [u.to(F64) for u in t] if isinstance(t, list) else t.to(F64)  # noqa: E731
    case(f"{name}/f64", aten, [d(x), d(hx), d(w_ih), d(w_hh), d(b_ih), d(b_hh)])
    h16 = lambda t: [u.to(F16) for u in t] if isinstance(t, list) else t.to(F16)  # noqa: E731
    case(f"{name}/f16", aten, [h16(x), h16(hx), h16(w_ih), h16(w_hh), h16(b_ih), h16(b_hh)])
    cases[-1]["rtol"], cases[-1]["atol"] = 1e-2, 2e-3
    case(f"{name}/empty_batch", aten, [tensor([0, I]), hidden(name, 0), w_ih, w_hh, b_ih, b_hh])
    case(f"{name}/non_contiguous", aten, [tensor([I, B], lo=-2, hi=2).t(), hx, tensor([I, g * H], lo=-1, hi=1).t(),
                                          w_hh, b_ih, b_hh])
    case(f"{name}/unbatched_error", aten, [tensor([I]), [u[0] for u in hx] if isinstance(hx, list) else hx[0],
                                           w_ih, w_hh])
    case(f"{name}/input_size_error", aten, [tensor([B, I + 1]), hx, w_ih, w_hh])
    case(f"{name}/batch_error", aten, [tensor([B + 1, I]), hx, w_ih, w_hh])
    case(f"{name}/dtype_error", aten, [d(x), hx, w_ih, w_hh])
case("lstm_cell/one_state_error", "aten.lstm_cell.default",
     [tensor([B, I]), [tensor([B, H])], tensor([4 * H, I]), tensor([4 * H, H])])

out = {"torch": torch.__version__, "cases": cases}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rnn_cells.json")
with open(path, "w") as f:
    json.dump(out, f, indent=None, separators=(",", ":"))
    f.write("\n")
print(f"wrote {len(cases)} cases to {path}")
