"""A torch.compile (Dynamo) backend that saves every graph it receives as .fxw and runs it unchanged."""
import os
import warnings

import torch

from .errors import ExportError
from .save import dumps


def dynamo_backend(out_dir, reference=True):
    """backend(gm, example_inputs) -> gm.forward; writes out_dir/graph_<k>.fxw for the k-th graph (from 0).

    The reference stored in each file is computed from the example inputs Dynamo passes. The paths
    written so far are in `backend.saved`.
    """
    os.makedirs(out_dir, exist_ok=True)
    saved = []

    def backend(gm: torch.fx.GraphModule, example_inputs):
        path = os.path.join(out_dir, f"graph_{len(saved)}.fxw")
        inputs = [x for x in example_inputs]
        try:
            data = dumps(gm, inputs if reference else None, reference=reference, tracer_name="dynamo")
        except ExportError as e:
            if not reference or "running the graph" not in str(e):
                raise
            # a graph torch cannot re-run eagerly on these inputs is still worth saving, without a reference
            warnings.warn(f"fxwasm: {path}: saved without a reference ({e})")
            data = dumps(gm, None, reference=False, tracer_name="dynamo")
        with open(path, "wb") as f:
            f.write(data)
        saved.append(path)
        return gm.forward

    backend.saved = saved
    return backend
