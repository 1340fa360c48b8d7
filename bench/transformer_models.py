"""The transformer workloads of the benchmark (issue #23), in torch:

  GPT        a GPT-style decoder (token + position embeddings, pre-LN blocks, causal attention, GELU MLP,
             untied LM head): 6 layers, d=384, 6 heads, vocab 4096, 14M parameters by default
  Prefill    GPT on a prompt [1, T]: the last position's logits [1, vocab] and every layer's keys and values
             [1, heads, T, head_dim] (the KV cache), as k0, v0, k1, v1, …
  Step       one greedy-decoding step: one token [1, 1] at position `pos` [1] over the past caches
             [1, heads, P, head_dim]; the logits and the caches grown by one position (torch.cat: a
             functional KV cache, as torch.export and the ONNX exporters write it)
  Encoder    a MiniLM-sized sentence encoder: Hugging Face's BertModel (6 layers, d=384, 12 heads) from a
             config, with mean pooling over the attention mask, as sentence-transformers does

All seeded: the same arguments give the same weights."""
import torch
import torch.nn.functional as F
from torch import nn


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.out = nn.Linear(4 * d, d)

    def attend(self, x, past_k=None, past_v=None):
        """x [b, t, d] → (x after the block, keys, values), keys/values with the past in front."""
        b, t, d = x.shape
        h = self.heads
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q = q.view(b, t, h, d // h).transpose(1, 2)
        k = k.view(b, t, h, d // h).transpose(1, 2)
        v = v.view(b, t, h, d // h).transpose(1, 2)
        if past_k is not None:
            k = torch.cat([past_k, k], dim=2)
            v = torch.cat([past_v, v], dim=2)
            y = F.scaled_dot_product_attention(q, k, v)  # one query sees the whole past
        else:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, d))
        x = x + self.out(F.gelu(self.fc(self.ln2(x))))
        return x, k, v


class GPT(nn.Module):
    def __init__(self, vocab=4096, d=384, layers=6, heads=6, max_len=1024):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList([Block(d, heads) for _ in range(layers)])
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def logits(self, x):
        # The last position only, kept 3-d ([1, 1, d]) so that every exporter writes the head as a MatMul
        # (ORT's 4-bit quantizer rewrites MatMul, not Gemm).
        return self.head(self.ln(x[:, -1:, :])).flatten(1)


class Prefill(nn.Module):
    def __init__(self, gpt):
        super().__init__()
        self.gpt = gpt

    def forward(self, idx):
        g = self.gpt
        x = g.tok(idx) + g.pos(torch.arange(idx.shape[1]))
        caches = []
        for blk in g.blocks:
            x, k, v = blk.attend(x)
            caches += [k, v]
        return (g.logits(x), *caches)


class Step(nn.Module):
    def __init__(self, gpt):
        super().__init__()
        self.gpt = gpt

    def forward(self, idx, pos, *past):
        g = self.gpt
        x = g.tok(idx) + g.pos(pos)
        caches = []
        for i, blk in enumerate(g.blocks):
            x, k, v = blk.attend(x, past[2 * i], past[2 * i + 1])
            caches += [k, v]
        return (g.logits(x), *caches)


def gpt(vocab=4096, d=384, layers=6, heads=6, max_len=1024):
    torch.manual_seed(0)
    return GPT(vocab, d, layers, heads, max_len).eval()


def greedy(model, prompt, tokens):
    """torch's greedy continuation of `prompt` [1, T]: `tokens` token ids (list) and the first logits."""
    prefill, step = Prefill(model).eval(), Step(model).eval()
    with torch.no_grad():
        logits, *caches = prefill(prompt)
        first = logits
        out = []
        pos = prompt.shape[1]
        for _ in range(tokens):
            nxt = int(logits.argmax(-1))
            out.append(nxt)
            logits, *caches = step(torch.tensor([[nxt]]), torch.tensor([pos]), *caches)
            pos += 1
    return out, first


class MeanPooled(nn.Module):
    """A BertModel's last hidden state averaged over the unmasked positions: one embedding per text."""

    def __init__(self, bert):
        super().__init__()
        self.bert = bert

    def forward(self, input_ids, attention_mask):
        hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        m = attention_mask.unsqueeze(-1).to(hidden.dtype)
        return (hidden * m).sum(1) / m.sum(1).clamp(min=1e-9)


def encoder(layers=6, d=384, heads=12):
    from transformers import BertConfig, BertModel
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=30522, hidden_size=d, num_hidden_layers=layers, num_attention_heads=heads,
                     intermediate_size=4 * d, max_position_embeddings=512, attn_implementation="sdpa")
    return MeanPooled(BertModel(cfg, add_pooling_layer=False)).eval()


def encoder_inputs(seq=128, real=100):
    """Token ids [1, seq] and a mask with `real` ones then padding (as a tokenizer pads a batch)."""
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(1000, 30000, (1, seq), generator=g)
    mask = torch.zeros(1, seq, dtype=torch.int64)
    mask[:, :real] = 1
    ids[:, real:] = 0
    return ids, mask
