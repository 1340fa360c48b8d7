// Checks of kernels/norm_f32 shared by the native test (norm_f32_test.cpp) and the WebAssembly runner
// (norm_f32_wasm_check.cpp, where the SIMD128 lanes run): each returns the failures it found, as text.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernels/norm.h"
#include "kernels/norm_f32.h"

namespace fx::norm_testing {

inline std::vector<float> row_values(int64_t n, float seed, float scale) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = std::sin(seed + 0.731f * static_cast<float>(i)) * scale;
  return v;
}

// Relative error of got against want (double), counting in float32 ulps of want.
inline double ulps(float got, double want) {
  if (std::isnan(want)) return std::isnan(got) ? 0.0 : 1e9;
  if (std::isinf(want)) return got == want ? 0.0 : 1e9;
  const double ulp = std::max(std::ldexp(1.0, std::ilogb(static_cast<float>(want)) - 23), std::ldexp(1.0, -149));
  return std::fabs(got - want) / ulp;
}

// exp_f32 against double exp over [-87.3, 88.3] stepping through float bit patterns; max ulps seen.
inline std::vector<std::string> check_exp(double& max_ulps) {
  std::vector<std::string> fails;
  max_ulps = 0;
  auto check = [&](float x) {
    const double e = ulps(kernels::exp_f32(x), std::exp(static_cast<double>(x)));
    max_ulps = std::max(max_ulps, e);
    if (e > 2.0 && fails.size() < 5) fails.push_back("exp(" + std::to_string(x) + ") off by " + std::to_string(e) + " ulps");
  };
  for (float x = -87.3f; x < 88.3f; x = std::nextafter(x, 100.0f) + std::fabs(x) * 1e-5f) check(x);
  for (float x : {0.0f, -0.0f, 1e-30f, -1e-30f, 1.0f, -1.0f}) check(x);
  const float inf = std::numeric_limits<float>::infinity();
  if (kernels::exp_f32(-inf) != 0.0f) fails.push_back("exp(-inf) != 0");
  if (kernels::exp_f32(-200.0f) != 0.0f) fails.push_back("exp(-200) != 0");
  if (kernels::exp_f32(inf) != inf || kernels::exp_f32(100.0f) != inf) fails.push_back("exp(large) != inf");
  if (!std::isnan(kernels::exp_f32(std::numeric_limits<float>::quiet_NaN()))) fails.push_back("exp(nan) not nan");
  return fails;
}

// softmax / log_softmax of rows of every length 0..67 (every SIMD tail) against the double kernel.
inline std::vector<std::string> check_softmax(int& checked) {
  std::vector<std::string> fails;
  for (bool log : {false, true})
    for (int64_t n = 0; n <= 67; ++n) {
      const int64_t rows = 3;
      std::vector<float> x = row_values(rows * n, static_cast<float>(n), 6.0f);
      std::vector<double> xd(x.begin(), x.end()), want(x.size());
      std::vector<float> got(x.size());
      kernels::softmax_rows_f32(x.data(), got.data(), rows, n, log);
      kernels::softmax_axis<double>(xd.data(), want.data(), rows, n, 1, log);
      for (size_t i = 0; i < x.size(); ++i) {
        ++checked;
        // log_softmax near 0 has no relative scale: compare against the row's magnitude there.
        const double err = log ? std::fabs(got[i] - want[i]) / std::max(1.0, std::fabs(want[i])) : std::fabs(got[i] - want[i]) / std::fabs(want[i]);
        if (!(err <= 2e-6) && fails.size() < 5)
          fails.push_back(std::string(log ? "log_softmax" : "softmax") + " n=" + std::to_string(n) + " i=" +
                          std::to_string(i) + ": " + std::to_string(got[i]) + " vs " + std::to_string(want[i]));
      }
    }
  // Special rows: a NaN makes its row NaN; an all -inf row gives NaN; -inf entries give 0 (masked attention).
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x = {1, 2, nan, 3, 4, 5, 6,  -inf, -inf, -inf, -inf, -inf, -inf, -inf,
                          1, -inf, 2, -inf, 3, -inf, 4};
  std::vector<float> y(x.size());
  kernels::softmax_rows_f32(x.data(), y.data(), 3, 7, false);
  for (int i = 0; i < 14; ++i)
    if (!std::isnan(y[i]) && fails.size() < 5) fails.push_back("NaN / all -inf row: y[" + std::to_string(i) + "] not NaN");
  for (int i = 15; i < 21; i += 2)
    if (y[i] != 0.0f && fails.size() < 5) fails.push_back("masked entry " + std::to_string(i) + " not 0");
  checked += 21;
  return fails;
}

// layer norm with and without weight / bias, every length 1..67, against the double kernel.
inline std::vector<std::string> check_layer_norm(int& checked) {
  std::vector<std::string> fails;
  for (int wb = 0; wb < 4; ++wb)
    for (int64_t n = 1; n <= 67; ++n) {
      const int64_t rows = 2;
      std::vector<float> x = row_values(rows * n, 0.3f * static_cast<float>(n), 4.0f);
      for (float& v : x) v += 10.0f;  // an offset the mean must remove
      std::vector<float> w = row_values(n, 1.7f, 2.0f), b = row_values(n, 2.9f, 1.0f);
      std::vector<double> xd(x.begin(), x.end()), wd(w.begin(), w.end()), bd(b.begin(), b.end());
      std::vector<double> want(x.size()), want_mean(rows), want_rstd(rows);
      std::vector<float> got(x.size()), mean(rows), rstd(rows);
      const bool use_w = wb & 1, use_b = wb & 2;
      kernels::layer_norm_rows_f32(x.data(), use_w ? w.data() : nullptr, use_b ? b.data() : nullptr, got.data(), rows,
                                   n, 1e-5, mean.data(), rstd.data());
      kernels::layer_norm_rows<double>(xd.data(), use_w ? wd.data() : nullptr, use_b ? bd.data() : nullptr,
                                       want.data(), rows, n, 1e-5, want_mean.data(), want_rstd.data());
      for (size_t i = 0; i < x.size(); ++i) {
        ++checked;
        if (!(std::fabs(got[i] - want[i]) <= 1e-5 * (1 + std::fabs(want[i]))) && fails.size() < 5)
          fails.push_back("layer_norm n=" + std::to_string(n) + " wb=" + std::to_string(wb) + " i=" + std::to_string(i) +
                          ": " + std::to_string(got[i]) + " vs " + std::to_string(want[i]));
      }
      for (int64_t r = 0; r < rows; ++r)
        if ((std::fabs(mean[r] - want_mean[r]) > 1e-6 * std::fabs(want_mean[r]) ||
             std::fabs(rstd[r] - want_rstd[r]) > 1e-5 * std::fabs(want_rstd[r])) && fails.size() < 5)
          fails.push_back("layer_norm mean/rstd n=" + std::to_string(n));
    }
  return fails;
}

}  // namespace fx::norm_testing
