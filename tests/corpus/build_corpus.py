"""Builds the fxwasm model corpus: every file holds the graph, its weights and a reference run.

    python tests/corpus/build_corpus.py [--out DIR] [--only NAME ...] [--small-only] [--force]

Without --out, small files go to examples/<name>/<name>.fxw (committed: the playground and the docs use
them) and large ones to .cache/corpus/<name>.fxw (git-ignored). With --out, every file goes to
DIR/<name>.fxw. An entry whose file exists and is newer than this script, models.py and the exporter
(python/fxwasm/*.py) is skipped, so repeated test runs are quick. A committed example that is rebuilt
keeps its bytes when the new file differs only in the rounding of torch's reference outputs
(same_but_rounding), so a test run leaves the working tree as it was. One line is printed per file:
name, size, tracer, node count (and "cached" when it was not rebuilt, "kept" or "replaced" for a rebuilt
committed example).

The seed graph (examples/seed/toy_example.fxw) belongs to examples/seed/make_toy_example.py; it is listed
here so that the corpus test checks it too. In the default layout it is built (by that script) only when
missing; with --out it is built like the others.
"""
import argparse
import glob
import json
import os
import struct
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))

EXAMPLES_DIR = os.path.join(ROOT, "examples")
CACHE_DIR = os.path.join(ROOT, ".cache", "corpus")
SMALL_LIMIT = 5 * 1024 * 1024  # bytes; above it a file would bloat the repository


class Entry:
    def __init__(self, name, model, tracer, small, path=None):
        self.name = name        # file stem
        self.model = model      # key of models.BUILDERS
        self.tracer = tracer    # "symbolic", "aten", "export" or "dynamo" (the seed)
        self.small = small      # committed under examples/ (when no --out is given)
        self.path = path        # fixed path, relative to ROOT (the seed)

    def output(self, out_dir=None):
        if self.path and out_dir is None:
            return os.path.join(ROOT, self.path)
        if out_dir is not None:
            return os.path.join(out_dir, f"{self.name}.fxw")
        if self.small:
            return os.path.join(EXAMPLES_DIR, self.name, f"{self.name}.fxw")
        return os.path.join(CACHE_DIR, f"{self.name}.fxw")


ENTRIES = [
    Entry("toy_example", "seed", "dynamo", True, path="examples/seed/toy_example.fxw"),
    Entry("digits_cnn", "digits_cnn", "symbolic", True),
    Entry("decoder_block", "decoder_block", "symbolic", True),
    Entry("decoder_block_aten", "decoder_block", "aten", True),
    Entry("decoder_block_export", "decoder_block", "export", True),
    Entry("shape_arith", "shape_arith", "symbolic", True),
    # 784·1024 + 1024·1024 + 1024·10 floats ≈ 7.5 MB: too big to commit
    Entry("mlp", "mlp", "symbolic", False),
    Entry("mlp_aten", "mlp", "aten", False),
    Entry("mlp_export", "mlp", "export", False),
    Entry("resnet18", "resnet18", "symbolic", False),
    Entry("resnet18_aten", "resnet18", "aten", False),
    Entry("resnet18_export", "resnet18", "export", False),
    Entry("mobilenet_v2", "mobilenet_v2", "symbolic", False),
]
BY_NAME = {e.name: e for e in ENTRIES}


def dependencies():
    """Files whose change makes every corpus file stale."""
    deps = [os.path.abspath(__file__), os.path.join(HERE, "models.py"),
            os.path.join(EXAMPLES_DIR, "seed", "make_toy_example.py")]
    deps += glob.glob(os.path.join(ROOT, "python", "fxwasm", "*.py"))
    return deps


def is_fresh(path):
    if not os.path.exists(path):
        return False
    newest = max(os.path.getmtime(d) for d in dependencies())
    return os.path.getmtime(path) > newest


def read_program(path):
    """The program JSON of a .fxw file (just the header: no tensor bytes are read)."""
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
    return json.loads(header["__metadata__"]["program"])


def build_seed(path):
    """The seed through the exporter's own script, examples/seed/make_toy_example.py (Dynamo backend)."""
    import contextlib
    import importlib.util
    import io

    script = os.path.join(EXAMPLES_DIR, "seed", "make_toy_example.py")
    spec = importlib.util.spec_from_file_location("make_toy_example", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with contextlib.redirect_stdout(io.StringIO()):  # it prints "wrote PATH"; we print our own line
        module.main(path)


MODELS_MODULE = "tests.corpus.models"  # the files record classes as tests.corpus.models.DigitsCNN, ...


def import_models():
    """tests/corpus/models.py, compiled under its path relative to the repository root.

    Tracers record stack traces (file, line, source) in node meta and the exporter stores them; a
    relative file name keeps the committed examples free of this machine's paths, so a rebuild in
    another clone gives the same bytes. (A plain import would record the absolute path.)
    """
    if MODELS_MODULE in sys.modules:
        return sys.modules[MODELS_MODULE]
    rel = os.path.join("tests", "corpus", "models.py")
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        code = compile(f.read(), rel, "exec")
    module = types.ModuleType(MODELS_MODULE)
    module.__file__ = rel
    sys.modules[MODELS_MODULE] = module
    exec(code, module.__dict__)
    return module


_model_cache = {}


def load_model(name):
    """models.BUILDERS[name](), built once per process (the digits CNN trains, torchvision models are big)."""
    models = import_models()
    if name not in _model_cache:
        _model_cache.clear()  # keep at most one model alive: entries are ordered by model
        _model_cache[name] = models.BUILDERS[name]()
    return _model_cache[name]


def build_entry(entry, path):
    import fxwasm
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if entry.model == "seed":
        build_seed(path)
        return
    model, inputs = load_model(entry.model)
    fxwasm.save(model, path, example_inputs=inputs, tracer=entry.tracer, reference=True)


def same_but_rounding(rebuilt, committed):
    """Whether two .fxw files hold the same program and the same tensors, torch's reference outputs
    (__ref__.*) up to the rounding another CPU's kernels give (rtol 1e-5, atol 1e-6) and the rest byte for
    byte. A test run rebuilds the committed examples whenever the exporter changes; a rebuild that differs
    from them only in that rounding keeps the committed bytes, so that running the tests leaves the
    working tree as it was."""
    import torch
    from fxwasm import reader
    a, b = reader.read(rebuilt), reader.read(committed)
    if json.dumps(a.program, sort_keys=True) != json.dumps(b.program, sort_keys=True):
        return False
    if sorted(a.tensors) != sorted(b.tensors):
        return False
    for name in a.tensors:
        x, y = a.tensors[name].to_torch(), b.tensors[name].to_torch()
        if x.dtype != y.dtype or x.shape != y.shape:
            return False
        if name.startswith("__ref__.") and x.is_floating_point():
            if not torch.allclose(x, y, rtol=1e-5, atol=1e-6, equal_nan=True):
                return False
        elif not torch.equal(x, y):
            return False
    return True


def rebuild_committed(entry, path):
    """Rebuilds a committed example beside it; returns "kept" when the new file is the committed one up to
    rounding (same_but_rounding), else replaces the committed file and returns "replaced"."""
    import tempfile
    with tempfile.TemporaryDirectory(dir=os.path.dirname(path)) as tmp:
        new = os.path.join(tmp, os.path.basename(path))
        build_entry(entry, new)
        if same_but_rounding(new, path):
            os.utime(path)  # fresh now: the next run does not rebuild it
            return "kept"
        os.replace(new, path)
        return "replaced"


def build(entries, out_dir=None, force=False, log=print):
    """Builds (or finds fresh) every entry; returns [(entry, path, built: bool)]."""
    results = []
    for entry in entries:
        path = entry.output(out_dir)
        t0 = time.perf_counter()
        fresh = not force and is_fresh(path)
        if entry.path and out_dir is None and os.path.exists(path) and not force:
            fresh = True  # the committed seed is owned by the exporter's tooling; rebuild only if missing
        outcome = ""
        if not fresh:
            if entry.small and out_dir is None and os.path.exists(path):
                outcome = ", " + rebuild_committed(entry, path)
            else:
                build_entry(entry, path)
        seconds = time.perf_counter() - t0
        size = os.path.getsize(path)
        program = read_program(path)
        tracer = program.get("producer", {}).get("tracer", "?")
        status = "cached" if fresh else f"built in {seconds:.1f}s{outcome}"
        log(f"{entry.name:22s} {size / 1e6:8.2f} MB  {tracer:8s} {len(program['nodes']):4d} nodes  "
            f"{status}  {os.path.relpath(path, ROOT) if path.startswith(ROOT) else path}")
        if entry.small and out_dir is None and size > SMALL_LIMIT:
            log(f"warning: {entry.name} is {size / 1e6:.1f} MB, too big to commit under examples/")
        results.append((entry, path, not fresh))
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", help="write every file to DIR/<name>.fxw instead of examples/ and .cache/")
    parser.add_argument("--only", nargs="+", metavar="NAME", choices=sorted(BY_NAME),
                        help="build only these entries")
    parser.add_argument("--small-only", action="store_true", help="only the entries committed under examples/")
    parser.add_argument("--force", action="store_true", help="rebuild even when a file is fresh")
    parser.add_argument("--list", action="store_true", help="print the entry names and exit")
    args = parser.parse_args(argv)
    if args.list:
        for e in ENTRIES:
            print(f"{e.name:22s} {e.model:14s} {e.tracer:8s} {'small' if e.small else 'large'}")
        return 0
    entries = [BY_NAME[n] for n in args.only] if args.only else list(ENTRIES)
    if args.small_only:
        entries = [e for e in entries if e.small]
    out_dir = os.path.abspath(args.out) if args.out else None
    import fxwasm  # noqa: F401  (fail early, with the import error, when the exporter is not on the path)
    os.chdir(ROOT)  # stack traces name tests/corpus/models.py relative to here (see import_models)
    build(entries, out_dir, args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
