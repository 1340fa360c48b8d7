// What the int8 and int4 weight GEMMs (gemm_q8_f32.cpp, gemm_q4_f32.cpp) share: the epilogue of one
// finished dot product, the driver that splits few-row products over the kernel threads by output
// channel, and the many-row path that dequantises the weight panel by panel into the float32 GEMM.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/gemm_f32.h"
#include "kernels/parallel.h"

namespace fx::qgemm {

// + bias, + beta·C, clamp (NaN passes the clamp, as torch.clamp lets it): GemmParams' order.
inline float epilogue(float v, size_t n, const float* c, const GemmParams& p) {
  if (p.bias) v += p.bias[n];
  if (p.beta != 0.0f) v += p.beta * *c;
  if (v < p.min) v = p.min;
  if (v > p.max) v = p.max;
  return v;
}

// Few rows multiply integer weights by the activations quantised to int16 (kActMax levels each side of
// zero, one scale per row): SIMD128's i32x4.dot_i16x8_s then does 8 multiply-adds in one instruction,
// where converting every weight to float32 took three. 13 bits keep the activations' rounding error
// (≤ max|x|/16382 per element) far below the weights' own (int8: max|w|/254), and keep int32 sums of
// up to 4096 int8 products from overflowing (4096 · 127 · 8191 < 2^31 lane by lane).
constexpr float kActMax = 8191.0f;
constexpr size_t kActChunk = 4096;

// Quantises R rows of A (K values each) into `out` (R rows of `kp` ≥ K int16, zero beyond K) with
// scale[r] = max|A[r]| / kActMax — or `grid` (GemmParams::act_grid) when A is known to lie on it and fits:
// then exactly; false when a row holds inf or NaN (those take the float path, so they propagate as torch's
// would).
inline bool quantize_rows_i16(size_t R, size_t K, const float* A, size_t lda, size_t kp, int16_t* out,
                              float* scale, float grid = 0.0f) {
  for (size_t r = 0; r < R; ++r) {
    const float* a = A + r * lda;
    // std::max skips a NaN (every comparison with it is false); a·0 is NaN exactly for inf and NaN.
    float amax = 0.0f, probe = 0.0f;
    for (size_t k = 0; k < K; ++k) {
      amax = std::max(amax, std::fabs(a[k]));
      probe += a[k] * 0.0f;
    }
    if (probe != 0.0f || !std::isfinite(amax)) return false;
    const bool on_grid = grid > 0.0f && amax / grid <= kActMax;
    scale[r] = on_grid ? grid : amax / kActMax;
    const float inv = on_grid ? 1.0f / grid : amax > 0.0f ? kActMax / amax : 0.0f;
    int16_t* o = out + r * kp;
    for (size_t k = 0; k < K; ++k) o[k] = static_cast<int16_t>(std::nearbyint(std::min(kActMax, std::max(-kActMax, a[k] * inv))));
    for (size_t k = K; k < kp; ++k) o[k] = 0;
  }
  return true;
}

// run(i0, i1) over [0, items) — items are output channels, or groups of them — split over the kernel threads
// in blocks of `block` items when the product (`macs` multiply-adds, `weight_bytes` streamed) is worth it
// and there are at least 64 output channels (N); else run(0, items) on the caller.
template <class Run>
void split_channels(size_t items, int64_t block, size_t N, double macs, double weight_bytes, const Run& run) {
  if ((kernels::worth_parallel(macs) || kernels::worth_parallel_stream(weight_bytes)) && N >= 64)
    kernels::parallel_blocks(static_cast<int64_t>(items), block,
                             [&](int64_t b, int64_t e) { run(static_cast<size_t>(b), static_cast<size_t>(e)); });
  else
    run(0, items);
}

// Few rows (≤ 4): `dot(R, n, sums)` fills sums[0..R) with row r of A · weight row n (unscaled by the
// epilogue). Output channels are split over the threads when the work (or the `weight_bytes` streamed) is
// worth it.
template <class Dot>
void few_rows(size_t M, size_t N, size_t K, double weight_bytes, float* C, size_t ldc, const GemmParams& p,
              const Dot& dot) {
  auto run = [&](size_t n0, size_t n1) {
    float sums[4];
    for (size_t n = n0; n < n1; ++n) {
      dot(M, n, sums);
      for (size_t r = 0; r < M; ++r) C[r * ldc + n] = epilogue(sums[r], n, &C[r * ldc + n], p);
    }
  };
  split_channels(N, 16, N, static_cast<double>(M) * N * K, weight_bytes, run);
}

// Many rows: dequantise `nb` weight rows at a time (`dequant(n0, nb, out)` writes nb×K floats) and run the
// float32 GEMM on each panel; the panel (≤ 256 KB) stays in cache while the GEMM packs and reads it.
template <class Dequant>
void panels(size_t M, size_t N, size_t K, const float* A, size_t lda, float* C, size_t ldc, const GemmParams& p,
            const Dequant& dequant) {
  size_t nb = std::max<size_t>(8, (size_t{64} * 1024) / std::max<size_t>(K, 1));
  nb = std::min(N, nb / 8 * 8);
  std::vector<float> panel(nb * K);
  for (size_t n0 = 0; n0 < N; n0 += nb) {
    const size_t cols = std::min(nb, N - n0);
    dequant(n0, cols, panel.data());
    GemmParams q = p;
    if (p.bias) q.bias = p.bias + n0;
    f32_gemm_bt(M, cols, K, A, lda, panel.data(), K, C + n0, ldc, q);
  }
}

}  // namespace fx::qgemm
