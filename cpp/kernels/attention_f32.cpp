// Fused float32 attention (see attention_f32.h for the two paths and the semantics).
#include "kernels/attention_f32.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "kernels/f32x4.h"
#include "kernels/gemm_f32_ukernel.h"

namespace fx::kernels {
namespace {

using f32x4::F4;

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
constexpr size_t kDotMaxRows = 4;  // queries up to which a head takes the dot-product path

// max(a, b), NaN if either is NaN (as torch's max and wasm's f32x4.max).
inline float nan_max(float a, float b) { return std::isnan(a) || std::isnan(b) ? a + b : a > b ? a : b; }

// Scores x[0, n) of query i against keys j0, j0 + 1, …: times the scale, plus the additive mask or −inf where
// the boolean mask is false or the key is above the causal diagonal. Returns the largest (NaN if any is).
float scale_mask_max(float* x, size_t n, size_t i, size_t j0, const AttentionF32Params& p) {
  size_t live = n;  // keys past i + 1 − j0 are above the diagonal
  if (p.causal) live = i + 1 > j0 ? std::min(n, i + 1 - j0) : 0;
  const float sc = p.scale;
  const ptrdiff_t cs = p.mask_cs;
  const ptrdiff_t moff = static_cast<ptrdiff_t>(i) * p.mask_rs + static_cast<ptrdiff_t>(j0) * cs;
  const auto* keep = static_cast<const uint8_t*>(p.mask) + (p.mask_kind == AttentionMask::Bool ? moff : 0);
  const auto* add = static_cast<const float*>(p.mask) + (p.mask_kind == AttentionMask::Additive ? moff : 0);
  size_t j = 0;
  float mx = kNegInf;
#if defined(__wasm_simd128__)
  const v128_t vs = wasm_f32x4_splat(sc);
  v128_t vmax = wasm_f32x4_splat(kNegInf);
  if (p.mask_kind == AttentionMask::None) {
    for (; j + 4 <= live; j += 4) {
      const v128_t y = wasm_f32x4_mul(wasm_v128_load(x + j), vs);
      wasm_v128_store(x + j, y);
      vmax = wasm_f32x4_max(vmax, y);
    }
  } else if (p.mask_kind == AttentionMask::Additive && cs == 1) {
    for (; j + 4 <= live; j += 4) {
      const v128_t y = wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(x + j), vs), wasm_v128_load(add + j));
      wasm_v128_store(x + j, y);
      vmax = wasm_f32x4_max(vmax, y);
    }
  } else if (p.mask_kind == AttentionMask::Bool && cs == 1) {
    const v128_t ninf = wasm_f32x4_splat(kNegInf);
    for (; j + 4 <= live; j += 4) {
      const v128_t bytes = wasm_v128_load32_zero(keep + j);
      const v128_t on = wasm_i32x4_ne(wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(bytes)),
                                      wasm_i32x4_splat(0));
      const v128_t y = wasm_v128_bitselect(wasm_f32x4_mul(wasm_v128_load(x + j), vs), ninf, on);
      wasm_v128_store(x + j, y);
      vmax = wasm_f32x4_max(vmax, y);
    }
  }
  mx = F4{vmax}.lane_max();
#endif
  for (; j < live; ++j) {
    float y = x[j] * sc;
    if (p.mask_kind == AttentionMask::Bool) y = keep[static_cast<ptrdiff_t>(j) * cs] ? y : kNegInf;
    else if (p.mask_kind == AttentionMask::Additive) y = y + add[static_cast<ptrdiff_t>(j) * cs];
    x[j] = y;
    mx = nan_max(mx, y);
  }
  for (; j < n; ++j) x[j] = kNegInf;
  return mx;
}

// exp(x) for x ≤ 0 (a score minus its row's maximum), −inf → 0, NaN → NaN: x = n·ln2 + t (ln2 in two parts),
// e^t = 1 + t·P(t) with P of degree 4 fitted on |t| ≤ ln2/2 for this kernel (relative error 9.2e-8; with the
// float32 rounding at most 2.3 ulp from −87.3 to 0, below which the result is 0), the scale 2^n folded into
// the last step (s + (t·s)·P). Five fewer operations per four lanes than the softmax's degree-7 exp
// (f32x4.h), which the exp of one row in attention spent half its time in; the softmax's weights need no more.
constexpr float kP1 = 0.99999970197677612f, kP2 = 0.49999150633811951f, kP3 = 0.16667635738849640f,
                kP4 = 0.041897930204868317f, kP5 = 0.0082903131842613220f;
constexpr float kExpCut = -87.33654f;  // below: 0 (2^n would leave the normal range)

inline float exp_nonpos(float x) {
  if (!(x >= kExpCut)) return std::isnan(x) ? x : 0.0f;
  const float magic = 12582912.0f;  // 1.5·2^23: adding it rounds to an integer
  const float nm = x * f32x4::kLog2e + magic;
  int32_t bits;
  std::memcpy(&bits, &nm, sizeof bits);
  bits = (bits - 0x4b400000 + 127) << 23;
  float s;
  std::memcpy(&s, &bits, sizeof s);
  const float n = nm - magic;
  float t = n * -f32x4::kLn2Hi + x;
  t = n * -f32x4::kLn2Lo + t;
  float p = kP5 * t + kP4;
  p = p * t + kP3;
  p = p * t + kP2;
  p = p * t + kP1;
  return (t * s) * p + s;
}

#if defined(__wasm_simd128__)
// The same on four lanes, operation for operation (the lanes equal exp_nonpos's).
inline v128_t exp_nonpos4(v128_t x) {
  const v128_t magic = wasm_f32x4_splat(12582912.0f);
  const v128_t nm = wasm_f32x4_add(wasm_f32x4_mul(x, wasm_f32x4_splat(f32x4::kLog2e)), magic);
  const v128_t s = wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_sub(nm, magic), wasm_i32x4_splat(127)), 23);
  const v128_t n = wasm_f32x4_sub(nm, magic);
  v128_t t = wasm_f32x4_add(wasm_f32x4_mul(n, wasm_f32x4_splat(-f32x4::kLn2Hi)), x);
  t = wasm_f32x4_add(wasm_f32x4_mul(n, wasm_f32x4_splat(-f32x4::kLn2Lo)), t);
  v128_t p = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_splat(kP5), t), wasm_f32x4_splat(kP4));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, t), wasm_f32x4_splat(kP3));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, t), wasm_f32x4_splat(kP2));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, t), wasm_f32x4_splat(kP1));
  const v128_t f = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(t, s), p), s);
  return wasm_v128_andnot(f, wasm_f32x4_lt(x, wasm_f32x4_splat(kExpCut)));  // false for NaN: NaN stays
}
#endif

// One past the last key j < n that query i's mask lets through (a boolean mask's true, an additive mask's
// value other than −inf), at least 1: the keys after it weigh exactly 0, so they are neither scored nor
// multiplied (a padding mask's padded keys). 1 when every key is masked, so that the row still comes out
// NaN, as torch's softmax of −inf gives.
size_t mask_live_end(size_t i, size_t n, const AttentionF32Params& p) {
  if (p.mask_kind == AttentionMask::None) return n;
  const ptrdiff_t row = static_cast<ptrdiff_t>(i) * p.mask_rs;
  size_t j = n;
  if (p.mask_kind == AttentionMask::Bool) {
    const auto* keep = static_cast<const uint8_t*>(p.mask) + row;
    while (j > 1 && !keep[static_cast<ptrdiff_t>(j - 1) * p.mask_cs]) --j;
  } else {
    const auto* add = static_cast<const float*>(p.mask) + row;
    while (j > 1 && add[static_cast<ptrdiff_t>(j - 1) * p.mask_cs] == kNegInf) --j;
  }
  return j;
}

// x[j] = exp(x[j] − m) for j < n; returns their sum (float32 lanes).
float exp_sum(float* x, size_t n, float m) {
  size_t j = 0;
  float s = 0.0f;
#if defined(__wasm_simd128__)
  v128_t acc = wasm_f32x4_splat(0.0f);
  const v128_t vm = wasm_f32x4_splat(m);
  for (; j + 4 <= n; j += 4) {
    const v128_t e = exp_nonpos4(wasm_f32x4_sub(wasm_v128_load(x + j), vm));
    wasm_v128_store(x + j, e);
    acc = wasm_f32x4_add(acc, e);
  }
  s = F4{acc}.lane_sum();
#else
  // Four lanes as the SIMD loop keeps them, so the native sums round as the wasm ones.
  float lane[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (; j + 4 <= n; j += 4)
    for (size_t l = 0; l < 4; ++l) lane[l] += (x[j + l] = exp_nonpos(x[j + l] - m));
  s = (lane[0] + lane[1]) + (lane[2] + lane[3]);
#endif
  for (; j < n; ++j) s += (x[j] = exp_nonpos(x[j] - m));
  return s;
}

// y[0, n) *= a.
void scale_row(float* y, size_t n, float a) {
  const F4 va = F4::splat(a);
  size_t c = 0;
  for (; c + 4 <= n; c += 4) (F4::load(y + c) * va).store(y + c);
  for (; c < n; ++c) y[c] *= a;
}

float dot(size_t K, const float* a, const float* b) {
  size_t k = 0;
  float sum = 0.0f;
#if defined(__wasm_simd128__)
  v128_t s0 = wasm_f32x4_splat(0.0f), s1 = s0, s2 = s0, s3 = s0;
  for (; k + 16 <= K; k += 16) {
    s0 = wasm_f32x4_add(s0, wasm_f32x4_mul(wasm_v128_load(a + k), wasm_v128_load(b + k)));
    s1 = wasm_f32x4_add(s1, wasm_f32x4_mul(wasm_v128_load(a + k + 4), wasm_v128_load(b + k + 4)));
    s2 = wasm_f32x4_add(s2, wasm_f32x4_mul(wasm_v128_load(a + k + 8), wasm_v128_load(b + k + 8)));
    s3 = wasm_f32x4_add(s3, wasm_f32x4_mul(wasm_v128_load(a + k + 12), wasm_v128_load(b + k + 12)));
  }
  for (; k + 4 <= K; k += 4) s0 = wasm_f32x4_add(s0, wasm_f32x4_mul(wasm_v128_load(a + k), wasm_v128_load(b + k)));
  const v128_t s = wasm_f32x4_add(wasm_f32x4_add(s0, s1), wasm_f32x4_add(s2, s3));
  sum = (wasm_f32x4_extract_lane(s, 0) + wasm_f32x4_extract_lane(s, 1)) +
        (wasm_f32x4_extract_lane(s, 2) + wasm_f32x4_extract_lane(s, 3));
#endif
  for (; k < K; ++k) sum += a[k] * b[k];
  return sum;
}

// o[0, Ev) = Σ_j w[j] · v[j·ldv + 0 .. Ev), j < n.
void weighted_rows(size_t n, size_t Ev, const float* w, const float* v, size_t ldv, float* o) {
  size_t c = 0;
#if defined(__wasm_simd128__)
  // 16 columns at a time in four accumulators (registers across the walk over V's rows).
  for (; c + 16 <= Ev; c += 16) {
    v128_t a0 = wasm_f32x4_splat(0.0f), a1 = a0, a2 = a0, a3 = a0;
    const float* vr = v + c;
    for (size_t j = 0; j < n; ++j, vr += ldv) {
      const v128_t wj = wasm_f32x4_splat(w[j]);
      a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(wj, wasm_v128_load(vr)));
      a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(wj, wasm_v128_load(vr + 4)));
      a2 = wasm_f32x4_add(a2, wasm_f32x4_mul(wj, wasm_v128_load(vr + 8)));
      a3 = wasm_f32x4_add(a3, wasm_f32x4_mul(wj, wasm_v128_load(vr + 12)));
    }
    wasm_v128_store(o + c, a0), wasm_v128_store(o + c + 4, a1);
    wasm_v128_store(o + c + 8, a2), wasm_v128_store(o + c + 12, a3);
  }
  for (; c + 4 <= Ev; c += 4) {
    v128_t a0 = wasm_f32x4_splat(0.0f);
    const float* vr = v + c;
    for (size_t j = 0; j < n; ++j, vr += ldv) a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(wasm_f32x4_splat(w[j]), wasm_v128_load(vr)));
    wasm_v128_store(o + c, a0);
  }
#endif
  for (; c < Ev; ++c) {
    float a = 0.0f;
    for (size_t j = 0; j < n; ++j) a += w[j] * v[j * ldv + c];
    o[c] = a;
  }
}

// A few queries: each row's scores by dot products with K's rows, softmax, V's rows weighted.
void rows_dot(size_t rb, size_t re, size_t S, size_t E, size_t Ev, const float* q, size_t ldq, const float* k,
              size_t ldk, const float* v, size_t ldv, float* out, size_t ldo, const AttentionF32Params& p) {
  thread_local std::vector<float> scores;
  if (scores.size() < S) scores.resize(S);
  float* x = scores.data();
  for (size_t i = rb; i < re; ++i) {
    const size_t n = mask_live_end(i, p.causal ? std::min(S, i + 1) : S, p);
    const float* qi = q + i * ldq;
    for (size_t j = 0; j < n; ++j) x[j] = dot(E, qi, k + j * ldk);
    const float mx = scale_mask_max(x, n, i, 0, p);
    const float m = mx == kNegInf ? 0.0f : mx;  // a row of −inf: exp gives 0s, the sum 0, the result NaN
    const float sum = exp_sum(x, n, m);
    float* o = out + i * ldo;
    weighted_rows(n, Ev, x, v, ldv, o);
    scale_row(o, Ev, static_cast<float>(1.0 / static_cast<double>(sum)));
    if (p.lse) p.lse[i] = static_cast<float>(m + std::log(static_cast<double>(sum)));
  }
}

// Many queries: score tiles by the GEMM micro-kernel, online softmax over blocks of keys.
void rows_tiled(size_t rb, size_t re, size_t S, size_t E, size_t Ev, const float* q, size_t ldq, const float* k,
                size_t ldk, const float* v, size_t ldv, float* out, size_t ldo, const AttentionF32Params& p) {
  constexpr size_t QB = kAttentionQueryBlock, KB = kAttentionKeyBlock;
  static_assert(KB % kGemmNR == 0, "key blocks start at a panel of packed K");
  thread_local std::vector<float> kp, vp, tile;
  thread_local std::vector<double> sums;
  thread_local std::vector<float> maxes;
  // All S keys are packed whatever rows are asked for, so key block b is always V's rows [b·KB, b·KB + KB)
  // and a row's result does not depend on the range it was computed in.
  const size_t keys = S;
  const size_t pv = (Ev + kGemmNR - 1) / kGemmNR;
  kp.resize(f32_gemm_packed_b_size(E, keys));
  vp.resize(keys * pv * kGemmNR);
  tile.resize(QB * KB);
  sums.resize(QB);
  maxes.resize(QB);
  f32_gemm_pack_bt(E, keys, k, ldk, kp.data());  // panel j: keys 8j..8j+7, E rows of 8
  for (size_t s0 = 0; s0 < keys; s0 += KB)        // block b: V's rows s0.., packed on their own
    f32_gemm_pack_b(std::min(KB, keys - s0), Ev, v + s0 * ldv, ldv, vp.data() + s0 * pv * kGemmNR);
  const GemmUkernelFn ukernel = f32_gemm_default_ukernel();
  float* t = tile.data();
  for (size_t i0 = rb; i0 < re; i0 += QB) {
    const size_t mb = std::min(QB, re - i0);
    size_t s_end = 1;  // the keys any row of the tile sees (all of them, up to the diagonal, through the mask)
    for (size_t r = 0; r < mb && s_end < S; ++r)
      s_end = std::max(s_end, mask_live_end(i0 + r, p.causal ? std::min(S, i0 + r + 1) : S, p));
    float* o0 = out + i0 * ldo;
    for (size_t s0 = 0; s0 < s_end; s0 += KB) {
      const size_t sbc = std::min(KB, s_end - s0);  // keys scored (past s_end: masked for every row)
      const size_t kbc = std::min(KB, keys - s0);   // rows of V's packed block
      f32_gemm_prepacked_with(ukernel, mb, sbc, E, q + i0 * ldq, ldq, kp.data() + s0 * E, t, KB, GemmParams{});
      for (size_t r = 0; r < mb; ++r) {
        float* x = t + r * KB;
        const float mx = scale_mask_max(x, sbc, i0 + r, s0, p);
        const float m_old = s0 == 0 ? kNegInf : maxes[r];
        const float m_new = nan_max(m_old, mx);
        const float m = m_new == kNegInf ? 0.0f : m_new;
        const float sum = exp_sum(x, sbc, m);
        if (s0 == 0) {
          sums[r] = sum;
        } else {
          // The row's earlier blocks were exp(x − m_old): rescale them to the new maximum. Nothing was kept
          // from them (every key masked so far, the sums 0): 0, not exp(0 − m) (inf for a −1e9 mask).
          const float alpha = m_old == kNegInf ? 0.0f : exp_nonpos(m_old - m);
          if (alpha != 1.0f) scale_row(o0 + r * ldo, Ev, alpha);
          sums[r] = sums[r] * alpha + sum;
        }
        maxes[r] = m_new;
      }
      GemmParams acc;
      acc.beta = s0 == 0 ? 0.0f : 1.0f;
      // Panel by panel, so that only the block's first sbc rows of V are read (panel j holds kbc rows of 8).
      for (size_t j = 0; j < pv; ++j)
        f32_gemm_prepacked_with(ukernel, mb, std::min(kGemmNR, Ev - j * kGemmNR), sbc, t, KB,
                                vp.data() + s0 * pv * kGemmNR + j * kbc * kGemmNR, o0 + j * kGemmNR, ldo, acc);
    }
    for (size_t r = 0; r < mb; ++r) {
      scale_row(o0 + r * ldo, Ev, static_cast<float>(1.0 / sums[r]));
      if (p.lse) {
        const float m = maxes[r] == kNegInf ? 0.0f : maxes[r];
        p.lse[i0 + r] = static_cast<float>(m + std::log(sums[r]));
      }
    }
  }
}

}  // namespace

void attention_f32(size_t L, size_t S, size_t E, size_t Ev, const float* q, size_t ldq, const float* k, size_t ldk,
                   const float* v, size_t ldv, float* out, size_t ldo, const AttentionF32Params& p) {
  const size_t rb = p.row_begin, re = std::min(p.row_end, L);
  if (rb >= re) return;
  if (S == 0) {  // softmax over no keys: an empty product, zeros (as torch's matmul of [L, 0] by [0, Ev])
    for (size_t i = rb; i < re; ++i) {
      std::fill(out + i * ldo, out + i * ldo + Ev, 0.0f);
      if (p.lse) p.lse[i] = kNegInf;
    }
    return;
  }
  if (L <= kDotMaxRows) rows_dot(rb, re, S, E, Ev, q, ldq, k, ldk, v, ldv, out, ldo, p);
  else rows_tiled(rb, re, S, E, Ev, q, ldq, k, ldk, v, ldv, out, ldo, p);
}

void attention_f32_scalar(size_t L, size_t S, size_t E, size_t Ev, const float* q, size_t ldq, const float* k,
                          size_t ldk, const float* v, size_t ldv, float* out, size_t ldo, const AttentionF32Params& p) {
  const size_t re = std::min(p.row_end, L);
  std::vector<double> s(S);
  if (S == 0) {
    for (size_t i = p.row_begin; i < re; ++i) {
      std::fill(out + i * ldo, out + i * ldo + Ev, 0.0f);
      if (p.lse) p.lse[i] = -INFINITY;
    }
    return;
  }
  for (size_t i = p.row_begin; i < re; ++i) {
    double mx = -INFINITY;
    bool nan = false;
    for (size_t j = 0; j < S; ++j) {
      double d = 0.0;
      for (size_t e = 0; e < E; ++e) d += double(q[i * ldq + e]) * double(k[j * ldk + e]);
      d *= p.scale;
      const ptrdiff_t mi = static_cast<ptrdiff_t>(i) * p.mask_rs + static_cast<ptrdiff_t>(j) * p.mask_cs;
      if (p.mask_kind == AttentionMask::Bool && !static_cast<const uint8_t*>(p.mask)[mi]) d = -INFINITY;
      if (p.mask_kind == AttentionMask::Additive) d += static_cast<const float*>(p.mask)[mi];
      if (p.causal && j > i) d = -INFINITY;
      s[j] = d;
      nan = nan || std::isnan(d);
      mx = std::max(mx, d);
    }
    if (std::isinf(mx) && mx < 0) mx = 0.0;
    double sum = 0.0;
    for (size_t j = 0; j < S; ++j) sum += s[j] = std::exp(s[j] - mx);
    for (size_t c = 0; c < Ev; ++c) {
      double a = 0.0;
      for (size_t j = 0; j < S; ++j) a += s[j] * double(v[j * ldv + c]);
      out[i * ldo + c] = nan ? NAN : static_cast<float>(a / sum);
    }
    if (p.lse) p.lse[i] = nan ? NAN : static_cast<float>(mx + std::log(sum));
  }
}

}  // namespace fx::kernels
