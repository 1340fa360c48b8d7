// The checks of kernels/attention_f32.h, shared by the native test (attention_f32_test.cpp) and the wasm
// check (attention_f32_wasm_check.cpp, the SIMD128 paths): the fused kernel against its double-precision
// reference over sizes that hit every tail (query blocks, key blocks, panels of 8, lanes of 4), both
// paths (≤ 4 queries and more), every mask kind and stride (contiguous, broadcast rows, broadcast or strided
// columns), causal, log-sum-exp, fully masked rows, and row ranges (the same bits as the whole head).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/attention_f32.h"

namespace fx::attention_testing {

struct Case {
  size_t L, S, E, Ev;
  int mask;  // 0 none, 1 bool, 2 additive
  int mask_layout;  // 0 contiguous [L, S], 1 one row for every query, 2 strided columns (transposed), 3 padding
  bool causal;
};

inline std::string describe(const Case& c) {
  return "L=" + std::to_string(c.L) + " S=" + std::to_string(c.S) + " E=" + std::to_string(c.E) +
         " Ev=" + std::to_string(c.Ev) + " mask=" + std::to_string(c.mask) + "/" + std::to_string(c.mask_layout) +
         (c.causal ? " causal" : "");
}

// Runs one case (padded row strides, so the kernel must honour them) and appends failures.
inline void check_case(const Case& c, std::mt19937& rng, std::vector<std::string>& fails) {
  std::normal_distribution<float> nd(0.0f, 1.0f);
  const size_t ldq = c.E + 3, ldk = c.E + 5, ldv = c.Ev + 2, ldo = c.Ev + 1;
  std::vector<float> q(c.L * ldq + 1), k(c.S * ldk + 1), v(c.S * ldv + 1);
  for (auto& x : q) x = nd(rng);
  for (auto& x : k) x = nd(rng);
  for (auto& x : v) x = nd(rng);
  std::vector<uint8_t> bm(c.L * c.S + 1);
  std::vector<float> fm(c.L * c.S + 1);
  for (auto& b : bm) b = (rng() % 4) != 0;
  for (auto& f : fm) f = (rng() % 5) == 0 ? -INFINITY : nd(rng);
  kernels::AttentionF32Params p;
  p.scale = 1.0f / std::sqrt(static_cast<float>(c.E ? c.E : 1));
  p.causal = c.causal;
  if (c.mask) {
    p.mask_kind = c.mask == 1 ? kernels::AttentionMask::Bool : kernels::AttentionMask::Additive;
    p.mask = c.mask == 1 ? static_cast<const void*>(bm.data()) : fm.data();
    if (c.mask_layout == 0) p.mask_rs = static_cast<ptrdiff_t>(c.S), p.mask_cs = 1;
    else if (c.mask_layout == 1) p.mask_rs = 0, p.mask_cs = 1;
    else if (c.mask_layout == 2) p.mask_rs = 1, p.mask_cs = static_cast<ptrdiff_t>(c.L);
    else {  // 3: padding, the last ~30% of the keys masked for every query (skipped by the kernel)
      p.mask_rs = 0, p.mask_cs = 1;
      for (size_t j = 0; j < c.S; ++j) {
        bm[j] = 10 * j < 7 * c.S;
        if (10 * j >= 7 * c.S) fm[j] = -INFINITY;
      }
    }
    if (c.mask == 1)  // key 0 always kept in row 1 and row 3 fully masked: both kinds of rows occur
      for (size_t i = 0; i < c.L && c.mask_layout == 0; ++i)
        for (size_t j = 0; j < c.S; ++j) {
          if (i == 1 && j == 0) bm[i * c.S + j] = 1;
          if (i == 3) bm[i * c.S + j] = 0;
        }
  }
  std::vector<float> want(c.L * ldo, 7.0f), got(c.L * ldo, 7.0f), lse_want(c.L), lse_got(c.L), part(c.L * ldo, 7.0f);
  kernels::AttentionF32Params pw = p, pg = p;
  pw.lse = lse_want.data(), pg.lse = lse_got.data();
  kernels::attention_f32_scalar(c.L, c.S, c.E, c.Ev, q.data(), ldq, k.data(), ldk, v.data(), ldv, want.data(), ldo, pw);
  kernels::attention_f32(c.L, c.S, c.E, c.Ev, q.data(), ldq, k.data(), ldk, v.data(), ldv, got.data(), ldo, pg);
  // Row ranges at the query block: the same bits.
  for (size_t r0 = 0; r0 < c.L; r0 += kernels::kAttentionQueryBlock) {
    kernels::AttentionF32Params pr = p;
    pr.row_begin = r0, pr.row_end = r0 + kernels::kAttentionQueryBlock;
    kernels::attention_f32(c.L, c.S, c.E, c.Ev, q.data(), ldq, k.data(), ldk, v.data(), ldv, part.data(), ldo, pr);
  }
  if (std::memcmp(got.data(), part.data(), got.size() * sizeof(float)) != 0)
    fails.push_back(describe(c) + ": row ranges change the result");
  for (size_t i = 0; i < c.L; ++i) {
    for (size_t e = 0; e < ldo; ++e) {
      const float w = want[i * ldo + e], g = got[i * ldo + e];
      if (e >= c.Ev) {
        if (g != 7.0f) fails.push_back(describe(c) + ": wrote past the row, row " + std::to_string(i));
        continue;
      }
      const bool ok = std::isnan(w) ? std::isnan(g) : std::fabs(g - w) <= 2e-5f + 2e-5f * std::fabs(w);
      if (!ok) {
        fails.push_back(describe(c) + ": out[" + std::to_string(i) + "," + std::to_string(e) + "] " + std::to_string(g) +
                        " want " + std::to_string(w));
        return;
      }
    }
    const float w = lse_want[i], g = lse_got[i];
    const bool ok = std::isnan(w) ? std::isnan(g) : std::isinf(w) ? g == w : std::fabs(g - w) <= 2e-5f + 2e-5f * std::fabs(w);
    if (!ok) {
      fails.push_back(describe(c) + ": lse[" + std::to_string(i) + "] " + std::to_string(g) + " want " + std::to_string(w));
      return;
    }
  }
}

// Every case of the sweep; `checked` counts them.
inline std::vector<std::string> check_sweep(int& checked) {
  std::vector<std::string> fails;
  std::mt19937 rng(23);
  checked = 0;
  const size_t Ls[] = {1, 2, 4, 5, 31, 33, 70};
  const size_t Ss[] = {1, 3, 8, 13, 127, 128, 129, 300};
  const size_t Es[] = {1, 4, 7, 32};
  const size_t Evs[] = {1, 5, 8, 17, 32};
  for (size_t L : Ls)
    for (size_t S : Ss)
      for (int mask = 0; mask < 3; ++mask)
        for (int layout = 0; layout < (mask ? 4 : 1); ++layout)
          for (int causal = 0; causal < 2; ++causal) {
            if (causal && mask) continue;  // torch takes one or the other
            const size_t E = Es[(L + S + static_cast<size_t>(mask)) % 4];
            const size_t Ev = Evs[(L * 3 + S + static_cast<size_t>(layout)) % 5];
            check_case({L, S, E, Ev, mask, layout, causal != 0}, rng, fails);
            ++checked;
          }
  for (size_t E : Es)  // every head size with every value width at a tiled and a dot shape
    for (size_t Ev : Evs)
      for (size_t L : {size_t(2), size_t(40)}) {
        check_case({L, 77, E, Ev, 2, 0, false}, rng, fails);
        ++checked;
      }
  check_case({6, 0, 8, 8, 0, 0, false}, rng, fails);  // no keys: zeros
  check_case({2, 0, 8, 8, 0, 0, false}, rng, fails);
  checked += 2;
  return fails;
}

}  // namespace fx::attention_testing
