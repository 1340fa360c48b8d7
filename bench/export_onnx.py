"""Writes the benchmark models, each in every format the engines of bench/run.mjs read.

    npm run -s python -- bench/export_onnx.py [--models mlp,conv_stack] [--force]

For each model, into .cache/bench/<name>/ (git-ignored), all from ONE module instance (same weights):
  model.fxw       fxwasm.save(model, tracer="symbolic") with a reference run (inputs + torch outputs)
  model.onnx      torch.onnx.export (the TorchScript exporter, dynamo=False: it needs nothing beyond onnx)
  input_<i>.npy   the example inputs every engine gets
  expected.npy    torch's output on them (the first output when there are several)
  weights/*.npy   the state_dict in torch's layout (Linear [out, in], Conv2d OIHW), for the tfjs versions
  meta.json       shapes, dtypes, FLOPs (torch.utils.flop_counter), the weight files, the sources' versions
A model whose meta.json is newer than this file, tests/corpus/models.py and python/fxwasm/*.py is skipped.

The models come from the corpus (tests/corpus/models.py: seeded, so they equal the .cache/corpus files)
plus two defined here: a conv stack, 3 x [conv3x3 64->64 + relu] on 1x64x56x56 (the layer shape of
TOOLCHAIN.md's reference conv number), and "elementwise", the seed graph's arithmetic on two
1x64x112x112 tensors (memory-bound; no GEMM).
"""
import argparse
import glob
import json
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "tests", "corpus"))
OUT_ROOT = os.path.join(ROOT, ".cache", "bench")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402


class ConvStack(nn.Module):
    """depth x [conv3x3 (padding 1) + relu], channels kept: the core of a ResNet stage, nothing else."""

    def __init__(self, channels=64, depth=3):
        super().__init__()
        self.convs = nn.ModuleList(nn.Conv2d(channels, channels, 3, padding=1) for _ in range(depth))

    def forward(self, x):
        for conv in self.convs:
            x = F.relu(conv(x))
        return x


def conv_stack():
    torch.manual_seed(0)
    return ConvStack().eval(), (torch.randn(1, 64, 56, 56),)


class Elementwise(nn.Module):
    """The seed graph's arithmetic (x / (|x| + 1) * y) on activation-sized tensors: memory-bound work and
    per-op overhead, no GEMM. The ops every engine has had from the start."""

    def forward(self, x, y):
        return x / (torch.abs(x) + 1) * y


def elementwise():
    torch.manual_seed(0)
    return Elementwise().eval(), (torch.randn(1, 64, 112, 112), torch.randn(1, 64, 112, 112))


def corpus_builder(name):
    def build():
        import build_corpus  # tests/corpus/build_corpus.py: compiles models.py under its relative path
        return build_corpus.import_models().BUILDERS[name]()
    return build


MODELS = {
    "elementwise": elementwise,
    "mlp": corpus_builder("mlp"),
    "conv_stack": conv_stack,
    "resnet18": corpus_builder("resnet18"),
    "mobilenet_v2": corpus_builder("mobilenet_v2"),
    "decoder_block": corpus_builder("decoder_block"),
}


def dependencies():
    deps = [os.path.abspath(__file__), os.path.join(ROOT, "tests", "corpus", "models.py")]
    return deps + glob.glob(os.path.join(ROOT, "python", "fxwasm", "*.py"))


def is_fresh(out_dir):
    meta = os.path.join(out_dir, "meta.json")
    if not os.path.exists(meta):
        return False
    return os.path.getmtime(meta) > max(os.path.getmtime(d) for d in dependencies())


def count_flops(model, inputs):
    """FLOPs of one forward (a multiply-add counts 2), or None if the counter cannot run the model."""
    try:
        from torch.utils.flop_counter import FlopCounterMode
        with FlopCounterMode(display=False) as counter, torch.no_grad():
            model(*inputs)
        return int(counter.get_total_flops())
    except Exception as e:  # the numbers are a bonus; never fail the export for them
        print(f"  (no FLOP count: {e})")
        return None


def export_onnx(model, inputs, path):
    names = [f"input_{i}" for i in range(len(inputs))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation and tracer warnings
        torch.onnx.export(model, inputs, path, input_names=names, output_names=["output"],
                          opset_version=17, do_constant_folding=True, dynamo=False)
    return names


def export(name, force=False):
    import fxwasm
    out_dir = os.path.join(OUT_ROOT, name)
    if not force and is_fresh(out_dir):
        print(f"{name:14s} up to date  {os.path.relpath(out_dir, ROOT)}")
        return
    t0 = time.perf_counter()
    os.makedirs(os.path.join(out_dir, "weights"), exist_ok=True)
    if os.path.exists(os.path.join(out_dir, "meta.json")):
        os.remove(os.path.join(out_dir, "meta.json"))  # a half-rebuilt set must not look complete
    model, inputs = MODELS[name]()
    model.eval()

    with torch.no_grad():
        out = model(*inputs)
    outputs = list(out) if isinstance(out, (tuple, list)) else [out]

    cwd = os.getcwd()
    os.chdir(ROOT)  # stack traces in the file name tests/corpus/models.py relative to the repository
    try:
        fxwasm.save(model, os.path.join(out_dir, "model.fxw"), example_inputs=inputs, tracer="symbolic",
                    reference=True)
    finally:
        os.chdir(cwd)
    input_names = export_onnx(model, inputs, os.path.join(out_dir, "model.onnx"))

    for i, x in enumerate(inputs):
        np.save(os.path.join(out_dir, f"input_{i}.npy"), x.numpy())
    np.save(os.path.join(out_dir, "expected.npy"), outputs[0].numpy())
    weights = {}
    for key, value in model.state_dict().items():
        if not value.is_floating_point():
            continue  # e.g. BatchNorm's num_batches_tracked
        fname = f"weights/{key}.npy"
        np.save(os.path.join(out_dir, fname), value.detach().numpy())
        weights[key] = {"file": fname, "shape": list(value.shape)}

    meta = {
        "name": name,
        "torch": torch.__version__,
        "inputs": [{"name": n, "file": f"input_{i}.npy", "shape": list(x.shape), "dtype": str(x.dtype)[6:]}
                   for i, (n, x) in enumerate(zip(input_names, inputs))],
        "output": {"file": "expected.npy", "shape": list(outputs[0].shape), "count": len(outputs)},
        "flops": count_flops(model, inputs),
        "parameters": sum(p.numel() for p in model.parameters()),
        "fxw": "model.fxw",
        "onnx": "model.onnx",
        "weights": weights,
    }
    with open(os.path.join(out_dir, "meta.json"), "w") as f:  # written last: it marks the set complete
        json.dump(meta, f, indent=1)
    sizes = {k: os.path.getsize(os.path.join(out_dir, k)) / 1e6 for k in ("model.fxw", "model.onnx")}
    print(f"{name:14s} built in {time.perf_counter() - t0:.1f}s  fxw {sizes['model.fxw']:.1f} MB  "
          f"onnx {sizes['model.onnx']:.1f} MB  {os.path.relpath(out_dir, ROOT)}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated, from: " + ",".join(MODELS))
    parser.add_argument("--force", action="store_true", help="rebuild even when the outputs are up to date")
    args = parser.parse_args(argv)
    names = [n for n in args.models.split(",") if n]
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        parser.error(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(MODELS)}")
    failed = []
    for name in names:
        try:
            export(name, args.force)
        except Exception as e:  # one model's failure (e.g. the exporter mid-change) must not stop the others
            print(f"{name:14s} FAILED: {type(e).__name__}: {e}", file=sys.stderr)
            failed.append(name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
