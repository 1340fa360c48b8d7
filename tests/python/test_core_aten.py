"""Every Core ATen overload of the reference torch (torch.Tag.core; 193 in torch 2.15) runs in fxwasm, or is listed below with
the reason it does not: the runtime's list (python/fxwasm/supported_ops.json, kept equal to `fxwasm ops` by
tests/js/supported_ops.test.js) against torch's own, so a gap cannot open — or close — silently."""
import json
import os

import torch

from corpus_graphs import ROOT

# overload → why the runtime does not run it (yet)
NOT_SUPPORTED = {
    # gradients: fxwasm runs inference graphs
    "aten._adaptive_avg_pool2d_backward.default": "backward",
    "aten.avg_pool2d_backward.default": "backward",
    "aten.convolution_backward.default": "backward",
    "aten.embedding_dense_backward.default": "backward",
    "aten.native_group_norm_backward.default": "backward",
    "aten.native_layer_norm_backward.default": "backward",
    # random numbers: no generator matches torch's stream
    "aten.rand.default": "random", "aten.randn.default": "random", "aten.randperm.default": "random",
    # out= variants, raw strides, storage offsets: not produced by inference exports
    "aten.atan2.out": "out= variant", "aten.empty_strided.default": "explicit strides",
    "aten.sym_storage_offset.default": "storage offsets",
    "aten.sym_is_contiguous.default": "memory layout queries",
    # in-place storage resizing (functionalized away in inference exports)
    "aten.resize_.default": "in-place storage resize",
}


def core_aten_overloads():
    """Every aten overload tagged core, from the dispatcher's registry (dir(torch.ops.aten) lists only the
    packets touched so far, so it depends on what ran before)."""
    names = set()
    for qualified in torch._C._dispatch_get_all_op_names():
        if not qualified.startswith("aten::"):
            continue
        name, _, overload = qualified[len("aten::"):].partition(".")
        packet = getattr(torch.ops.aten, name, None)
        overload = overload or "default"
        op = getattr(packet, overload, None) if packet is not None else None
        if op is not None and torch.Tag.core in op.tags:
            names.add(f"aten.{name}.{overload}")
    return names


def test_every_core_aten_overload_runs_or_is_listed_with_a_reason():
    with open(os.path.join(ROOT, "python", "fxwasm", "supported_ops.json"), encoding="utf8") as f:
        supported = set(json.load(f)["functions"])
    core = core_aten_overloads()
    assert len(core) >= 180, f"torch lists only {len(core)} Core ATen overloads"
    missing = core - supported
    assert sorted(missing - NOT_SUPPORTED.keys()) == [], "new Core ATen gaps"
    assert sorted(NOT_SUPPORTED.keys() & supported) == [], "supported now: remove from NOT_SUPPORTED"
    assert sorted(NOT_SUPPORTED.keys() - core) == [], "no longer Core ATen in this torch"
