"""Generates tests/golden/modules/*.fxw: small models built from leaf torch.nn modules (call_module
nodes), exported with the real exporter and their reference outputs, for
tests/cpp/runtime/examples_test.cpp (ModuleGoldensMatchTheirReferences).

Run:  PYTHONPATH=python /root/.cache/fxwasm/venv-torch-2.15.0/bin/python tests/golden/modules/gen_modules.py [NAME...]
(names limit the run to those models)
Each model is kept tiny (weights of a few hundred values) so the files stay small.
"""
import os
import sys

import torch
import torch.nn as nn

import fxwasm

OUT = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)


def randomize_stats(model):
    """Running statistics and affine weights away from their initial 0/1, so norms are really checked."""
    for m in model.modules():
        if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d)) or (isinstance(m, nn.InstanceNorm2d) and m.track_running_stats):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 1.5)
        for name in ("weight", "bias"):
            p = getattr(m, name, None)
            if isinstance(p, nn.Parameter) and isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d, nn.LayerNorm,
                                                               nn.GroupNorm, nn.InstanceNorm2d)):
                with torch.no_grad():
                    p.uniform_(-1.0, 1.0)
    return model


MODELS = {
    "conv_stack": (nn.Sequential(
        nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU6(),
        nn.Conv2d(4, 4, 3, stride=2, padding=1, groups=4, bias=False), nn.Hardswish(),
        nn.Conv2d(4, 6, 1), nn.GroupNorm(2, 6), nn.SiLU(),
        nn.Conv2d(6, 4, (3, 2), padding="same", dilation=(2, 1), padding_mode="reflect"),
        nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1), nn.InstanceNorm2d(3, affine=True),
        nn.ZeroPad2d((1, 0, 2, 1)), nn.MaxPool2d(3, 2, 1, ceil_mode=True), nn.AvgPool2d(2, count_include_pad=False),
        nn.AdaptiveAvgPool2d((2, 3)), nn.Flatten(), nn.Dropout(0.3), nn.Linear(18, 5), nn.LogSoftmax(dim=1)),
        (torch.randn(2, 3, 11, 13),)),
    "conv1d_stack": (nn.Sequential(
        nn.Conv1d(3, 4, 3, padding=2, dilation=2), nn.BatchNorm1d(4), nn.ELU(0.5),
        nn.ConvTranspose1d(4, 2, 4, stride=2, groups=2), nn.ReflectionPad1d(2), nn.MaxPool1d(3, 2),
        nn.AvgPool1d(2), nn.AdaptiveMaxPool1d(3), nn.AdaptiveAvgPool1d(2), nn.Tanh()),
        (torch.randn(2, 3, 17),)),
    "activations": (nn.Sequential(
        nn.Linear(6, 8), nn.LeakyReLU(0.1), nn.Linear(8, 8), nn.GELU(approximate="tanh"), nn.Linear(8, 8),
        nn.Softplus(beta=2.0, threshold=5.0), nn.Linear(8, 8), nn.Hardtanh(-0.5, 0.5), nn.Mish(), nn.Sigmoid(),
        nn.Hardsigmoid(), nn.GELU(), nn.ReLU(), nn.Identity(), nn.Softmax(dim=-1)),
        (torch.randn(3, 6),)),
    "embed_norm": (nn.Sequential(
        nn.Embedding(11, 6, padding_idx=0), nn.LayerNorm(6), nn.Linear(6, 6, bias=False), nn.Unflatten(2, (2, 3)),
        nn.Flatten(1)), (torch.tensor([[1, 5, 0, 10], [3, 3, 7, 2]]),)),
    "upsample_shuffle": (nn.Sequential(
        nn.Upsample(scale_factor=2, mode="bilinear"), nn.Conv2d(2, 8, 3, padding=1), nn.PixelShuffle(2),
        nn.Upsample(size=(9, 7), mode="nearest"), nn.UpsamplingBilinear2d(scale_factor=0.5),
        nn.ReplicationPad2d(1), nn.AdaptiveMaxPool2d((3, 2)), nn.Softmin(dim=1)),
        (torch.randn(1, 2, 4, 5),)),
}


class BilinearPair(nn.Module):
    def __init__(self):
        super().__init__()
        self.bil = nn.Bilinear(4, 3, 5)
        self.norm = nn.BatchNorm1d(5)

    def forward(self, a, b):
        return self.norm(self.bil(a, b))


MODELS["bilinear"] = (BilinearPair(), (torch.randn(4, 4), torch.randn(4, 3)))


class AttentionPair(nn.Module):
    """Self-attention with a padding mask (weights averaged), then cross-attention with kdim/vdim, bias_kv,
    zero attention and a float mask (per-head weights), then a bool 3-D mask without weights."""
    def __init__(self):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(8, 2, batch_first=True)
        self.cross = nn.MultiheadAttention(8, 4, kdim=6, vdim=5, add_bias_kv=True, add_zero_attn=True)
        self.masked = nn.MultiheadAttention(8, 2, bias=False)

    def forward(self, x, mem, pad, fmask, bmask):
        a, w1 = self.self_attn(x, x, x, key_padding_mask=pad)
        q = a.transpose(0, 1)
        b, w2 = self.cross(q, mem, mem[..., :5], attn_mask=fmask, average_attn_weights=False)
        c, w3 = self.masked(b, b, b, attn_mask=bmask, need_weights=False)
        return c, w1, w2, w3


class UnbatchedCausalAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(6, 3)

    def forward(self, x, mask):
        out, w = self.attn(x, x, x, attn_mask=mask, need_weights=False, is_causal=True)
        out2, w2 = self.attn(x, x, x, attn_mask=mask)
        return out, out2, w2


class Recurrent(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 5, 2, batch_first=True, bidirectional=True)
        self.gru = nn.GRU(10, 3, bias=False)
        self.rnn = nn.RNN(3, 4, nonlinearity="relu", num_layers=2)
        self.rnn_tanh = nn.RNN(4, 2)
        self.proj = nn.LSTM(4, 6, proj_size=3)

    def forward(self, x, h0, c0):
        y, (h, c) = self.lstm(x)
        z, hg = self.gru(y.transpose(0, 1), h0[:, :, :3])
        r, hr = self.rnn(z)
        t, ht = self.rnn_tanh(r[:, 0])  # unbatched
        p, (hp, cp) = self.proj(r, (h0, c0))
        return y, h, c, z, hg, r, hr, t, ht, p, hp, cp


class Encoders(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.1, activation="gelu", batch_first=True,
                                              norm_first=True)
        self.stack = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 12, batch_first=True), 2,
                                           norm=nn.LayerNorm(8))
        self.seq_first = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 4, 12, activation=nn.GELU()), 1,
                                               enable_nested_tensor=False)

    def forward(self, x, causal, pad):
        a = self.pre(x, src_mask=causal, is_causal=True)
        b = self.stack(a, src_key_padding_mask=pad)
        c = self.seq_first(b.transpose(0, 1), mask=causal)
        d = self.stack(a, mask=causal)
        return a, b, c, d


_pad = torch.tensor([[False, False, False, True], [False, False, False, False]])
_bmask = (torch.rand(4, 4, 4) > 0.6) & ~torch.eye(4, dtype=torch.bool)  # no row fully masked
MODELS["attention"] = (AttentionPair(), (torch.randn(2, 4, 8), torch.randn(3, 2, 6), _pad, torch.randn(4, 3),
                                         _bmask))
MODELS["attention_causal"] = (UnbatchedCausalAttention(), (torch.randn(5, 6),
                                                           nn.Transformer.generate_square_subsequent_mask(5)))
MODELS["recurrent"] = (Recurrent(), (torch.randn(2, 3, 4), torch.randn(1, 2, 3), torch.randn(1, 2, 6)))
MODELS["encoders"] = (Encoders(), (torch.randn(2, 4, 8), nn.Transformer.generate_square_subsequent_mask(4),
                                   torch.tensor([[False, False, True, True], [False, False, False, False]])))
# No padding mask: torch's nested-tensor path (data-dependent) keeps the model above from make_fx/export.
# (Inside a Sequential so that symbolic_trace keeps the encoder a leaf rather than tracing its forward.)
MODELS["encoder_plain"] = (nn.Sequential(nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 12, batch_first=True),
                                                               2, norm=nn.LayerNorm(8))), (torch.randn(2, 5, 8),))
MODELS["channel_shuffle"] = (nn.Sequential(nn.Conv2d(4, 6, 1), nn.ChannelShuffle(3), nn.ReLU()),
                             (torch.randn(2, 4, 3, 3),))

# Leaf modules of 3-D data and the functional-style leaves (LPPool, LocalResponseNorm, Fold/Unfold, ...).
class Volumetric(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv3d(2, 4, 3, padding=1), nn.BatchNorm3d(4), nn.ReLU(), nn.MaxPool3d(2, ceil_mode=True),
            nn.Conv3d(4, 4, (2, 3, 3), padding="same", groups=2, padding_mode="replicate"), nn.InstanceNorm3d(4, affine=True),
            nn.ConvTranspose3d(4, 3, 2, stride=2), nn.AvgPool3d(2, stride=1, padding=1, count_include_pad=False),
            nn.ZeroPad3d(1), nn.LPPool3d(2, 2), nn.AdaptiveMaxPool3d((2, 1, 2)), nn.AdaptiveAvgPool3d(1), nn.Flatten())

    def forward(self, x):
        return self.body(x)


class FunctionalLeaves(nn.Module):
    def __init__(self):
        super().__init__()
        self.unfold = nn.Unfold(3, padding=1)
        self.fold = nn.Fold((5, 6), 3, padding=1)
        self.lrn = nn.LocalResponseNorm(3)
        self.lp1 = nn.LPPool1d(3, 2)
        self.lp2 = nn.LPPool2d(2, (2, 3), stride=1)
        self.sm2 = nn.Softmax2d()
        self.rms = nn.RMSNorm(6)
        self.cos = nn.CosineSimilarity(dim=1)
        self.dist = nn.PairwiseDistance(p=1.5)
        self.rrelu = nn.RReLU()
        self.pad = nn.ReflectionPad3d(1)

    def forward(self, x, y):
        a = self.fold(self.unfold(x))
        b = self.sm2(self.lp2(self.lrn(a).abs() + 0.1))
        c = self.rms(self.rrelu(a))
        d = self.cos(a.flatten(2), x.flatten(2))
        e = self.dist(y, y.flip(0))
        f = self.lp1(y.abs().unsqueeze(0) + 0.5)
        g = self.pad(a.unsqueeze(0))
        return b, c, d, e, f, g


class RnnCells(nn.Module):
    """Each cell batched with and without a hidden state, and unbatched (1-D input)."""
    def __init__(self):
        super().__init__()
        self.tanh = nn.RNNCell(3, 4)
        self.relu = nn.RNNCell(3, 4, bias=False, nonlinearity="relu")
        self.lstm = nn.LSTMCell(3, 4)
        self.gru = nn.GRUCell(3, 4)

    def forward(self, x, h, c):
        a = self.tanh(x)
        b = self.relu(x, h)
        c1, c2 = self.lstm(x, (h, c))
        d1, d2 = self.lstm(x[0])
        e = self.gru(x, h)
        f = self.gru(x[1], h[1])
        g = self.tanh(x[0], a[0])
        return a, b, c1, c2, d1, d2, e, f, g


class RnnPlain(nn.Module):
    """nn.RNN: tanh and relu, stacked, batch_first, bidirectional, without bias, h0 given or not, unbatched."""
    def __init__(self):
        super().__init__()
        self.tanh2 = nn.RNN(3, 4, num_layers=2)
        self.relu_bi = nn.RNN(3, 4, nonlinearity="relu", batch_first=True, bidirectional=True, bias=False)
        self.deep_bi = nn.RNN(8, 3, num_layers=2, bidirectional=True)

    def forward(self, x, h0):
        a, ha = self.tanh2(x)
        b, hb = self.relu_bi(x.transpose(0, 1), h0)
        c, hc = self.deep_bi(b.transpose(0, 1))
        d, hd = self.tanh2(x[:, 0], ha[:, 0])  # unbatched
        return a, ha, b, hb, c, hc, d, hd


class TransformerDecoding(nn.Module):
    """Decoder layers (post- and pre-norm, relu and gelu, batch-first or not) with every mask, a decoder
    stack with a final norm, and a whole nn.Transformer."""
    def __init__(self):
        super().__init__()
        self.post = nn.TransformerDecoderLayer(8, 2, 16, batch_first=True)
        self.pre = nn.TransformerDecoderLayer(8, 2, 12, activation="gelu", norm_first=True)
        self.stack = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 12, batch_first=True, norm_first=True), 2,
                                           norm=nn.LayerNorm(8))
        self.whole = nn.Transformer(8, 2, 1, 1, 12, batch_first=True)

    def forward(self, tgt, mem, causal, mem_mask, tgt_pad, mem_pad):
        a = self.post(tgt, mem, tgt_mask=causal, tgt_is_causal=True)
        b = self.pre(a.transpose(0, 1), mem.transpose(0, 1), tgt_mask=causal, memory_mask=mem_mask,
                     tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=mem_pad)
        # tgt_is_causal given: torch would otherwise compare the mask with a causal one (data-dependent,
        # which keeps make_fx and torch.export from tracing the model).
        c = self.stack(b.transpose(0, 1), mem, tgt_mask=causal, memory_key_padding_mask=mem_pad, tgt_is_causal=True)
        d = self.whole(mem, tgt, tgt_mask=causal, tgt_key_padding_mask=tgt_pad, tgt_is_causal=True)
        return a, b, c, d


MODELS["rnn_cells"] = (RnnCells(), (torch.randn(2, 3), torch.randn(2, 4), torch.randn(2, 4)))
MODELS["rnn_plain"] = (RnnPlain(), (torch.randn(5, 2, 3), torch.randn(2, 2, 4)))
MODELS["transformer_decoder"] = (TransformerDecoding(), (
    torch.randn(2, 4, 8), torch.randn(2, 3, 8), nn.Transformer.generate_square_subsequent_mask(4),
    torch.tensor([[0.0, -1.0, 0.5], [0.0, 0.0, -2.0], [1.0, 0.0, 0.0], [0.0, 0.3, 0.0]]),
    torch.tensor([[False, False, False, True], [False, False, False, False]]),
    torch.tensor([[False, False, True], [False, False, False]])))
class PaddedTransformer(nn.Module):
    """nn.Transformer with a source padding mask: torch runs its encoder on nested tensors (padded
    positions of the memory come out as zeros), which only symbolic_trace can record."""
    def __init__(self):
        super().__init__()
        self.whole = nn.Transformer(8, 2, 2, 1, 12, batch_first=True)

    def forward(self, src, tgt, src_pad):
        return self.whole(src, tgt, src_key_padding_mask=src_pad, memory_key_padding_mask=src_pad)


MODELS["transformer_padded"] = (PaddedTransformer(), (torch.randn(2, 5, 8), torch.randn(2, 3, 8),
                                                      torch.tensor([[False, False, False, True, True],
                                                                    [False, False, False, False, False]])))
MODELS["volumetric"] = (Volumetric(), (torch.randn(1, 2, 5, 6, 7),))
MODELS["functional_leaves"] = (FunctionalLeaves(), (torch.randn(2, 3, 5, 6), torch.randn(4, 7)))


class Losses(nn.Module):
    """The loss modules (leaves, with weight / pos_weight buffers) and F.* losses on logits, targets, scores
    (not GaussianNLLLoss: its check torch.any(var < 0) stops make_fx and torch.export)."""

    def __init__(self):
        super().__init__()
        w = torch.tensor([0.5, 1.0, 2.0, 1.5])
        self.ce = nn.CrossEntropyLoss(weight=w, label_smoothing=0.1)
        self.nll = nn.NLLLoss(ignore_index=1, reduction="sum")
        self.bce_logits = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0, 0.5, 3.0]))
        self.bce = nn.BCELoss(weight=w)
        self.mse = nn.MSELoss(reduction="none")
        self.l1 = nn.L1Loss(reduction="sum")
        self.smooth = nn.SmoothL1Loss(beta=0.3)
        self.huber = nn.HuberLoss(delta=0.5)
        self.kl = nn.KLDivLoss(reduction="batchmean")
        self.soft = nn.SoftMarginLoss()
        self.poisson = nn.PoissonNLLLoss(full=True)
        self.rank = nn.MarginRankingLoss(margin=0.2)
        self.hinge = nn.HingeEmbeddingLoss(margin=0.5, reduction="none")
        self.cos = nn.CosineEmbeddingLoss(margin=0.1)
        self.triplet = nn.TripletMarginLoss(margin=0.5, swap=True)
        self.multilabel = nn.MultiLabelSoftMarginLoss(weight=w)
        self.multi_margin = nn.MultiMarginLoss(p=2, margin=0.5, weight=w)
        self.multilabel_margin = nn.MultiLabelMarginLoss(reduction="sum")

    def forward(self, logits, target, scores):
        logp = logits.log_softmax(1)
        probs = torch.sigmoid(scores)
        signs = torch.sign(scores)
        return (self.ce(logits, target), self.nll(logp, target), self.bce_logits(scores, probs.round()),
                self.bce(probs, probs.round()), self.mse(logits, scores), self.l1(logits, scores),
                self.smooth(logits, scores), self.huber(logits, scores), self.kl(logp, probs.softmax(1)),
                self.soft(logits, signs), self.poisson(logits, probs * 3),
                self.rank(logits[:, 0], scores[:, 0], signs[:, 1]), self.hinge(logits, signs),
                self.cos(logits, scores, signs[:, 0]), self.triplet(logits, scores, probs),
                self.multilabel(logits, probs.round()), self.multi_margin(logits, target),
                self.multilabel_margin(logits, torch.stack([target, target.flip(0), target * 0 - 1, target], 1)),
                nn.functional.cross_entropy(logits, probs.softmax(1)), nn.functional.nll_loss(logp, target),
                nn.functional.binary_cross_entropy(probs, probs.round()),
                nn.functional.cosine_embedding_loss(logits, scores, signs[:, 0]))


MODELS["losses"] = (Losses(), (torch.randn(5, 4), torch.tensor([0, 3, 1, 1, 2]), torch.randn(5, 4)))


class SamplingBags(nn.Module):
    """EmbeddingBag (max over offsets bags; sum with padding over a 2-d batch), MaxPool2d(return_indices) into
    MaxUnpool2d, an affine_grid from the bags resampling the unpooled map by grid_sample, cdist and pdist."""

    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(10, 4, mode="max")
        self.bag_sum = nn.EmbeddingBag(10, 4, mode="sum", padding_idx=0)
        self.loc = nn.Linear(4, 6)
        self.pool = nn.MaxPool2d(2, return_indices=True)
        self.unpool = nn.MaxUnpool2d(2)
        self.bag_last = nn.EmbeddingBag(10, 4, mode="sum", include_last_offset=True)
        self.pool1, self.unpool1 = nn.MaxPool1d(2, return_indices=True), nn.MaxUnpool1d(2)
        self.pool3, self.unpool3 = nn.MaxPool3d(3, 2, 1, return_indices=True), nn.MaxUnpool3d(3, 2, 1)

    def forward(self, x, ids, offsets, ids2d):
        e = self.bag(ids, offsets)
        e2 = self.bag_sum(ids2d) + self.bag_last(ids, offsets * 2, per_sample_weights=ids.float() / 10)
        v, j = self.pool1(x.flatten(2))
        w, k = self.pool3(x.unsqueeze(1))
        theta = self.loc(e + e2).view(-1, 2, 3)
        y, i = self.pool(x)
        u = self.unpool(y, i)
        grid = nn.functional.affine_grid(theta, [2, 3, 5, 4], align_corners=False)
        return (nn.functional.grid_sample(u, grid, padding_mode="border", align_corners=False),
                torch.cdist(e, e2, p=1.0), nn.functional.pdist(e2), self.unpool1(v, j),
                self.unpool3(w, k, output_size=[3, 6, 6]))


MODELS["sampling_bags"] = (SamplingBags(), (torch.randn(2, 3, 6, 6), torch.tensor([1, 4, 2, 9, 3]), torch.tensor([0, 2]),
                                            torch.tensor([[0, 5, 7], [2, 0, 0]])))
ONLY = sys.argv[1:]  # names to (re)write; all when none

for name, (model, inputs) in MODELS.items():
    if ONLY and name not in ONLY:
        continue
    randomize_stats(model).eval()
    path = os.path.join(OUT, f"{name}.fxw")
    fxwasm.save(model, path, example_inputs=inputs, reference=True)
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")

# The same recurrent and attention models through make_fx and torch.export: aten.lstm.input / gru.input /
# rnn_*.input (export) and aten.mkldnn_rnn_layer (make_fx's CPU LSTM decomposition) instead of leaves.
for name in ("recurrent", "attention", "attention_causal", "encoder_plain", "channel_shuffle", "volumetric",
             "rnn_cells", "rnn_plain", "transformer_decoder", "losses", "sampling_bags"):
    if ONLY and name not in ONLY:
        continue
    model, inputs = MODELS[name]
    for tracer in ("aten", "export"):
        path = os.path.join(OUT, f"{name}_{tracer}.fxw")
        try:
            fxwasm.save(model, path, example_inputs=inputs, tracer=tracer, reference=True)
            print(f"wrote {path} ({os.path.getsize(path)} bytes)")
        except Exception as e:  # a tracer that cannot take the model is reported, not fatal
            print(f"skipped {name} ({tracer}): {type(e).__name__}: {str(e).splitlines()[0][:200]}")
