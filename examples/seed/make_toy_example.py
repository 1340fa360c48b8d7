"""Rebuilds examples/seed/toy_example.fxw: the seed's Dynamo `toy_example`, captured with
fxwasm.dynamo_backend on torch.randn(10) inputs (fixed seed); the first graph Dynamo produces is saved.

    npm run -s python -- examples/seed/make_toy_example.py
"""
import os
import shutil
import sys
import tempfile

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import fxwasm  # noqa: E402


def toy_example(a, b):
    x = a / (torch.abs(a) + 1)
    if b.sum() < 0:
        b = b * -1
    return x * b


def main(out_path=None):
    here = os.path.dirname(os.path.abspath(__file__))
    out_path = os.path.abspath(out_path or os.path.join(here, "toy_example.fxw"))
    cwd = os.getcwd()
    # stack traces in the file name this script relative to the current directory (docs/format.md §5):
    # from the repository root they read examples/seed/make_toy_example.py in every checkout
    os.chdir(os.path.dirname(os.path.dirname(here)))
    try:
        torch.manual_seed(0)
        torch._dynamo.reset()
        with tempfile.TemporaryDirectory() as tmp:
            backend = fxwasm.dynamo_backend(tmp)
            compiled = torch.compile(toy_example, backend=backend)
            compiled(torch.randn(10), torch.randn(10))
            shutil.copyfile(backend.saved[0], out_path)
        torch._dynamo.reset()
    finally:
        os.chdir(cwd)
    print(f"wrote {out_path}")
    return out_path


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
