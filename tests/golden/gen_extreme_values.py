"""Generates tests/golden/extreme_values.json: every case of the op-case suite (tests/golden/op_cases.json
and tests/golden/ops/*.json) run again by the reference torch on extreme values, for
tests/cpp/ops/extreme_values_test.cpp, which fails on any silent disagreement (a different number, a
result where torch raises, an error where torch returns). Run with the reference Python:
    /root/.cache/fxwasm/venv-torch-2.15.0/bin/python tests/golden/gen_extreme_values.py

Variants of a case whose torch call returned (each keeps the case's other arguments):
  "extreme": every floating tensor argument filled with 0, -0, inf, -inf, nan, the dtype's max and lowest,
             its smallest normal, 1, -1 (cycled over the elements);
  "intlimits": every integer tensor argument filled with the dtype's min, max, 0, -1, 1 (cases of
             op_cases.json only: there integers are data; elsewhere they are indices and sizes);
  "empty":   every tensor argument with its first dimension 0.
A case is {"id", "call", "target", "args", "kwargs", "expected" | "error"} as in gen_shape_ops.py, plus
"xfail": reason for a disagreement known and not fixed yet (reported by the test, never silent).
Left out: cases whose original this script cannot reproduce (fxwasm's fused ops, torchvision targets,
random ops), variants where torch runs out of memory, takes more than 2 s or gives a different result on a
second run (uninitialised memory: some losses on empty inputs).
"""
import json
import math
import os
import resource
import signal
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "ops"))
from golden_format import clone_args, encode, resolve  # noqa: E402

# Known disagreements not fixed yet, each with its reason (the test prints them; one that starts agreeing
# fails it, so the list cannot go stale). Reasons by op, then the ids they cover.
XFAIL_BY_OP = {
    'cdist/': "p-norm distances with NaN/inf entries: p=0 counts and the overflow of p=0.5/inf differ from torch's (NaN there)",
    'pdist/': "p-norm distances with NaN/inf entries: p=0 counts and the overflow of p=0.5/inf differ from torch's (NaN there)",
    'embedding_bag': 'an empty weight table with a padding_idx: torch checks it in some overloads (F.embedding_bag) and not in others (aten._embedding_bag), fxwasm in all',
    'gelu': "erf-GELU of +inf: torch's vectorized float32/bfloat16 kernel gives NaN, fxwasm the exact limit inf",
    'native_dropout': "native_dropout's mask for an empty input in eval: torch float32, fxwasm bool",
    'bce_with_logits': "loss formula on NaN/inf inputs: fxwasm's order of operations (inf - inf, 0 * inf) differs from torch's",
    'cross_entropy': "loss formula on NaN/inf inputs: fxwasm's order of operations (inf - inf, 0 * inf) differs from torch's",
    'kl_div': "loss formula on NaN/inf inputs: fxwasm's order of operations (inf - inf, 0 * inf) differs from torch's",
    'poisson_nll_loss': "loss formula on NaN/inf inputs: fxwasm's order of operations (inf - inf, 0 * inf) differs from torch's",
    'addcdiv': 'float32 rounding near the largest float: fxwasm computes in float64 and rounds once, torch in float32 (inf)',
    'batch_norm': 'an empty batch with running stats of 0 elements: torch accepts, fxwasm checks them against the channel count',
    'conv2d/': "inf * 0 and inf - inf accumulated in a different order than torch's GEMM (NaN vs +-inf)",
    'conv_transpose1d': "inf * 0 and inf - inf accumulated in a different order than torch's GEMM (NaN vs +-inf)",
    'convolution/': "inf * 0 and inf - inf accumulated in a different order than torch's GEMM (NaN vs +-inf)",
    'instance_norm': "NaN/inf in a normalised row: statistics computed in a different order than torch's",
    'layer_norm': "NaN/inf in a normalised row: statistics computed in a different order than torch's",
    'mean/': 'float32 sums of huge values: torch accumulates in float32 lanes (inf, or rounding), fxwasm in float64',
    'sdpa/bool_mask': "an empty query with a broadcast bool mask: fxwasm's expand check is stricter than torch's",
    'std_mean': "inf in a lane: torch's variance algorithm gives NaN, fxwasm's inf",
    'var_mean': "inf in a lane: torch's variance algorithm gives NaN, fxwasm's inf",
    'topk': "ties among equal extremes: torch's index order among them differs",
    'grid_sample/f16': "float16 grid with inf: torch's half kernel differs from the float32 vectorized rules fxwasm follows",
}
# ids (file:case/variant) of the disagreements above, as the test found them
XFAIL_IDS = """
bags_distances.json:_embedding_bag/mode0_padding/empty
bags_distances.json:_embedding_bag/mode1_padding/empty
bags_distances.json:_embedding_bag/mode2_padding/empty
bags_distances.json:_embedding_bag_forward_only/mode0_padding/empty
bags_distances.json:_embedding_bag_forward_only/mode1_padding/empty
bags_distances.json:_embedding_bag_forward_only/mode2_padding/empty
bags_distances.json:cdist/int_values_p0/extreme
bags_distances.json:cdist/p0.0/extreme
bags_distances.json:embedding_bag/negative_padding_idx/empty
bags_distances.json:pdist/p0.0/extreme
bags_distances.json:pdist/p0.5/extreme
bags_distances.json:pdist/pinf/extreme
coverage.json:aten.gelu_/f32/extreme
coverage.json:aten.native_dropout/eval/empty
losses.json:bce_with_logits/large/extreme
losses.json:bce_with_logits/none/extreme
losses.json:bce_with_logits/weights_none/extreme
losses.json:cross_entropy/probs_weight_smooth_none/extreme
losses.json:kl_div/aten_none/extreme
losses.json:kl_div/none/extreme
losses.json:poisson_nll_loss/aten_none/extreme
losses.json:poisson_nll_loss/none/extreme
losses.json:poisson_nll_loss/torch/extreme
nn_ops.json:addcdiv/basic/extreme
nn_ops.json:batch_norm/eval_no_affine/empty
nn_ops.json:batch_norm/native_eval/empty
nn_ops.json:batch_norm/no_training/empty
nn_ops.json:conv2d/depthwise/extreme
nn_ops.json:conv2d/depthwise_mult2_stride2/extreme
nn_ops.json:conv_transpose1d/basic/extreme
nn_ops.json:convolution/aten_3d_transposed/extreme
nn_ops.json:convolution/aten_transposed/extreme
nn_ops.json:instance_norm/1d/extreme
nn_ops.json:layer_norm/aten/extreme
nn_ops.json:layer_norm/basic/extreme
nn_ops.json:mean/dim/extreme
nn_ops.json:mean/dims_keepdim/extreme
nn_ops.json:mean/method_neg/extreme
nn_ops.json:sdpa/bool_mask/empty
nn_ops.json:std_mean/keepdim_kw/extreme
nn_ops.json:topk/basic/extreme
nn_ops.json:var_mean/dim_unbiased_keep/extreme
sampling.json:grid_sample/f16/extreme
shape_ops.json:gelu/aten/extreme
shape_ops.json:gelu/bf16/extreme
shape_ops.json:gelu/f32/extreme
"""



def xfail_reason(id_):
    case = id_.split(":", 1)[1]
    for key, reason in XFAIL_BY_OP.items():
        if case.startswith(key) or ("/" not in key and key in case):
            return reason
    raise KeyError(f"no reason for the known disagreement {id_}")


XFAIL = {i: xfail_reason(i) for i in XFAIL_IDS.split()}

DT = {str(d).replace("torch.", ""): d for d in [torch.float32, torch.float64, torch.float16, torch.bfloat16,
                                                torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8,
                                                torch.bool]}


def dec_float(x):
    return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(x, x) if isinstance(x, str) else x


def decode(j):
    if j is None or isinstance(j, (bool, int, float, str)):
        return j
    if isinstance(j, list):
        return [decode(x) for x in j]
    if "tensor" in j:
        t = j["tensor"]
        dt = DT[t["dtype"]]
        data = [dec_float(x) for x in t["data"]]
        if "strides" in t:
            flat = torch.tensor(data, dtype=torch.float64 if dt.is_floating_point else torch.int64).to(dt)
            return flat.as_strided(t["shape"], t["strides"], t["offset"])
        return torch.tensor(data, dtype=torch.float64 if dt.is_floating_point else torch.int64).to(dt).reshape(
            t["shape"]) if dt != torch.bool else torch.tensor(data, dtype=torch.bool).reshape(t["shape"])
    if "float" in j:
        return dec_float(j["float"])
    if "dtype" in j:
        return DT[j["dtype"]]
    if "device" in j:
        return torch.device(j["device"])
    if "ellipsis" in j:
        return Ellipsis
    if "slice" in j:
        return slice(*j["slice"])
    if "tuple" in j:
        return tuple(decode(x) for x in j["tuple"])
    raise ValueError(j)


def fill_pattern(t, values):
    n = t.numel()
    flat = torch.tensor([values[i % len(values)] for i in range(n)], dtype=torch.float64 if t.dtype.is_floating_point
                        else torch.int64)
    return flat.to(t.dtype).reshape(t.shape)


def extreme(t):
    if not isinstance(t, torch.Tensor) or not t.dtype.is_floating_point:
        return t
    fi = torch.finfo(t.dtype)
    return fill_pattern(t, [0.0, -0.0, math.inf, -math.inf, math.nan, fi.max, fi.min, fi.tiny, 1.0, -1.0])


def intlimits(t):
    if not isinstance(t, torch.Tensor) or t.dtype.is_floating_point or t.dtype == torch.bool:
        return t
    ii = torch.iinfo(t.dtype)
    return fill_pattern(t, [ii.min, ii.max, 0, -1, 1])


def empty(t):
    if not isinstance(t, torch.Tensor) or t.dim() == 0:
        return t
    return torch.zeros((0,) + tuple(t.shape[1:]), dtype=t.dtype)


def mapped(v, f):
    if isinstance(v, torch.Tensor):
        return f(v)
    if isinstance(v, list):
        return [mapped(x, f) for x in v]
    if isinstance(v, tuple):
        return tuple(mapped(x, f) for x in v)
    return v


def has_tensor(v, pred):
    if isinstance(v, torch.Tensor):
        return pred(v)
    if isinstance(v, (list, tuple)):
        return any(has_tensor(x, pred) for x in v)
    return False


class Timeout(Exception):
    pass


def on_alarm(signum, frame):
    raise Timeout()


signal.signal(signal.SIGALRM, on_alarm)
resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))  # a huge allocation fails instead of swapping

cases = []
skipped = 0


def call_torch(src, args, kwargs):
    """encode(torch's result) or ("error", message); None when it ran out of time or memory."""
    signal.alarm(2)
    try:
        result = resolve(src["call"], src["target"])(*clone_args(list(args)), **kwargs)
        signal.alarm(0)
        if isinstance(result, complex):
            raise ValueError("complex")
        return encode(result)
    except (Timeout, MemoryError):
        signal.alarm(0)
        return None
    except Exception as e:  # noqa: BLE001 - torch's own error is the expectation
        signal.alarm(0)
        msg = str(e).split("\n")[0]
        return None if "allocate" in msg or "out of memory" in msg.lower() else ("error", msg[:60])


def run(id_, src, args, kwargs):
    global skipped
    c = {"id": id_, "call": src["call"], "target": src["target"], "args": [encode(a) for a in args],
         "kwargs": {k: encode(v) for k, v in kwargs.items()}}
    first, second = call_torch(src, args, kwargs), call_torch(src, args, kwargs)
    # left out: out of time or memory, and results that differ between two runs (random ops, and the
    # uninitialised memory some torch losses return for empty inputs)
    if first is None or json.dumps(first) != json.dumps(second):
        skipped += 1
        return
    if isinstance(first, tuple):
        c["error"] = first[1]
    else:
        c["expected"] = first
    if c["id"] in XFAIL:
        c["xfail"] = XFAIL[c["id"]]
    if len(json.dumps(c)) > 20000:  # keep the file small: big inputs add nothing here
        skipped += 1
        return
    cases.append(c)


files = [os.path.join(HERE, "op_cases.json")] + sorted(
    os.path.join(HERE, "ops", f) for f in os.listdir(os.path.join(HERE, "ops")) if f.endswith(".json"))
for path in files:
    name = os.path.basename(path)
    core = name == "op_cases.json"
    for src in json.load(open(path))["cases"]:
        if "expected" not in src:
            continue
        args = [decode(a) for a in src["args"]]
        kwargs = {k: decode(v) for k, v in src["kwargs"].items()}
        # only cases this script reproduces (not fxwasm's own fused ops, torchvision targets, the
        # namedtuples getattr reads, or random ops)
        if json.dumps(call_torch(src, args, kwargs)) != json.dumps(src["expected"]):
            continue
        base = f"{name}:{src['id']}"
        if has_tensor(args, lambda t: t.dtype.is_floating_point) or has_tensor(list(kwargs.values()),
                                                                                lambda t: t.dtype.is_floating_point):
            run(base + "/extreme", src, mapped(args, extreme), {k: mapped(v, extreme) for k, v in kwargs.items()})
        if core and has_tensor(args, lambda t: not t.dtype.is_floating_point and t.dtype != torch.bool):
            run(base + "/intlimits", src, mapped(args, intlimits), {k: mapped(v, intlimits) for k, v in kwargs.items()})
        # (multi_margin/multilabel_margin on an empty batch: torch reduces uninitialised memory)
        if has_tensor(args, lambda t: t.dim() > 0) and not any(
                n in src["target"] for n in ("multi_margin_loss", "multilabel_margin_loss")):
            run(base + "/empty", src, mapped(args, empty), {k: mapped(v, empty) for k, v in kwargs.items()})

out = {"torch": torch.__version__, "cases": cases}
with open(os.path.join(HERE, "extreme_values.json"), "w") as f:
    json.dump(out, f, indent=None, separators=(",", ":"))
    f.write("\n")
print(f"wrote {len(cases)} cases ({skipped} left out: not reproducible, out of memory, slow or large)")
