// Softmax and normalisation kernels on packed data. Statistics accumulate in double (so float32 results
// match torch's to rounding); the elementwise passes run in T. float32 softmax over contiguous rows and
// float32 layer norm go to the vectorised kernels of kernels/norm_f32.h.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/norm_f32.h"

namespace fx::kernels {

// x viewed as [outer, n, inner]; softmax (or log_softmax) along n.
template <typename T>
void softmax_axis(const T* x, T* y, int64_t outer, int64_t n, int64_t inner, bool log) {
  if constexpr (std::is_same_v<T, float>)
    if (inner == 1) return softmax_rows_f32(x, y, outer, n, log);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const T* xs = x + o * n * inner + i;
      T* ys = y + o * n * inner + i;
      T mx = -std::numeric_limits<T>::infinity();
      for (int64_t k = 0; k < n; ++k) mx = (xs[k * inner] > mx || std::isnan(xs[k * inner])) ? xs[k * inner] : mx;
      if (std::isinf(mx) && mx < 0) mx = T(0);  // an all -inf row: exp gives 0s, the sum 0, the result NaN
      double sum = 0.0;
      for (int64_t k = 0; k < n; ++k) sum += std::exp(static_cast<double>(xs[k * inner] - mx));
      if (log) {
        const T lse = static_cast<T>(std::log(sum));
        for (int64_t k = 0; k < n; ++k) ys[k * inner] = xs[k * inner] - mx - lse;
      } else {
        const double inv = 1.0 / sum;
        for (int64_t k = 0; k < n; ++k) ys[k * inner] = static_cast<T>(std::exp(static_cast<double>(xs[k * inner] - mx)) * inv);
      }
    }
}

// Mean and 1/sqrt(var + eps) (biased variance) of `n` values, two passes.
template <typename T>
void moments(const T* x, int64_t n, double eps, double& mean, double& rstd) {
  double s = 0.0;
  for (int64_t i = 0; i < n; ++i) s += x[i];
  mean = n ? s / static_cast<double>(n) : 0.0;
  double v = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = x[i] - mean;
    v += d * d;
  }
  v = n ? v / static_cast<double>(n) : 0.0;
  rstd = 1.0 / std::sqrt(v + eps);
}

// Layer norm over the last n values of each of `rows` rows; w/b (n values) may be null; mean/rstd
// (rows values) may be null.
template <typename T>
void layer_norm_rows(const T* x, const T* w, const T* b, T* y, int64_t rows, int64_t n, double eps, T* mean_out,
                     T* rstd_out) {
  if constexpr (std::is_same_v<T, float>) return layer_norm_rows_f32(x, w, b, y, rows, n, eps, mean_out, rstd_out);
  for (int64_t r = 0; r < rows; ++r) {
    const T* xr = x + r * n;
    T* yr = y + r * n;
    double mean, rstd;
    moments(xr, n, eps, mean, rstd);
    for (int64_t i = 0; i < n; ++i) {
      double v = (xr[i] - mean) * rstd;
      if (w) v *= w[i];
      if (b) v += b[i];
      yr[i] = static_cast<T>(v);
    }
    if (mean_out) mean_out[r] = static_cast<T>(mean);
    if (rstd_out) rstd_out[r] = static_cast<T>(rstd);
  }
}

// y[n, c, i] = (x[n, c, i] − mean[c]) · scale[c] + shift[c] folded into one multiply-add per element:
// a[c] = scale·rstd, b[c] = shift − mean·a.
template <typename T>
void channel_affine(const T* x, T* y, int64_t N, int64_t C, int64_t inner, const double* a, const double* b) {
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c) {
      const T ac = static_cast<T>(a[c]), bc = static_cast<T>(b[c]);
      const T* xs = x + (n * C + c) * inner;
      T* ys = y + (n * C + c) * inner;
      for (int64_t i = 0; i < inner; ++i) ys[i] = xs[i] * ac + bc;
    }
}

}  // namespace fx::kernels
