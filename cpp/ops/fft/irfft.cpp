// The inverse real FFTs of real inputs (this runtime has no complex dtype yet): torch.fft.irfft, irfft2,
// irfftn — complex inverse transforms along every dim but the last, then the Hermitian (complex-to-real)
// inverse along the last, each dim zero-padded or cut to its size first — and hfft, hfft2, hfftn, which for
// a real input are the same transforms with the normalisation the other way round. Computed in double
// (kernels/fft_f64.h) and rounded once to the input's float type.
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "kernels/fft_f64.h"
#include "ops/array/view_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/meta.h"

namespace fx {
namespace {

using C = std::complex<double>;

// Calls f(line_start, stride) for each line along dim d of a packed buffer of `shape`.
template <typename F>
void for_each_line(const Shape& shape, size_t d, F&& f) {
  int64_t stride = 1, total = 1;
  for (size_t k = d + 1; k < shape.size(); ++k) stride *= shape[k];
  for (int64_t s : shape) total *= s;
  if (total == 0) return;
  const int64_t lines = total / shape[d];
  for (int64_t l = 0; l < lines; ++l) f((l / stride) * shape[d] * stride + l % stride, stride);
}

// `dims` transformed (the last one complex-to-real) to the sizes `out` (-1: the default), norm as torch.
Tensor c2r(const Tensor& input, std::vector<int64_t> dims, std::vector<int64_t> out, std::string norm, bool hermitian,
           const char* op) {
  const DType dtype = dtype_is_floating(input.dtype()) ? input.dtype() : kDefaultFloat;
  for (int64_t& d : dims) d = checked_dim(d, input.dim());
  for (size_t i = 0; i < dims.size(); ++i)
    for (size_t j = i + 1; j < dims.size(); ++j)
      if (dims[i] == dims[j]) throw FxError(std::string(op) + ": FFT dims must be unique");
  if (dims.empty()) throw FxError(std::string(op) + ": must transform at least one axis");
  if (norm.empty()) norm = "backward";
  if (norm != "backward" && norm != "forward" && norm != "ortho") throw FxError("Invalid normalization mode: " + norm);
  if (hermitian && norm != "ortho") norm = norm == "backward" ? "forward" : "backward";  // hfft: the other way
  // the complex work buffer's shape (the last dim's half spectrum) and the result's
  Shape work = input.shape(), result = input.shape();
  double count = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = dims[i], in = input.shape()[d];
    const bool last = i + 1 == dims.size();
    const int64_t n = out[i] >= 0 ? out[i] : last ? 2 * (in - 1) : in;
    if (n < 1) throw FxError("Invalid number of data points (" + std::to_string(n) + ") specified");
    result[d] = n;
    work[d] = last ? n / 2 + 1 : n;
    count *= static_cast<double>(n);
  }
  if (meta_mode()) return Tensor::meta(result, dtype);
  // the input, zero-padded or cut to the work shape
  Tensor x = to_dtype(input, DType::Float64).contiguous();
  int64_t total = 1;
  for (int64_t s : work) total *= s;
  std::vector<C> buf(static_cast<size_t>(total), C(0, 0));
  const Shape in_strides = contiguous_strides(input.shape());
  std::vector<int64_t> idx(work.size(), 0);
  for (int64_t e = 0; e < total; ++e) {
    bool inside = true;
    int64_t off = 0;
    for (size_t k = 0; k < work.size(); ++k) {
      if (idx[k] >= input.shape()[k]) inside = false;
      off += idx[k] * in_strides[k];
    }
    if (inside) buf[e] = C(x.data<double>()[off], 0.0);
    for (size_t k = work.size(); k-- > 0;) {
      if (++idx[k] < work[k]) break;
      idx[k] = 0;
    }
  }
  std::vector<C> line;
  for (size_t i = 0; i + 1 < dims.size(); ++i) {
    const size_t d = static_cast<size_t>(dims[i]);
    const int64_t n = work[d];
    line.resize(static_cast<size_t>(n));
    for_each_line(work, d, [&](int64_t start, int64_t stride) {
      for (int64_t k = 0; k < n; ++k) line[k] = buf[start + k * stride];
      fft::transform(line.data(), n, true);
      for (int64_t k = 0; k < n; ++k) buf[start + k * stride] = line[k];
    });
  }
  // the last dim: the Hermitian spectrum (imaginary parts of the DC and Nyquist terms ignored), inverted
  const size_t d = static_cast<size_t>(dims.back());
  const int64_t n = result[d], half = work[d];
  const double scale = norm == "backward" ? 1.0 / count : norm == "ortho" ? 1.0 / std::sqrt(count) : 1.0;
  Tensor y = Tensor::empty(result, DType::Float64);
  line.resize(static_cast<size_t>(n));
  int64_t stride_work = 1;
  for (size_t k = d + 1; k < work.size(); ++k) stride_work *= work[k];
  for_each_line(work, d, [&](int64_t start, int64_t stride) {
    for (int64_t k = 0; k < n; ++k) line[k] = C(0, 0);
    line[0] = C(buf[start].real(), 0.0);
    for (int64_t k = 1; k < half && k < n; ++k) {
      const C v = buf[start + k * stride];
      if (2 * k == n) {
        line[k] = C(v.real(), 0.0);
      } else {
        line[k] = v;
        line[n - k] = std::conj(v);
      }
    }
    fft::transform(line.data(), n, true);
    // the same line in the result: the offsets differ only along d
    const int64_t outer = start / (work[d] * stride_work), inner = start % stride_work;
    const int64_t base = outer * n * stride_work + inner;
    for (int64_t t = 0; t < n; ++t) y.data<double>()[base + t * stride_work] = line[t].real() * scale;
  });
  return to_dtype(y, dtype);
}

std::string norm_of(const Args& a, size_t i) { return a.is_none(i) ? "" : a.str(i); }

// irfft / hfft(input, n=None, dim=-1, norm=None)
template <bool kHermitian>
Object fft_1d_op(const OpCall& call) {
  static const Schema schema(std::string(kHermitian ? "fft_hfft" : "fft_irfft") + "(input|self, n=None, dim=-1, norm=None)");
  Args a = schema.parse(call);
  return c2r(a.tensor(0), {a.integer(2)}, {a.is_none(1) ? -1 : a.integer(1)}, norm_of(a, 3), kHermitian,
             kHermitian ? "fft_hfft" : "fft_irfft");
}

// irfft2 / irfftn / hfft2 / hfftn(input, s=None, dim=..., norm=None): the 2-d forms default to the last two
// dims, the n-d ones to every dim (or the last len(s) dims); s gives each transformed dim's output size
template <bool kHermitian, bool kTwo>
Object fft_nd_op(const OpCall& call) {
  static const Schema schema(std::string(kHermitian ? "fft_hfft" : "fft_irfft") + (kTwo ? "2" : "n") +
                             "(input|self, s=None, dim=None, norm=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  std::vector<int64_t> s, dims;
  if (!a.is_none(1)) s = *a.int_list(1);
  if (!a.is_none(2)) {
    dims = *a.int_list(2);
  } else if (kTwo) {
    dims = {-2, -1};
  } else if (!s.empty()) {
    for (size_t i = 0; i < s.size(); ++i) dims.push_back(x.dim() - static_cast<int64_t>(s.size() - i));
  } else {
    for (int64_t d = 0; d < x.dim(); ++d) dims.push_back(d);
  }
  if (!s.empty() && s.size() != dims.size())
    throw FxError("When given, dim and shape arguments must have the same length");
  if (s.empty()) s.assign(dims.size(), -1);
  const char* name = kHermitian ? (kTwo ? "fft_hfft2" : "fft_hfftn") : (kTwo ? "fft_irfft2" : "fft_irfftn");
  return c2r(x, dims, s, norm_of(a, 3), kHermitian, name);
}

const OpRow kOps[] = {
    {"torch._C._fft.fft_irfft", "torch.fft.irfft aten.fft_irfft.default", "", fft_1d_op<false>},
    {"torch._C._fft.fft_hfft", "torch.fft.hfft aten.fft_hfft.default", "", fft_1d_op<true>},
    {"torch._C._fft.fft_irfft2", "torch.fft.irfft2 aten.fft_irfft2.default", "", fft_nd_op<false, true>},
    {"torch._C._fft.fft_irfftn", "torch.fft.irfftn aten.fft_irfftn.default", "", fft_nd_op<false, false>},
    {"torch._C._fft.fft_hfft2", "torch.fft.hfft2 aten.fft_hfft2.default", "", fft_nd_op<true, true>},
    {"torch._C._fft.fft_hfftn", "torch.fft.hfftn aten.fft_hfftn.default", "", fft_nd_op<true, false>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
