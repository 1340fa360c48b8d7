// The complex-result FFTs: fft, ifft (and their 2-d / n-d forms) of real or complex input, rfft and ihfft
// (2-d / n-d) of real input, which keep the last transformed dim's non-negative frequencies (n/2 + 1 of
// them). Each transformed dim is zero-padded or cut to its size first; norm as torch ("backward": the
// inverse transforms divide by the point count). Computed in complex double, rounded once to complex64
// (complex128 for float64 / complex128 input).
#include <string>
#include <vector>

#include "ops/fft/fft_util.h"
#include "ops/op_table.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/meta.h"

namespace fx {
namespace {

using fftops::C;

enum class Kind { C2C, R2C };

// `dims` transformed to the sizes `sizes` (-1: the input's), inverse or forward; R2C keeps half the last dim.
Tensor transform(const Tensor& input, std::vector<int64_t> dims, const std::vector<int64_t>& sizes, std::string norm,
                 bool inverse, Kind kind, const char* op) {
  if (kind == Kind::R2C && dtype_is_complex(input.dtype()))
    throw FxError(std::string(op) + " expects a real input tensor, but got " + dtype_name(input.dtype()));
  dims = fftops::checked_dims(dims, input.dim(), op);
  norm = fftops::checked_norm(norm);
  const DType out_dtype = dtype_to_complex(fftops::real_dtype_of(input));
  Shape work = input.shape(), result = input.shape();
  double count = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t n = sizes[i] >= 0 ? sizes[i] : input.shape()[dims[i]];
    if (n < 1) throw FxError("Invalid number of data points (" + std::to_string(n) + ") specified");
    work[dims[i]] = result[dims[i]] = n;
    count *= static_cast<double>(n);
  }
  if (kind == Kind::R2C) result[dims.back()] = work[dims.back()] / 2 + 1;
  if (meta_mode()) return Tensor::meta(result, out_dtype);
  std::vector<C> buf = fftops::load_padded(input, work);
  for (int64_t d : dims) fftops::transform_dim(buf, work, static_cast<size_t>(d), inverse);
  const double scale = fftops::norm_scale(norm, count, inverse);
  // the result: all of `work`, or its first n/2 + 1 entries along the last dim
  Tensor y = Tensor::empty(result, DType::Complex128);
  C* out = y.data<C>();
  const size_t last = static_cast<size_t>(dims.back());
  int64_t inner = 1;
  for (size_t k = last + 1; k < work.size(); ++k) inner *= work[k];
  const int64_t n_work = work[last], n_out = result[last];
  const int64_t total = y.numel();
  for (int64_t e = 0; e < total; ++e) {
    const int64_t outer = e / (n_out * inner), along = (e / inner) % n_out, in = e % inner;
    out[e] = buf[static_cast<size_t>((outer * n_work + along) * inner + in)] * scale;
  }
  return to_dtype(y, out_dtype);
}

std::string norm_of(const Args& a, size_t i) { return a.is_none(i) ? "" : a.str(i); }

// fft / ifft / rfft / ihfft(input, n=None, dim=-1, norm=None)
template <bool kInverse, Kind kKind>
Object fft_1d_op(const OpCall& call) {
  static const std::string name = std::string("fft_") + (kKind == Kind::R2C ? (kInverse ? "ihfft" : "rfft") : (kInverse ? "ifft" : "fft"));
  static const Schema schema(name + "(input|self, n=None, dim=-1, norm=None)");
  Args a = schema.parse(call);
  return transform(a.tensor(0), {a.integer(2)}, {a.is_none(1) ? -1 : a.integer(1)}, norm_of(a, 3), kInverse, kKind,
                   name.c_str());
}

// the 2-d and n-d forms: (input, s=None, dim=..., norm=None)
template <bool kInverse, Kind kKind, bool kTwo>
Object fft_nd_op(const OpCall& call) {
  static const std::string name = std::string("fft_") +
                                  (kKind == Kind::R2C ? (kInverse ? "ihfft" : "rfft") : (kInverse ? "ifft" : "fft")) +
                                  (kTwo ? "2" : "n");
  static const Schema schema(name + "(input|self, s=None, dim=None, norm=None)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  std::vector<int64_t> sizes, dims;
  fftops::nd_dims(a, 1, 2, x.dim(), kTwo, &sizes, &dims);
  return transform(x, dims, sizes, norm_of(a, 3), kInverse, kKind, name.c_str());
}

// ATen's normalization codes (aten/src/ATen/native/SpectralOpsUtils.h): 0 none, 1 by 1/√n, 2 by 1/n — as
// the norm names for a transform in this direction.
std::string aten_norm(int64_t code, bool inverse) {
  if (code == 1) return "ortho";
  if (code == 0) return inverse ? "forward" : "backward";
  if (code == 2) return inverse ? "backward" : "forward";
  throw FxError("_fft: invalid normalization " + std::to_string(code));
}

// What torch.export and make_fx record for the FFTs: _fft_r2c(self, dim, normalization, onesided) and
// _fft_c2c(self, dim, normalization, forward), over the input's own sizes.
Object aten_r2c_op(const OpCall& call) {
  static const Schema schema("_fft_r2c(self, dim, normalization, onesided)");
  Args a = schema.parse(call);
  const Tensor& x = a.tensor(0);
  const std::vector<int64_t> dims = *a.int_list(1);
  const Tensor full = transform(x, dims, std::vector<int64_t>(dims.size(), -1), aten_norm(a.integer(2), false), false,
                                a.boolean(3) ? Kind::R2C : Kind::C2C, "_fft_r2c");
  return full;
}

Object aten_c2c_op(const OpCall& call) {
  static const Schema schema("_fft_c2c(self, dim, normalization, forward)");
  Args a = schema.parse(call);
  const std::vector<int64_t> dims = *a.int_list(1);
  const bool inverse = !a.boolean(3);
  return transform(a.tensor(0), dims, std::vector<int64_t>(dims.size(), -1), aten_norm(a.integer(2), inverse), inverse,
                   Kind::C2C, "_fft_c2c");
}

const OpRow kOps[] = {
    {"aten._fft_r2c.default", "", "", aten_r2c_op},
    {"aten._fft_c2c.default", "", "", aten_c2c_op},
    {"torch._C._fft.fft_fft", "torch.fft.fft aten.fft_fft.default", "", fft_1d_op<false, Kind::C2C>},
    {"torch._C._fft.fft_ifft", "torch.fft.ifft aten.fft_ifft.default", "", fft_1d_op<true, Kind::C2C>},
    {"torch._C._fft.fft_rfft", "torch.fft.rfft aten.fft_rfft.default", "", fft_1d_op<false, Kind::R2C>},
    {"torch._C._fft.fft_ihfft", "torch.fft.ihfft aten.fft_ihfft.default", "", fft_1d_op<true, Kind::R2C>},
    {"torch._C._fft.fft_fft2", "torch.fft.fft2 aten.fft_fft2.default", "", fft_nd_op<false, Kind::C2C, true>},
    {"torch._C._fft.fft_ifft2", "torch.fft.ifft2 aten.fft_ifft2.default", "", fft_nd_op<true, Kind::C2C, true>},
    {"torch._C._fft.fft_rfft2", "torch.fft.rfft2 aten.fft_rfft2.default", "", fft_nd_op<false, Kind::R2C, true>},
    {"torch._C._fft.fft_ihfft2", "torch.fft.ihfft2 aten.fft_ihfft2.default", "", fft_nd_op<true, Kind::R2C, true>},
    {"torch._C._fft.fft_fftn", "torch.fft.fftn aten.fft_fftn.default", "", fft_nd_op<false, Kind::C2C, false>},
    {"torch._C._fft.fft_ifftn", "torch.fft.ifftn aten.fft_ifftn.default", "", fft_nd_op<true, Kind::C2C, false>},
    {"torch._C._fft.fft_rfftn", "torch.fft.rfftn aten.fft_rfftn.default", "", fft_nd_op<false, Kind::R2C, false>},
    {"torch._C._fft.fft_ihfftn", "torch.fft.ihfftn aten.fft_ihfftn.default", "", fft_nd_op<true, Kind::R2C, false>},
};
const OpTable reg_kOps{kOps};

}  // namespace
}  // namespace fx
