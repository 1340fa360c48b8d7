#include "ops/fft/fft_util.h"

#include <cmath>

#include "kernels/fft_f64.h"
#include "ops/array/view_util.h"
#include "ops/math/complex_math.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/promote.h"

namespace fx::fftops {

std::vector<C> load_padded(const Tensor& input, const Shape& work, bool conjugate) {
  const bool complex = dtype_is_complex(input.dtype());
  // complex input as its (real, imaginary) float view, read in double
  const Tensor x = to_dtype(complex ? view_as_real(input) : input, DType::Float64).contiguous();
  int64_t total = 1;
  for (int64_t s : work) total *= s;
  std::vector<C> buf(static_cast<size_t>(total), C(0, 0));
  if (total == 0) return buf;
  const Shape in_strides = contiguous_strides(input.shape());
  const double* p = x.data<double>();
  const double sign = conjugate ? -1.0 : 1.0;
  std::vector<int64_t> idx(work.size(), 0);
  for (int64_t e = 0; e < total; ++e) {
    bool inside = true;
    int64_t off = 0;
    for (size_t k = 0; k < work.size(); ++k) {
      if (idx[k] >= input.shape()[k]) inside = false;
      off += idx[k] * in_strides[k];
    }
    if (inside) buf[e] = complex ? C(p[2 * off], sign * p[2 * off + 1]) : C(p[off], 0.0);
    for (size_t k = work.size(); k-- > 0;) {
      if (++idx[k] < work[k]) break;
      idx[k] = 0;
    }
  }
  return buf;
}

void transform_dim(std::vector<C>& buf, const Shape& shape, size_t d, bool inverse) {
  const int64_t n = shape[d];
  std::vector<C> line(static_cast<size_t>(n));
  for_each_line(shape, d, [&](int64_t start, int64_t stride) {
    for (int64_t k = 0; k < n; ++k) line[k] = buf[start + k * stride];
    fft::transform(line.data(), n, inverse);
    for (int64_t k = 0; k < n; ++k) buf[start + k * stride] = line[k];
  });
}

std::string checked_norm(std::string norm) {
  if (norm.empty()) norm = "backward";
  if (norm != "backward" && norm != "forward" && norm != "ortho") throw FxError("Invalid normalization mode: " + norm);
  return norm;
}

double norm_scale(const std::string& norm, double count, bool inverse) {
  if (norm == "ortho") return 1.0 / std::sqrt(count);
  return (norm == "backward") == inverse ? 1.0 / count : 1.0;
}

std::vector<int64_t> checked_dims(std::vector<int64_t> dims, int64_t ndim, const char* op) {
  for (int64_t& d : dims) d = checked_dim(d, ndim);
  for (size_t i = 0; i < dims.size(); ++i)
    for (size_t j = i + 1; j < dims.size(); ++j)
      if (dims[i] == dims[j]) throw FxError(std::string(op) + ": FFT dims must be unique");
  if (dims.empty()) throw FxError(std::string(op) + ": must transform at least one axis");
  return dims;
}

void nd_dims(const Args& a, size_t s_index, size_t dim_index, int64_t ndim, bool two, std::vector<int64_t>* sizes,
             std::vector<int64_t>* dims) {
  std::vector<int64_t> s;
  dims->clear();
  if (!a.is_none(s_index)) s = *a.int_list(s_index);
  if (!a.is_none(dim_index)) {
    *dims = *a.int_list(dim_index);
  } else if (two) {
    *dims = {-2, -1};
  } else if (!s.empty()) {
    for (size_t i = 0; i < s.size(); ++i) dims->push_back(ndim - static_cast<int64_t>(s.size() - i));
  } else {
    for (int64_t d = 0; d < ndim; ++d) dims->push_back(d);
  }
  if (!s.empty() && s.size() != dims->size())
    throw FxError("When given, dim and shape arguments must have the same length");
  if (s.empty()) s.assign(dims->size(), -1);
  *sizes = s;
}

std::vector<C> centred_window(const Tensor* window, int64_t win_length, int64_t n_fft) {
  std::vector<C> out(static_cast<size_t>(n_fft), C(0, 0));
  const int64_t left = (n_fft - win_length) / 2;
  const std::vector<C> w = window ? load_padded(*window, {win_length}) : std::vector<C>(win_length, C(1, 0));
  for (int64_t i = 0; i < win_length; ++i) out[left + i] = w[i];
  return out;
}

DType real_dtype_of(const Tensor& input) {
  const DType t = dtype_real_part(input.dtype());
  return t == DType::Float64 ? DType::Float64 : kDefaultFloat;
}

}  // namespace fx::fftops
