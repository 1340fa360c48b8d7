// What the FFT op files share: the input read into a complex double buffer (each dim zero-padded or cut
// to the transform's size), the lines along one dim of a packed buffer, torch's norm modes and the dims of
// the 2-d / n-d forms. Transforms run in double (kernels/fft_f64.h) and round once to the result's dtype.
#pragma once
#include <complex>
#include <string>
#include <vector>

#include "ops/schema.h"
#include "tensor/tensor.h"

namespace fx::fftops {

using C = std::complex<double>;

// `input` (real or complex, any strides) as complex doubles of shape `work`: elements past the input's
// size along a dim are zero, elements past `work` dropped. `conjugate`: each value's conjugate.
std::vector<C> load_padded(const Tensor& input, const Shape& work, bool conjugate = false);

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

// The complex transform of every line along dim d of `buf` (packed, of `shape`), in place.
void transform_dim(std::vector<C>& buf, const Shape& shape, size_t d, bool inverse);

// torch's norm argument ("" means "backward"), checked; the factor a transform over `count` points takes:
// `inverse` transforms divide for "backward", forward ones for "forward", both by √count for "ortho".
std::string checked_norm(std::string norm);
double norm_scale(const std::string& norm, double count, bool inverse);

// Dims wrapped and checked unique and non-empty; `op` names the op in messages.
std::vector<int64_t> checked_dims(std::vector<int64_t> dims, int64_t ndim, const char* op);

// The (s, dim) arguments of the 2-d and n-d forms resolved as torch does: the 2-d forms default to the last
// two dims, the n-d ones to every dim (or the last len(s) dims); sizes -1 where s is not given.
void nd_dims(const Args& a, size_t s_index, size_t dim_index, int64_t ndim, bool two, std::vector<int64_t>* sizes,
             std::vector<int64_t>* dims);

// stft/istft's window: `window` (win_length values, real or complex; ones when null) centred in n_fft
// points, zero outside.
std::vector<C> centred_window(const Tensor* window, int64_t win_length, int64_t n_fft);

// The real dtype a transform of `input` computes in (float32 for integers and float16, float64 stays).
DType real_dtype_of(const Tensor& input);

}  // namespace fx::fftops
