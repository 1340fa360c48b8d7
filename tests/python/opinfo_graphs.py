"""PyTorch's OpInfo database (torch.testing._internal.common_methods_invocations.op_db) as .fxw files: for each
op with samples of a dtype on CPU (float32; also complex64, int64 and bool), one FX graph that calls the op on
every sample, exported with
fxwasm.save(..., reference=True) so that the wasm runtime can be checked against torch's own results.

Each sample's tensors (in its input, args and kwargs, nested lists included) become placeholders; the op is
called on them through FX proxies (so a Python wrapper in op_db records the torch calls it makes), and the
graph's output is the tuple of every sample's result. Files are built once into a per-user cache keyed by
the hash of the inputs (realworld.py); `build_all` returns, per op, the file or why there is none.

Run as a script to (re)build the cache and print where it is: python tests/python/opinfo_graphs.py [DTYPE]"""
import json
import os
import sys
import time
import warnings

import torch
import torch.fx
import torch.utils._pytree as pytree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from realworld import CACHE, _inputs_hash  # noqa: E402

DTYPE = torch.float32
SEED = 0

# ops whose output torch does not define from the inputs alone: a graph of them cannot be checked
UNINITIALISED = {"empty", "empty_like", "new_empty", "new_empty_strided", "empty_strided", "empty_permuted",
                 "resize_", "resize_as_"}
# ops that draw random numbers (others are found by running their graph under two seeds)
RANDOM = {"bernoulli", "cauchy", "exponential", "geometric", "log_normal", "multinomial", "normal", "uniform",
          "rand_like", "randint", "randint_like", "randn", "randn_like", "nn.functional.rrelu",
          "nn.functional.dropout", "nn.functional.dropout2d", "nn.functional.dropout3d",
          "nn.functional.alpha_dropout", "nn.functional.feature_alpha_dropout"}


# ops whose indices among equal values torch leaves unspecified (an unstable sort; mode's "an index of the
# mode"): integer and bool samples are full of ties, so there their graph keeps the values only (argsort has
# nothing else and is skipped); float32 samples, without ties, check the indices too
TIES_UNSPECIFIED = {"sort", "topk", "mode"}
TIES_INDICES_ONLY = {"argsort"}


def op_key(op):
    """The op's name in op_db, with its variant: 'nn.functional.avg_pool2d', 'max.reduction_with_dim'."""
    return op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")


def samples(op, dtype=DTYPE):
    torch.manual_seed(SEED)
    return list(op.sample_inputs("cpu", dtype, requires_grad=False))


def _flat_tensors(sample):
    tree = (sample.input, tuple(sample.args), dict(sample.kwargs))
    leaves, spec = pytree.tree_flatten(tree)
    return leaves, spec


class OpGraph(torch.nn.Module):
    """Calls `fn` on each sample with its tensors taken from forward's inputs (a list of leaves per sample)."""

    def __init__(self, fn, specs, leaves, values_only=False):
        super().__init__()
        self.fn, self.specs, self.leaves, self.values_only = fn, specs, leaves, values_only

    def call(self, flat, tracer):
        """The results of the op on every sample, with `flat` (proxies) standing for the samples' tensors."""
        it = iter(flat)
        results = []
        for spec, leaves in zip(self.specs, self.leaves):
            filled = [next(it) if isinstance(v, torch.Tensor) else v for v in leaves]
            inp, args, kwargs = pytree.tree_unflatten(filled, spec)
            result = self.fn(inp, *args, **kwargs)
            if self.values_only:
                result = result[0]
            if any(isinstance(v, torch.Tensor) for v in pytree.tree_leaves(result)):
                # no proxy reached the op (a factory such as torch.zeros(3)): record the call itself
                result = tracer.create_proxy("call_function", self.fn, (inp,) + tuple(args), kwargs)
            results.append(result)
        return tuple(results)


def _traceable(fn):
    """`fn`, or for a method of torch.Tensor's C base (torch.Tensor.__radd__, which rejects a Proxy) the same
    method looked up on the first argument, as `x.__radd__(y)` records it."""
    if type(fn).__name__ == "method_descriptor" and getattr(fn, "__objclass__", None) is torch._C.TensorBase:
        name = fn.__name__
        return lambda x, *args, **kwargs: getattr(x, name)(*args, **kwargs)
    return fn


def build_graph(op, sample_list, values_only=False):
    """(GraphModule, example inputs): placeholders x0, x1, … for the samples' tensors, then the op."""
    specs, leaves_per_sample, inputs = [], [], []
    for s in sample_list:
        leaves, spec = _flat_tensors(s)
        specs.append(spec)
        leaves_per_sample.append(leaves)
        inputs.extend(v for v in leaves if isinstance(v, torch.Tensor))
    holder = OpGraph(_traceable(op.op), specs, leaves_per_sample, values_only)
    graph = torch.fx.Graph()
    tracer = torch.fx.proxy.GraphAppendingTracer(graph)
    proxies = [torch.fx.Proxy(graph.placeholder(f"x{i}"), tracer) for i in range(len(inputs))]
    out = holder.call(proxies, tracer)
    graph.output(tracer.create_arg(out))
    gm = torch.fx.GraphModule(torch.nn.Module(), graph)
    return gm, inputs


def _clone_tree(x):
    return pytree.tree_map(lambda t: t.clone() if isinstance(t, torch.Tensor) else t, x)


def _same(a, b):
    la, lb = pytree.tree_leaves(a), pytree.tree_leaves(b)
    if len(la) != len(lb):
        return False
    for x, y in zip(la, lb):
        if isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor):
            if x.shape != y.shape or x.dtype != y.dtype or not torch.equal(x.nan_to_num(0.5), y.nan_to_num(0.5)):
                return False
        elif isinstance(x, torch.Tensor) != isinstance(y, torch.Tensor):
            return False
    return True


def _is_random(gm, inputs):
    """Whether two runs of the graph under different seeds give different results."""
    torch.manual_seed(1)
    a = gm(*_clone_tree(inputs))
    torch.manual_seed(2)
    b = gm(*_clone_tree(inputs))
    return not _same(a, b)


def build_one(op, path, dtype=DTYPE):
    """Writes the op's file to `path`; returns None, or ("skip", reason) when torch gives nothing to check."""
    import fxwasm
    name = op_key(op)
    if op.name in UNINITIALISED:
        return ("skip", "uninitialised output")
    if op.name in RANDOM:
        return ("skip", "random output")
    ties = not dtype.is_floating_point and not dtype.is_complex
    if ties and op.name in TIES_INDICES_ONLY:
        return ("skip", "indices among equal values are unspecified in torch (float32 samples check them)")
    try:
        sample_list = samples(op, dtype)
    except Exception as e:
        return ("skip", f"torch cannot make its samples on CPU: {type(e).__name__}")
    if not sample_list:
        return ("skip", f"no {str(dtype).replace('torch.', '')} samples")
    # each sample alone first: a sample torch itself refuses on CPU is left out
    kept = []
    for s in sample_list:
        try:
            with torch.no_grad():
                op.op(*_clone_tree((s.input,) + tuple(s.args)), **_clone_tree(dict(s.kwargs)))
            kept.append(s)
        except Exception:
            pass
    if not kept:
        return ("skip", "torch cannot run it on CPU")
    try:
        gm, inputs = build_graph(op, kept, values_only=ties and op.name in TIES_UNSPECIFIED)
    except Exception as e:
        return ("skip", f"FX cannot trace it: {type(e).__name__}: {str(e).splitlines()[0][:120] if str(e) else ''}")
    try:
        with torch.no_grad():
            if _is_random(gm, inputs):
                return ("skip", "random output")
    except Exception as e:
        return ("skip", f"the traced graph does not run in torch: {type(e).__name__}")
    try:
        torch.manual_seed(SEED)
        fxwasm.save(gm, path, example_inputs=tuple(_clone_tree(inputs)), allow_unsupported=True)
        if op.name in FLOAT64_REFERENCE and dtype == torch.float32:
            _use_float64_reference(gm, inputs, path)
    except Exception as e:
        return ("skip", f"the exporter cannot write it: {type(e).__name__}: {str(e).splitlines()[0][:160]}")
    del name
    return None

# ops whose float32 result in torch is itself ill-conditioned: their reference is torch's float64 result on the
# same inputs, rounded to float32. matrix_exp of OpInfo's 5×5 samples reaches 9.3e4, and torch's float32
# squarings leave 0.05 absolute on the entries that cancel (torch float32 vs float64); the runtime computes
# in float64 and rounds once, so against torch's float32 it would "mismatch" by torch's own error.
FLOAT64_REFERENCE = {"matrix_exp", "linalg.matrix_exp"}


def _reference_tensors(value, path):
    """{name: tensor} of an output value, named as fxwasm.save names the reference's tensors."""
    if isinstance(value, torch.Tensor):
        return {path: value}
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, (list, tuple)) else ()
    out = {}
    for k, v in items:
        out.update(_reference_tensors(v, f"{path}.{k}"))
    return out


def _use_float64_reference(gm, inputs, path):
    """Overwrites the file's reference outputs with gm's float64 results rounded to float32 (same shapes and
    dtypes, so same bytes): the file's header and graph are unchanged."""
    with torch.no_grad():
        out = gm(*pytree.tree_map(lambda t: t.double() if isinstance(t, torch.Tensor) and t.is_floating_point()
                                  else t, _clone_tree(inputs)))
    refs = _reference_tensors(out, "__ref__.out")
    with open(path, "r+b") as f:
        n = int.from_bytes(f.read(8), "little")
        header = json.loads(f.read(n))
        for name, t in refs.items():
            entry = header[name]
            data = t.to(torch.float32).contiguous().numpy().tobytes()
            begin, end = entry["data_offsets"]
            assert entry["dtype"] == "F32" and end - begin == len(data), name
            f.seek(8 + n + begin)
            f.write(data)


def ops_of(dtype=DTYPE):
    from torch.testing._internal.common_methods_invocations import op_db
    return [op for op in op_db if dtype in op.supported_dtypes("cpu")]


def cache_dir(dtype=DTYPE):
    versions = f"torch {torch.__version__} opinfo {dtype} seed {SEED}"
    return os.path.join(CACHE, "opinfo", _inputs_hash(versions, [os.path.abspath(__file__)]))


def file_name(key):
    return key.replace("/", "_") + ".fxw"


_OPS = []  # the ops being built, for the forked workers of build_all


def _build_at(job):
    i, out_dir, dtype = job
    torch.set_num_threads(1)
    warnings.filterwarnings("ignore")
    op = _OPS[i]
    key = op_key(op)
    t0 = time.time()
    skip = build_one(op, os.path.join(out_dir, file_name(key)), dtype)
    return key, skip, time.time() - t0


def build_all(verbose=False, jobs=2, dtype=DTYPE):
    """{op key: {"file": path} | {"skip": reason}} for every op of op_db with `dtype` samples, built into the
    cache once (by `jobs` forked processes: the samples of ~600 ops take minutes to make and run in torch)."""
    import multiprocessing
    out_dir = cache_dir(dtype)
    manifest = os.path.join(out_dir, "manifest.json")
    if os.path.exists(manifest):
        with open(manifest, encoding="utf8") as f:
            return json.load(f)
    os.makedirs(out_dir, exist_ok=True)
    _OPS[:] = ops_of(dtype)
    result = {}
    with multiprocessing.get_context("fork").Pool(jobs, maxtasksperchild=50) as pool:
        for key, skip, seconds in pool.imap_unordered(_build_at, [(i, out_dir, dtype) for i in range(len(_OPS))]):
            result[key] = {"skip": skip[1]} if skip else {"file": os.path.join(out_dir, file_name(key))}
            if verbose:
                print(f"{key}: {skip[1] if skip else 'file'} ({seconds:.2f} s)", file=sys.stderr, flush=True)
    tmp = manifest + ".partial"
    with open(tmp, "w", encoding="utf8") as f:
        json.dump(result, f, indent=1, sort_keys=True)
    os.replace(tmp, manifest)
    return result


if __name__ == "__main__":
    t0 = time.time()
    dtype = getattr(torch, sys.argv[1]) if len(sys.argv) > 1 else DTYPE  # float32 (default), complex64, int64, bool
    built = build_all(verbose=True, dtype=dtype)
    print(cache_dir(dtype), len(built), "ops,", sum("file" in v for v in built.values()), "files,",
          f"{time.time() - t0:.1f} s")
