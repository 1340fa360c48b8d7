"""Small Linear-dominated models for the quantized-weights tests and bench (tests/python/test_quantize.py,
bench/quantize_decode.py): an MLP and a GPT-style decoder (token + position embeddings, causal
self-attention, GELU MLP, tied-free LM head)."""
import torch
from torch import nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, d_in=256, hidden=1024, d_out=64):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.fc3 = nn.Linear(hidden, d_out)

    def forward(self, x):
        return self.fc3(F.gelu(self.fc2(F.relu(self.fc1(x)))))


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

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q = q.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, d))
        return x + self.out(F.gelu(self.fc(self.ln2(x))))


class Decoder(nn.Module):
    def __init__(self, vocab=1024, d=256, layers=2, heads=4, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList([Block(d, heads) for _ in range(layers)])
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        pos = torch.arange(idx.shape[1], device=idx.device)
        x = self.tok(idx) + self.pos(pos)
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln(x))


class DecoderStep(Decoder):
    """One greedy-decoding step with a functional KV cache: the new token's logits and the caches with its
    keys/values appended (torch.cat), as issue #23's decode workload."""

    def forward(self, idx, pos, past_k, past_v):
        x = self.tok(idx) + self.pos(pos)
        new_k, new_v = [], []
        for i, blk in enumerate(self.blocks):
            b, t, d = x.shape
            h = blk.heads
            q, k, v = blk.qkv(blk.ln1(x)).split(d, dim=2)
            q = q.view(b, t, h, d // h).transpose(1, 2)
            k = torch.cat([past_k[i], k.view(b, t, h, d // h).transpose(1, 2)], dim=2)
            v = torch.cat([past_v[i], v.view(b, t, h, d // h).transpose(1, 2)], dim=2)
            new_k.append(k)
            new_v.append(v)
            y = F.scaled_dot_product_attention(q, k, v)
            x = x + blk.proj(y.transpose(1, 2).reshape(b, t, d))
            x = x + blk.out(F.gelu(blk.fc(blk.ln2(x))))
        return self.head(self.ln(x)), torch.stack(new_k), torch.stack(new_v)
