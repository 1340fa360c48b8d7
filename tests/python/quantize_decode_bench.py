"""Decode-step speed of fp32 / int8 / int4 weights (issue #23): a GPT-style decoder of the issue's size
(6 layers, d=384, vocab 4096: 14M parameters) exported as one decoding step (one new token over a past of
PAST positions), timed with `node web/bin/fxwasm.js bench` (median of --runs). Prints one line per variant:
file size, median ms per token and tokens/s, and the cosine of its logits against torch float32.
Usage: PYTHONPATH=python python tests/python/quantize_decode_bench.py [--past 200] [--runs 30]"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fxwasm  # noqa: E402
from quantize_models import DecoderStep  # noqa: E402

CLI = os.path.join(ROOT, "web", "bin", "fxwasm.js")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--past", type=int, default=200)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--layers", type=int, default=6)
    ap.add_argument("--d", type=int, default=384)
    ap.add_argument("--vocab", type=int, default=4096)
    args = ap.parse_args()
    torch.manual_seed(0)
    heads = 6
    net = DecoderStep(vocab=args.vocab, d=args.d, layers=args.layers, heads=heads, max_len=args.past + 8).eval()
    hd = args.d // heads
    inputs = (torch.tensor([[7]]), torch.tensor([args.past]),
              torch.randn(args.layers, 1, heads, args.past, hd), torch.randn(args.layers, 1, heads, args.past, hd))
    with torch.no_grad():
        want = net(*inputs)[0]
    tmp = tempfile.mkdtemp(prefix="fxwasm-qbench-")
    names = ["idx", "pos", "past_k", "past_v"]
    flags = []
    for name, x in zip(names, inputs):
        np.save(os.path.join(tmp, f"{name}.npy"), x.numpy())
    results = {}
    for weights in ["fp32", "int8", "int4"]:
        path = os.path.join(tmp, f"step_{weights}.fxw")
        fxwasm.save(net, path, example_inputs=inputs, tracer="export", weights=weights, reference=False)
        f = fxwasm.read(path)
        placeholders = [n["name"] for n in f.nodes if n["op"] == "placeholder"]
        flags = []
        for name, ph in zip(names, placeholders):
            flags += ["--input", f"{ph}={os.path.join(tmp, name + '.npy')}"]
        out = os.path.join(tmp, f"out_{weights}.npz")
        subprocess.run(["node", CLI, "run", path, *flags, "--out", out], check=True, capture_output=True)
        got = torch.from_numpy(np.load(out)[sorted(np.load(out).files)[0]])
        cos = torch.nn.functional.cosine_similarity(got.reshape(1, -1).double(), want.reshape(1, -1).double()).item()
        p = subprocess.run(["node", CLI, "bench", path, *flags, "--runs", str(args.runs), "--warmup", "5", "--json"],
                           check=True, capture_output=True, text=True)
        b = json.loads(p.stdout)
        med = b.get("median_ms", b.get("median"))
        results[weights] = (os.path.getsize(path), med, cos)
    base_size, base_ms, _ = results["fp32"]
    for weights, (size, med, cos) in results.items():
        print(f"{weights}: file {size / 1e6:.1f} MB ({size / base_size:.3f}x fp32), median {med:.2f} ms/token "
              f"({1000 / med:.0f} tok/s, {base_ms / med:.2f}x fp32), logits cosine {cos:.6f}")


if __name__ == "__main__":
    main()
