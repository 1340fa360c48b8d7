// The sweeps of kernels/conv2d_f32.h against the direct scalar references, shared by the native test
// (conv2d_f32_test.cpp: generic micro-kernel, scalar depthwise) and the wasm check
// (conv2d_f32_wasm_check.cpp: SIMD128 micro-kernel and depthwise). Each check returns "" or a message.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/conv.h"
#include "kernels/conv2d_f32.h"

namespace fx::conv_testing {

struct ConvCase {
  int64_t C, OC, H, W, K, S, P, D;
  bool bias, residual;
  float lo, hi;
  bool scale = false;  // a folded BatchNorm's factor per output channel (ConvEpilogue::scale)
};

inline std::string describe(const ConvCase& c) {
  return "C=" + std::to_string(c.C) + " OC=" + std::to_string(c.OC) + " H=" + std::to_string(c.H) +
         " W=" + std::to_string(c.W) + " K=" + std::to_string(c.K) + " S=" + std::to_string(c.S) +
         " P=" + std::to_string(c.P) + " D=" + std::to_string(c.D) + (c.bias ? " bias" : "") + (c.scale ? " scale" : "") +
         (c.residual ? " residual" : "") + " clamp=[" + std::to_string(c.lo) + "," + std::to_string(c.hi) + "]";
}

inline std::vector<float> random_floats(size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

inline float clamp_ref(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

inline kernels::ConvGeom geom(const ConvCase& c) {
  kernels::ConvGeom g;
  g.C = c.C, g.H = c.H, g.W = c.W, g.KH = g.KW = c.K, g.SH = g.SW = c.S, g.PH = g.PW = c.P, g.DH = g.DW = c.D;
  g.OH = (c.H + 2 * c.P - c.D * (c.K - 1) - 1) / c.S + 1;
  g.OW = (c.W + 2 * c.P - c.D * (c.K - 1) - 1) / c.S + 1;
  return g;
}

// f32_conv2d_nchw against conv2d_reference + residual + clamp.
inline std::string check_conv(const ConvCase& c, GemmUkernelFn uk = nullptr) {
  std::mt19937 rng(static_cast<unsigned>(c.C * 131 + c.OC * 31 + c.H * 7 + c.W + c.K * 1000));
  const kernels::ConvGeom g = geom(c);
  if (g.OH <= 0 || g.OW <= 0) return "";
  const size_t pix = static_cast<size_t>(g.OH * g.OW), kc = static_cast<size_t>(c.C * c.K * c.K);
  std::vector<float> x = random_floats(static_cast<size_t>(c.C * c.H * c.W), rng);
  std::vector<float> w = random_floats(static_cast<size_t>(c.OC) * kc, rng);
  std::vector<float> b = random_floats(static_cast<size_t>(c.OC), rng);
  std::vector<float> r = random_floats(static_cast<size_t>(c.OC) * pix, rng);
  std::vector<float> s = random_floats(static_cast<size_t>(c.OC), rng);
  std::vector<float> want(static_cast<size_t>(c.OC) * pix), got(want.size(), std::nanf(""));
  std::vector<float> ws = w;  // the reference convolves with the scale folded into the weight
  if (c.scale)
    for (size_t i = 0; i < ws.size(); ++i) ws[i] *= s[i / kc];
  kernels::conv2d_reference<float>(g, c.OC, 1, x.data(), ws.data(), c.bias ? b.data() : nullptr, want.data());
  for (size_t i = 0; i < want.size(); ++i) want[i] = clamp_ref(want[i] + (c.residual ? r[i] : 0.0f), c.lo, c.hi);
  // Both layouts of the weight: packed (scale and bias inside) and torch's (scale and bias per row after).
  std::vector<float> packed(kernels::f32_conv_packed_w_size(c.OC, kc));
  kernels::f32_conv_pack_w(c.OC, kc, w.data(), c.bias ? b.data() : nullptr, packed.data(),
                           c.scale ? s.data() : nullptr);
  for (const auto layout : {kernels::ConvWeightLayout::kPacked, kernels::ConvWeightLayout::kTorch}) {
    const bool torch = layout == kernels::ConvWeightLayout::kTorch;
    kernels::ConvEpilogue e;
    e.scale = torch && c.scale ? s.data() : nullptr;
    e.bias = torch && c.bias ? b.data() : nullptr;
    e.residual = c.residual ? r.data() : nullptr;
    e.min = c.lo, e.max = c.hi;
    std::fill(got.begin(), got.end(), std::nanf(""));
    kernels::f32_conv2d_nchw(g, c.OC, x.data(), torch ? w.data() : packed.data(), layout, got.data(), e, uk);
    for (size_t i = 0; i < want.size(); ++i)
      if (!(std::fabs(got[i] - want[i]) <= 1e-4f * (1.0f + std::fabs(want[i]))))
        return describe(c) + (torch ? " torch layout" : " packed") + ": out[" + std::to_string(i) + "] = " +
               std::to_string(got[i]) + ", want " + std::to_string(want[i]);
  }
  return "";
}

inline std::vector<ConvCase> conv_sweep() {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<ConvCase> out;
  for (int64_t C : {1, 3, 5})
    for (int64_t OC : {1, 4, 7, 9})
      for (int64_t K : {1, 3, 5})
        for (int64_t S : {1, 2})
          for (int64_t P : {0, 1, 2})
            for (int64_t HW : {1, 4, 9, 13}) {
              const int64_t D = (C + OC + K) % 3 == 0 ? 2 : 1;
              const bool bias = (OC + HW) % 2 == 0, residual = (C + S + P) % 2 == 0;
              const float lo = (OC % 3 == 0) ? 0.0f : -inf, hi = (HW % 4 == 1) ? 0.5f : inf;
              const bool scale = (C + K + HW) % 2 == 1;
              out.push_back({C, OC, HW, HW + (K % 2), K, S, P, D, bias, residual, lo, hi, scale});
            }
  // Many output channels: the kernel packs all panels and passes them over blocks of rows.
  out.push_back({64, 120, 5, 6, 3, 1, 1, 1, true, true, 0.0f, inf, true});
  out.push_back({64, 130, 7, 7, 3, 2, 1, 1, true, false, -inf, inf});
  // A long K (> kGemmKC, 3×3 over 128+ channels) and many output channels, with a partial last panel.
  out.push_back({128, 70, 5, 6, 3, 1, 1, 1, true, true, 0.0f, inf, true});
  out.push_back({160, 61, 7, 7, 3, 2, 1, 1, false, false, -inf, 0.5f});
  out.push_back({240, 66, 4, 4, 3, 1, 1, 1, true, true, -inf, inf});
  return out;
}

// f32_dwconv3x3_plane against its scalar reference (which conv_sweep tests through conv2d_reference-like
// sums in check_dw_reference below).
inline std::string check_dw(int64_t H, int64_t W, int64_t S, int64_t P, float lo, float hi) {
  std::mt19937 rng(static_cast<unsigned>(H * 100 + W * 10 + S + P * 1000));
  kernels::ConvGeom g;
  g.C = 1, g.H = H, g.W = W, g.KH = g.KW = 3, g.SH = g.SW = S, g.PH = g.PW = P;
  g.OH = (H + 2 * P - 3) / S + 1, g.OW = (W + 2 * P - 3) / S + 1;
  if (H + 2 * P < 3 || W + 2 * P < 3) return "";
  std::vector<float> x = random_floats(static_cast<size_t>(H * W), rng), w = random_floats(9, rng);
  const float bias = 0.25f;
  std::vector<float> want(static_cast<size_t>(g.OH * g.OW)), got(want.size(), std::nanf("")), ref(want.size());
  kernels::f32_dwconv3x3_plane_scalar(g, x.data(), w.data(), bias, want.data(), lo, hi);
  kernels::f32_dwconv3x3_plane(g, x.data(), w.data(), bias, got.data(), lo, hi);
  kernels::conv2d_reference<float>(g, 1, 1, x.data(), w.data(), &bias, ref.data());
  const std::string where = "dw3x3 H=" + std::to_string(H) + " W=" + std::to_string(W) + " S=" + std::to_string(S) +
                            " P=" + std::to_string(P);
  for (size_t i = 0; i < want.size(); ++i) {
    if (!(std::fabs(got[i] - want[i]) <= 1e-5f * (1.0f + std::fabs(want[i]))))
      return where + ": out[" + std::to_string(i) + "] = " + std::to_string(got[i]) + ", scalar " + std::to_string(want[i]);
    const float r = clamp_ref(ref[i], lo, hi);
    if (!(std::fabs(want[i] - r) <= 1e-5f * (1.0f + std::fabs(r))))
      return where + ": scalar out[" + std::to_string(i) + "] = " + std::to_string(want[i]) + ", direct " + std::to_string(r);
  }
  return "";
}

// Runs every depthwise case; returns the failures (at most `limit` messages) and counts checks.
inline std::vector<std::string> dw_sweep(int& checked, size_t limit = 5) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<std::string> fails;
  for (int64_t H = 1; H <= 12; ++H)
    for (int64_t W = 1; W <= 21; W += (W < 12 ? 1 : 3))
      for (int64_t S : {1, 2})
        for (int64_t P : {0, 1, 2}) {
          ++checked;
          const std::string e = check_dw(H, W, S, P, (H + W) % 2 ? 0.0f : -inf, (H % 3 == 0) ? 6.0f : inf);
          if (!e.empty() && fails.size() < limit) fails.push_back(e);
        }
  return fails;
}

}  // namespace fx::conv_testing
