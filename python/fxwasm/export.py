"""python -m fxwasm.export SPEC --out FILE [--tracer symbolic|aten|export] [--input-shape 1,3,224,224]...
[--seed 0] [--no-reference]

SPEC is package.module:callable or path/to/file.py:callable, called with no arguments to build the model.
Exit 0 on success, 2 with a message on failure."""
import argparse
import importlib
import importlib.util
import os
import sys

from fxwasm.errors import ExportError


def _load_callable(spec):
    if ":" not in spec:
        raise ValueError(f"SPEC '{spec}' must be package.module:callable or path/to/file.py:callable")
    where, name = spec.rsplit(":", 1)
    if where.endswith(".py") or os.sep in where:
        if not os.path.exists(where):
            raise ValueError(f"no such file: {where}")
        mod_spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(where))[0], where)
        module = importlib.util.module_from_spec(mod_spec)
        sys.path.insert(0, os.path.dirname(os.path.abspath(where)))
        mod_spec.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    obj = module
    for part in name.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"'{where}' has no attribute '{name}'")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ValueError(f"'{spec}' is not callable")
    return obj


def _shape(text):
    try:
        dims = [int(d) for d in text.split(",") if d.strip() != ""]
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad shape '{text}': expected comma-separated integers") from None
    if not dims or any(d < 0 for d in dims):
        raise argparse.ArgumentTypeError(f"bad shape '{text}'")
    return dims


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m fxwasm.export", description=__doc__.split("\n\n")[0])
    parser.add_argument("spec", help="package.module:callable or path/to/file.py:callable building the model")
    parser.add_argument("--out", required=True, help="the .fxw file to write")
    parser.add_argument("--tracer", choices=["symbolic", "aten", "export"], default="symbolic")
    parser.add_argument("--input-shape", type=_shape, action="append", default=[],
                        help="shape of one example input, e.g. 1,3,224,224 (repeat for several inputs)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-reference", action="store_true", help="do not store reference inputs/outputs")
    args = parser.parse_args(argv)

    try:
        import torch

        import fxwasm

        torch.manual_seed(args.seed)
        factory = _load_callable(args.spec)
        model = factory()
        if isinstance(model, torch.nn.Module):
            model.eval()
        inputs = tuple(torch.randn(*s) for s in args.input_shape) or None
        if args.tracer != "symbolic" and inputs is None:
            raise ValueError(f"--tracer {args.tracer} needs at least one --input-shape")
        fxwasm.save(model, args.out, example_inputs=inputs, tracer=args.tracer,
                    reference=not args.no_reference)
    except (ExportError, ValueError, ImportError, OSError) as e:
        msg = str(e)
        if args.tracer == "symbolic" and "symbolic_trace failed" in msg:
            msg += ("\nhint: try --tracer aten (with --input-shape): it traces control flow on shapes by "
                    "specialising it; control flow on tensor values needs torch.compile with "
                    "fxwasm.dynamo_backend (a graph per branch)")
        print(f"fxwasm: error: {msg}", file=sys.stderr)
        return 2
    except Exception as e:  # building the model itself failed
        print(f"fxwasm: error: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
