"""Held-out sweep: Hugging Face and timm architectures that are NOT in the real-world corpus
(tests/corpus/hf_models.py, tests/corpus/timm_models.py), the same kinds, from small configs / random
weights, offline. The outside check of issue 18 ("the held-back real-world corpus passes whole"); too slow
for CI, so not part of `npm test`.

    npm run -s python -- bench/heldout.py [--kind hf|timm|all] [--only NAME[,NAME…]] [--tracer symbolic|export]
                                          [--out DIR] [--markdown]

For each model: build → fxwasm.save (torch.export for HF with keyword inputs and padding masks; for timm
symbolic_trace and torch.export) → `fxwasm check FILE` in wasm → the CLI's `table` against torch's
print_tabular of the same trace. Prints one row per (architecture, tracer): pass, or the stage that failed
and the first line of its reason.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
import traceback

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
CLI = os.environ.get("FXWASM_CLI", os.path.join(ROOT, "web", "bin", "fxwasm.js"))

SMALL = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64, vocab_size=99)
TOKENS = dict(pad_token_id=0, bos_token_id=1, eos_token_id=2)


def _gen(seed=0):
    return torch.Generator().manual_seed(seed)


def _ids_mask(batch=2, seq=8, vocab=99):
    ids = torch.randint(3, vocab, (batch, seq), generator=_gen())
    mask = torch.ones(batch, seq, dtype=torch.long)
    mask[1, seq - 2:] = 0  # the second sequence is padded
    return ids, mask


def _text(model, **extra):
    ids, mask = _ids_mask()
    return model, {"input_ids": ids, "attention_mask": mask, **extra}


def _seq2seq(model):
    model, kw = _text(model)
    kw["decoder_input_ids"] = kw["input_ids"][:, :4]
    return model, kw


def _pixels(model, size=32, channels=3, batch=2):
    return model, {"pixel_values": torch.randn(batch, channels, size, size, generator=_gen())}


# ---------------------------------------------------------------- Hugging Face (transformers 5) ---------
def hf_builders():
    import transformers as T
    dec = dict(**SMALL, max_position_embeddings=64, use_cache=False, **TOKENS)
    enc = dict(**SMALL, max_position_embeddings=64, **TOKENS)
    s2s = dict(vocab_size=99, d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=2,
               decoder_attention_heads=2, encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=64,
               use_cache=False, decoder_start_token_id=2, **TOKENS)
    vis = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64)
    b = {}
    b["albert"] = lambda: _text(T.AlbertModel(T.AlbertConfig(**enc, embedding_size=16)))
    b["electra"] = lambda: _text(T.ElectraModel(T.ElectraConfig(**enc, embedding_size=16)))
    b["mobilebert"] = lambda: _text(T.MobileBertModel(T.MobileBertConfig(
        **enc, embedding_size=16, intra_bottleneck_size=16, true_hidden_size=16, num_feedforward_networks=2)))
    b["deberta_v2"] = lambda: _text(T.DebertaV2Model(T.DebertaV2Config(
        **enc, relative_attention=True, position_buckets=16, pos_att_type=["p2c", "c2p"])))
    b["mpnet"] = lambda: _text(T.MPNetModel(T.MPNetConfig(**enc)))
    b["xlm_roberta"] = lambda: _text(T.XLMRobertaModel(T.XLMRobertaConfig(**enc)))
    b["gpt_neo"] = lambda: _text(T.GPTNeoModel(T.GPTNeoConfig(
        vocab_size=99, hidden_size=32, num_layers=2, num_heads=2, attention_types=[[["global", "local"], 1]],
        window_size=4, intermediate_size=64, max_position_embeddings=64, use_cache=False, **TOKENS)))
    b["gpt_neox"] = lambda: _text(T.GPTNeoXModel(T.GPTNeoXConfig(**dec, rotary_pct=0.5)))
    b["opt"] = lambda: _text(T.OPTModel(T.OPTConfig(
        vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, ffn_dim=64,
        word_embed_proj_dim=32, max_position_embeddings=64, use_cache=False, **TOKENS)))
    b["phi"] = lambda: _text(T.PhiModel(T.PhiConfig(**dec, partial_rotary_factor=0.5)))
    b["phi3"] = lambda: _text(T.Phi3Model(T.Phi3Config(**dec, num_key_value_heads=1)))
    b["gemma"] = lambda: _text(T.GemmaModel(T.GemmaConfig(**dec, num_key_value_heads=1, head_dim=16)))
    b["gemma2"] = lambda: _text(T.Gemma2Model(T.Gemma2Config(**dec, num_key_value_heads=1, head_dim=16,
                                                             sliding_window=4)))
    b["falcon"] = lambda: _text(T.FalconModel(T.FalconConfig(
        vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, use_cache=False,
        new_decoder_architecture=False, multi_query=True, parallel_attn=True, alibi=False, **TOKENS)))
    b["qwen3"] = lambda: _text(T.Qwen3Model(T.Qwen3Config(**dec, num_key_value_heads=1, head_dim=16)))
    b["llama3_rope_scaling"] = lambda: _text(T.LlamaModel(T.LlamaConfig(
        **dec, num_key_value_heads=1, tie_word_embeddings=True,
        rope_scaling=dict(rope_type="llama3", factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                          original_max_position_embeddings=16))))
    b["marian"] = lambda: _seq2seq(T.MarianModel(T.MarianConfig(**s2s)))
    b["m2m100"] = lambda: _seq2seq(T.M2M100Model(T.M2M100Config(**s2s)))
    b["pegasus"] = lambda: _seq2seq(T.PegasusModel(T.PegasusConfig(**s2s)))

    def whisper():
        cfg = T.WhisperConfig(d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=2,
                              decoder_attention_heads=2, encoder_ffn_dim=64, decoder_ffn_dim=64, num_mel_bins=16,
                              max_source_positions=32, max_target_positions=32, vocab_size=99, use_cache=False,
                              decoder_start_token_id=1, **TOKENS)
        feats = torch.randn(1, 16, 64, generator=_gen())
        return T.WhisperModel(cfg), {"input_features": feats, "decoder_input_ids": torch.tensor([[1, 5, 7, 9]])}
    b["whisper_full"] = whisper

    audio = dict(**vis, conv_dim=(16, 16), conv_stride=(5, 2), conv_kernel=(10, 3), num_conv_pos_embeddings=16,
                 num_conv_pos_embedding_groups=2, vocab_size=99)

    def hubert():
        return T.HubertModel(T.HubertConfig(**audio)), {"input_values": torch.randn(1, 800, generator=_gen())}

    def wavlm():
        return T.WavLMModel(T.WavLMConfig(**audio, num_buckets=16, max_bucket_distance=64)), {
            "input_values": torch.randn(1, 800, generator=_gen())}
    b["hubert"] = hubert
    b["wavlm"] = wavlm

    def siglip():
        cfg = T.SiglipConfig(text_config=dict(**vis, vocab_size=99, max_position_embeddings=16),
                             vision_config=dict(**vis, image_size=32, patch_size=8))
        ids = torch.randint(3, 99, (2, 16), generator=_gen())
        return T.SiglipModel(cfg), {"input_ids": ids, "pixel_values": torch.randn(2, 3, 32, 32, generator=_gen())}
    b["siglip"] = siglip
    b["clip_vision"] = lambda: _pixels(T.CLIPVisionModel(T.CLIPVisionConfig(**vis, image_size=32, patch_size=8)))
    b["deit_hf"] = lambda: _pixels(T.DeiTModel(T.DeiTConfig(**vis, image_size=32, patch_size=8)))
    b["dinov2"] = lambda: _pixels(T.Dinov2Model(T.Dinov2Config(**vis, image_size=32, patch_size=8)))
    b["swin_hf"] = lambda: _pixels(T.SwinModel(T.SwinConfig(
        image_size=32, patch_size=2, embed_dim=16, depths=[1, 1], num_heads=[1, 2], window_size=4)))
    b["convnext_hf"] = lambda: _pixels(T.ConvNextModel(T.ConvNextConfig(
        hidden_sizes=[8, 16, 32, 64], depths=[1, 1, 1, 1])))
    b["segformer"] = lambda: _pixels(T.SegformerForSemanticSegmentation(T.SegformerConfig(
        hidden_sizes=[8, 16, 32, 64], depths=[1, 1, 1, 1], num_attention_heads=[1, 1, 2, 2],
        decoder_hidden_size=32, num_labels=3)), size=64)
    # second batch: more decoders (alibi, MoE, state-space), encoders, vision and audio
    b["bloom"] = lambda: _text(T.BloomModel(T.BloomConfig(vocab_size=99, hidden_size=32, n_layer=2, n_head=2,
                                                          use_cache=False, **TOKENS)))
    b["falcon_alibi"] = lambda: _text(T.FalconModel(T.FalconConfig(
        vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, use_cache=False,
        new_decoder_architecture=False, multi_query=False, parallel_attn=False, alibi=True, bias=True, **TOKENS)))
    b["gpt_bigcode"] = lambda: _text(T.GPTBigCodeModel(T.GPTBigCodeConfig(
        vocab_size=99, n_embd=32, n_layer=2, n_head=2, n_positions=64, multi_query=True, use_cache=False,
        **TOKENS)))
    b["gptj"] = lambda: _text(T.GPTJModel(T.GPTJConfig(vocab_size=99, n_embd=32, n_layer=2, n_head=2, rotary_dim=8,
                                                       n_positions=64, use_cache=False, **TOKENS)))
    b["codegen"] = lambda: _text(T.CodeGenModel(T.CodeGenConfig(vocab_size=99, n_embd=32, n_layer=2, n_head=4,
                                                                rotary_dim=4, n_positions=64, n_ctx=64,
                                                                use_cache=False, **TOKENS)))
    b["stablelm"] = lambda: _text(T.StableLmModel(T.StableLmConfig(**dec, num_key_value_heads=1)))
    b["starcoder2"] = lambda: _text(T.Starcoder2Model(T.Starcoder2Config(**dec, num_key_value_heads=1)))
    b["olmo2"] = lambda: _text(T.Olmo2Model(T.Olmo2Config(**dec, num_key_value_heads=1)))
    b["cohere"] = lambda: _text(T.CohereModel(T.CohereConfig(**dec, num_key_value_heads=1)))
    b["granite"] = lambda: _text(T.GraniteModel(T.GraniteConfig(**dec, num_key_value_heads=1)))
    b["gemma3_text"] = lambda: _text(T.Gemma3TextModel(T.Gemma3TextConfig(
        **dec, num_key_value_heads=1, head_dim=16, sliding_window=4)))
    b["smollm3"] = lambda: _text(T.SmolLM3Model(T.SmolLM3Config(**dec, num_key_value_heads=1)))
    b["mixtral_moe"] = lambda: _text(T.MixtralModel(T.MixtralConfig(**dec, num_key_value_heads=1, num_local_experts=4,
                                                                    num_experts_per_tok=2)))
    b["qwen2_moe"] = lambda: _text(T.Qwen2MoeModel(T.Qwen2MoeConfig(
        **dec, num_key_value_heads=1, num_experts=4, num_experts_per_tok=2, moe_intermediate_size=32,
        shared_expert_intermediate_size=32)))
    b["mamba"] = lambda: (T.MambaModel(T.MambaConfig(vocab_size=99, hidden_size=32, num_hidden_layers=2,
                                                     state_size=8, use_cache=False, **TOKENS)),
                          {"input_ids": _ids_mask()[0]})
    b["modernbert"] = lambda: _text(T.ModernBertModel(T.ModernBertConfig(
        **SMALL, max_position_embeddings=64, global_attn_every_n_layers=2, local_attention=4, **TOKENS)))
    b["mt5"] = lambda: _seq2seq(T.MT5Model(T.MT5Config(vocab_size=99, d_model=32, d_kv=16, d_ff=64, num_layers=2,
                                                       num_heads=2, use_cache=False, pad_token_id=0,
                                                       eos_token_id=2, decoder_start_token_id=0)))
    b["roformer"] = lambda: _text(T.RoFormerModel(T.RoFormerConfig(**enc, embedding_size=32)))
    b["squeezebert"] = lambda: _text(T.SqueezeBertModel(T.SqueezeBertConfig(**enc, embedding_size=32, q_groups=2,
                                                                            k_groups=2, v_groups=2,
                                                                            post_attention_groups=2,
                                                                            intermediate_groups=2,
                                                                            output_groups=2)))
    b["funnel"] = lambda: _text(T.FunnelModel(T.FunnelConfig(vocab_size=99, block_sizes=[1, 1], d_model=32, n_head=2,
                                                             d_head=16, d_inner=64)))
    b["bert_seqcls"] = lambda: _text(T.BertForSequenceClassification(T.BertConfig(**enc, num_labels=3)))
    b["gpt2_lmhead"] = lambda: _text(T.GPT2LMHeadModel(T.GPT2Config(vocab_size=99, n_embd=32, n_layer=2, n_head=2,
                                                                    n_positions=64, use_cache=False, **TOKENS)))
    b["beit_hf"] = lambda: _pixels(T.BeitModel(T.BeitConfig(**vis, image_size=32, patch_size=8,
                                                            use_relative_position_bias=True)))
    b["mobilevit_hf"] = lambda: _pixels(T.MobileViTModel(T.MobileViTConfig(
        image_size=64, hidden_sizes=[16, 24, 32], neck_hidden_sizes=[8, 8, 16, 16, 24, 32, 64])), size=64)
    b["resnet_hf"] = lambda: _pixels(T.ResNetModel(T.ResNetConfig(embedding_size=16, hidden_sizes=[16, 32, 64, 128],
                                                                  depths=[1, 1, 1, 1])), size=64)
    b["efficientnet_hf"] = lambda: _pixels(T.EfficientNetModel(T.EfficientNetConfig(
        image_size=64, width_coefficient=0.25, depth_coefficient=0.25, hidden_dim=320)), size=64)
    b["yolos"] = lambda: _pixels(T.YolosModel(T.YolosConfig(**vis, image_size=[32, 32], patch_size=8,
                                                            num_detection_tokens=4)))
    b["data2vec_audio"] = lambda: (T.Data2VecAudioModel(T.Data2VecAudioConfig(**audio)),
                                   {"input_values": torch.randn(1, 800, generator=_gen())})
    b["wav2vec2_conformer"] = lambda: (T.Wav2Vec2ConformerModel(T.Wav2Vec2ConformerConfig(
        **audio, position_embeddings_type="rotary", conv_depthwise_kernel_size=3)),
        {"input_values": torch.randn(1, 800, generator=_gen())})
    return b


# dynamic batch and sequence: exported with Dims, checked, then run at another size against torch
DYNAMIC_HF = ["electra", "deberta_v2", "gpt_neox", "qwen3", "phi3", "gemma2", "falcon", "bloom", "modernbert",
              "mamba"]


def dynamic_build(builder):
    from torch.export import Dim
    model, kw = builder()
    batch, seq = Dim("batch", min=1, max=8), Dim("seq", min=2, max=32)
    shapes = {k: ({0: batch, 1: seq} if k in ("input_ids", "attention_mask") else None) for k in kw}
    second = {"input_ids": torch.randint(3, 99, (3, 11), generator=_gen(2))}
    if "attention_mask" in kw:
        mask = torch.ones(3, 11, dtype=torch.long)
        mask[2, 7:] = 0
        second["attention_mask"] = mask
    return model.eval(), kw, shapes, second


# ---------------------------------------------------------------- timm ---------------------------------
TIMM = [
    "efficientnetv2_rw_t", "mobilenetv4_conv_small", "mobileone_s0", "repvit_m0_9", "fastvit_t8",
    "ghostnetv2_100", "hgnetv2_b0", "regnety_002", "resnetv2_50", "seresnext26d_32x4d", "edgenext_xx_small",
    "mobilevitv2_050", "coatnet_nano_rw_224", "maxvit_nano_rw_256", "efficientformerv2_s0",
    "beit_base_patch16_224", "eva02_tiny_patch14_224", "cait_xxs24_224", "convit_tiny", "twins_svt_small",
    "pvt_v2_b0", "gcvit_xxtiny", "davit_tiny", "focalnet_tiny_srf", "nest_tiny", "tresnet_m",
    "ese_vovnet19b_dw", "cspdarknet53", "sequencer2d_s", "mobilenetv4_hybrid_medium", "xcit_nano_12_p16_224",
    "visformer_tiny", "rdnet_tiny", "inception_next_tiny", "hiera_tiny_224", "vit_small_patch16_rope_224",
]
# smaller input where the architecture allows any size (keeps the sweep fast); others use their own size
TIMM_SIZE = {"efficientnetv2_rw_t": 128, "mobilenetv4_conv_small": 128, "mobileone_s0": 128,
             "repvit_m0_9": 128, "fastvit_t8": 128, "ghostnetv2_100": 128, "hgnetv2_b0": 128, "regnety_002": 128,
             "resnetv2_50": 128, "seresnext26d_32x4d": 128, "edgenext_xx_small": 128, "tresnet_m": 128,
             "ese_vovnet19b_dw": 128, "cspdarknet53": 128, "inception_next_tiny": 128, "rdnet_tiny": 128,
             "mobilenetv4_hybrid_medium": 128}


def timm_build(name):
    import timm
    torch.manual_seed(0)
    model = timm.create_model(name, pretrained=False, num_classes=10).eval()
    size = model.pretrained_cfg.get("input_size", (3, 224, 224))
    if name in TIMM_SIZE:
        size = (size[0], TIMM_SIZE[name], TIMM_SIZE[name])
    return model, torch.randn(1, *size, generator=_gen(1))


# ---------------------------------------------------------------- the sweep ----------------------------
def _first_line(text, limit=220):
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    for ln in lines:
        if "fxwasm: error:" in ln or "Error" in ln:
            return ln.strip()[:limit]
    return (lines[-1] if lines else "").strip()[:limit]


def cli(*args, timeout=900):
    proc = subprocess.run(["node", CLI, *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    return proc.returncode, proc.stdout, proc.stderr


def second_size(model, path, second, rtol=1e-4, atol=1e-5):
    """None when the file run at the second size matches torch there, else the reason."""
    import numpy as np
    d = tempfile.mkdtemp(prefix="fxwasm-heldout-dyn-")
    flags = []
    for k, v in second.items():
        np.save(os.path.join(d, f"{k}.npy"), v.numpy())
        flags += ["--input", f"{k}={os.path.join(d, k + '.npy')}"]
    code, out, err = cli("run", path, *flags, "--out", os.path.join(d, "out.npz"))
    if code != 0:
        return f"second size: exit {code}: " + _first_line(err or out)
    with np.load(os.path.join(d, "out.npz")) as z:
        got = z[sorted(z.files)[0]]
    with torch.no_grad():
        want = _first_tensor(model(**second)).numpy()
    if got.shape != want.shape:
        return f"second size: shape {list(got.shape)}, torch {list(want.shape)}"
    bad = np.abs(got - want) > atol + rtol * np.abs(want)
    if bad.any():
        return f"second size: {int(bad.sum())}/{bad.size} values off, max abs err {np.abs(got - want).max():.3g}"
    return None


def sweep_dynamic(name, builder, out_dir):
    import fxwasm
    path = os.path.join(out_dir, f"hf_{name}_dynamic.fxw")
    t0 = time.time()
    torch.manual_seed(0)
    model, kw, shapes, second = dynamic_build(builder)
    try:
        fxwasm.save(model, path, example_kwargs=kw, tracer="export", dynamic_shapes=shapes)
    except Exception as e:  # noqa: BLE001
        return "export", f"{type(e).__name__}: {e}".splitlines()[0][:220], time.time() - t0
    code, out, err = cli("check", path)
    if code != 0 or "check: pass" not in out:
        return "check", f"exit {code}: " + _first_line(err or out), time.time() - t0
    reason = second_size(model, path, second)
    return ("pass", "", time.time() - t0) if reason is None else ("dynamic", reason, time.time() - t0)


def sweep_one(kind, name, tracer, build, out_dir, compare_table=True):
    import fxwasm
    from corpus_graphs import print_tabular
    from fxwasm.save import trace
    path = os.path.join(out_dir, f"{kind}_{name}_{tracer}.fxw")
    t0 = time.time()
    try:
        model, inputs, kwargs = build()
    except Exception as e:  # noqa: BLE001 — the model itself cannot be built here
        return "build", f"{type(e).__name__}: {e}".splitlines()[0][:220], time.time() - t0
    try:
        fxwasm.save(model, path, example_inputs=inputs, example_kwargs=kwargs, tracer=tracer)
    except Exception as e:  # noqa: BLE001
        if os.environ.get("HELDOUT_TRACEBACK"):
            traceback.print_exc()
        return "export", f"{type(e).__name__}: {e}".splitlines()[0][:220], time.time() - t0
    code, out, err = cli("check", path)
    if code == 1:  # a mismatch at the default tolerance: measure both float32 runs against float64
        verdict = float64_verdict(model, inputs, kwargs, path)
        if verdict is None or not verdict[0]:
            return "check", f"exit {code}: " + _first_line(err or out) + (f" ({verdict[1]})" if verdict else ""), \
                time.time() - t0
        note = verdict[1]
    elif code != 0 or "check: pass" not in out:
        return "check", f"exit {code}: " + _first_line(err or out), time.time() - t0
    else:
        note = ""
    if compare_table:
        try:
            model, inputs, kwargs = build()  # a fresh model, as the corpus tests do (forward may fill caches)
            gm, _, _ = trace(model, inputs, tracer, kwargs)
            code, out, err = cli("table", path)
            if code != 0:
                return "table", _first_line(err), time.time() - t0
            if out != print_tabular(gm):
                return "table", "table differs from torch's print_tabular", time.time() - t0
        except Exception as e:  # noqa: BLE001
            return "table", f"{type(e).__name__}: {e}".splitlines()[0][:220], time.time() - t0
    return "pass", note, time.time() - t0


def _first_tensor(v):
    if isinstance(v, torch.Tensor):
        return v
    if isinstance(v, dict):
        v = list(v.values())
    if isinstance(v, (tuple, list)):
        for x in v:
            t = _first_tensor(x)
            if t is not None:
                return t
    return None


def float64_verdict(model, inputs, kwargs, path, factor=4.0):
    """(ok, text): the first output's max |err| / max |ref| against torch float64, fxwasm's next to torch
    float32's own (docs/accuracy.md). ok when fxwasm's is at most `factor` times torch's: a deep random-init
    network whose float32 result is ill-conditioned, not a wrong kernel. None when it cannot be measured."""
    import copy
    import numpy as np
    d = tempfile.mkdtemp(prefix="fxwasm-heldout-f64-")
    code, _, _ = cli("run", path, "--out", os.path.join(d, "out.npz"))
    if code != 0:
        return None
    with np.load(os.path.join(d, "out.npz")) as z:
        got = z[sorted(z.files)[0]].astype(np.float64)
    dbl = lambda t: t.double() if isinstance(t, torch.Tensor) and t.is_floating_point() else t  # noqa: E731
    with torch.no_grad():
        r32 = _first_tensor(model(*(inputs or ()), **(kwargs or {})))
        m64 = copy.deepcopy(model).double()
        r64 = _first_tensor(m64(*[dbl(t) for t in (inputs or ())], **{k: dbl(v) for k, v in (kwargs or {}).items()}))
    if r32 is None or r64 is None or tuple(r64.shape) != got.shape:
        return None
    r64 = r64.numpy()
    scale = max(np.abs(r64).max(), 1e-30)
    e_torch = float(np.abs(r32.double().numpy() - r64).max() / scale)
    e_wasm = float(np.abs(got - r64).max() / scale)
    ok = e_wasm <= factor * max(e_torch, 1e-7)
    return ok, f"vs float64: fxwasm max rel {e_wasm:.2e}, torch f32 {e_torch:.2e}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", default="all", choices=["hf", "timm", "all"])
    ap.add_argument("--only", default="")
    ap.add_argument("--tracer", default="", help="symbolic, export or dynamic (default: all that apply)")
    ap.add_argument("--out", default="")
    ap.add_argument("--no-table", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    only = set(filter(None, args.only.split(",")))
    out_dir = args.out or tempfile.mkdtemp(prefix="fxwasm-heldout-")
    os.makedirs(out_dir, exist_ok=True)
    jobs = []
    if args.kind in ("hf", "all"):
        for name, builder in hf_builders().items():
            def build(builder=builder):
                torch.manual_seed(0)
                model, kw = builder()
                return model.eval(), None, kw
            jobs.append(("hf", name, "export", build))
        builders = hf_builders()
        for name in DYNAMIC_HF:
            jobs.append(("hf", name, "dynamic", lambda name=name: builders[name]))
    if args.kind in ("timm", "all"):
        tracers = [args.tracer] if args.tracer else ["symbolic", "export"]
        for name in TIMM:
            for tracer in tracers:
                def build(name=name):
                    model, x = timm_build(name)
                    return model, (x,), None
                jobs.append(("timm", name, tracer, build))
    rows = []
    for kind, name, tracer, build in jobs:
        if (only and name not in only) or (args.tracer and tracer != args.tracer):
            continue
        if tracer == "dynamic":
            stage, reason, secs = sweep_dynamic(name, build(), out_dir)
        else:
            stage, reason, secs = sweep_one(kind, name, tracer, build, out_dir, not args.no_table)
        rows.append((kind, name, tracer, stage, reason, secs))
        print(f"{kind:5} {name:28} {tracer:8} {stage:7} {secs:6.1f}s {reason}", flush=True)
    passed = sum(r[3] == "pass" for r in rows)
    print(f"\n{passed}/{len(rows)} pass  (files in {out_dir})")
    if args.markdown:
        print("\n| kind | model | tracer | result | reason |\n| --- | --- | --- | --- | --- |")
        for kind, name, tracer, stage, reason, _ in rows:
            print(f"| {kind} | {name} | {tracer} | {'pass' if stage == 'pass' else 'fail: ' + stage} | "
                  f"{reason.replace('|', '/')} |")
    return 0 if passed == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
