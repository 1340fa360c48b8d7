// torch.stft: the short-time Fourier transform of a 1-d signal or a batch of them — optionally padded by
// n_fft/2 on both sides (center, pad_mode as F.pad), frames of n_fft samples every hop_length, each times
// the window (win_length long, centred in n_fft; ones when not given), transformed; the result is
// [batch?, frequencies, frames], complex (or its view_as_real with return_complex=False). onesided keeps
// n_fft/2 + 1 frequencies (the default for a real signal and window); normalized divides by √n_fft.
// Computed in complex double and rounded once, as the other FFTs (ops/fft/fft_util.h).
#include <cmath>
#include <string>
#include <vector>

#include "kernels/fft_f64.h"
#include "ops/array/view_util.h"
#include "ops/call_op.h"
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

Object ints(const std::vector<int64_t>& v) {
  std::vector<Object> items;
  for (int64_t x : v) items.push_back(Object(Value::integer(x)));
  return Object::list(std::move(items));
}

std::string sizes_text(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

Object stft_op(const OpCall& call) {
  static const Schema schema(
      "stft(input|self, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode='reflect', "
      "normalized=False, onesided=None, return_complex=None, align_to_window=None)");
  Args a = schema.parse(call);
  Tensor x = a.tensor(0);
  const int64_t n_fft = a.integer(1);
  const bool complex_in = dtype_is_complex(x.dtype());
  const bool has_window = !a.is_none(4);
  const bool complex_window = has_window && dtype_is_complex(a.tensor(4).dtype());
  if (a.is_none(9) && !complex_in && !complex_window)
    throw FxError("stft requires the return_complex parameter be given for real inputs, and will further require "
                  "that return_complex=True in a future PyTorch release.");
  const bool return_complex = a.is_none(9) ? true : a.boolean(9);
  if (a.boolean(5) && !a.is_none(10)) throw FxError("stft align_to_window should only be set when center = false");
  // align_to_window: frames step over the window's own win_length samples (not n_fft), window first
  const bool align = !a.is_none(10) && a.boolean(10);
  if (x.dim() != 1 && x.dim() != 2)
    throw FxError("stft: expected a 1D or 2D tensor, but got a " + std::to_string(x.dim()) + "D tensor");
  const int64_t signal_dim = x.dim();
  if (a.boolean(5)) {  // center: F.pad of the signal seen as [1, batch, length]
    Shape extended(static_cast<size_t>(3 - signal_dim), 1);
    extended.insert(extended.end(), x.shape().begin(), x.shape().end());
    const Object padded = call_op("torch.nn.functional.pad",
                                  {Object(reshape(x, extended)), ints({n_fft / 2, n_fft / 2}), Object(Value::str(a.str(6)))});
    const Tensor& p = padded.tensor();
    x = reshape(p, Shape(p.shape().end() - signal_dim, p.shape().end()));
  }
  const bool batched = x.dim() == 2;
  const int64_t batch = batched ? x.shape()[0] : 1, len = x.shape().back();
  const int64_t hop = a.is_none(2) ? n_fft / 4 : a.integer(2);
  const int64_t win_length = a.is_none(3) ? n_fft : a.integer(3);
  if (n_fft <= 0 || n_fft > len)
    throw FxError("stft: expected 0 < n_fft < " + std::to_string(len) + ", but got n_fft=" + std::to_string(n_fft));
  if (hop <= 0) throw FxError("stft: expected hop_length > 0, but got hop_length=" + std::to_string(hop));
  if (win_length <= 0 || win_length > n_fft)
    throw FxError("stft: expected 0 < win_length <= n_fft, but got win_length=" + std::to_string(win_length));
  if (has_window && (a.tensor(4).dim() != 1 || a.tensor(4).shape()[0] != win_length))
    throw FxError("stft: expected a 1D window tensor of size equal to win_length=" + std::to_string(win_length) +
                  ", but got window with size " + sizes_text(a.tensor(4).shape()));
  const bool onesided = a.is_none(8) ? !(complex_in || complex_window) : a.boolean(8);
  if (onesided && (complex_in || complex_window))
    throw FxError("Cannot have onesided output if window or input is complex");
  const int64_t left = (n_fft - win_length) / 2;
  const int64_t frames = 1 + (len - (align ? win_length : n_fft)) / hop, freqs = onesided ? n_fft / 2 + 1 : n_fft;
  const DType real = fftops::real_dtype_of(x);
  const DType wide = has_window && fftops::real_dtype_of(a.tensor(4)) == DType::Float64 ? DType::Float64 : real;
  const DType out_dtype = dtype_to_complex(wide);
  Shape result = batched ? Shape{batch, freqs, frames} : Shape{freqs, frames};
  if (meta_mode()) {
    if (!return_complex) result.push_back(2);
    return Tensor::meta(result, return_complex ? out_dtype : wide);
  }
  const std::vector<C> window = fftops::centred_window(has_window ? &a.tensor(4) : nullptr, win_length, n_fft);
  const std::vector<C> signal = fftops::load_padded(x, x.shape());
  const double scale = a.boolean(7) ? 1.0 / std::sqrt(static_cast<double>(n_fft)) : 1.0;
  Tensor y = Tensor::empty({batch, freqs, frames}, DType::Complex128);
  C* out = y.data<C>();
  std::vector<C> line(static_cast<size_t>(n_fft));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t f = 0; f < frames; ++f) {
      const int64_t start = f * hop - (align ? left : 0);
      for (int64_t k = 0; k < n_fft; ++k) {
        const int64_t t = start + k;  // (outside the signal only where the window is zero)
        line[k] = t >= 0 && t < len ? signal[b * len + t] * window[k] : C(0, 0);
      }
      fft::transform(line.data(), n_fft, false);
      for (int64_t k = 0; k < freqs; ++k) out[(b * freqs + k) * frames + f] = line[k] * scale;
    }
  Tensor r = to_dtype(y, out_dtype);
  if (!batched) r = reshape(r, result);
  return return_complex ? r : view_as_real(r);
}

const OpRow kOps[] = {
    {"torch.stft", "torch.functional.stft torch.Tensor.stft aten.stft.center", "stft", stft_op},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
