// The sweep of kernels/pool_f32.h against max_pool_plane<float> (its scalar reference), shared by the
// native test (pool_f32_test.cpp: the portable loop) and the wasm check (pool_f32_wasm_check.cpp: SIMD128).
// Values are compared bit for bit, NaN as NaN: the first of equal values wins (-0 and +0 in the input) and
// NaN wins wherever it sits in a window.
#pragma once
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/pool.h"
#include "kernels/pool_f32.h"

namespace fx::pool_testing {

inline int64_t pool_out(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil_mode) {
  const int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  int64_t out = num / stride + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

inline std::string check_max_pool(int64_t H, int64_t W, int64_t K, int64_t S, int64_t P, int64_t D, bool ceil_mode) {
  if (2 * P > (K - 1) * D + 1 || H + 2 * P < (K - 1) * D + 1 || W + 2 * P < (K - 1) * D + 1) return "";
  kernels::PoolGeom g;
  g.H = H, g.W = W, g.KH = g.KW = K, g.SH = g.SW = S, g.PH = g.PW = P, g.DH = g.DW = D;
  g.OH = pool_out(H, K, P, S, D, ceil_mode), g.OW = pool_out(W, K, P, S, D, ceil_mode);
  if (g.OH <= 0 || g.OW <= 0) return "";
  std::mt19937 rng(static_cast<unsigned>(H * 1000 + W * 100 + K * 10 + S + P * 7 + D * 3));
  std::uniform_int_distribution<int> pick(0, 19);
  std::uniform_real_distribution<float> val(-2.0f, 2.0f);
  std::vector<float> x(static_cast<size_t>(H * W));
  for (float& v : x) {  // a few exact ties (±0), infinities and NaNs among random values
    const int k = pick(rng);
    v = k == 0 ? 0.0f : k == 1 ? -0.0f : k == 2 ? -std::numeric_limits<float>::infinity()
      : k == 3 && (H + W) % 3 == 0 ? std::nanf("") : val(rng);
  }
  std::vector<float> want(static_cast<size_t>(g.OH * g.OW)), got(want.size(), 12345.0f);
  kernels::max_pool_plane<float>(g, x.data(), want.data(), nullptr);
  kernels::f32_max_pool_plane(g, x.data(), got.data());
  for (size_t i = 0; i < want.size(); ++i) {
    const bool same = std::isnan(want[i]) ? std::isnan(got[i]) : std::memcmp(&want[i], &got[i], sizeof(float)) == 0;
    if (!same)
      return "max_pool H=" + std::to_string(H) + " W=" + std::to_string(W) + " K=" + std::to_string(K) +
             " S=" + std::to_string(S) + " P=" + std::to_string(P) + " D=" + std::to_string(D) +
             (ceil_mode ? " ceil" : "") + ": out[" + std::to_string(i) + "] = " + std::to_string(got[i]) +
             ", reference " + std::to_string(want[i]);
  }
  return "";
}

// Every case; returns the failures (at most `limit`) and counts the checks.
inline std::vector<std::string> max_pool_sweep(int& checked, size_t limit = 5) {
  std::vector<std::string> fails;
  for (int64_t H : {1, 2, 3, 5, 8, 13})
    for (int64_t W : {1, 2, 3, 4, 5, 7, 8, 9, 12, 17, 30})
      for (int64_t K : {1, 2, 3, 5})
        for (int64_t S : {1, 2, 3})
          for (int64_t P : {0, 1, 2})
            for (int64_t D : {1, 2})
              for (bool ceil_mode : {false, true}) {
                ++checked;
                const std::string e = check_max_pool(H, W, K, S, P, D, ceil_mode);
                if (!e.empty() && fails.size() < limit) fails.push_back(e);
              }
  return fails;
}

}  // namespace fx::pool_testing
