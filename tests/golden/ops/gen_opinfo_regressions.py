"""Generates tests/golden/ops/opinfo_regressions.json: the samples of PyTorch's OpInfo database
(torch.testing._internal.common_methods_invocations.op_db, float32 on CPU, seed 0 as tests/python/opinfo_graphs.py
makes them) on which fxwasm once gave wrong numbers (issue #22), called with the reference torch.
Run with the reference Python:  npm run -s python -- tests/golden/ops/gen_opinfo_regressions.py
(case format: gen_shape_ops.py; run by tests/cpp/ops/golden_test.cpp)."""
import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from golden_format import case, cases  # noqa: E402
from opinfo_graphs import samples  # noqa: E402  (the suite's own samples: same seed, same order)

# op_db name → (target the case calls, why the samples were wrong, which samples)
REGRESSIONS = {
    "nn.functional.conv_transpose3d": ("torch.nn.functional.conv_transpose3d",
                                       "float32 sums of 108 scattered terms of ±80 drifted 2.4e-4 from torch",
                                       lambda s: not s.kwargs and s.args[0].shape[1] == 8),
    "nn.functional.avg_pool2d": ("torch.nn.functional.avg_pool2d", "a negative divisor_override was ignored",
                                 lambda s: len(s.args) > 5 and s.args[5] is not None and s.args[5] < 0),
    "nn.functional.avg_pool3d": ("torch.nn.functional.avg_pool3d", "a negative divisor_override was ignored",
                                 lambda s: s.kwargs.get("divisor_override") is not None
                                 and s.kwargs["divisor_override"] < 0),
    "logit": ("torch.logit", "eps > 0.5 (crossed bounds) clamped as torch.clamp does, not as torch's kernel",
              lambda s: len(s.args) > 0 and s.args[0] is not None and s.args[0] > 0.5),
}

# sums torch itself rounds in its own order: the tolerance of `fxwasm check` (torch's float32 result is
# this close to the exact one; the golden test's default 1e-5 is for results rounded once)
TOLERANCE = {"nn.functional.conv_transpose3d": (1e-4, 1e-5)}


def main():
    from torch.testing._internal.common_methods_invocations import op_db
    for name, (target, _, wanted) in REGRESSIONS.items():
        op = next(o for o in op_db if o.name == name and not o.variant_test_name)
        picked = [(i, s) for i, s in enumerate(samples(op)) if wanted(s)]
        assert picked, f"{name}: no OpInfo sample matches any more"
        for i, s in picked:
            case(f"opinfo/{name}/sample{i}", target, [s.input, *s.args], dict(s.kwargs))
            if name in TOLERANCE:
                cases[-1]["rtol"], cases[-1]["atol"] = TOLERANCE[name]
    with open(os.path.join(HERE, "opinfo_regressions.json"), "w") as f:
        json.dump({"torch": torch.__version__, "cases": cases}, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
