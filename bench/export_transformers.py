"""Writes the transformer workloads of the benchmark (bench/transformers.mjs) in every engine's format,
all from one module instance per workload (same weights):

    npm run -s python -- bench/export_transformers.py [--force]

Into .cache/bench/transformers/ (git-ignored):
  decoder/  the GPT-style decoder of bench/transformer_models.py as two graphs, `prefill` (a prompt of
            any length) and `step` (one token over a past of any length: dynamic shapes), each as
              <graph>_fp32.fxw, <graph>_int8.fxw, <graph>_int4.fxw   fxwasm.save(tracer="export", weights=…)
              <graph>_fp32.onnx    torch.onnx.export (TorchScript exporter, dynamic axes)
              <graph>_int8.onnx    onnxruntime.quantization.quantize_dynamic (int8 weights, MatMulInteger)
              <graph>_q4.onnx      onnxruntime's MatMulNBits quantizer (4 bits, blocks of 32, symmetric)
            prompt_<T>.npy (token ids) and torch's answers: the first logits after each prompt and the
            greedy continuation (tokens) of the 32-token prompt
  encoder/  a MiniLM-sized BertModel with mean pooling at seq 128 (100 tokens + padding): encoder_*.fxw
            and encoder_*.onnx as above, input_ids.npy, attention_mask.npy, expected.npy
  meta.json the files, sizes, parameters and the versions of torch / onnxruntime that wrote them
Skipped when meta.json is newer than this script, transformer_models.py and python/fxwasm/*.py."""
import argparse
import glob
import json
import logging
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, HERE)
OUT = os.path.join(ROOT, ".cache", "bench", "transformers")

import numpy as np  # noqa: E402
import torch  # noqa: E402

import transformer_models as tm  # noqa: E402

PROMPTS = (32, 512)
GREEDY_TOKENS = 64
FX_WEIGHTS = ("fp32", "int8", "int4")


def dependencies():
    return [os.path.abspath(__file__), os.path.join(HERE, "transformer_models.py")] + \
        glob.glob(os.path.join(ROOT, "python", "fxwasm", "*.py"))


def is_fresh():
    meta = os.path.join(OUT, "meta.json")
    return os.path.exists(meta) and os.path.getmtime(meta) > max(os.path.getmtime(d) for d in dependencies())


def onnx_export(model, inputs, path, input_names, output_names, dynamic_axes):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation and tracer warnings
        torch.onnx.export(model, inputs, path, input_names=input_names, output_names=output_names,
                          dynamic_axes=dynamic_axes, opset_version=17, do_constant_folding=True, dynamo=False)


def onnx_quantized(fp32_path, stem):
    """The int8 (quantize_dynamic) and 4-bit (MatMulNBits) files onnxruntime's own tools make of fp32_path."""
    import onnx
    logging.getLogger("onnxruntime.quantization").setLevel(logging.WARNING)  # a line per node otherwise
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer
    int8 = f"{stem}_int8.onnx"
    quantize_dynamic(fp32_path, int8, weight_type=QuantType.QInt8)
    q4 = f"{stem}_q4.onnx"
    quant = MatMulNBitsQuantizer(onnx.load(fp32_path), block_size=32, is_symmetric=True)
    quant.process()
    quant.model.save_model_to_file(q4, use_external_data_format=False)
    return int8, q4


def fx_save_all(model, stem, inputs, dynamic_shapes):
    import fxwasm
    for w in FX_WEIGHTS:
        fxwasm.save(model, f"{stem}_{w}.fxw", example_inputs=inputs, tracer="export", dynamic_shapes=dynamic_shapes,
                    reference=False, weights=w)


def export_decoder(out):
    model = tm.gpt()
    layers = len(model.blocks)
    heads, hd = model.blocks[0].heads, model.tok.embedding_dim // model.blocks[0].heads
    cache_names = [f"{kv}{i}" for i in range(layers) for kv in ("k", "v")]
    prefill, step = tm.Prefill(model).eval(), tm.Step(model).eval()

    # prefill: a prompt of T tokens
    T = torch.export.Dim("T", min=2, max=1000)
    prompt = torch.randint(0, 4096, (1, 8), generator=torch.Generator().manual_seed(2))
    fx_save_all(prefill, os.path.join(out, "prefill"), (prompt,), ({1: T},))
    onnx_export(prefill, (prompt,), os.path.join(out, "prefill_fp32.onnx"), ["idx"], ["logits", *cache_names],
                {"idx": {1: "T"}, **{n: {2: "T"} for n in cache_names}})
    onnx_quantized(os.path.join(out, "prefill_fp32.onnx"), os.path.join(out, "prefill"))

    # step: one token over P past positions
    P = torch.export.Dim("P", min=2, max=1000)
    past = [torch.randn(1, heads, 8, hd) for _ in cache_names]
    args = (torch.tensor([[5]]), torch.tensor([8]), *past)
    fx_save_all(step, os.path.join(out, "step"), args, (None, None, tuple({2: P} for _ in cache_names)))  # *past: one tuple
    past_names = [f"past_{n}" for n in cache_names]
    onnx_export(step, args, os.path.join(out, "step_fp32.onnx"), ["idx", "pos", *past_names], ["logits", *cache_names],
                {**{n: {2: "P"} for n in past_names}, **{n: {2: "P1"} for n in cache_names}})
    onnx_quantized(os.path.join(out, "step_fp32.onnx"), os.path.join(out, "step"))

    meta = {"layers": layers, "heads": heads, "head_dim": hd, "vocab": model.tok.num_embeddings,
            "d": model.tok.embedding_dim, "parameters": sum(p.numel() for p in model.parameters()),
            "cache_names": cache_names, "prompts": {}, "greedy_tokens": GREEDY_TOKENS}
    for n in PROMPTS:
        p = torch.randint(0, 4096, (1, n), generator=torch.Generator().manual_seed(100 + n))
        np.save(os.path.join(out, f"prompt_{n}.npy"), p.numpy())
        tokens, first = tm.greedy(model, p, GREEDY_TOKENS if n == PROMPTS[0] else 1)
        np.save(os.path.join(out, f"first_logits_{n}.npy"), first.numpy())
        meta["prompts"][str(n)] = {"file": f"prompt_{n}.npy", "first_logits": f"first_logits_{n}.npy",
                                   "greedy": tokens}
    return meta


def export_encoder(out):
    model = tm.encoder()
    ids, mask = tm.encoder_inputs()
    with torch.no_grad():
        want = model(ids, mask)
    fx_save_all(model, os.path.join(out, "encoder"), (ids, mask), None)
    onnx_export(model, (ids, mask), os.path.join(out, "encoder_fp32.onnx"), ["input_ids", "attention_mask"],
                ["embedding"], None)
    onnx_quantized(os.path.join(out, "encoder_fp32.onnx"), os.path.join(out, "encoder"))
    np.save(os.path.join(out, "input_ids.npy"), ids.numpy())
    np.save(os.path.join(out, "attention_mask.npy"), mask.numpy())
    np.save(os.path.join(out, "expected.npy"), want.numpy())
    return {"seq": ids.shape[1], "real_tokens": int(mask.sum()), "parameters": sum(p.numel() for p in model.parameters()),
            "inputs": ["input_ids.npy", "attention_mask.npy"], "expected": "expected.npy"}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--force", action="store_true", help="rebuild even when the files are up to date")
    args = parser.parse_args(argv)
    if not args.force and is_fresh():
        print(f"transformers   up to date  {os.path.relpath(OUT, ROOT)}")
        return 0
    import onnxruntime
    t0 = time.perf_counter()
    meta_path = os.path.join(OUT, "meta.json")
    if os.path.exists(meta_path):
        os.remove(meta_path)  # a half-rebuilt set must not look complete
    meta = {"torch": torch.__version__, "onnxruntime": onnxruntime.__version__}
    for name, fn in (("decoder", export_decoder), ("encoder", export_encoder)):
        d = os.path.join(OUT, name)
        os.makedirs(d, exist_ok=True)
        meta[name] = fn(d)
        meta[name]["sizes"] = {os.path.basename(f): os.path.getsize(f)
                               for f in sorted(glob.glob(os.path.join(d, "*.fxw")) + glob.glob(os.path.join(d, "*.onnx")))}
    with open(meta_path, "w") as f:  # written last: it marks the set complete
        json.dump(meta, f, indent=1)
    print(f"transformers   built in {time.perf_counter() - t0:.1f}s  {os.path.relpath(OUT, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
