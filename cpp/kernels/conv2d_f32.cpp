// Implicit-GEMM NCHW convolution and the depthwise 3×3 kernel (see conv2d_f32.h). Hand-written because
// they are the runtime's hot loops: they reuse the GEMM micro-kernel and its epilogue rather than adding
// a library.
#include "kernels/conv2d_f32.h"
#include "kernels/parallel.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace fx::kernels {
namespace {

constexpr size_t NR = fx::kGemmNR;
constexpr size_t MR = fx::kGemmMR;

GemmUkernelFn default_ukernel() {
#if defined(__wasm_simd128__)
  return fx::f32_gemm_ukernel__wasmsimd_4x8;
#else
  return fx::f32_gemm_ukernel__generic_4x8;
#endif
}

// Panel of NR output pixels starting at flat pixel p0 (nc of them real): row k = (c·KH + kh)·KW + kw holds
// x at each pixel's tap (0 in the padding), row kc holds ones (the bias column of A).
void pack_panel(const ConvGeom& g, const float* x, size_t p0, size_t nc, float* dst) {
  if (g.KH == 1 && g.KW == 1 && g.SH == 1 && g.SW == 1 && g.PH == 0 && g.PW == 0 && g.OW == g.W) {
    // 1×1, stride 1, no padding: the im2col matrix is x itself, pixels contiguous across rows.
    const size_t plane = static_cast<size_t>(g.H * g.W);
    for (int64_t c = 0; c < g.C; ++c, dst += NR) {
      std::memcpy(dst, x + static_cast<size_t>(c) * plane + p0, nc * sizeof(float));
      std::fill(dst + nc, dst + NR, 0.0f);
    }
    std::fill(dst, dst + NR, 1.0f);
    return;
  }
  int64_t ih0[NR], iw0[NR];
  const int64_t big = int64_t(1) << 40;  // pixels past nc read nothing: every tap is out of range
  for (size_t i = 0; i < NR; ++i) {
    if (i < nc) {
      const int64_t p = static_cast<int64_t>(p0 + i), oh = p / g.OW, ow = p % g.OW;
      ih0[i] = oh * g.SH - g.PH;
      iw0[i] = ow * g.SW - g.PW;
    } else {
      ih0[i] = -big, iw0[i] = -big;
    }
  }
  const bool one_row = nc == NR && ih0[0] == ih0[NR - 1];
  for (int64_t c = 0; c < g.C; ++c) {
    const float* xc = x + c * g.H * g.W;
    for (int64_t kh = 0; kh < g.KH; ++kh) {
      if (one_row) {
        const int64_t ih = ih0[0] + kh * g.DH;
        if (ih < 0 || ih >= g.H) {
          std::memset(dst, 0, g.KW * NR * sizeof(float));
          dst += g.KW * NR;
          continue;
        }
        const float* row = xc + ih * g.W;
        for (int64_t kw = 0; kw < g.KW; ++kw, dst += NR) {
          const int64_t iwb = iw0[0] + kw * g.DW;
          const int64_t last = iwb + static_cast<int64_t>(NR - 1) * g.SW;
          if (iwb >= 0 && last < g.W) {
            if (g.SW == 1) {
              std::memcpy(dst, row + iwb, NR * sizeof(float));
            } else {
              for (size_t i = 0; i < NR; ++i) dst[i] = row[iwb + static_cast<int64_t>(i) * g.SW];
            }
          } else {
            for (size_t i = 0; i < NR; ++i) {
              const int64_t iw = iwb + static_cast<int64_t>(i) * g.SW;
              dst[i] = iw >= 0 && iw < g.W ? row[iw] : 0.0f;
            }
          }
        }
        continue;
      }
      for (int64_t kw = 0; kw < g.KW; ++kw, dst += NR)
        for (size_t i = 0; i < NR; ++i) {
          const int64_t ih = ih0[i] + kh * g.DH, iw = iw0[i] + kw * g.DW;
          dst[i] = ih >= 0 && ih < g.H && iw >= 0 && iw < g.W ? xc[ih * g.W + iw] : 0.0f;
        }
    }
  }
  std::fill(dst, dst + NR, 1.0f);
}

float* scratch(std::vector<float>& v, size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

// Rows [m0, m1) of out times one packed panel at pixel p0.
void panel_rows(GemmUkernelFn uk, size_t m0, size_t m1, size_t K, const float* packed_w, const float* panel,
                float* out, size_t pix, size_t p0, size_t nc, const GemmUkernelParams& up) {
  for (size_t i0 = m0; i0 < m1; i0 += MR) {
    const size_t mr = std::min(MR, m1 - i0);
    const float* a = packed_w + i0 * K;
    float* c = out + i0 * pix + p0;
    if (nc == NR) {
      uk(mr, K, a, K, panel, c, pix, up);
      continue;
    }
    float tile[MR * NR] = {};
    if (up.beta != 0.0f)
      for (size_t i = 0; i < mr; ++i) std::copy(c + i * pix, c + i * pix + nc, tile + i * NR);
    uk(mr, K, a, K, panel, tile, NR, up);
    for (size_t i = 0; i < mr; ++i) std::copy(tile + i * NR, tile + i * NR + nc, c + i * pix);
  }
}

inline float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

inline float dw_pixel(const ConvGeom& g, const float* x, const float* w, float bias, int64_t oh, int64_t ow) {
  float acc = bias;
  for (int64_t kh = 0; kh < 3; ++kh) {
    const int64_t ih = oh * g.SH - g.PH + kh;
    if (ih < 0 || ih >= g.H) continue;
    for (int64_t kw = 0; kw < 3; ++kw) {
      const int64_t iw = ow * g.SW - g.PW + kw;
      if (iw >= 0 && iw < g.W) acc += x[ih * g.W + iw] * w[kh * 3 + kw];
    }
  }
  return acc;
}

}  // namespace

size_t f32_conv_packed_w_size(size_t OC, size_t kc) { return OC * (kc + 1); }

void f32_conv_pack_w(size_t OC, size_t kc, const float* w, const float* bias, float* packed, const float* scale) {
  for (size_t oc = 0; oc < OC; ++oc) {
    float* dst = packed + oc * (kc + 1);
    const float* src = w + oc * kc;
    if (scale) {
      const float s = scale[oc];
      for (size_t i = 0; i < kc; ++i) dst[i] = src[i] * s;
    } else {
      std::memcpy(dst, src, kc * sizeof(float));
    }
    dst[kc] = bias ? bias[oc] : 0.0f;
  }
}

void f32_conv2d_nchw(const ConvGeom& g, size_t OC, const float* x, const float* packed_w, float* out,
                     const ConvEpilogue& e, GemmUkernelFn uk) {
  if (!uk) uk = default_ukernel();
  const size_t kc = static_cast<size_t>(g.C * g.KH * g.KW), K = kc + 1;
  const size_t pix = static_cast<size_t>(g.OH * g.OW);
  if (OC == 0 || pix == 0) return;
  if (e.residual && e.residual != out) std::memcpy(out, e.residual, OC * pix * sizeof(float));
  const bool clamp = !(std::isinf(e.min) && e.min < 0 && std::isinf(e.max) && e.max > 0);
  const GemmUkernelParams up{nullptr, e.residual ? 1.0f : 0.0f, clamp, e.min, e.max};
  const size_t panels = (pix + NR - 1) / NR;
  // Rows of A per block: the block (rows × K floats) should stay in L2 while panels pass over it.
  const size_t mc = std::max<size_t>(MR, (size_t(256) * 1024 / sizeof(float) / K) / MR * MR);
  // Panels [j0, j1) (threads split the output pixels; every output is computed the same way whatever
  // the split). Scratch is the running thread's own.
  auto run = [&](size_t j0, size_t j1) {
    thread_local std::vector<float> panel_buf, all_buf;
    if (OC <= mc) {  // one block of rows: build each panel right before use, it stays in L1
      float* panel = scratch(panel_buf, K * NR);
      for (size_t j = j0; j < j1; ++j) {
        const size_t p0 = j * NR, nc = std::min(NR, pix - p0);
        pack_panel(g, x, p0, nc, panel);
        panel_rows(uk, 0, OC, K, packed_w, panel, out, pix, p0, nc, up);
      }
      return;
    }
    // Many output channels (a large A): pack every panel once, then pass them over each block of rows.
    float* all = scratch(all_buf, (j1 - j0) * K * NR);
    for (size_t j = j0; j < j1; ++j) pack_panel(g, x, j * NR, std::min(NR, pix - j * NR), all + (j - j0) * K * NR);
    for (size_t m0 = 0; m0 < OC; m0 += mc)
      for (size_t j = j0; j < j1; ++j) {
        const size_t p0 = j * NR, nc = std::min(NR, pix - p0);
        panel_rows(uk, m0, std::min(OC, m0 + mc), K, packed_w, all + (j - j0) * K * NR, out, pix, p0, nc, up);
      }
  };
  if (panels >= 2 && worth_parallel(double(OC) * double(K) * double(pix)))
    parallel_for(panels, run);
  else
    run(0, panels);
}

void f32_dwconv3x3_plane_scalar(const ConvGeom& g, const float* x, const float* w, float bias, float* out,
                                float min, float max) {
  for (int64_t oh = 0; oh < g.OH; ++oh)
    for (int64_t ow = 0; ow < g.OW; ++ow) out[oh * g.OW + ow] = clampf(dw_pixel(g, x, w, bias, oh, ow), min, max);
}

void f32_dwconv3x3_plane(const ConvGeom& g, const float* x, const float* w, float bias, float* out, float min,
                         float max) {
#if defined(__wasm_simd128__)
  if (g.SH != g.SW || (g.SH != 1 && g.SH != 2) || g.DH != 1 || g.DW != 1 || g.KH != 3 || g.KW != 3) {
    f32_dwconv3x3_plane_scalar(g, x, w, bias, out, min, max);
    return;
  }
  const int64_t S = g.SH;
  // Interior: every tap inside the image, ih0 = oh·S − PH ∈ [0, H − 3] (and the same for columns).
  auto lo = [S](int64_t P) { return (P + S - 1) / S; };
  auto hi = [S](int64_t P, int64_t I, int64_t O) {
    return I - 3 + P < 0 ? int64_t(0) : std::min(O, (I - 3 + P) / S + 1);
  };
  const int64_t oh_lo = std::min(lo(g.PH), g.OH), oh_hi = std::max(oh_lo, hi(g.PH, g.H, g.OH));
  const int64_t ow_lo = std::min(lo(g.PW), g.OW), ow_hi = std::max(ow_lo, hi(g.PW, g.W, g.OW));
  v128_t wv[9];
  for (int i = 0; i < 9; ++i) wv[i] = wasm_f32x4_splat(w[i]);
  const v128_t bv = wasm_f32x4_splat(bias), minv = wasm_f32x4_splat(min), maxv = wasm_f32x4_splat(max);
  for (int64_t oh = 0; oh < g.OH; ++oh) {
    float* o = out + oh * g.OW;
    if (oh < oh_lo || oh >= oh_hi) {
      for (int64_t ow = 0; ow < g.OW; ++ow) o[ow] = clampf(dw_pixel(g, x, w, bias, oh, ow), min, max);
      continue;
    }
    for (int64_t ow = 0; ow < ow_lo; ++ow) o[ow] = clampf(dw_pixel(g, x, w, bias, oh, ow), min, max);
    const float* r0 = x + (oh * S - g.PH) * g.W;
    int64_t ow = ow_lo;
    for (; ow + 4 <= ow_hi; ow += 4) {
      const int64_t iw = ow * S - g.PW;
      v128_t acc = bv;
      for (int kh = 0; kh < 3; ++kh) {
        const float* r = r0 + kh * g.W + iw;
        v128_t t0, t1, t2;
        if (S == 1) {
          t0 = wasm_v128_load(r), t1 = wasm_v128_load(r + 1), t2 = wasm_v128_load(r + 2);
        } else {  // taps r[2i], r[2i+1], r[2i+2] for i = 0..3; r[8] is the last one read
          const v128_t a = wasm_v128_load(r), b = wasm_v128_load(r + 4);
          t0 = wasm_i32x4_shuffle(a, b, 0, 2, 4, 6);
          t1 = wasm_i32x4_shuffle(a, b, 1, 3, 5, 7);
          t2 = wasm_i32x4_shuffle(t0, wasm_f32x4_splat(r[8]), 1, 2, 3, 4);
        }
        acc = wasm_f32x4_add(acc, wasm_f32x4_mul(t0, wv[kh * 3]));
        acc = wasm_f32x4_add(acc, wasm_f32x4_mul(t1, wv[kh * 3 + 1]));
        acc = wasm_f32x4_add(acc, wasm_f32x4_mul(t2, wv[kh * 3 + 2]));
      }
      // NaN passes through the clamp, as torch.clamp lets it.
      acc = wasm_v128_bitselect(minv, acc, wasm_f32x4_lt(acc, minv));
      acc = wasm_v128_bitselect(maxv, acc, wasm_f32x4_gt(acc, maxv));
      wasm_v128_store(o + ow, acc);
    }
    for (; ow < g.OW; ++ow) o[ow] = clampf(dw_pixel(g, x, w, bias, oh, ow), min, max);
  }
#else
  f32_dwconv3x3_plane_scalar(g, x, w, bias, out, min, max);
#endif
}

}  // namespace fx::kernels
