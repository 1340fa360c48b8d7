"""Builds the models the graph-view browser test (and its smoothness measurement) open, with the exporter:

    scripts/python.sh tests/browser/make_graph_fixtures.py OUT_DIR [--big]

resnet18 (torchvision, symbolic trace) and vit_tiny (torchvision's VisionTransformer at 32x32 with two
layers: the same node kinds as vit_b_16 in a small file); --big adds resnet50 and vit_b_16 (random
weights, ~100 and ~330 MB) for measuring the view on large graphs. A file newer than this script and the
exporter (python/fxwasm/*.py) is kept.
"""
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))


def models(big):
    import torch
    import torchvision

    torch.manual_seed(0)
    yield "resnet18", lambda: torchvision.models.resnet18(weights=None), (1, 3, 64, 64)
    yield "vit_tiny", lambda: torchvision.models.VisionTransformer(
        image_size=32, patch_size=8, num_layers=2, num_heads=2, hidden_dim=32, mlp_dim=64, num_classes=10), (1, 3, 32, 32)
    if big:
        yield "resnet50", lambda: torchvision.models.resnet50(weights=None), (1, 3, 64, 64)
        yield "vit_b_16", lambda: torchvision.models.vit_b_16(weights=None), (1, 3, 224, 224)


def newest_source():
    """The latest change to what writes the files: this script or the exporter."""
    exporter = glob.glob(os.path.join(HERE, "..", "..", "python", "fxwasm", "*.py"))
    return max(os.path.getmtime(p) for p in [__file__, *exporter])


def main(out_dir, big=False):
    import torch
    import fxwasm

    os.makedirs(out_dir, exist_ok=True)
    for name, build, shape in models(big):
        path = os.path.join(out_dir, f"{name}.fxw")
        if os.path.exists(path) and os.path.getmtime(path) > newest_source():
            continue
        model = build().eval()
        fxwasm.save(model, path, example_inputs=(torch.randn(*shape),), tracer="symbolic", reference=False)
        print(f"{name}: {os.path.getsize(path) / 1e6:.1f} MB -> {path}")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--big"]
    if len(args) != 1:
        sys.exit(__doc__)
    main(args[0], big="--big" in sys.argv)
