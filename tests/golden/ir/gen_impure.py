"""Asks the reference torch which call_function targets Node.is_impure() calls impure, for
tests/cpp/ir/purity_test.cpp.

Run with the project's reference Python:  npm run -s python -- tests/golden/ir/gen_impure.py
Writes tests/golden/ir/impure.json:
  aten: {"impure": [...], "pure": [...]}  -- every overload of torch.ops.aten, as "aten.<op>.<overload>"
  functions: [{target, impure}]            -- Python-level callables and other torch.ops, by canonical name
"""
import json
import os

import torch
import torch.fx

from ir_golden_common import resolve_target

FUNCTIONS = [
    "torch.abs", "torch.sum", "operator.add", "operator.getitem", "torch.nn.functional.relu", "torch.cat",
    "torch._assert", "torch._assert_async", "_operator.setitem", "torch.rand", "torch.randn", "torch.randint",
    "torch.randperm", "torch.rand_like", "torch.randn_like", "torch.randint_like", "torch.normal", "torch.poisson",
    "torch.bernoulli", "torch.multinomial", "torch.nn.functional.dropout", "torch.dropout",
    "torch._C._set_grad_enabled", "torch.amp.autocast_mode._enter_autocast",
    "torch.amp.autocast_mode._exit_autocast", "torch.autograd.grad_mode._enter_inference_mode",
    "torch.autograd.grad_mode._exit_inference_mode", "torch._functorch.predispatch._enter_dual_level",
    "torch._functorch.predispatch._exit_dual_level", "torch._functorch.predispatch._jvp_increment_nesting",
    "torch._functorch.predispatch._jvp_decrement_nesting",
    "profiler._record_function_enter", "profiler._record_function_enter.default",
    "profiler._record_function_enter_new", "profiler._record_function_enter_new.default",
    "profiler._record_function_exit", "profiler._record_function_exit._RecordFunction",
    "inductor.accumulate_grad_.default", "prims._sink_tokens.default", "prims.convert_element_type.default",
    "getattr", "torch.flatten", "math.sqrt",
]


def impure(target_obj):
    g = torch.fx.Graph()
    return g.call_function(target_obj).is_impure()


def main():
    out = {"aten": {"impure": [], "pure": []}, "functions": []}
    aten = torch.ops.aten
    for name in sorted(dir(aten)):
        try:
            packet = getattr(aten, name)
        except Exception:
            continue
        if not isinstance(packet, torch._ops.OpOverloadPacket):
            continue
        for overload in packet.overloads():
            canonical = f"aten.{name}.{overload}"
            out["aten"]["impure" if impure(getattr(packet, overload)) else "pure"].append(canonical)
    for target in FUNCTIONS:
        out["functions"].append({"target": target, "impure": impure(resolve_target(target))})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "impure.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=0)
        fh.write("\n")
    print(f"wrote {path}: {len(out['aten']['impure'])} impure and {len(out['aten']['pure'])} pure aten overloads")


if __name__ == "__main__":
    main()
