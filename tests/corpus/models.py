"""Model definitions of the fxwasm corpus.

Each builder returns ``(model.eval(), example_inputs)`` and is deterministic: it seeds torch itself, so
the same weights and inputs come out on every run (and a rebuilt file matches the committed one).
torchvision models are random-initialised (no weights can be downloaded); the digits CNN is really
trained, on scikit-learn's bundled ``load_digits`` data, so the playground demo classifies real digits.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


# --- the seed graph -------------------------------------------------------------------------------------
def toy_example(a, b):
    """Dynamo's classic example (the seed text): its first graph stops at the data-dependent branch."""
    x = a / (torch.abs(a) + 1)
    if b.sum() < 0:
        b = b * -1
    return x * b


def seed_graph():
    """The first graph Dynamo hands a backend for ``toy_example``, and the inputs it was called with."""
    torch.manual_seed(0)
    inputs = (torch.randn(10), torch.randn(10))
    graphs = []

    def capture(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    torch._dynamo.reset()
    torch.compile(toy_example, backend=capture)(*inputs)
    torch._dynamo.reset()
    return graphs[0].eval(), inputs


# --- MLP 784-1024-1024-10 -------------------------------------------------------------------------------
class MLP(nn.Module):
    def __init__(self, sizes=(784, 1024, 1024, 10)):
        super().__init__()
        self.fc1 = nn.Linear(sizes[0], sizes[1])
        self.fc2 = nn.Linear(sizes[1], sizes[2])
        self.fc3 = nn.Linear(sizes[2], sizes[3])

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def mlp(batch=64):
    """Batch 64, as in the benchmarks of TOOLCHAIN.md."""
    torch.manual_seed(0)
    model = MLP()
    return model.eval(), (torch.randn(batch, 784),)


# --- small CNN trained on scikit-learn's digits (the playground demo) ----------------------------------
class DigitsCNN(nn.Module):
    """1x8x8 grey image (values 0..1) -> 10 logits."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, kernel_size=3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, kernel_size=3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc1 = nn.Linear(32 * 4 * 4, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


def digits_data(test_size=0.25, seed=0):
    """load_digits as float tensors in [0, 1], N x 1 x 8 x 8, split into train and held-out test sets."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    images = torch.tensor(digits.images, dtype=torch.float32).unsqueeze(1) / 16.0
    labels = torch.tensor(digits.target, dtype=torch.int64)
    idx = torch.arange(len(labels)).numpy()
    train_idx, test_idx = train_test_split(idx, test_size=test_size, random_state=seed,
                                           stratify=digits.target)
    return images[train_idx], labels[train_idx], images[test_idx], labels[test_idx]


def train_digits_cnn(epochs=15, batch=64, seed=0, verbose=True):
    """Trains DigitsCNN in a few seconds; returns (model.eval(), held-out accuracy, test images, labels)."""
    torch.manual_seed(seed)
    x_train, y_train, x_test, y_test = digits_data(seed=seed)
    model = DigitsCNN()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    gen = torch.Generator().manual_seed(seed)
    model.train()
    for _ in range(epochs):
        perm = torch.randperm(len(y_train), generator=gen)
        for i in range(0, len(perm), batch):
            sel = perm[i:i + batch]
            opt.zero_grad()
            F.cross_entropy(model(x_train[sel]), y_train[sel]).backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        accuracy = (model(x_test).argmax(1) == y_test).float().mean().item()
    if verbose:
        print(f"digits_cnn: held-out accuracy {accuracy:.4f} ({len(y_test)} images, "
              f"trained on {len(y_train)})")
    return model, accuracy, x_test, y_test


def digits_cnn(n_inputs=16):
    """The trained CNN; its example inputs are the first held-out digits (real images, not noise)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # one thread makes the training bit-for-bit repeatable
    try:
        model, accuracy, x_test, _ = train_digits_cnn()
    finally:
        torch.set_num_threads(threads)
    model.accuracy = accuracy
    return model, (x_test[:n_inputs].clone(),)


# --- GPT-style decoder block in plain torch ops --------------------------------------------------------
class DecoderBlock(nn.Module):
    """Token + position embedding, one pre-norm causal self-attention block and MLP, LM head.

    Written with plain ops (no nn.MultiheadAttention / scaled_dot_product_attention) so that every tracer
    sees embedding, layer_norm, linear, view/transpose/matmul, masked_fill + softmax, gelu and residuals.
    """

    def __init__(self, vocab=256, d_model=64, n_heads=2, max_seq=16):
        super().__init__()
        self.n_heads = n_heads
        self.tok_emb = nn.Embedding(vocab, d_model)
        self.pos_emb = nn.Embedding(max_seq, d_model)
        self.ln1 = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.fc = nn.Linear(d_model, 4 * d_model)
        self.fc_out = nn.Linear(4 * d_model, d_model)
        self.ln_f = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, idx):
        B, T = idx.size()
        pos = torch.arange(T)
        x = self.tok_emb(idx) + self.pos_emb(pos)
        C = x.size(-1)
        hd = C // self.n_heads

        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
        q = q.view(B, T, self.n_heads, hd).transpose(1, 2)
        k = k.view(B, T, self.n_heads, hd).transpose(1, 2)
        v = v.view(B, T, self.n_heads, hd).transpose(1, 2)
        att = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
        # causal mask from positions, not a sliced buffer: symbolic_trace cannot slice a real tensor by
        # the traced length T (TypeError: slice indices must be integers)
        future = pos.view(T, 1) < pos.view(1, T)
        att = att.masked_fill(future, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = torch.matmul(att, v).transpose(1, 2).contiguous().view(B, T, C)
        x = x + self.proj(y)

        x = x + self.fc_out(F.gelu(self.fc(self.ln2(x))))
        return self.head(self.ln_f(x))


def decoder_block(batch=2, seq=16):
    torch.manual_seed(0)
    model = DecoderBlock(max_seq=seq)
    return model.eval(), (torch.randint(0, 256, (batch, seq)),)


# --- Python-level shape arithmetic -----------------------------------------------------------------------
class ShapeArith(nn.Module):
    """Shapes computed in Python: size(), .shape, getitem on sizes, // and * on ints, flatten(start_dim).

    Under symbolic_trace each of these becomes a node (call_method size, getattr shape, operator.getitem,
    operator.floordiv, operator.mul); make_fx and export specialise them to constants.
    """

    def __init__(self, channels=4, height=8, width=8):
        super().__init__()
        self.conv = nn.Conv2d(channels * 4, 8, kernel_size=3, padding=1)
        self.fc = nn.Linear(8 * (height // 2) * (width // 2), 12)

    def forward(self, x):
        n = x.size(0)
        c = x.shape[1]
        h, w = x.size()[2], x.shape[-1]
        # space-to-depth: 2x2 patches -> channels
        y = x.view(n, c, h // 2, 2, w // 2, 2).permute(0, 1, 3, 5, 2, 4)
        y = y.reshape(n, c * 4, h // 2, w // 2)
        y = F.relu(self.conv(y))
        y = torch.flatten(y, start_dim=1)
        y = self.fc(y)
        groups = y.size(-1) // 3
        return y.view(n, groups, 3) * (h * w // 16), y.shape[1] - groups


def shape_arith(batch=2):
    torch.manual_seed(0)
    model = ShapeArith()
    return model.eval(), (torch.randn(batch, 4, 8, 8),)


# --- torchvision ------------------------------------------------------------------------------------------
def resnet18():
    import torchvision
    torch.manual_seed(0)
    model = torchvision.models.resnet18(weights=None)
    return model.eval(), (torch.randn(1, 3, 224, 224),)


def mobilenet_v2():
    import torchvision
    torch.manual_seed(0)
    model = torchvision.models.mobilenet_v2(weights=None)
    return model.eval(), (torch.randn(1, 3, 224, 224),)


BUILDERS = {
    "seed": seed_graph,
    "mlp": mlp,
    "digits_cnn": digits_cnn,
    "decoder_block": decoder_block,
    "shape_arith": shape_arith,
    "resnet18": resnet18,
    "mobilenet_v2": mobilenet_v2,
}
