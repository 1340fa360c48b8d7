// The real-result FFTs: torch.fft.irfft, irfft2, irfftn — complex inverse transforms along every dim but the
// last, then the Hermitian (complex-to-real) inverse along the last, each dim zero-padded or cut to its size
// first — and hfft, hfft2, hfftn: the same transforms of the conjugated input with the normalisation the
// other way round. Input real or complex; computed in double (kernels/fft_f64.h) and rounded once to the
// input's real float type.
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "kernels/fft_f64.h"
#include "ops/fft/fft_util.h"
#include "ops/array/view_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/meta.h"

namespace fx {
namespace {

using fftops::C;

// `dims` transformed (the last one complex-to-real) to the sizes `out` (-1: the default), norm as torch.
Tensor c2r(const Tensor& input, std::vector<int64_t> dims, std::vector<int64_t> out, std::string norm, bool hermitian,
           const char* op) {
  const DType real = dtype_real_part(input.dtype());
  const DType dtype = dtype_is_floating(real) ? real : kDefaultFloat;
  dims = fftops::checked_dims(dims, input.dim(), op);
  norm = fftops::checked_norm(norm);
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
  // the input (conjugated for hfft), zero-padded or cut to the work shape, inverted along all dims but the last
  std::vector<C> buf = fftops::load_padded(input, work, hermitian);
  for (size_t i = 0; i + 1 < dims.size(); ++i) fftops::transform_dim(buf, work, static_cast<size_t>(dims[i]), true);
  std::vector<C> line;
  // the last dim: the Hermitian spectrum (imaginary parts of the DC and Nyquist terms ignored), inverted
  const size_t d = static_cast<size_t>(dims.back());
  const int64_t n = result[d], half = work[d];
  const double scale = norm == "backward" ? 1.0 / count : norm == "ortho" ? 1.0 / std::sqrt(count) : 1.0;
  Tensor y = Tensor::empty(result, DType::Float64);
  line.resize(static_cast<size_t>(n));
  int64_t stride_work = 1;
  for (size_t k = d + 1; k < work.size(); ++k) stride_work *= work[k];
  fftops::for_each_line(work, d, [&](int64_t start, int64_t stride) {
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
  fftops::nd_dims(a, 1, 2, x.dim(), kTwo, &s, &dims);
  const char* name = kHermitian ? (kTwo ? "fft_hfft2" : "fft_hfftn") : (kTwo ? "fft_irfft2" : "fft_irfftn");
  return c2r(x, dims, s, norm_of(a, 3), kHermitian, name);
}

// _fft_c2r(self, dim, normalization, last_dim_size), as torch.export and make_fx record irfft: the
// normalization code (0 none, 1 by 1/√n, 2 by 1/n) applies to this inverse transform as given.
Object aten_c2r_op(const OpCall& call) {
  static const Schema schema("_fft_c2r(self, dim, normalization, last_dim_size)");
  Args a = schema.parse(call);
  const std::vector<int64_t> dims = *a.int_list(1);
  std::vector<int64_t> sizes(dims.size(), -1);
  sizes.back() = a.integer(3);
  const int64_t code = a.integer(2);
  if (code < 0 || code > 2) throw FxError("_fft_c2r: invalid normalization " + std::to_string(code));
  return c2r(a.tensor(0), dims, sizes, code == 0 ? "forward" : code == 1 ? "ortho" : "backward", false, "_fft_c2r");
}

const OpRow kOps[] = {
    {"aten._fft_c2r.default", "", "", aten_c2r_op},
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
