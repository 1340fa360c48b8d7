// The sweep of kernels/winograd_f32.h against the direct scalar reference (kernels/conv.h), shared by the
// native test (winograd_f32_test.cpp: generic micro-kernel, scalar transforms) and the wasm check
// (winograd_f32_wasm_check.cpp: SIMD128 micro-kernel and four-tile transforms). Each check returns "" or
// a message.
#pragma once
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/conv.h"
#include "kernels/winograd_f32.h"

namespace fx::winograd_testing {

struct Case {
  int64_t C, OC, H, W, P;
  bool bias, residual, scale;
  float lo, hi;
};

inline std::string describe(const Case& c) {
  return "C=" + std::to_string(c.C) + " OC=" + std::to_string(c.OC) + " H=" + std::to_string(c.H) +
         " W=" + std::to_string(c.W) + " P=" + std::to_string(c.P) + (c.bias ? " bias" : "") +
         (c.residual ? " residual" : "") + (c.scale ? " scale" : "") + " clamp=[" + std::to_string(c.lo) + "," +
         std::to_string(c.hi) + "]";
}

inline kernels::ConvGeom geom(const Case& c) {
  kernels::ConvGeom g;
  g.C = c.C, g.H = c.H, g.W = c.W, g.KH = g.KW = 3, g.PH = g.PW = c.P;
  g.OH = c.H + 2 * c.P - 2, g.OW = c.W + 2 * c.P - 2;
  return g;
}

// Runs the case; `out` gets the result (for the thread-count comparison).
inline std::string check(const Case& c, std::vector<float>* result = nullptr) {
  std::mt19937 rng(static_cast<unsigned>(c.C * 131 + c.OC * 31 + c.H * 7 + c.W + c.P * 1000));
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  auto rnd = [&](size_t n) {
    std::vector<float> v(n);
    for (float& x : v) x = d(rng);
    return v;
  };
  const kernels::ConvGeom g = geom(c);
  if (g.OH <= 0 || g.OW <= 0) return "";
  const size_t pix = static_cast<size_t>(g.OH * g.OW), OC = static_cast<size_t>(c.OC), C = static_cast<size_t>(c.C);
  std::vector<float> x = rnd(C * static_cast<size_t>(c.H * c.W)), w = rnd(OC * C * 9), b = rnd(OC), r = rnd(OC * pix);
  std::vector<float> s = rnd(OC);
  // The reference gets the scaled weights (what a folded BatchNorm computes).
  std::vector<float> ws = w;
  if (c.scale)
    for (size_t oc = 0; oc < OC; ++oc)
      for (size_t i = 0; i < C * 9; ++i) ws[oc * C * 9 + i] = w[oc * C * 9 + i] * s[oc];
  std::vector<float> want(OC * pix), got(want.size(), std::nanf(""));
  kernels::conv2d_reference<float>(g, c.OC, 1, x.data(), ws.data(), c.bias ? b.data() : nullptr, want.data());
  for (size_t i = 0; i < want.size(); ++i) {
    const float v = want[i] + (c.residual ? r[i] : 0.0f);
    want[i] = v < c.lo ? c.lo : (v > c.hi ? c.hi : v);
  }
  std::vector<float> packed(kernels::f32_winograd_packed_w_size(OC, C));
  kernels::f32_winograd_pack_w(OC, C, w.data(), c.bias ? b.data() : nullptr, packed.data(),
                               c.scale ? s.data() : nullptr);
  kernels::ConvEpilogue e;
  if (c.residual) {  // in place, as the fused residual add runs: out holds the residual on entry
    got = r;
    e.residual = got.data();
  }
  e.min = c.lo, e.max = c.hi;
  kernels::f32_conv3x3_winograd(g, OC, x.data(), packed.data(), got.data(), e);
  // Error bound: a few ulp of the sum of |products| (9·C terms of magnitude ≤ 1).
  const float tol = 2e-6f * static_cast<float>(9 * C);
  for (size_t i = 0; i < want.size(); ++i)
    if (!(std::fabs(got[i] - want[i]) <= tol))
      return describe(c) + ": out[" + std::to_string(i) + "] = " + std::to_string(got[i]) + ", want " +
             std::to_string(want[i]);
  if (result) *result = got;
  return "";
}

inline std::vector<Case> sweep() {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<Case> out;
  // Odd and even sizes (partial tiles at the bottom and right), tile rows that are not a multiple of the
  // four-tile SIMD group, every MR tail of OC and NR tail of the tiles, padding 0 to 2.
  for (int64_t C : {8, 9, 17})
    for (int64_t OC : {8, 10, 13})
      for (int64_t P : {0, 1, 2})
        for (int64_t H : {1, 2, 3, 6, 9})
          for (int64_t W : {1, 3, 4, 11, 18}) {
            const bool bias = (OC + H) % 2 == 0, residual = (C + W + P) % 2 == 1, scale = (H + W) % 3 == 0;
            const float lo = OC % 2 == 0 ? 0.0f : -inf, hi = (W % 4 == 3) ? 0.5f : inf;
            out.push_back({C, OC, H, W, P, bias, residual, scale, lo, hi});
          }
  // Bigger ones: several blocks of tiles, many channels.
  out.push_back({64, 64, 30, 30, 1, true, true, false, 0.0f, inf});
  out.push_back({32, 40, 57, 23, 1, true, false, true, -inf, inf});
  out.push_back({128, 24, 14, 14, 1, false, true, false, -inf, 6.0f});
  return out;
}

}  // namespace fx::winograd_testing
