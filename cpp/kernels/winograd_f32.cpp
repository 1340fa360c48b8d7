// Winograd F(2×2, 3×3) convolution (see winograd_f32.h). Per image: the input is copied once into zero-
// padded planes (tiles then read with no bounds checks); the tiles are cut into blocks, and for each block
// a thread transforms the input (V[ξ], in the micro-kernel's panel layout), runs the 16 GEMMs
// M[ξ] = U[ξ]·V[ξ] and transforms M back into the output with the epilogue. A small image has too few
// blocks to share: its input is transformed once and the threads split the output channels. The transforms
// run four tiles at a time in SIMD128 lanes where the four lie in one tile row, one at a time otherwise,
// with the same operations in the same order: lanes and scalar give the same bits.
#include "kernels/winograd_f32.h"
#include "kernels/parallel.h"

#include <algorithm>
#include <cstring>
#include <vector>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace fx::kernels {
namespace {

constexpr size_t NR = kGemmNR;
constexpr size_t MR = kGemmMR;

// The image cut into tiles of 2×2 outputs, and the zero-padded planes the tiles read: padded (r, c) holds
// x[r − PH, c − PW]; tile (ty, tx) reads rows 2ty..2ty+3 and columns 2tx..2tx+3.
struct Tiling {
  int64_t TH, TW, T, Hp, Wp;
  explicit Tiling(const ConvGeom& g)
      : TH((g.OH + 1) / 2), TW((g.OW + 1) / 2), T(TH * TW), Hp(2 * TH + 2), Wp(2 * TW + 2) {}
  size_t plane() const { return static_cast<size_t>(Hp * Wp); }
};

void pad_planes(const ConvGeom& g, const Tiling& t, const float* x, float* pad) {
  const int64_t rows = std::max<int64_t>(0, std::min(g.H, t.Hp - g.PH));
  const int64_t cols = std::max<int64_t>(0, std::min(g.W, t.Wp - g.PW));
  for (int64_t c = 0; c < g.C; ++c) {
    float* p = pad + static_cast<size_t>(c) * t.plane();
    const float* xc = x + c * g.H * g.W;
    std::fill(p, p + std::min(g.PH, t.Hp) * t.Wp, 0.0f);
    for (int64_t r = 0; r < rows; ++r) {
      float* d = p + (r + g.PH) * t.Wp;
      std::fill(d, d + g.PW, 0.0f);
      std::memcpy(d + g.PW, xc + r * g.W, static_cast<size_t>(cols) * sizeof(float));
      std::fill(d + g.PW + cols, d + t.Wp, 0.0f);
    }
    std::fill(p + std::min(g.PH + rows, t.Hp) * t.Wp, p + t.Hp * t.Wp, 0.0f);
  }
}

// Bᵀ d B of one 4×4 patch (row stride ld) into v[ξ·vs] for ξ = 4a + k.
inline void input_tile(const float* d, int64_t ld, float* v, size_t vs) {
  float t[4][4];
  for (int r = 0; r < 4; ++r) {
    const float* row = d + r * ld;
    t[r][0] = row[0] - row[2];
    t[r][1] = row[1] + row[2];
    t[r][2] = row[2] - row[1];
    t[r][3] = row[1] - row[3];
  }
  for (int k = 0; k < 4; ++k) {
    v[(0 + k) * vs] = t[0][k] - t[2][k];
    v[(4 + k) * vs] = t[1][k] + t[2][k];
    v[(8 + k) * vs] = t[2][k] - t[1][k];
    v[(12 + k) * vs] = t[1][k] - t[3][k];
  }
}

inline float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

// Aᵀ m A of one tile (m[ξ·ms]) plus bias, residual and clamp, written where the tile's outputs exist.
inline void output_tile(const float* m, size_t ms, float bias, const ConvGeom& g, int64_t oh, int64_t ow,
                        const float* res, float* out, float lo, float hi) {
  float s[2][4];
  for (int k = 0; k < 4; ++k) {
    s[0][k] = m[k * ms] + m[(4 + k) * ms] + m[(8 + k) * ms];
    s[1][k] = m[(4 + k) * ms] - m[(8 + k) * ms] - m[(12 + k) * ms];
  }
  for (int i = 0; i < 2 && oh + i < g.OH; ++i) {
    const float y[2] = {s[i][0] + s[i][1] + s[i][2], s[i][1] - s[i][2] - s[i][3]};
    for (int j = 0; j < 2 && ow + j < g.OW; ++j) {
      const int64_t at = (oh + i) * g.OW + ow + j;
      float v = y[j] + bias;
      if (res) v += res[at];
      out[at] = clampf(v, lo, hi);
    }
  }
}

#if defined(__wasm_simd128__)
// input_tile for four tiles side by side (columns 2tx..2tx+9 of each row), lane i = tile tx + i.
inline void input_tiles4(const float* d, int64_t ld, float* v, size_t vs) {
  v128_t t[4][4];
  for (int r = 0; r < 4; ++r) {
    const float* row = d + r * ld;
    const v128_t a = wasm_v128_load(row), b = wasm_v128_load(row + 4);
    const v128_t c = wasm_v128_load(row + 2), e = wasm_v128_load(row + 6);
    const v128_t d0 = wasm_i32x4_shuffle(a, b, 0, 2, 4, 6), d1 = wasm_i32x4_shuffle(a, b, 1, 3, 5, 7);
    const v128_t d2 = wasm_i32x4_shuffle(c, e, 0, 2, 4, 6), d3 = wasm_i32x4_shuffle(c, e, 1, 3, 5, 7);
    t[r][0] = wasm_f32x4_sub(d0, d2);
    t[r][1] = wasm_f32x4_add(d1, d2);
    t[r][2] = wasm_f32x4_sub(d2, d1);
    t[r][3] = wasm_f32x4_sub(d1, d3);
  }
  for (int k = 0; k < 4; ++k) {
    wasm_v128_store(v + (0 + k) * vs, wasm_f32x4_sub(t[0][k], t[2][k]));
    wasm_v128_store(v + (4 + k) * vs, wasm_f32x4_add(t[1][k], t[2][k]));
    wasm_v128_store(v + (8 + k) * vs, wasm_f32x4_sub(t[2][k], t[1][k]));
    wasm_v128_store(v + (12 + k) * vs, wasm_f32x4_sub(t[1][k], t[3][k]));
  }
}

// output_tile for four tiles side by side whose eight output columns all exist.
inline void output_tiles4(const float* m, size_t ms, float bias, const ConvGeom& g, int64_t oh, int64_t ow,
                          const float* res, float* out, float lo, float hi) {
  v128_t s[2][4];
  for (int k = 0; k < 4; ++k) {
    const v128_t m0 = wasm_v128_load(m + k * ms), m1 = wasm_v128_load(m + (4 + k) * ms);
    const v128_t m2 = wasm_v128_load(m + (8 + k) * ms), m3 = wasm_v128_load(m + (12 + k) * ms);
    s[0][k] = wasm_f32x4_add(wasm_f32x4_add(m0, m1), m2);
    s[1][k] = wasm_f32x4_sub(wasm_f32x4_sub(m1, m2), m3);
  }
  const v128_t bv = wasm_f32x4_splat(bias), lov = wasm_f32x4_splat(lo), hiv = wasm_f32x4_splat(hi);
  for (int i = 0; i < 2 && oh + i < g.OH; ++i) {
    const v128_t y0 = wasm_f32x4_add(wasm_f32x4_add(s[i][0], s[i][1]), s[i][2]);
    const v128_t y1 = wasm_f32x4_sub(wasm_f32x4_sub(s[i][1], s[i][2]), s[i][3]);
    const int64_t at = (oh + i) * g.OW + ow;
    v128_t v[2] = {wasm_f32x4_add(wasm_i32x4_shuffle(y0, y1, 0, 4, 1, 5), bv),
                   wasm_f32x4_add(wasm_i32x4_shuffle(y0, y1, 2, 6, 3, 7), bv)};
    for (int h = 0; h < 2; ++h) {
      if (res) v[h] = wasm_f32x4_add(v[h], wasm_v128_load(res + at + 4 * h));
      // NaN passes through the clamp, as torch.clamp lets it.
      v[h] = wasm_v128_bitselect(lov, v[h], wasm_f32x4_lt(v[h], lov));
      v[h] = wasm_v128_bitselect(hiv, v[h], wasm_f32x4_gt(v[h], hiv));
      wasm_v128_store(out + at + 4 * h, v[h]);
    }
  }
}
#endif

float* scratch(std::vector<float>& v, size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

}  // namespace

bool f32_winograd_applies(const ConvGeom& g, size_t OC) {
  return g.KH == 3 && g.KW == 3 && g.SH == 1 && g.SW == 1 && g.DH == 1 && g.DW == 1 &&
         static_cast<size_t>(g.C) >= kWinogradMinChannels && OC >= kWinogradMinChannels &&
         static_cast<size_t>(g.C) * OC <= kWinogradMaxWeights;
}

size_t f32_winograd_packed_w_size(size_t OC, size_t C) { return 16 * OC * C + OC; }

void f32_winograd_pack_w(size_t OC, size_t C, const float* w, const float* bias, float* packed,
                         const float* scale) {
  // One output channel at a time: its C kernels transposed to taps[kh][kw][c], G applied along kh into
  // gg[a][kw][c], then Gᵀ along kw straight into row oc of the 16 matrices; the loops over c run in SIMD
  // lanes.
  std::vector<float> taps(9 * C), gg(12 * C);
  for (size_t oc = 0; oc < OC; ++oc) {
    const float s = scale ? scale[oc] : 1.0f;
    const float* k = w + oc * C * 9;
    for (size_t c = 0; c < C; ++c)
      for (size_t i = 0; i < 9; ++i) taps[i * C + c] = k[c * 9 + i] * s;
    for (size_t j = 0; j < 3; ++j) {
      const float* g0 = taps.data() + j * C;
      const float* g1 = taps.data() + (3 + j) * C;
      const float* g2 = taps.data() + (6 + j) * C;
      float* h0 = gg.data() + j * C;
      float* h1 = gg.data() + (3 + j) * C;
      float* h2 = gg.data() + (6 + j) * C;
      float* h3 = gg.data() + (9 + j) * C;
      for (size_t c = 0; c < C; ++c) {
        h0[c] = g0[c];
        h1[c] = 0.5f * (g0[c] + g1[c] + g2[c]);
        h2[c] = 0.5f * (g0[c] - g1[c] + g2[c]);
        h3[c] = g2[c];
      }
    }
    for (size_t a = 0; a < 4; ++a) {
      const float* h0 = gg.data() + (a * 3) * C;
      const float* h1 = gg.data() + (a * 3 + 1) * C;
      const float* h2 = gg.data() + (a * 3 + 2) * C;
      float* u0 = packed + ((a * 4) * OC + oc) * C;
      float* u1 = packed + ((a * 4 + 1) * OC + oc) * C;
      float* u2 = packed + ((a * 4 + 2) * OC + oc) * C;
      float* u3 = packed + ((a * 4 + 3) * OC + oc) * C;
      for (size_t c = 0; c < C; ++c) {
        u0[c] = h0[c];
        u1[c] = 0.5f * (h0[c] + h1[c] + h2[c]);
        u2[c] = 0.5f * (h0[c] - h1[c] + h2[c]);
        u3[c] = h2[c];
      }
    }
  }
  float* b = packed + 16 * OC * C;
  for (size_t oc = 0; oc < OC; ++oc) b[oc] = bias ? bias[oc] : 0.0f;
}

void f32_conv3x3_winograd(const ConvGeom& g, size_t OC, const float* x, const float* packed_w, float* out,
                          const ConvEpilogue& e, GemmUkernelFn uk) {
  if (!uk) uk = f32_gemm_default_ukernel();
  if (OC == 0 || g.OH <= 0 || g.OW <= 0) return;
  const Tiling t(g);
  const size_t C = static_cast<size_t>(g.C);
  thread_local std::vector<float> pad_buf;
  float* pad = scratch(pad_buf, C * t.plane());
  pad_planes(g, t, x, pad);
  const float* bias = packed_w + 16 * OC * C;
  const GemmUkernelParams up{nullptr, 0.0f, false, 0.0f, 0.0f};
  // Tiles per block: a multiple of NR whose V [16, C, tb] and M [16, OC, tb] together stay within ~1 MB of
  // L2. With threads, blocks small enough for about four per thread (threads claim them as they finish).
  // Neither choice changes any output's arithmetic.
  const size_t threads = static_cast<size_t>(num_threads());
  const size_t T = static_cast<size_t>(t.T), panels_all = (T + NR - 1) / NR;
  size_t tb = std::min((size_t(1) << 20) / (sizeof(float) * 16 * (C + OC)), size_t(256));
  if (threads > 1) tb = std::min(tb, (T + 4 * threads - 1) / (4 * threads) + NR - 1);
  tb = std::max(NR, tb / NR * NR);
  const size_t blocks = (T + tb - 1) / tb;
  const size_t np = tb / NR, vs = np * C * NR, block_v = 16 * vs;
  auto block_tiles = [&](size_t blk, int64_t& t0, int64_t& t1) {
    t0 = static_cast<int64_t>(blk * tb), t1 = std::min<int64_t>(t.T, t0 + static_cast<int64_t>(tb));
  };
  // Input transform of block blk into V[ξ][panel][c][lane] (ξ stride vs).
  auto transform = [&](size_t blk, float* V) {
    int64_t t0, t1;
    block_tiles(blk, t0, t1);
    const size_t used = static_cast<size_t>(t1 - t0), panels = (used + NR - 1) / NR;
    for (size_t c = 0; c < C; ++c) {
      const float* pc = pad + c * t.plane();
      for (int64_t tt = t0; tt < t1;) {
        const size_t local = static_cast<size_t>(tt - t0);
        const int64_t ty = tt / t.TW, tx = tt % t.TW;
        float* v = V + ((local / NR) * C + c) * NR + local % NR;
        const float* d = pc + 2 * ty * t.Wp + 2 * tx;
#if defined(__wasm_simd128__)
        if (local % 4 == 0 && tt + 4 <= t1 && tx + 4 <= t.TW) {
          input_tiles4(d, t.Wp, v, vs);
          tt += 4;
          continue;
        }
#endif
        input_tile(d, t.Wp, v, vs);
        ++tt;
      }
      if (used % NR)  // the last panel's unused lanes: zeros, not stale values
        for (size_t xi = 0; xi < 16; ++xi)
          std::fill_n(V + xi * vs + ((panels - 1) * C + c) * NR + used % NR, NR - used % NR, 0.0f);
    }
  };
  // Output channels [oc0, oc1) (a multiple of MR but the last) of block blk from its transformed input V:
  // the GEMMs into M (this thread's), then the output transform with the epilogue.
  auto multiply = [&](size_t blk, const float* V, size_t oc0, size_t oc1) {
    thread_local std::vector<float> m_buf;
    float* M = scratch(m_buf, 16 * OC * tb);
    int64_t t0, t1;
    block_tiles(blk, t0, t1);
    const size_t panels = (static_cast<size_t>(t1 - t0) + NR - 1) / NR;
    // M[ξ][oc][local] = U[ξ] · V[ξ], one micro-kernel call over all of C per MR rows and panel.
    for (size_t xi = 0; xi < 16; ++xi) {
      const float* U = packed_w + xi * OC * C;
      float* Mx = M + xi * OC * tb;
      for (size_t i0 = oc0; i0 < oc1; i0 += MR) {
        const size_t mr = std::min(MR, oc1 - i0);
        for (size_t j = 0; j < panels; ++j)
          uk(mr, C, U + i0 * C, C, V + xi * vs + j * C * NR, Mx + i0 * tb + j * NR, tb, up);
      }
    }
    const size_t ms = OC * tb;
    for (size_t oc = oc0; oc < oc1; ++oc) {
      const float* Mo = M + oc * tb;
      float* o = out + oc * static_cast<size_t>(g.OH * g.OW);
      const float* r = e.residual ? e.residual + oc * static_cast<size_t>(g.OH * g.OW) : nullptr;
      for (int64_t tt = t0; tt < t1;) {
        const size_t local = static_cast<size_t>(tt - t0);
        const int64_t ty = tt / t.TW, tx = tt % t.TW;
#if defined(__wasm_simd128__)
        if (local % 4 == 0 && tt + 4 <= t1 && tx + 4 <= t.TW && 2 * (tx + 4) <= g.OW) {
          output_tiles4(Mo + local, ms, bias[oc], g, 2 * ty, 2 * tx, r, o, e.min, e.max);
          tt += 4;
          continue;
        }
#endif
        output_tile(Mo + local, ms, bias[oc], g, 2 * ty, 2 * tx, r, o, e.min, e.max);
        ++tt;
      }
    }
  };
  // Whole blocks [b0, b1) on one thread, each transformed into this thread's V.
  auto run = [&](size_t b0, size_t b1) {
    thread_local std::vector<float> v_buf;
    float* V = scratch(v_buf, block_v);
    for (size_t blk = b0; blk < b1; ++blk) {
      transform(blk, V);
      multiply(blk, V, 0, OC);
    }
  };
  if (threads <= 1 || !worth_parallel(16.0 * double(C) * double(OC) * double(T))) {
    run(0, blocks);
  } else if (panels_all >= 4 * threads) {  // threads take blocks of tiles
    parallel_for(blocks, run);
  } else {
    // Few tiles (a small image): every block's input transformed once into a shared buffer (the calling
    // thread's; the threads split the blocks), then the threads take MR-row tiles of the output channels,
    // claimed as they finish.
    thread_local std::vector<float> shared_v;
    float* V = scratch(shared_v, blocks * block_v);
    parallel_for(blocks, [&](size_t b0, size_t b1) {
      for (size_t blk = b0; blk < b1; ++blk) transform(blk, V + blk * block_v);
    }, 1);
    parallel_for((OC + MR - 1) / MR, [&](size_t i0, size_t i1) {
      for (size_t blk = 0; blk < blocks; ++blk) multiply(blk, V + blk * block_v, i0 * MR, std::min(OC, i1 * MR));
    });
  }
}

}  // namespace fx::kernels
