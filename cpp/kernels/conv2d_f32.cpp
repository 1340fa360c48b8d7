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

// Panel of NR output pixels starting at flat pixel p0 (nc of them real): row k = (c·KH + kh)·KW + kw holds
// x at each pixel's tap (0 in the padding); with `ones`, row kc holds ones (the bias column of a packed A).
void pack_panel(const ConvGeom& g, const float* x, size_t p0, size_t nc, float* dst, bool ones) {
  if (g.KH == 1 && g.KW == 1 && g.SH == 1 && g.SW == 1 && g.PH == 0 && g.PW == 0 && g.OW == g.W) {
    // 1×1, stride 1, no padding: the im2col matrix is x itself, pixels contiguous across rows.
    const size_t plane = static_cast<size_t>(g.H * g.W);
    for (int64_t c = 0; c < g.C; ++c, dst += NR) {
      std::memcpy(dst, x + static_cast<size_t>(c) * plane + p0, nc * sizeof(float));
      std::fill(dst + nc, dst + NR, 0.0f);
    }
    if (ones) std::fill(dst, dst + NR, 1.0f);
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
  if (ones) std::fill(dst, dst + NR, 1.0f);
}

float* scratch(std::vector<float>& v, size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

// The epilogue of one tile [mr, nc] when there are per-row terms (kTorch with a scale or bias): the
// micro-kernel left its bare products in `tile` (row stride NR); out (row stride pix) = clamp(tile·scale +
// bias + residual). res may be out itself: each element is read before it is written. (Not in the
// micro-kernel: per-row terms there made its every call ~5% slower, V8's register allocation of the loop.)
void finish_rows(size_t mr, size_t nc, const float* tile, const float* scale, const float* bias,
                 const float* res, float* c, size_t pix, const GemmUkernelParams& up) {
#if defined(__wasm_simd128__)
  const v128_t lo = wasm_f32x4_splat(up.min), hi = wasm_f32x4_splat(up.max);
#endif
  for (size_t i = 0; i < mr; ++i) {
    const float s = scale ? scale[i] : 1.0f, b = bias ? bias[i] : 0.0f;
    const float* ti = tile + i * NR;
    const float* ri = res ? res + i * pix : nullptr;
    float* ci = c + i * pix;
#if defined(__wasm_simd128__)
    if (nc == NR) {
      const v128_t vs = wasm_f32x4_splat(s), vb = wasm_f32x4_splat(b);
      for (size_t j = 0; j < NR; j += 4) {
        v128_t v = wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(ti + j), vs), vb);
        if (ri) v = wasm_f32x4_add(v, wasm_v128_load(ri + j));
        if (up.clamp) v = wasm_f32x4_pmin(wasm_f32x4_pmax(v, lo), hi);  // NaN passes, as in the micro-kernel
        wasm_v128_store(ci + j, v);
      }
      continue;
    }
#endif
    for (size_t j = 0; j < nc; ++j) {
      float v = ti[j] * s + b;
      if (ri) v += ri[j];
      if (up.clamp) {
        v = v < up.min ? up.min : v;  // NaN passes through, as in the micro-kernel
        v = up.max < v ? up.max : v;
      }
      ci[j] = v;
    }
  }
}

// Rows [m0, m1) of out times one packed panel at pixel p0; A's rows have stride K.
// `e.residual` (or null): the residual [OC, pix] the epilogue adds (up.beta = 1), read from there when it is
// not `out` itself (each tile copies its part first, on the thread computing it). With e.scale or e.bias
// (kTorch), finish_rows does the whole epilogue instead.
void panel_rows(GemmUkernelFn uk, size_t m0, size_t m1, size_t K, const float* w, const float* panel,
                float* out, const ConvEpilogue& e, size_t pix, size_t p0, size_t nc, const GemmUkernelParams& up) {
  const float* res = e.residual;
  const bool row_terms = e.scale || e.bias;
  for (size_t i0 = m0; i0 < m1; i0 += MR) {
    const size_t mr = std::min(MR, m1 - i0);
    const float* a = w + i0 * K;
    float* c = out + i0 * pix + p0;
    if (row_terms) {
      static constexpr GemmUkernelParams bare{nullptr, 0.0f, false, 0.0f, 0.0f};
      float tile[MR * NR];
      uk(mr, K, a, K, panel, tile, NR, bare);
      finish_rows(mr, nc, tile, e.scale ? e.scale + i0 : nullptr, e.bias ? e.bias + i0 : nullptr,
                  res ? res + i0 * pix + p0 : nullptr, c, pix, up);
      continue;
    }
    const float* r = res ? res + i0 * pix + p0 : c;
    if (nc == NR) {
      if (r != c)
        for (size_t i = 0; i < mr; ++i) std::memcpy(c + i * pix, r + i * pix, NR * sizeof(float));
      uk(mr, K, a, K, panel, c, pix, up);
      continue;
    }
    float tile[MR * NR] = {};
    if (up.beta != 0.0f)
      for (size_t i = 0; i < mr; ++i) std::copy(r + i * pix, r + i * pix + nc, tile + i * NR);
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

#if defined(__wasm_simd128__)
// Stride 2: interior outputs four at a time straight from x, the border ones by the scalar rule. (The
// padded copy of stride 1 below costs more here: the plane is four times the output.)
void dwconv3x3_s2(const ConvGeom& g, const float* x, const float* w, float bias, float* out, float min, float max) {
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
}
#endif

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

void f32_conv2d_nchw(const ConvGeom& g, size_t OC, const float* x, const float* w, ConvWeightLayout layout,
                     float* out, const ConvEpilogue& e0, GemmUkernelFn uk) {
  if (!uk) uk = f32_gemm_default_ukernel();
  const bool packed = layout == ConvWeightLayout::kPacked;
  ConvEpilogue e = e0;
  if (packed) e.scale = e.bias = nullptr;  // in the packing
  const size_t kc = static_cast<size_t>(g.C * g.KH * g.KW), K = kc + (packed ? 1 : 0);
  const size_t pix = static_cast<size_t>(g.OH * g.OW);
  if (OC == 0 || pix == 0) return;
  const bool clamp = !(std::isinf(e.min) && e.min < 0 && std::isinf(e.max) && e.max > 0);
  const GemmUkernelParams up{nullptr, e.residual ? 1.0f : 0.0f, clamp, e.min, e.max};
  const size_t panels = (pix + NR - 1) / NR;
  // Rows of A per block: the block (rows × K floats) should stay in L2 while panels pass over it.
  const size_t mc = std::max<size_t>(MR, (size_t(256) * 1024 / sizeof(float) / std::max<size_t>(K, 1)) / MR * MR);
  // Panels [j0, j1) packed into `all` (K·NR floats each).
  auto pack_panels = [&](size_t j0, size_t j1, float* all) {
    for (size_t j = j0; j < j1; ++j)
      pack_panel(g, x, j * NR, std::min(NR, pix - j * NR), all + (j - j0) * K * NR, packed);
  };
  // Rows [r0, r1) times the packed panels [j0, j1) of `all`, a block of mc rows at a time.
  auto over_packed = [&](size_t r0, size_t r1, size_t j0, size_t j1, const float* all) {
    for (size_t m0 = r0; m0 < r1; m0 += mc)
      for (size_t j = j0; j < j1; ++j) {
        const size_t p0 = j * NR, nc = std::min(NR, pix - p0);
        panel_rows(uk, m0, std::min(r1, m0 + mc), K, w, all + (j - j0) * K * NR, out, e, pix, p0, nc, up);
      }
  };
  // Rows [r0, r1) of out (multiples of MR but the last) times panels [j0, j1). Every output is computed the
  // same way whatever the split: one micro-kernel call over the whole K for its MR-row tile and panel.
  // Scratch is the running thread's own.
  auto run = [&](size_t r0, size_t r1, size_t j0, size_t j1) {
    thread_local std::vector<float> panel_buf, all_buf;
    if (r1 - r0 <= mc) {  // one block of rows: build each panel right before use, it stays in L1
      float* panel = scratch(panel_buf, K * NR);
      for (size_t j = j0; j < j1; ++j) {
        const size_t p0 = j * NR, nc = std::min(NR, pix - p0);
        pack_panel(g, x, p0, nc, panel, packed);
        panel_rows(uk, r0, r1, K, w, panel, out, e, pix, p0, nc, up);
      }
      return;
    }
    // Many output channels (a large A): pack every panel once, then pass them over each block of rows.
    float* all = scratch(all_buf, (j1 - j0) * K * NR);
    pack_panels(j0, j1, all);
    over_packed(r0, r1, j0, j1, all);
  };
  const size_t threads = static_cast<size_t>(num_threads()), tiles = (OC + MR - 1) / MR;
  if (threads <= 1 || !worth_parallel(double(OC) * double(K) * double(pix))) {
    run(0, OC, 0, panels);
    return;
  }
  // Threads split the output pixels (each packs only its own panels) or, when the panels are few and
  // would split unevenly (ResNet's 7×7 layers: 7 panels), the MR-row tiles of the output channels over
  // every panel, packed once beforehand by all threads together. Cost of the busiest thread in
  // multiply-adds, a packed float counted as kPack (a gather with bounds checks, and more panels to keep in
  // cache: on the side of splitting pixels).
  constexpr double kPack = 16.0;
  const double per_panel = double(NR) * double(K);
  const double by_pixels = double((panels + threads - 1) / threads) * per_panel * (double(OC) + kPack);
  const double by_rows = double((tiles + threads - 1) / threads) * double(MR) * double(panels) * per_panel +
                         double((panels + threads - 1) / threads) * per_panel * kPack;
  if (panels >= 2 && by_pixels <= by_rows) {
    parallel_for(panels, [&](size_t j0, size_t j1) { run(0, OC, j0, j1); });
    return;
  }
  // The packed panels are shared: the calling thread's buffer, filled before any row tile reads it. Row
  // tiles are claimed as threads finish, so a thread woken late delays no one.
  thread_local std::vector<float> shared_buf;
  float* all = scratch(shared_buf, panels * K * NR);
  parallel_for(panels, [&](size_t j0, size_t j1) { pack_panels(j0, j1, all + j0 * K * NR); }, 1);
  parallel_for(tiles, [&](size_t t0, size_t t1) { over_packed(t0 * MR, std::min(OC, t1 * MR), 0, panels, all); });
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
  if (g.OH <= 0 || g.OW <= 0) return;
  if (g.SH == 2) {
    dwconv3x3_s2(g, x, w, bias, out, min, max);
    return;
  }
  // Stride 1: the plane copied with its zero padding, padded (r, c) holding x[r − PH, c − PW], so output
  // (oh, ow) reads rows oh + kh and columns ow + kw with no bounds checks and every output runs four at a
  // time (a border tap adds 0·w, as torch's padding does). Wp covers the last group's vector loads.
  const int64_t OWv = (g.OW + 3) / 4 * 4, Hp = g.OH + 2, Wp = OWv + 2;
  thread_local std::vector<float> pad_buf;
  float* pad = scratch(pad_buf, static_cast<size_t>(Hp * Wp));
  const int64_t rows = std::max<int64_t>(0, std::min(g.H, Hp - g.PH)), cols = std::max<int64_t>(0, std::min(g.W, Wp - g.PW));
  std::fill(pad, pad + std::min(g.PH, Hp) * Wp, 0.0f);
  for (int64_t r = 0; r < rows; ++r) {
    float* d = pad + (r + g.PH) * Wp;
    std::fill(d, d + g.PW, 0.0f);
    std::memcpy(d + g.PW, x + r * g.W, static_cast<size_t>(cols) * sizeof(float));
    std::fill(d + g.PW + cols, d + Wp, 0.0f);
  }
  std::fill(pad + std::min(g.PH + rows, Hp) * Wp, pad + Hp * Wp, 0.0f);

  v128_t wv[9];
  for (int i = 0; i < 9; ++i) wv[i] = wasm_f32x4_splat(w[i]);
  const v128_t bv = wasm_f32x4_splat(bias), minv = wasm_f32x4_splat(min), maxv = wasm_f32x4_splat(max);
  // The three taps of one padded row for outputs ow..ow+3 (r points at column ow).
  auto taps = [](const float* r, v128_t& t0, v128_t& t1, v128_t& t2) {
    t0 = wasm_v128_load(r), t1 = wasm_v128_load(r + 1), t2 = wasm_v128_load(r + 2);
  };
  auto madd = [&](v128_t acc, const v128_t* wk, v128_t t0, v128_t t1, v128_t t2) {
    acc = wasm_f32x4_add(acc, wasm_f32x4_mul(t0, wk[0]));
    acc = wasm_f32x4_add(acc, wasm_f32x4_mul(t1, wk[1]));
    return wasm_f32x4_add(acc, wasm_f32x4_mul(t2, wk[2]));
  };
  // NaN passes through the clamp, as torch.clamp lets it. Full groups are stored, the last partial one
  // through a small buffer.
  auto store = [&](float* o, int64_t ow, v128_t acc) {
    acc = wasm_v128_bitselect(minv, acc, wasm_f32x4_lt(acc, minv));
    acc = wasm_v128_bitselect(maxv, acc, wasm_f32x4_gt(acc, maxv));
    if (ow + 4 <= g.OW) {
      wasm_v128_store(o + ow, acc);
    } else {
      float t[4];
      wasm_v128_store(t, acc);
      std::copy(t, t + (g.OW - ow), o + ow);
    }
  };
  int64_t oh = 0;
  for (; oh + 2 <= g.OH; oh += 2) {  // two output rows at a time share three of their four input rows
    const float* r0 = pad + oh * Wp;
    float* o0 = out + oh * g.OW;
    for (int64_t ow = 0; ow < OWv; ow += 4) {
      const float* r = r0 + ow;
      v128_t a = bv, b = bv, t0, t1, t2;
      taps(r, t0, t1, t2);
      a = madd(a, wv, t0, t1, t2);
      taps(r + Wp, t0, t1, t2);
      a = madd(a, wv + 3, t0, t1, t2);
      b = madd(b, wv, t0, t1, t2);
      taps(r + 2 * Wp, t0, t1, t2);
      a = madd(a, wv + 6, t0, t1, t2);
      b = madd(b, wv + 3, t0, t1, t2);
      taps(r + 3 * Wp, t0, t1, t2);
      b = madd(b, wv + 6, t0, t1, t2);
      store(o0, ow, a);
      store(o0 + g.OW, ow, b);
    }
  }
  for (; oh < g.OH; ++oh) {
    const float* r0 = pad + oh * Wp;
    for (int64_t ow = 0; ow < OWv; ow += 4) {
      const float* r = r0 + ow;
      v128_t acc = bv, t0, t1, t2;
      for (int kh = 0; kh < 3; ++kh) {
        taps(r + kh * Wp, t0, t1, t2);
        acc = madd(acc, wv + kh * 3, t0, t1, t2);
      }
      store(out + oh * g.OW, ow, acc);
    }
  }
#else
  f32_dwconv3x3_plane_scalar(g, x, w, bias, out, min, max);
#endif
}

}  // namespace fx::kernels
