// The complex FFT ops against a direct DFT in double: fft / ifft of complex input, rfft's half spectrum and
// padding, the norm modes, irfft as rfft's inverse, hfft of complex input, and stft's frames.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <vector>

#include "ops/call_op.h"
#include "support/error.h"
#include "tensor/tensor.h"

namespace fx {
namespace {

using C = std::complex<double>;

std::vector<C> dft(const std::vector<C>& x, size_t n, bool inverse) {
  std::vector<C> y(n);
  for (size_t k = 0; k < n; ++k)
    for (size_t t = 0; t < n && t < x.size(); ++t)
      y[k] += x[t] * std::polar(1.0, (inverse ? 2 : -2) * M_PI * static_cast<double>(k * t) / static_cast<double>(n));
  return y;
}

Tensor complex128(const std::vector<C>& v) {
  Tensor t = Tensor::empty({static_cast<int64_t>(v.size())}, DType::Complex128);
  for (size_t i = 0; i < v.size(); ++i) t.data<C>()[i] = v[i];
  return t;
}

Tensor float64(const std::vector<double>& v) {
  Tensor t = Tensor::empty({static_cast<int64_t>(v.size())}, DType::Float64);
  for (size_t i = 0; i < v.size(); ++i) t.data<double>()[i] = v[i];
  return t;
}

Object kw_call(const char* op, std::vector<Object> args, std::vector<std::pair<std::string, Object>> kw = {}) {
  return call_op(op, std::move(args), std::move(kw));
}

const std::vector<C> kSignal = {C(1, 0.5), C(-2, 0), C(0.25, 3), C(4, -1), C(0, 0), C(-0.5, 2), C(3, 3)};

TEST(FftOps, ComplexForwardAndInverseMatchTheDft) {
  Tensor y = kw_call("torch.fft.fft", {Object(complex128(kSignal))}).tensor();
  ASSERT_EQ(y.dtype(), DType::Complex128);
  const std::vector<C> want = dft(kSignal, 7, false);
  for (size_t k = 0; k < 7; ++k) EXPECT_LT(std::abs(y.data<C>()[k] - want[k]), 1e-12) << k;
  Tensor back = kw_call("torch.fft.ifft", {Object(y)}).tensor();
  for (size_t k = 0; k < 7; ++k) EXPECT_LT(std::abs(back.data<C>()[k] - kSignal[k]), 1e-12) << k;
  Tensor ortho = kw_call("torch.fft.fft", {Object(complex128(kSignal))}, {{"norm", Object(Value::str("ortho"))}}).tensor();
  EXPECT_LT(std::abs(ortho.data<C>()[3] - want[3] / std::sqrt(7.0)), 1e-12);
}

TEST(FftOps, RfftKeepsHalfTheSpectrumOfAPaddedSignal) {
  const std::vector<double> x = {0.5, -1, 2, 3, -0.25};
  Tensor y = kw_call("torch.fft.rfft", {Object(float64(x))}, {{"n", Object(Value::integer(8))}}).tensor();
  ASSERT_EQ(y.shape(), (Shape{5}));
  std::vector<C> xc(x.begin(), x.end());
  const std::vector<C> want = dft(xc, 8, false);
  for (size_t k = 0; k < 5; ++k) EXPECT_LT(std::abs(y.data<C>()[k] - want[k]), 1e-12) << k;
  Tensor back = kw_call("torch.fft.irfft", {Object(y)}, {{"n", Object(Value::integer(8))}}).tensor();
  ASSERT_EQ(back.dtype(), DType::Float64);
  for (size_t t = 0; t < 8; ++t) EXPECT_NEAR(back.data<double>()[t], t < x.size() ? x[t] : 0.0, 1e-12) << t;
  EXPECT_THROW(kw_call("torch.fft.rfft", {Object(complex128(kSignal))}), FxError);
}

TEST(FftOps, HfftOfComplexInputConjugates) {
  // hfft(x, n) = irfft(conj(x), n) · n
  Tensor h = kw_call("torch.fft.hfft", {Object(complex128(kSignal))}).tensor();
  ASSERT_EQ(h.shape(), (Shape{12}));
  std::vector<C> conj(kSignal.size());
  for (size_t i = 0; i < conj.size(); ++i) conj[i] = std::conj(kSignal[i]);
  Tensor r = kw_call("torch.fft.irfft", {Object(complex128(conj))}).tensor();
  for (int t = 0; t < 12; ++t) EXPECT_NEAR(h.data<double>()[t], 12 * r.data<double>()[t], 1e-11) << t;
}

TEST(FftOps, StftFramesAreWindowedDfts) {
  std::vector<double> x(40);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.3 * static_cast<double>(i)) + 0.1 * static_cast<double>(i % 3);
  const std::vector<double> w = {0.1, 0.5, 1.0, 0.5};
  Tensor s = kw_call("torch.stft", {Object(float64(x)), Object(Value::integer(8))},
                     {{"hop_length", Object(Value::integer(3))}, {"win_length", Object(Value::integer(4))},
                      {"window", Object(float64(w))}, {"center", Object(Value::boolean(false))},
                      {"return_complex", Object(Value::boolean(true))}})
                 .tensor();
  const int64_t frames = 1 + (40 - 8) / 3;
  ASSERT_EQ(s.shape(), (Shape{5, frames}));
  Tensor sc = s.contiguous();
  for (int64_t f = 0; f < frames; ++f) {
    std::vector<C> frame(8);
    for (size_t k = 0; k < 4; ++k) frame[2 + k] = x[static_cast<size_t>(f * 3) + 2 + k] * w[k];  // window centred
    const std::vector<C> want = dft(frame, 8, false);
    for (int64_t k = 0; k < 5; ++k) EXPECT_LT(std::abs(sc.data<C>()[k * frames + f] - want[k]), 1e-12) << f << "," << k;
  }
  EXPECT_THROW(kw_call("torch.stft", {Object(float64(x)), Object(Value::integer(8))}), FxError);  // no return_complex
  EXPECT_THROW(kw_call("torch.stft", {Object(float64(x)), Object(Value::integer(80))},
                       {{"center", Object(Value::boolean(false))}, {"return_complex", Object(Value::boolean(true))}}),
               FxError);  // n_fft longer than the signal
}

TEST(FftOps, IstftInvertsStftAndRefusesAWindowThatCannotOverlapAdd) {
  std::vector<double> x(64);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.2 * static_cast<double>(i)) * (1.0 + 0.01 * static_cast<double>(i));
  std::vector<double> hann(16);
  for (size_t i = 0; i < 16; ++i) hann[i] = 0.5 - 0.5 * std::cos(2 * M_PI * static_cast<double>(i) / 16.0);
  const std::vector<std::pair<std::string, Object>> common = {{"hop_length", Object(Value::integer(4))},
                                                              {"window", Object(float64(hann))}};
  auto kw = common;
  kw.push_back({"return_complex", Object(Value::boolean(true))});
  Tensor s = kw_call("torch.stft", {Object(float64(x)), Object(Value::integer(16))}, kw).tensor();
  auto ikw = common;
  ikw.push_back({"length", Object(Value::integer(64))});
  Tensor y = kw_call("torch.istft", {Object(s), Object(Value::integer(16))}, ikw).tensor();
  ASSERT_EQ(y.shape(), (Shape{64}));
  ASSERT_EQ(y.dtype(), DType::Float64);
  Tensor yc = y.contiguous();
  for (size_t t = 0; t < 64; ++t) EXPECT_NEAR(yc.data<double>()[t], x[t], 1e-12) << t;
  // a window of zeros never overlap-adds to anything: torch's NOLA error, not a division by zero
  auto zero = common;
  zero[1].second = Object(float64(std::vector<double>(16, 0.0)));
  EXPECT_THROW(kw_call("torch.istft", {Object(s), Object(Value::integer(16))}, zero), FxError);
  EXPECT_THROW(kw_call("torch.istft", {Object(float64(x)), Object(Value::integer(16))}), FxError);  // real input
}

}  // namespace
}  // namespace fx
