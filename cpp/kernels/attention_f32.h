// float32 scaled dot-product attention of one head, fused: out = softmax(scale·Q·Kᵀ + mask)·V without the
// [L, S] score matrix, the head-split copies of Q, K, V or a separate mask pass (as FlashAttention,
// XNNPACK's and ORT's CPU attention compute it). Q [L, E], K [S, E], V [S, Ev] and out [L, Ev] are read
// and written through their row strides (columns contiguous), so the heads of a [B, L, H, E] projection are
// used where they lie and the output is written in the layout the caller chose.
//
// Two paths, chosen by L alone (never by the rows a call computes, so splitting rows over threads gives the
// same bits):
// - L ≤ 4 (a decoding step's query): per query row, dot products with K's rows, softmax, then the rows of
//   V weighted and summed; K and V are read where they lie, nothing packed.
// - more rows: K packed once into the f32 GEMM's panels, V packed per block of keys; per block of
//   kAttentionQueryBlock queries and kAttentionKeyBlock keys, the GEMM micro-kernel computes the score tile,
//   one pass scales, masks and takes the row maxima, exp (a degree-5 polynomial for x ≤ 0, 2.3 ulp) is
//   summed, the output rows are rescaled when a later key block raises a row's maximum (online softmax),
//   and the micro-kernel adds the tile times V's block into the output. Each output row is then divided by
//   its sum once.
// The mask, the causal triangle and the scale are applied to the scores exactly as torch's math path does
// (x·scale + mask, or −inf where a boolean mask is false or above the diagonal); a row whose every key is
// masked gives NaN, as torch's softmax of −inf does.
#pragma once
#include <cstddef>
#include <cstdint>

namespace fx::kernels {

// Query rows per score tile of the many-row path; a row range handed to attention_f32 starts at a
// multiple of this (or 0), so every row is computed the same way whatever the split.
constexpr size_t kAttentionQueryBlock = 32;
// Keys per score tile: a 32 × 128 tile (16 KB) stays in L1 with the V block it multiplies.
constexpr size_t kAttentionKeyBlock = 128;

enum class AttentionMask { None, Bool, Additive };

struct AttentionF32Params {
  float scale = 1.0f;
  bool causal = false;  // key j masked for query i when j > i (torch's is_causal: the top-left triangle)
  AttentionMask mask_kind = AttentionMask::None;
  // Element (i, j) of the mask at mask[i·mask_rs + j·mask_cs]: bool (one byte) or float; a stride of 0
  // broadcasts (one mask row for every query, or one value per row).
  const void* mask = nullptr;
  ptrdiff_t mask_rs = 0, mask_cs = 0;
  float* lse = nullptr;  // L values (stride 1): the log-sum-exp of each row's scaled, masked scores, or null
  // The rows computed, [row_begin, min(row_end, L)): row_begin a multiple of kAttentionQueryBlock.
  size_t row_begin = 0, row_end = static_cast<size_t>(-1);
};

// One head: row i of Q at q + i·ldq, of K at k + j·ldk, of V at v + j·ldv, of out at out + i·ldo.
void attention_f32(size_t L, size_t S, size_t E, size_t Ev, const float* q, size_t ldq, const float* k, size_t ldk,
                   const float* v, size_t ldv, float* out, size_t ldo, const AttentionF32Params& p);

// The reference: plain loops in double, two-pass softmax.
void attention_f32_scalar(size_t L, size_t S, size_t E, size_t Ev, const float* q, size_t ldq, const float* k,
                          size_t ldk, const float* v, size_t ldv, float* out, size_t ldo, const AttentionF32Params& p);

}  // namespace fx::kernels
