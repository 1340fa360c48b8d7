"""Complex numbers from PyTorch models (issue #22): rotary embeddings written with view_as_complex /
polar (Meta's Llama reference), a log-power spectrogram front end (torch.stft with a Hann window, as
torchaudio's Spectrogram), a vocoder's istft, and every FFT of torch.fft — exported through symbolic_trace, make_fx and
torch.export, with complex buffers, inputs and outputs stored as safetensors C64/C128, and checked in wasm
against torch (`fxwasm check`)."""
import pytest
import torch
from torch import nn

from realworld import cli

import fxwasm
from fxwasm.reader import read, resolve


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    shape = [d if i == 1 or i == xq_.ndim - 1 else 1 for i, d in enumerate(xq_.shape)]
    freqs_cis = freqs_cis.view(*shape)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


class RotaryAttention(nn.Module):
    """Llama-reference attention: q/k rotated through complex multiplication with a complex64 buffer."""

    def __init__(self, dim=32, heads=4, max_seq=16):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.wq, self.wk, self.wv, self.wo = (nn.Linear(dim, dim, bias=False) for _ in range(4))
        self.register_buffer("freqs_cis", precompute_freqs_cis(self.head_dim, max_seq), persistent=False)

    def forward(self, x):
        b, s, _ = x.shape
        q = self.wq(x).view(b, s, self.heads, self.head_dim)
        k = self.wk(x).view(b, s, self.heads, self.head_dim)
        v = self.wv(x).view(b, s, self.heads, self.head_dim)
        q, k = apply_rotary_emb(q, k, self.freqs_cis[:s])
        out = nn.functional.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                                         is_causal=True)
        return self.wo(out.transpose(1, 2).reshape(b, s, -1))


class RotaryGivenFreqs(nn.Module):
    """The same rotation with freqs_cis passed in (a complex64 graph input), as the reference's Transformer
    hands it to each block."""

    def forward(self, xq, xk, freqs_cis):
        return apply_rotary_emb(xq, xk, freqs_cis)


class LogSpectrogram(nn.Module):
    """A speech front end: power spectrogram through stft with a Hann window, then log mel-like pooling."""

    def __init__(self, n_fft=64, hop=16):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft))
        self.register_buffer("fbank", torch.rand(n_fft // 2 + 1, 8))

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, window=self.window, return_complex=True)
        power = spec.abs() ** 2
        return torch.log(torch.matmul(power.transpose(-1, -2), self.fbank) + 1e-6)


class StftVariants(nn.Module):
    def forward(self, wav):
        a = torch.stft(wav, 50, 12, win_length=40, pad_mode="constant", normalized=True, return_complex=False)
        b = torch.stft(wav[0], 32, return_complex=True, onesided=False, center=False)
        c = torch.stft(wav, 16, 5, win_length=8, window=torch.ones(8), center=False, return_complex=True,
                       align_to_window=True)
        return a, b, c


class StftRoundTrip(nn.Module):
    """A vocoder's last step: a (modified) spectrogram back to audio by istft."""

    def __init__(self):
        super().__init__()
        self.register_buffer("window", torch.hann_window(32))

    def forward(self, wav, gain):
        spec = torch.stft(wav, 32, 8, window=self.window, return_complex=True)
        back = torch.istft(spec * gain, 32, 8, window=self.window, length=wav.shape[-1])
        full = torch.istft(spec, 32, 8, window=self.window)
        two_sided = torch.stft(wav[0], 16, 4, return_complex=True, onesided=False)
        c = torch.istft(two_sided, 16, 4, onesided=False, return_complex=True, normalized=False)
        n = torch.istft(torch.stft(wav, 24, 6, win_length=20, normalized=True, return_complex=True), 24, 6,
                        win_length=20, normalized=True, center=True, length=150)
        return back, full, c, n


class Ffts(nn.Module):
    def forward(self, x):
        c = torch.fft.fft(x)
        return (c, torch.fft.ifft(c), torch.fft.rfft(x, n=10), torch.fft.ihfft(x), torch.fft.fft2(x, norm="ortho"),
                torch.fft.rfftn(x), torch.fft.irfft(torch.fft.rfft(x)), torch.fft.hfft(c[..., :4]),
                torch.fft.ifftn(c, s=(3, 5), norm="forward"), torch.fft.irfftn(c, dim=(0, 1)),
                torch.fft.rfft2(x, norm="forward"), torch.fft.ihfft2(x), torch.fft.fftn(x.double()))


class ComplexArithmetic(nn.Module):
    def forward(self, r, t, z):
        w = torch.polar(r, t)
        u = w * z.conj() + w / (z + 1) - 2 * z
        return (u, torch.view_as_real(u), u.real, u.imag, u.abs(), u.angle(), torch.complex(r, t),
                u.is_complex(), torch.isreal(z), (z * 2.5).to(torch.complex128), z.real.sum())


CASES = {
    "rotary_attention": (RotaryAttention, lambda: (torch.randn(2, 7, 32),), ["aten", "export"]),
    "rotary_given_freqs": (RotaryGivenFreqs,
                           lambda: (torch.randn(2, 7, 4, 16), torch.randn(2, 7, 4, 16), precompute_freqs_cis(16, 7)),
                           ["aten", "export"]),  # (symbolic_trace cannot unpack *xq.shape[:-1])
    "log_spectrogram": (LogSpectrogram, lambda: (torch.randn(2, 400),), ["symbolic", "aten", "export"]),
    "stft_variants": (StftVariants, lambda: (torch.randn(2, 300),), ["symbolic", "export"]),
    "stft_round_trip": (StftRoundTrip, lambda: (torch.randn(2, 200), torch.rand(17, 1) + 0.5), ["symbolic", "export"]),
    "ffts": (Ffts, lambda: (torch.randn(4, 6),), ["symbolic", "aten", "export"]),
    "complex_arithmetic": (ComplexArithmetic,
                           lambda: (torch.rand(3, 5) + 0.1, torch.randn(3, 5), torch.randn(3, 5, dtype=torch.complex64)),
                           ["symbolic", "export"]),
}


@pytest.mark.parametrize("name,tracer", [(n, t) for n, (_, _, tracers) in CASES.items() for t in tracers])
def test_complex_models_match_torch(tmp_path, name, tracer):
    make, inputs, _ = CASES[name]
    torch.manual_seed(0)
    model = make().eval()
    path = str(tmp_path / f"{name}_{tracer}.fxw")
    fxwasm.save(model, path, inputs(), tracer=tracer)
    code, out, err = cli("check", path)
    assert code == 0 and "check: pass" in out, out + err


def test_complex_tensors_are_stored_as_safetensors_c64_and_read_back(tmp_path):
    path = str(tmp_path / "freqs.fxw")
    freqs = precompute_freqs_cis(16, 7)
    fxwasm.save(RotaryGivenFreqs(), path, (torch.randn(1, 7, 2, 16), torch.randn(1, 7, 2, 16), freqs), tracer="export")
    f = read(path)
    stored = resolve(f.reference["inputs"][2], f)
    assert f.tensors[f.reference["inputs"][2].name].dtype == "C64"
    assert stored.dtype == torch.complex64 and torch.equal(stored, freqs)
