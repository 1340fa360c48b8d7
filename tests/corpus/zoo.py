"""The torchvision zoo: exports classifiers (random init, no downloads, small inputs) with the symbolic
and aten tracers, then runs each file natively on its stored reference and reports pass/fail.

    python tests/corpus/zoo.py [--out DIR] [--only NAME ...] [--tracers symbolic,aten] [--size 64]
                               [--runner native|node] [--build DIR] [--force] [--no-run]

Not part of `npm test` (exporting and running sixteen networks takes minutes). Runners:
  native  `fxwasm_native check` of a native build (cpp/tools/fxwasm_native.cpp); --build picks it
  node    `node web/bin/fxwasm.js check FILE` per file (the wasm package as built in web/)
Export failures (the tracer cannot take the model) are reported as such, separately from run failures.
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))

import torch  # noqa: E402
import torchvision.models as tvm  # noqa: E402

import fxwasm  # noqa: E402

# name → (builder, {tracer: extra note}); builders take no arguments and never download weights.
ZOO = {
    "resnet18": lambda: tvm.resnet18(),
    "resnet50": lambda: tvm.resnet50(),
    "mobilenet_v2": lambda: tvm.mobilenet_v2(),
    "mobilenet_v3_small": lambda: tvm.mobilenet_v3_small(),
    "squeezenet1_0": lambda: tvm.squeezenet1_0(),
    "efficientnet_b0": lambda: tvm.efficientnet_b0(),
    "vgg11": lambda: tvm.vgg11(),
    "densenet121": lambda: tvm.densenet121(),
    "googlenet": lambda: tvm.googlenet(aux_logits=False, init_weights=True),
    "regnet_y_400mf": lambda: tvm.regnet_y_400mf(),
    "convnext_tiny": lambda: tvm.convnext_tiny(),
    "mnasnet0_5": lambda: tvm.mnasnet0_5(),
    "shufflenet_v2_x0_5": lambda: tvm.shufflenet_v2_x0_5(),
    "alexnet": lambda: tvm.alexnet(),
    "vit_b_16": lambda: tvm.vit_b_16(image_size=64),
    "swin_t": lambda: tvm.swin_t(),
}
# Input side per model where the default does not fit (ViT's is fixed at construction).
SIZES = {"vit_b_16": 64}


def export_all(names, tracers, size, out_dir, force):
    """Returns {file stem: error message} for the exports that failed."""
    failures = {}
    for name in names:
        for tracer in tracers:
            stem = f"{name}_{tracer}"
            path = os.path.join(out_dir, stem + ".fxw")
            if os.path.exists(path) and not force:
                print(f"{stem:32s} cached", flush=True)
                continue
            torch.manual_seed(0)
            model = ZOO[name]().eval()
            s = SIZES.get(name, size)
            x = torch.randn(1, 3, s, s)
            t0 = time.time()
            try:
                fxwasm.save(model, path, example_inputs=(x,), tracer=tracer, reference=True)
                print(f"{stem:32s} exported {os.path.getsize(path) / 1e6:8.1f} MB {time.time() - t0:6.1f} s", flush=True)
            except Exception as e:  # the tracer cannot take this model: record why
                msg = str(e).strip().splitlines()[0][:300] if str(e).strip() else type(e).__name__
                failures[stem] = f"export failed: {type(e).__name__}: {msg}"
                print(f"{stem:32s} {failures[stem]}", flush=True)
    return failures


def run_native(out_dir, build, only_stems):
    exe = os.path.join(build, "fxwasm_native")
    if not os.path.exists(exe):
        sys.exit(f"zoo: no {exe}; build natively first (cmake -S . -B {build} && cmake --build {build})")
    files = sorted(os.path.join(out_dir, f) for f in os.listdir(out_dir)
                   if f.endswith(".fxw") and f[:-4] in only_stems)
    p = subprocess.run([exe, "check", *files], capture_output=True, text=True)
    results = {}
    for line in p.stdout.splitlines():
        if line.startswith("PASS "):
            stem, ms = line[len("PASS "):].rsplit(" ", 1)
            results[stem] = (True, f"{ms} ms")
        elif line.startswith("FAIL "):
            stem, why = line[len("FAIL "):].split(": ", 1)
            results[stem] = (False, why)
    if not results and p.returncode not in (0, 1):
        print(p.stdout[-2000:], p.stderr[-2000:])
    return results


def run_node(out_dir, stems):
    results = {}
    for stem in stems:
        path = os.path.join(out_dir, stem + ".fxw")
        if not os.path.exists(path):
            continue
        p = subprocess.run(["node", os.path.join(ROOT, "web", "bin", "fxwasm.js"), "check", path],
                           capture_output=True, text=True)
        out = (p.stdout + p.stderr).strip().replace("\n", " | ")
        results[stem] = (p.returncode == 0, out[-300:])
        print(f"{stem:32s} {'PASS' if p.returncode == 0 else 'FAIL'}", flush=True)
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(ROOT, ".cache", "zoo"))
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--tracers", default="symbolic,aten")
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--runner", choices=("native", "node"), default="native")
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "lead"))
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--no-run", action="store_true")
    args = ap.parse_args()
    names = args.only or list(ZOO)
    unknown = [n for n in names if n not in ZOO]
    if unknown:
        sys.exit(f"zoo: unknown model(s) {unknown}; known: {', '.join(ZOO)}")
    tracers = args.tracers.split(",")
    os.makedirs(args.out, exist_ok=True)
    export_fail = export_all(names, tracers, args.size, args.out, args.force)
    if args.no_run:
        return 0
    stems = [f"{n}_{t}" for n in names for t in tracers if f"{n}_{t}" not in export_fail]
    results = run_native(args.out, args.build, set(stems)) if args.runner == "native" else run_node(args.out, stems)
    print("\nmodel                            result")
    ok = 0
    for n in names:
        for t in tracers:
            stem = f"{n}_{t}"
            if stem in export_fail:
                print(f"{stem:32s} EXPORT-FAIL {export_fail[stem]}")
            elif stem in results:
                passed, why = results[stem]
                ok += passed
                print(f"{stem:32s} {'PASS' if passed else 'FAIL'} {why}")
            else:
                print(f"{stem:32s} NOT-RUN")
    print(f"\n{ok} of {len(names) * len(tracers)} pass")
    return 0 if ok == len(names) * len(tracers) else 1


if __name__ == "__main__":
    sys.exit(main())
