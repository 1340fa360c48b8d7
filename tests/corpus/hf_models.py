"""Hugging Face transformers models for the real-world corpus, built offline from small configs (random
weights, fixed seeds; transformers 5 has no torch.fx tracer: they go through torch.export).

Each builder returns (model in eval mode, example kwargs). Decoders are built with use_cache=False (a
KV cache object is not a tensor output); token ids, masks with padding, pixel and audio inputs are fixed.
"""
import torch
import transformers as T

SMALL = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64, vocab_size=99)
TOKENS = dict(pad_token_id=0, bos_token_id=1, eos_token_id=2)


def _ids_mask(batch=2, seq=8, vocab=99):
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(3, vocab, (batch, seq), generator=g)
    mask = torch.ones(batch, seq, dtype=torch.long)
    mask[1, seq - 2:] = 0  # the second sequence is padded
    return ids, mask


def _text(model):
    ids, mask = _ids_mask()
    return model, {"input_ids": ids, "attention_mask": mask}


def bert():
    return _text(T.BertModel(T.BertConfig(**SMALL, max_position_embeddings=64)))


def roberta():
    return _text(T.RobertaModel(T.RobertaConfig(**SMALL, max_position_embeddings=64, **TOKENS)))


def distilbert():
    return _text(T.DistilBertModel(T.DistilBertConfig(vocab_size=99, dim=32, n_layers=2, n_heads=2, hidden_dim=64,
                                                      max_position_embeddings=64, pad_token_id=0)))


def gpt2():
    return _text(T.GPT2Model(T.GPT2Config(vocab_size=99, n_embd=32, n_layer=2, n_head=2, n_positions=64,
                                          use_cache=False, **TOKENS)))


def llama():
    return _text(T.LlamaModel(T.LlamaConfig(**SMALL, num_key_value_heads=1, max_position_embeddings=64,
                                            use_cache=False, **TOKENS)))


def qwen2():
    return _text(T.Qwen2Model(T.Qwen2Config(**SMALL, num_key_value_heads=1, max_position_embeddings=64,
                                            use_cache=False, **TOKENS)))


def mistral():
    return _text(T.MistralModel(T.MistralConfig(**SMALL, num_key_value_heads=1, max_position_embeddings=64,
                                                use_cache=False, **TOKENS)))


def t5():
    model, kw = _text(T.T5Model(T.T5Config(vocab_size=99, d_model=32, d_kv=16, d_ff=64, num_layers=2, num_heads=2,
                                           use_cache=False, pad_token_id=0, eos_token_id=2,
                                           decoder_start_token_id=0)))
    kw["decoder_input_ids"] = kw["input_ids"][:, :4]
    return model, kw


def bart():
    return _text(T.BartModel(T.BartConfig(vocab_size=99, d_model=32, encoder_layers=2, decoder_layers=2,
                                          encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=64,
                                          decoder_ffn_dim=64, max_position_embeddings=64, use_cache=False,
                                          decoder_start_token_id=2, **TOKENS)))


def clip_text():
    return _text(T.CLIPTextModel(T.CLIPTextConfig(vocab_size=99, hidden_size=32, intermediate_size=64,
                                                  num_hidden_layers=2, num_attention_heads=2,
                                                  max_position_embeddings=64, **TOKENS)))


def vit():
    model = T.ViTModel(T.ViTConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                                   intermediate_size=64, image_size=32, patch_size=8))
    return model, {"pixel_values": torch.randn(2, 3, 32, 32, generator=torch.Generator().manual_seed(0))}


def whisper_encoder():
    cfg = T.WhisperConfig(d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=2,
                          decoder_attention_heads=2, encoder_ffn_dim=64, decoder_ffn_dim=64, num_mel_bins=16,
                          max_source_positions=32, vocab_size=99, decoder_start_token_id=1, **TOKENS)
    features = torch.randn(1, 16, 64, generator=torch.Generator().manual_seed(0))
    return T.WhisperModel(cfg).get_encoder(), {"input_features": features}


def wav2vec2():
    cfg = T.Wav2Vec2Config(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                           conv_dim=(16, 16), conv_stride=(5, 2), conv_kernel=(10, 3), num_conv_pos_embeddings=16,
                           num_conv_pos_embedding_groups=2, vocab_size=99)
    return T.Wav2Vec2Model(cfg), {"input_values": torch.randn(1, 800, generator=torch.Generator().manual_seed(0))}


# name → builder; encoder, decoder, encoder-decoder, vision and audio architectures
BUILDERS = {f.__name__: f for f in (bert, roberta, distilbert, gpt2, llama, qwen2, mistral, t5, bart, clip_text,
                                    vit, whisper_encoder, wav2vec2)}


def build(name):
    torch.manual_seed(0)
    model, kwargs = BUILDERS[name]()
    return model.eval(), kwargs
