// SIMD128 max pooling (see pool_f32.h). Hand-written because ResNet's stem pooling ran as the scalar
// reference, a few percent of the whole model and all of it on one thread.
#include "kernels/pool_f32.h"

#include <algorithm>
#include <cmath>
#include <limits>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace fx::kernels {
namespace {

// One output with the scalar rule of max_pool_plane.
float max_pixel(const PoolGeom& g, const float* x, int64_t oh, int64_t ow) {
  int64_t h0 = oh * g.SH - g.PH, w0 = ow * g.SW - g.PW;
  const int64_t h1 = std::min(h0 + (g.KH - 1) * g.DH + 1, g.H), w1 = std::min(w0 + (g.KW - 1) * g.DW + 1, g.W);
  while (h0 < 0) h0 += g.DH;
  while (w0 < 0) w0 += g.DW;
  float best = -std::numeric_limits<float>::infinity();
  for (int64_t h = h0; h < h1; h += g.DH)
    for (int64_t w = w0; w < w1; w += g.DW) {
      const float v = x[h * g.W + w];
      if (v > best || std::isnan(v)) best = v;
    }
  return best;
}

// First output index o ≥ 0 whose window starts inside (o·S − P ≥ 0), and one past the last whose window
// ends inside (o·S − P + (K−1)·D < I), clamped to [lo, O].
int64_t interior_lo(int64_t S, int64_t P, int64_t O) { return std::min((P + S - 1) / S, O); }
int64_t interior_hi(int64_t S, int64_t P, int64_t K, int64_t D, int64_t I, int64_t O, int64_t lo) {
  const int64_t last = I - 1 - (K - 1) * D + P;  // o·S ≤ last
  return last < 0 ? lo : std::max(lo, std::min(O, last / S + 1));
}

}  // namespace

void f32_max_pool_plane(const PoolGeom& g, const float* x, float* out) {
#if defined(__wasm_simd128__)
  const int64_t oh_lo = interior_lo(g.SH, g.PH, g.OH), oh_hi = interior_hi(g.SH, g.PH, g.KH, g.DH, g.H, g.OH, oh_lo);
  const int64_t ow_lo = interior_lo(g.SW, g.PW, g.OW), ow_hi = interior_hi(g.SW, g.PW, g.KW, g.DW, g.W, g.OW, ow_lo);
  const v128_t ninf = wasm_f32x4_splat(-std::numeric_limits<float>::infinity());
  for (int64_t oh = 0; oh < g.OH; ++oh) {
    float* o = out + oh * g.OW;
    if (oh < oh_lo || oh >= oh_hi) {
      for (int64_t ow = 0; ow < g.OW; ++ow) o[ow] = max_pixel(g, x, oh, ow);
      continue;
    }
    for (int64_t ow = 0; ow < ow_lo; ++ow) o[ow] = max_pixel(g, x, oh, ow);
    const float* r0 = x + (oh * g.SH - g.PH) * g.W;
    int64_t ow = ow_lo;
    for (; ow + 4 <= ow_hi; ow += 4) {
      const int64_t iw = ow * g.SW - g.PW;
      v128_t best = ninf, nan = wasm_i32x4_splat(0);
      for (int64_t kh = 0; kh < g.KH; ++kh) {
        const float* r = r0 + kh * g.DH * g.W + iw;
        for (int64_t kw = 0; kw < g.KW; ++kw) {
          const float* t = r + kw * g.DW;
          const v128_t v = g.SW == 1 ? wasm_v128_load(t) : wasm_f32x4_make(t[0], t[g.SW], t[2 * g.SW], t[3 * g.SW]);
          best = wasm_f32x4_pmax(best, v);  // best < v ? v : best: the first of equal values stays
          nan = wasm_v128_or(nan, wasm_f32x4_ne(v, v));
        }
      }
      // Any NaN in the window gives NaN, as the scalar rule does.
      wasm_v128_store(o + ow, wasm_v128_bitselect(wasm_f32x4_splat(std::numeric_limits<float>::quiet_NaN()), best, nan));
    }
    for (; ow < g.OW; ++ow) o[ow] = max_pixel(g, x, oh, ow);
  }
#else
  for (int64_t oh = 0; oh < g.OH; ++oh)
    for (int64_t ow = 0; ow < g.OW; ++ow) out[oh * g.OW + ow] = max_pixel(g, x, oh, ow);
#endif
}

}  // namespace fx::kernels
