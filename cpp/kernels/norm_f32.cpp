#include "kernels/norm_f32.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

#include "kernels/f32x4.h"

namespace fx::kernels {
namespace {

using f32x4::F4;
using f32x4::exp4;
using f32x4::exp_scalar;
using f32x4::kExpMax;

// Sum of f(i) for i in [0, n) (four at a time; tails one at a time), float32 lanes folded into double
// every 256 values.
template <class F4Of, class F1Of>
double sum_lanes(int64_t n, F4Of f4, F1Of f1) {
  double total = 0.0;
  int64_t i = 0;
  while (i + 4 <= n) {
    F4 acc = F4::splat(0.0f);
    const int64_t end = std::min<int64_t>(n - n % 4, i + 256);
    for (; i < end; i += 4) acc = acc + f4(i);
    total += acc.lane_sum();
  }
  for (; i < n; ++i) total += f1(i);
  return total;
}

void softmax_row(const float* x, float* y, int64_t n, bool log) {
  int64_t i = 0;
  float mx = -std::numeric_limits<float>::infinity();
  if (n >= 4) {
    F4 m = F4::load(x);
    for (i = 4; i + 4 <= n; i += 4) m = F4::max(m, F4::load(x + i));
    mx = m.lane_max();
  }
  for (; i < n; ++i)
    if (!std::isnan(mx) && (std::isnan(x[i]) || x[i] > mx)) mx = x[i];
  if (std::isinf(mx) && mx < 0) mx = 0.0f;  // an all -inf row: exp gives 0s, the sum 0, the result NaN
  const F4 vmx = F4::splat(mx);
  // exp(x − max) into y while summing.
  const double sum = sum_lanes(
      n,
      [&](int64_t j) {
        const F4 e = exp4(F4::load(x + j) - vmx);
        e.store(y + j);
        return e;
      },
      [&](int64_t j) { return y[j] = exp_scalar(x[j] - mx); });
  if (log) {
    const float lse = static_cast<float>(std::log(sum));
    for (int64_t j = 0; j < n; ++j) y[j] = (x[j] - mx) - lse;
    return;
  }
  const float inv = static_cast<float>(1.0 / sum);
  for (int64_t j = 0; j < n; ++j) y[j] *= inv;
}

}  // namespace

float exp_f32(float x) {
#ifdef __wasm_simd128__
  if (!(x > kExpMax)) return wasm_f32x4_extract_lane(exp4({wasm_f32x4_splat(x)}).v, 0);
#endif
  return exp_scalar(x);
}

void softmax_rows_f32(const float* x, float* y, int64_t rows, int64_t n, bool log) {
  for (int64_t r = 0; r < rows; ++r) softmax_row(x + r * n, y + r * n, n, log);
}

void layer_norm_rows_f32(const float* x, const float* w, const float* b, float* y, int64_t rows, int64_t n,
                         double eps, float* mean_out, float* rstd_out) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * n;
    float* yr = y + r * n;
    const double s = sum_lanes(n, [&](int64_t j) { return F4::load(xr + j); }, [&](int64_t j) { return xr[j]; });
    const double mean = n ? s / static_cast<double>(n) : 0.0;
    const float m = static_cast<float>(mean);
    const F4 vm = F4::splat(m);
    const double ss = sum_lanes(
        n,
        [&](int64_t j) {
          const F4 d = F4::load(xr + j) - vm;
          return d * d;
        },
        [&](int64_t j) { return static_cast<double>(xr[j] - m) * (xr[j] - m); });
    const double var = n ? ss / static_cast<double>(n) : 0.0;
    const double rstd = 1.0 / std::sqrt(var + eps);
    const float rs = static_cast<float>(rstd);
    float* __restrict out = yr;
    if (w && b)
      for (int64_t j = 0; j < n; ++j) out[j] = (xr[j] - m) * rs * w[j] + b[j];
    else if (w)
      for (int64_t j = 0; j < n; ++j) out[j] = (xr[j] - m) * rs * w[j];
    else if (b)
      for (int64_t j = 0; j < n; ++j) out[j] = (xr[j] - m) * rs + b[j];
    else
      for (int64_t j = 0; j < n; ++j) out[j] = (xr[j] - m) * rs;
    if (mean_out) mean_out[r] = m;
    if (rstd_out) rstd_out[r] = rs;
  }
}

}  // namespace fx::kernels
