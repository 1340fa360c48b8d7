"""fxwasm.save: trace a model (or take a GraphModule / ExportedProgram) and write one .fxw file."""
import json
import os

import torch
import torch.fx
import torch.utils._pytree as pytree
from torch.fx.passes.shape_prop import TensorMetadata

from . import __version__
from .container import build
from .errors import ExportError
from .modules import module_tree
from .targets import canonical_target
from .structure import pytree_structure
from .traces import portable_path, portable_stack_trace
from .values import encode_value, dtype_name

TRACERS = ("symbolic", "aten", "export")
MAX_STRING_BYTES = 64 * 1024
MAX_JSON_DEPTH = 64


def json_depth(obj):
    """Nesting depth of a JSON-like structure ([] and {} count one level each), without recursion."""
    deepest, stack = 0, [(obj, 1)]
    while stack:
        o, d = stack.pop()
        if isinstance(o, dict):
            deepest = max(deepest, d)
            stack.extend((v, d + 1) for v in o.values())
        elif isinstance(o, list):
            deepest = max(deepest, d)
            stack.extend((v, d + 1) for v in o)
    return deepest


# ---------------------------------------------------------------------------------------------- tracing
# Higher-order ops torch.export leaves around code that only sets a mode: inlined by run_decompositions({}).
_MODE_SCOPES = {"wrap_with_set_grad_enabled", "wrap_with_autocast"}
_MAX_DECOMPOSITION_ROUNDS = 4


def _higher_order_ops(ep):
    return {n.target.name() for n in ep.graph.nodes
            if n.op == "call_function" and isinstance(n.target, torch._ops.HigherOrderOperator)}


def _lower_exported(ep):
    """The ExportedProgram with mode-only higher-order ops inlined and every op the runtime cannot run
    decomposed (torch's own decompositions, Core ATen), keeping whole the ops it runs — SDPA, layer_norm,
    linear, convolution — which it runs faster whole. Other higher-order ops are an error naming the node."""
    from .support import unsupported_nodes
    hops = _higher_order_ops(ep)
    if hops:
        other = sorted(hops - _MODE_SCOPES)
        if other:
            node = next(n.name for n in ep.graph.nodes if n.op == "call_function"
                        and isinstance(n.target, torch._ops.HigherOrderOperator) and n.target.name() == other[0])
            raise ExportError(f"higher-order operator {other[0]} (control flow or a subgraph call) is not "
                              "supported by the runtime", node)
        ep = ep.run_decompositions({})
    table = torch.export.default_decompositions()
    for _ in range(_MAX_DECOMPOSITION_ROUNDS):
        missing = {target for kind, target, _ in unsupported_nodes(ep.module()) if kind == "function"}
        wanted = {}
        for op in list(table.keys()):
            if str(op) in missing:
                wanted[op] = table[op]
        if not wanted:
            break
        ep = ep.run_decompositions(wanted)
    return ep


def _from_exported(ep):
    ep = _lower_exported(ep)
    gm = ep.module()
    # the ranges torch.export promises for the dynamic dimensions (its ShapeEnv's own start at 2)
    gm._fxwasm_ranges = {str(sym): (_finite_int(vr.lower), _finite_int(vr.upper))
                         for sym, vr in ep.range_constraints.items()}
    _drop_export_guards(gm)
    gm.recompile()
    return gm


def _export_guards(gm):
    return [n for n in gm.graph.nodes if n.op == "call_module" and n.target == "_guards_fn" and not n.users]


def _drop_export_guards(gm):
    """torch.export's ExportedProgram.module() adds a call to a guard-checking submodule; it is not part of
    the model's computation (the runtime checks its inputs' shapes itself)."""
    for node in _export_guards(gm):
        gm.graph.erase_node(node)
    if hasattr(gm, "_guards_fn"):
        delattr(gm, "_guards_fn")


def _user_frame(exc):
    """' at FILE:LINE in FUNC (`source`)' for the innermost frame of `exc` outside torch, or ''."""
    import traceback
    torch_dir = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if not os.path.abspath(f.filename).startswith(torch_dir) and f.filename != __file__]
    if not frames:
        return ""
    f = frames[-1]
    where = f" at {portable_path(f.filename)}:{f.lineno} in {f.name}"
    return where + (f" (`{f.line.strip()}`)" if f.line else "")


def _export(model, example_inputs, example_kwargs, dynamic_shapes):
    try:
        # without autograd: a @torch.no_grad() helper (e.g. rotary embeddings) then needs no mode scope
        with torch.no_grad():
            return torch.export.export(model, tuple(example_inputs or ()), example_kwargs or None,
                                       dynamic_shapes=dynamic_shapes)
    except Exception as e:
        raise ExportError(f"torch.export.export failed{_user_frame(e)}: {type(e).__name__}: {e}") from e


def trace(model, example_inputs=None, tracer="symbolic", example_kwargs=None, dynamic_shapes=None,
          concrete_args=None):
    """(GraphModule, tracer name, source module for the root's type and hyperparameters)."""
    if isinstance(model, torch.export.ExportedProgram):
        return _from_exported(model), "export", None
    if isinstance(model, torch.fx.GraphModule):
        if _export_guards(model):
            # a graph from ExportedProgram.module() (e.g. after torchao's convert_pt2e): saved without the
            # guard call, from a copy that holds only what its graph uses (the user's module is untouched)
            import copy
            model = torch.fx.GraphModule(model, copy.deepcopy(model.graph))
            _drop_export_guards(model)
            model.recompile()
        return model, "graph", None
    if tracer not in TRACERS:
        raise ExportError(f"unknown tracer {tracer!r}; use one of {', '.join(TRACERS)}")
    if concrete_args is not None and tracer != "symbolic":
        raise ExportError(f"concrete_args goes with tracer='symbolic' (got tracer={tracer!r})")
    if tracer == "symbolic":
        try:
            gm = torch.fx.symbolic_trace(model, concrete_args=concrete_args)
        except Exception as e:
            raise ExportError(f"torch.fx.symbolic_trace failed{_user_frame(e)}: {type(e).__name__}: {e}\n"
                              "(control flow on inputs cannot be traced symbolically; try tracer='aten' "
                              "or tracer='export' with example inputs)") from e
        return gm, "symbolic", model if isinstance(model, torch.nn.Module) else None
    if (example_kwargs or dynamic_shapes is not None) and tracer != "export":
        raise ExportError(f"example_kwargs and dynamic_shapes go with tracer='export' (got tracer={tracer!r})")
    if example_inputs is None and not example_kwargs:
        raise ExportError(f"tracer '{tracer}' needs example_inputs")
    if tracer == "aten":
        from torch.fx.experimental.proxy_tensor import make_fx
        try:
            # without autograd: make_fx would otherwise record the nodes autograd needs (aten.alias of
            # saved activations, ...) that an inference graph never uses
            with torch.no_grad():
                gm = make_fx(model)(*example_inputs)
        except Exception as e:
            raise ExportError(f"make_fx failed: {type(e).__name__}: {e}") from e
        return gm, "aten", model if isinstance(model, torch.nn.Module) else None
    ep = _export(model, example_inputs, example_kwargs, dynamic_shapes)
    return _from_exported(ep), "export", model


# ------------------------------------------------------------------------------------------------ meta
def _static_shape(shape):
    dims = []
    for d in shape:
        if isinstance(d, int):
            dims.append(d)
        else:
            try:
                dims.append(int(d))  # a SymInt with a hint
            except Exception:
                return None
    return dims


def _shape_dtype(obj):
    """(encoded shape, encoded dtype) of a node's result as recorded by ShapeProp or a tracer, or None."""
    if isinstance(obj, TensorMetadata):
        return {"$size": list(obj.shape)}, {"$dtype": dtype_name(obj.dtype)}
    if isinstance(obj, torch.Tensor):
        dims = _static_shape(obj.shape)
        if dims is None:
            return None
        return {"$size": dims}, {"$dtype": dtype_name(obj.dtype)}
    if isinstance(obj, (tuple, list)) and obj:
        parts = [_shape_dtype(o) for o in obj]
        if all(p is None for p in parts):
            return None
        return ({"$tuple": [p[0] if p else None for p in parts]},
                {"$tuple": [p[1] if p else None for p in parts]})
    return None


def _clip_string(s):
    data = s.encode("utf-8")
    if len(data) <= MAX_STRING_BYTES:
        return s
    return "…" + data[-(MAX_STRING_BYTES - 16):].decode("utf-8", "ignore")  # keep the innermost frames


def type_repr(t):
    """A node's annotation as FX code prints it: torch.Tensor, int, typing_List[int]."""
    from torch.fx.node import _type_repr
    if t == ():
        return "()"
    origin = getattr(t, "__origin__", None)
    if origin is not None:
        args = getattr(t, "__args__", ()) or ()
        name = _type_repr(origin)
        if not (name.startswith("torch.") or "." not in name):
            name = name.replace(".", "_")
        return f"{name}[{','.join(type_repr(a) for a in args)}]" if args else name
    name = _type_repr(t)
    if "." in name and not name.startswith("torch."):
        name = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return name


# ------------------------------------------------------------------------------------------ the program
def _lookup_attr(root, qualified):
    obj = root
    for part in qualified.split("."):
        if not hasattr(obj, part):
            return None
        obj = getattr(obj, part)
    return obj


def _collect_tensors(gm, source=None):
    """name → (kind, tensor), names as in gm's state_dict. A tensor that is the traced model's own parameter
    or buffer keeps that kind, whatever name the tracer gave it (make_fx's _param_constant0 is a
    parameter, its _tensor_constant0 may be a BatchNorm running_mean); tensors a tracer made up and
    registered as buffers (symbolic_trace's _tensor_constant0 for a torch.tensor(...) in forward) are
    constants. Without the traced model (a GraphModule given as is) gm's own registration decides."""
    source_params, source_buffers = None, None
    if isinstance(source, torch.nn.Module):
        source_params = {id(t) for t in source.parameters()}
        source_buffers = {id(t) for t in source.buffers()}
    tensors = {}
    for name, p in gm.named_parameters(remove_duplicate=False):
        tensors.setdefault(name, ("parameter", p))
    for name, b in gm.named_buffers(remove_duplicate=False):
        if source_buffers is None or id(b) in source_buffers:
            kind = "buffer"
        else:
            kind = "parameter" if id(b) in source_params else "constant"
        tensors.setdefault(name, (kind, b))
    module_names = {name for name, _ in gm.named_modules(remove_duplicate=False)}
    for node in gm.graph.nodes:
        if node.op != "get_attr" or node.target in tensors or node.target in module_names:
            continue
        obj = _lookup_attr(gm, node.target)
        if isinstance(obj, torch.Tensor):
            tensors[node.target] = ("constant", obj)
        else:
            raise ExportError(f"get_attr target '{node.target}' is neither a tensor nor a module "
                              f"(found {type(obj).__name__})", node.name)
    for name in tensors:
        if name.startswith(("__pad__.", "__ref__.")) or name == "__metadata__":
            raise ExportError(f"tensor name '{name}' is reserved by the format")
    return tensors


def _encode_reference(value, path, out_tensors):
    if isinstance(value, torch.Tensor):
        out_tensors.append((path, value.detach()))
        return {"$tensor": path}
    if isinstance(value, torch.Size):
        return encode_value(value, field="reference")
    if isinstance(value, tuple):
        return {"$tuple": [_encode_reference(v, f"{path}.{i}", out_tensors) for i, v in enumerate(value)]}
    if isinstance(value, list):
        return [_encode_reference(v, f"{path}.{i}", out_tensors) for i, v in enumerate(value)]
    if isinstance(value, dict):
        return {"$dict": {k: _encode_reference(v, f"{path}.{k}", out_tensors) for k, v in value.items()}}
    return encode_value(value, field="reference")


class _ShapeRecorder(torch.fx.Interpreter):
    """ShapeProp's job without touching node.meta or printing tracebacks: each node's result shape/dtype.
    Runs the graph as its nodes say (no pytree input/output processing), so the output is exactly the
    value the output node returns — what the file's reference must hold."""

    def __init__(self, gm):
        super().__init__(gm)
        self.shapes = {}

    def run_node(self, n):
        try:
            result = super().run_node(n)
        except Exception as e:
            raise ExportError(f"running the graph on example_inputs failed: {type(e).__name__}: {e}",
                              n.name) from e
        sd = _shape_dtype(result)
        if sd is not None:
            self.shapes[n] = sd
        return result


def _clone(x):
    if isinstance(x, torch.Tensor):
        return x.detach().clone()
    if isinstance(x, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        # Dynamo passes symbolic sizes for dynamic graphs; the reference run uses the value they stand for
        hint = getattr(x.node, "hint", None)
        if hint is None:
            raise ExportError(f"example input {x} is symbolic and has no concrete value")
        return hint
    return x


def _flat_inputs(gm, example_inputs, example_kwargs):
    """The example inputs in placeholder order: (args, kwargs) flattened as the graph's input spec does
    (torch.export orders keyword inputs by the signature, not by the call)."""
    if not example_kwargs:
        return pytree.tree_leaves(tuple(example_inputs or ()))
    spec = getattr(gm, "_in_spec", None)
    keys = list(example_kwargs)
    if spec is not None and spec.num_children == 2 and spec.child(1).type is dict:
        keys = list(spec.child(1).context)
    missing = [k for k in keys if k not in example_kwargs]
    if missing:
        raise ExportError(f"example_kwargs lack {', '.join(missing)}, which the graph takes")
    return pytree.tree_leaves((tuple(example_inputs or ()), {k: example_kwargs[k] for k in keys}))


def _finite_int(bound):
    """A value range's bound as an int, None when it is infinite (sympy's oo, torch's int_oo)."""
    try:
        value = int(bound)
    except (TypeError, ValueError, AttributeError, OverflowError):
        return None
    return value if abs(value) < 2**62 else None


def _symbolic_dims(node, ranges=None):
    """For a placeholder whose example value has symbolic sizes (torch.export with dynamic_shapes, Dynamo's
    dynamic graphs): one entry per dim, None for a fixed size, else [symbol, min, max] (max None when
    unbounded; symbol None for a size that is an expression of symbols, which the runtime does not bind).
    None when every size is fixed."""
    val = node.meta.get("val", node.meta.get("example_value"))
    if not isinstance(val, torch.Tensor):
        return None
    dims, dynamic = [], False
    for d in val.shape:
        if not isinstance(d, torch.SymInt) or d.node.is_constant():
            dims.append(None)
            continue
        dynamic = True
        expr = d.node.expr
        name, lo, hi = None, None, None
        if getattr(expr, "is_Symbol", False):
            name = str(expr)
            if ranges and name in ranges:
                lo, hi = ranges[name]
            else:
                vr = d.node.shape_env.var_to_range.get(expr)
                if vr is not None:
                    lo, hi = _finite_int(vr.lower), _finite_int(vr.upper)
        dims.append([name, lo, hi])
    return dims if dynamic else None


def _restore(tensors, before):
    """Writes back the values `before` held for tensors a run changed in place."""
    with torch.no_grad():
        for name, value in before.items():
            t = tensors[name][1]
            if t.shape == value.shape and not torch.equal(t, value):
                t.copy_(value)


def build_program(gm, tracer, example_inputs=None, reference=True, root_source=None, example_kwargs=None):
    """(program dict, [(tensor name, tensor)]) for a GraphModule."""
    tensors = _collect_tensors(gm, root_source)

    ref = None
    ref_tensors = []
    shapes = {}
    if example_inputs is not None or example_kwargs:
        flat = _flat_inputs(gm, example_inputs, example_kwargs)
        placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        # placeholders with a default (timm's ViT: attn_mask=None) may be left out, as torch.fx allows
        required = len(placeholders)
        while required and placeholders[required - 1].args:
            required -= 1
        if not required <= len(flat) <= len(placeholders):
            wants = (f"{len(placeholders)}" if required == len(placeholders)
                     else f"{required} to {len(placeholders)} (the rest have defaults)")
            raise ExportError(f"example_inputs give {len(flat)} values but the graph has {wants} placeholders")
        # the reference lists every placeholder's value: the defaults of those left out too
        saved_inputs = [_clone(x) for x in flat] + [p.args[0] for p in placeholders[len(flat):]]
        runner = _ShapeRecorder(gm)
        # A graph that writes into its buffers (a static KV cache's index_copy_, a step counter's add_,
        # BatchNorm's running stats in training mode) changes them on every run: the file stores — and the
        # model keeps — their values from before the reference run, so that a run of the file from its
        # reference inputs gives the reference outputs, as a run of the model would.
        before = {name: t.detach().clone() for name, (kind, t) in tensors.items() if kind != "parameter"}
        try:
            with torch.no_grad():
                outputs = runner.run(*[_clone(x) for x in flat], enable_io_processing=False)
                # an output may be a buffer the run wrote into (return self.cache): keep what it held now
                outputs = torch.utils._pytree.tree_map(
                    lambda x: x.detach().clone() if isinstance(x, torch.Tensor) else x, outputs)
        except ExportError:
            raise
        except Exception as e:
            raise ExportError(f"running the graph on example_inputs failed: {type(e).__name__}: {e}") from e
        finally:
            _restore(tensors, before)
        shapes = runner.shapes
        if reference:
            ref = {"inputs": [_encode_reference(x, f"__ref__.in.{i}", ref_tensors)
                              for i, x in enumerate(saved_inputs)],
                   "outputs": _encode_reference(outputs, "__ref__.out", ref_tensors)}

    nodes = []
    for node in gm.graph.nodes:
        entry = {"op": node.op, "name": node.name, "target": canonical_target(node),
                 "args": encode_value(list(node.args), node.name, "args"),
                 "kwargs": encode_value(dict(node.kwargs), node.name, "kwargs")["$dict"]}
        if node.type is not None:
            entry["type"] = type_repr(node.type)
        meta = {}
        if node in shapes:
            meta["shape"], meta["dtype"] = shapes[node]
        for key in ("tensor_meta", "val", "example_value"):
            if "shape" not in meta and key in node.meta:
                sd = _shape_dtype(node.meta[key])
                if sd is not None:
                    meta["shape"], meta["dtype"] = sd
                    break
        trace_text = node.meta.get("stack_trace")
        if isinstance(trace_text, str) and trace_text:
            meta["stack_trace"] = _clip_string(portable_stack_trace(trace_text))
        if node.op == "placeholder":
            sym_dims = _symbolic_dims(node, getattr(gm, "_fxwasm_ranges", None))
            if sym_dims is not None:
                meta["sym_dims"] = sym_dims  # these sizes may change from run to run, within their ranges
        if node.meta.get("is_wrapped") is True:  # symbolic_trace's autowrapped functions (math.sqrt, ...):
            meta["is_wrapped"] = True            # the code starts with torch.fx.wrap("math_sqrt") for them
        if meta:
            entry["meta"] = meta
        if json_depth(entry) + 2 > MAX_JSON_DEPTH:  # + the program object and the nodes array
            raise ExportError(f"arguments nest deeper than the format's limit of {MAX_JSON_DEPTH} JSON "
                              "levels", node.name)
        nodes.append(entry)

    modules = module_tree(gm, root_source)

    program = {
        "producer": {"torch": torch.__version__.split("+")[0], "exporter": __version__, "tracer": tracer},
        "nodes": nodes,
        "modules": modules,
        "tensors": {name: kind for name, (kind, _) in tensors.items()},
    }
    structure = pytree_structure(gm)
    if structure is not None:
        program["pytree"] = structure
    for name, _ in ref_tensors:
        program["tensors"][name] = "reference"
    if ref is not None:
        program["reference"] = ref
    stored = [(name, t) for name, (_, t) in tensors.items()] + ref_tensors
    return program, stored


def dumps(model, example_inputs=None, tracer="symbolic", reference=True, tracer_name=None, example_kwargs=None,
          dynamic_shapes=None, allow_unsupported=False, weights="fp32", concrete_args=None):
    """The .fxw bytes of a model, GraphModule or ExportedProgram (see save)."""
    from .quantize import WEIGHTS, quantize_program
    from .support import describe, unsupported_nodes
    if weights not in WEIGHTS:
        raise ExportError(f"weights must be one of {', '.join(WEIGHTS)}, not {weights!r}")
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    if example_inputs is not None:
        example_inputs = tuple(example_inputs)
    # Tracers that run the model on real tensors (make_fx, symbolic_trace's eager parts) write into the
    # buffers of a model that writes into them: they are put back, so that the graph and the model start
    # from the values the model had.
    buffers = dict(model.named_buffers()) if isinstance(model, torch.nn.Module) else {}
    before = {name: b.detach().clone() for name, b in buffers.items()}
    try:
        gm, used, root_source = trace(model, example_inputs, tracer, example_kwargs, dynamic_shapes, concrete_args)
    finally:
        _restore({name: (None, b) for name, b in buffers.items()}, before)
    if not allow_unsupported:
        missing = unsupported_nodes(gm)
        if missing:
            raise ExportError("the fxwasm runtime cannot run this graph: unsupported " + describe(missing) +
                              " (allow_unsupported=True saves it anyway, for inspection)")
    program, stored = build_program(gm, tracer_name or used, example_inputs, reference, root_source,
                                    example_kwargs)
    stored = quantize_program(program, stored, weights)
    metadata = {"format": "fxwasm", "format_version": "1",
                "program": json.dumps(program, separators=(",", ":"), allow_nan=False)}
    try:
        return build(metadata, stored)
    except ValueError as e:
        raise ExportError(str(e)) from None


def save(model, path, example_inputs=None, tracer="symbolic", reference=True, example_kwargs=None,
         dynamic_shapes=None, allow_unsupported=False, weights="fp32", concrete_args=None):
    """Write `model` (nn.Module, callable, GraphModule or ExportedProgram) to `path` as .fxw.

    tracer: "symbolic" (torch.fx.symbolic_trace), "aten" (make_fx) or "export" (torch.export.export, with
    `example_kwargs` and `dynamic_shapes` passed as torch takes them; the symbols' ranges are kept in the
    file so the runtime accepts other sizes). concrete_args: as torch.fx.symbolic_trace takes it (arguments
    specialised to a value; the graph keeps their placeholders and torch's checks of them, so example_inputs
    and run() give every argument, the specialised ones with their value). A graph with ops the runtime cannot run is refused here,
    naming them, unless `allow_unsupported` (the file then loads for inspection only).
    weights: "fp32", or "fp16" (every float32 tensor stored as float16), "int8" / "int4" (Linear and
    Embedding weights quantized, the other float32 tensors float16): docs/format.md §7. The stored reference
    outputs stay torch's float32 ones."""
    data = dumps(model, example_inputs, tracer, reference, example_kwargs=example_kwargs,
                 dynamic_shapes=dynamic_shapes, allow_unsupported=allow_unsupported, weights=weights,
                 concrete_args=concrete_args)
    path = os.fspath(path)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return path
