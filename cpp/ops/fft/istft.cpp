// torch.istft: the inverse of stft by overlap-add — each frame's inverse transform (n_fft points; from the
// one-sided half spectrum when onesided), times the window, added into the signal every hop_length, then
// divided by the overlap-added squared window (torch's NOLA condition: an error where that sum is ~0);
// center trims n_fft/2 from both ends, `length` cuts or zero-pads the result. Real result (from the first
// n_fft/2 + 1 frequencies, as torch's c2r) unless return_complex. Computed in complex double and rounded once (ops/fft/fft_util.h).
#include <cmath>
#include <string>
#include <vector>

#include "kernels/fft_f64.h"
#include "ops/fft/fft_util.h"
#include "ops/math/complex_math.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/meta.h"

namespace fx {
namespace {

using fftops::C;

Object istft_op(const OpCall& call) {
  static const Schema schema(
      "istft(input|self, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False, "
      "onesided=None, length=None, return_complex=False)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const int64_t n_fft = a.integer(1);
  if (!dtype_is_complex(x.dtype()))
    throw FxError("istft requires a complex-valued input tensor matching the output from stft with return_complex=True.");
  if (x.dim() != 2 && x.dim() != 3)
    throw FxError("istft: expected a tensor with 2 or 3 dimensions of complex, but got " + std::to_string(x.dim()) + "D");
  const bool batched = x.dim() == 3;
  const int64_t batch = batched ? x.shape()[0] : 1, freqs = x.shape()[x.dim() - 2], frames = x.shape().back();
  const int64_t hop = a.is_none(2) ? n_fft / 4 : a.integer(2);
  const int64_t win_length = a.is_none(3) ? n_fft : a.integer(3);
  const bool has_window = !a.is_none(4), center = a.boolean(5), normalized = a.boolean(6);
  const bool onesided = a.is_none(7) ? freqs != n_fft : a.boolean(7);
  const bool return_complex = a.boolean(9);
  if (n_fft <= 0) throw FxError("istft: expected n_fft > 0, but got " + std::to_string(n_fft));
  if (hop <= 0 || hop > win_length)
    throw FxError("istft: expected 0 < hop_length <= win_length");
  if (win_length <= 0 || win_length > n_fft) throw FxError("istft: expected 0 < win_length <= n_fft");
  if (onesided && freqs != n_fft / 2 + 1)
    throw FxError("istft: expected the frequency dimension (3rd to the last) of the input tensor to match n_fft / 2 + 1 "
                  "when onesided=True, but got " + std::to_string(freqs));
  if (!onesided && freqs != n_fft)
    throw FxError("istft: expected the frequency dimension (3rd to the last) of the input tensor to match n_fft when "
                  "onesided=False, but got " + std::to_string(freqs));
  if (onesided && return_complex)
    throw FxError("cannot have onesided output if window or input is complex");
  if (has_window && (a.tensor(4).dim() != 1 || a.tensor(4).shape()[0] != win_length))
    throw FxError("istft: expected a 1D window tensor of size equal to win_length=" + std::to_string(win_length));
  if (frames < 1) throw FxError("istft: expected at least one frame");
  const int64_t expected = n_fft + hop * (frames - 1);
  const int64_t start = center ? n_fft / 2 : 0;
  int64_t end = !a.is_none(8) ? start + a.integer(8) : center ? expected - n_fft / 2 : expected;
  const int64_t out_len = end - start;
  if (out_len < 0) throw FxError("istft: the output length would be negative");
  const DType real = dtype_real_part(x.dtype());
  const DType out_dtype = return_complex ? x.dtype() : real;
  const Shape result = batched ? Shape{batch, out_len} : Shape{out_len};
  if (meta_mode()) return Tensor::meta(result, out_dtype);
  const std::vector<C> window = fftops::centred_window(has_window ? &a.tensor(4) : nullptr, win_length, n_fft);
  const std::vector<C> spec = fftops::load_padded(x, x.shape());
  const double scale = normalized ? 1.0 / std::sqrt(static_cast<double>(n_fft)) : 1.0 / static_cast<double>(n_fft);
  std::vector<C> signal(static_cast<size_t>(batch * expected), C(0, 0));
  std::vector<C> envelope(static_cast<size_t>(expected), C(0, 0));  // Σ window² (not |window|², as torch)
  std::vector<C> line(static_cast<size_t>(n_fft));
  for (int64_t f = 0; f < frames; ++f)
    for (int64_t k = 0; k < n_fft; ++k) envelope[f * hop + k] += window[k] * window[k];
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t f = 0; f < frames; ++f) {
      const C* col = spec.data() + b * freqs * frames + f;  // [freqs, frames] of batch b, column f
      for (int64_t k = 0; k < n_fft; ++k) line[k] = C(0, 0);
      if (!return_complex) {
        // a real result comes from the first n_fft/2 + 1 frequencies as a Hermitian half (torch slices a
        // two-sided input to them): imaginary parts of the DC and Nyquist terms ignored, as irfft
        line[0] = C(col[0].real(), 0);
        for (int64_t k = 1; k < n_fft / 2 + 1; ++k) {
          const C v = col[k * frames];
          if (2 * k == n_fft) {
            line[k] = C(v.real(), 0);
          } else {
            line[k] = v;
            line[n_fft - k] = std::conj(v);
          }
        }
      } else {
        for (int64_t k = 0; k < n_fft; ++k) line[k] = col[k * frames];
      }
      fft::transform(line.data(), n_fft, true);
      for (int64_t t = 0; t < n_fft; ++t) signal[b * expected + f * hop + t] += line[t] * scale * window[t];
    }
  for (int64_t t = start; t < std::min(end, expected); ++t)
    if (std::abs(envelope[t]) < 1e-11)
      throw FxError("istft(...): window overlap add min: " + std::to_string(std::abs(envelope[t])) +
                    " (the window does not satisfy the NOLA condition)");
  Tensor y = Tensor::zeros({batch, out_len}, DType::Complex128);
  C* out = y.data<C>();
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t t = start; t < std::min(end, expected); ++t)
      out[b * out_len + (t - start)] = signal[b * expected + t] / envelope[t];
  Tensor r = to_dtype(y, dtype_to_complex(real));
  if (!batched) r = Tensor(r.storage(), r.dtype(), result, contiguous_strides(result), 0);
  return return_complex ? r : to_dtype_discarding_imag(r, real);
}

const OpRow kOps[] = {
    {"torch.istft", "torch.functional.istft torch.Tensor.istft aten.istft.default", "istft", istft_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
