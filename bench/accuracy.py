"""fxwasm's float32 error next to torch's own float32 error, both against a float64 torch run (issue #18 item 5).

    npm run -s python -- bench/accuracy.py            (after `npm run bench`, which writes the models)
    npm run -s python -- bench/accuracy.py --timm     (also the timm corpus: deep random-init CNNs and ViTs,
                                                      from the files the tests' corpus cached)

For each bench model (.cache/bench/<name>/, written by bench/export_onnx.py and bench/export_transformers.py:
same seeded weights, same inputs) the same module is run by torch in float64 and float32, and the .fxw file
by the wasm runtime (`fxwasm run --out`). Errors against float64: max |err| / max |ref| ("max rel") and
mean |err| / mean |ref| ("mean rel"); the last column is fxwasm's max rel over torch float32's: about 1 means
fxwasm rounds as torch does, several times more names a kernel (Winograd, blocking, a polynomial) that trades
accuracy for speed. Prints a table; docs/accuracy.md holds a run of it.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, HERE)
CACHE = os.path.join(ROOT, ".cache", "bench")
CLI = os.path.join(ROOT, "web", "bin", "fxwasm.js")

import numpy as np  # noqa: E402
import torch  # noqa: E402

import fxwasm  # noqa: E402


def errors(got, ref):
    got, ref = np.asarray(got, dtype=np.float64), np.asarray(ref, dtype=np.float64)
    err = np.abs(got - ref)
    return float(err.max() / max(np.abs(ref).max(), 1e-30)), float(err.mean() / max(np.abs(ref).mean(), 1e-30))


def wasm_output(fxw, inputs):
    """The first output of the .fxw file on `inputs` (numpy arrays, in placeholder order), by the CLI."""
    placeholders = [n["name"] for n in fxwasm.read(fxw).nodes if n["op"] == "placeholder"]
    tmp = tempfile.mkdtemp(prefix="fxwasm-acc-")
    flags = []
    for name, x in zip(placeholders, inputs):
        p = os.path.join(tmp, f"{name}.npy")
        np.save(p, x)
        flags += ["--input", f"{name}={p}"]
    out = os.path.join(tmp, "out.npz")
    subprocess.run(["node", CLI, "run", fxw, *flags, "--out", out], check=True, capture_output=True)
    with np.load(out) as z:
        return z[sorted(z.files)[0]]


def first(out):
    return out[0] if isinstance(out, (tuple, list)) else out


def measure(name, model, inputs, fxw):
    model = model.eval()
    with torch.no_grad():
        want64 = first(model.double()(*[x.double() if x.is_floating_point() else x for x in inputs])).numpy()
        got32 = first(model.float()(*inputs)).numpy()
    got_fx = wasm_output(fxw, [x.numpy() for x in inputs])
    t_max, t_mean = errors(got32, want64)
    f_max, f_mean = errors(got_fx, want64)
    return {"model": name, "torch_max": t_max, "torch_mean": t_mean, "fx_max": f_max, "fx_mean": f_mean,
            "ratio": f_max / max(t_max, 1e-30)}


def bench_models():
    import export_onnx
    for name in ("mlp", "conv_stack", "decoder_block", "mobilenet_v2", "resnet18"):
        d = os.path.join(CACHE, name)
        if not os.path.exists(os.path.join(d, "meta.json")):
            continue
        meta = json.load(open(os.path.join(d, "meta.json")))
        model, _ = export_onnx.MODELS[name]()
        inputs = [torch.from_numpy(np.load(os.path.join(d, i["file"]))) for i in meta["inputs"]]
        yield name, model, inputs, os.path.join(d, "model.fxw")
    import transformer_models as tm
    d = os.path.join(CACHE, "transformers", "encoder")
    if os.path.exists(os.path.join(d, "encoder_fp32.fxw")):
        inputs = [torch.from_numpy(np.load(os.path.join(d, f))) for f in ("input_ids.npy", "attention_mask.npy")]
        yield "encoder (BERT)", tm.encoder(), inputs, os.path.join(d, "encoder_fp32.fxw")
    d = os.path.join(CACHE, "transformers", "decoder")
    if os.path.exists(os.path.join(d, "prefill_fp32.fxw")):
        prompt = torch.from_numpy(np.load(os.path.join(d, "prompt_32.npy")))
        yield "decoder prefill (32)", tm.Prefill(tm.gpt()), [prompt], os.path.join(d, "prefill_fp32.fxw")


def timm_models():
    """The real-world corpus's timm models (tests/corpus/timm_models.py: pinned timm, seeded weights and
    inputs), from the files its build cached in the per-user cache."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "corpus"))
    sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
    import timm_models
    from realworld import CACHE as REALWORLD
    for name, tracer in timm_models.MODELS:
        fxw = os.path.join(REALWORLD, "timm", f"{name}_{tracer}.fxw")
        if not os.path.exists(fxw):
            continue
        model, x = timm_models.build(name)
        yield f"timm {name} ({tracer})", model, [x], fxw


def main():
    sources = [bench_models()] + ([timm_models()] if "--timm" in sys.argv[1:] else [])
    rows = []
    for source in sources:
        for m in source:
            try:
                rows.append(measure(*m))
            except Exception as e:  # a model torch cannot run in float64, a file that fails: say so, go on
                print(f"{m[0]}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}", file=sys.stderr)
    if not rows:
        print("no bench models in .cache/bench: run `npm run bench` (or bench/export_onnx.py) first")
        return 1
    print(f"{'model':44s} {'torch f32 max rel':>18s} {'fxwasm max rel':>15s} {'torch mean rel':>15s} "
          f"{'fxwasm mean rel':>16s} {'fx/torch max':>13s}")
    for r in rows:
        print(f"{r['model']:44s} {r['torch_max']:18.2e} {r['fx_max']:15.2e} {r['torch_mean']:15.2e} "
              f"{r['fx_mean']:16.2e} {r['ratio']:13.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
