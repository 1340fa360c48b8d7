// q8_gemm_bt's many-row path (gemm_q8_ukernel.h): A quantised to int16 per row, the weight packed panel by
// panel, the micro-kernel over row tiles.
//
// Loop nest, as the float32 GEMM's (gemm_f32.cpp): for each block of kQ8MC rows, for each 8-column panel,
// pack the panel (8 × K int16, in L1) and run every 4-row tile of the block over it. Packing per call, not
// at load: it reorders and widens each weight byte once per row block (≈ 1% of the products' time at 128
// rows), and a packed copy kept beside the stored weight would triple the quantized model's memory (the
// float32 packed copy once doubled a float32 model's: matmul.h).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include "kernels/gemm_q8_ukernel.h"
#include "kernels/parallel.h"

namespace fx {
namespace {

constexpr size_t MR = kQ8MR;
constexpr size_t NR = kQ8NR;

bool clamps(const GemmParams& p) { return !(std::isinf(p.min) && p.min < 0 && std::isinf(p.max) && p.max > 0); }

// Per-thread scratch kept between calls, so steady-state GEMMs do not allocate.
template <class T>
T* scratch(std::vector<T>& v, size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

// Rows [m0, m1) of C times the packed panel of columns [n0, n0 + nc).
void row_block_panel(Q8UkernelFn ukernel, size_t m0, size_t m1, size_t N, size_t pairs, size_t n0,
                     const int16_t* xq, size_t kp, const float* xs, const int16_t* panel, const float* scales,
                     float* C, size_t ldc, const GemmParams& p, bool clamp) {
  const size_t nc = std::min(NR, N - n0);
  float ws_tail[NR] = {}, bias_tail[NR] = {};
  Q8UkernelParams up{nullptr, scales + n0, p.bias ? p.bias + n0 : nullptr, p.beta, clamp, p.min, p.max};
  if (nc < NR) {  // the micro-kernel reads NR scales and bias values: zero-padded copies
    std::copy(scales + n0, scales + N, ws_tail);
    up.w_scale = ws_tail;
    if (p.bias) {
      std::copy(p.bias + n0, p.bias + N, bias_tail);
      up.bias = bias_tail;
    }
  }
  for (size_t i0 = m0; i0 < m1; i0 += MR) {
    const size_t mr = std::min(MR, m1 - i0);
    up.a_scale = xs + i0;
    float* c = C + i0 * ldc + n0;
    if (nc == NR) {
      ukernel(mr, pairs, xq + i0 * kp, kp, panel, c, ldc, up);
      continue;
    }
    // Right edge: a full-width tile in a local buffer, the nc real columns copied out (C past N untouched).
    float tile[MR * NR] = {};
    if (p.beta != 0.0f)
      for (size_t i = 0; i < mr; ++i) std::copy(c + i * ldc, c + i * ldc + nc, tile + i * NR);
    ukernel(mr, pairs, xq + i0 * kp, kp, panel, tile, NR, up);
    for (size_t i = 0; i < mr; ++i) std::copy(tile + i * NR, tile + i * NR + nc, c + i * ldc);
  }
}

}  // namespace

// Row r of A [M, K] → out (kp int16, zero past K) with scale[r] = max|row| / levels; false when a row holds
// inf or NaN (or is all but zero, below). Every GEMM call quantises its whole A, so this runs at a few
// instructions per 8 values.
bool q8_quantize_rows(size_t M, size_t K, const float* A, size_t lda, size_t kp, float levels, int16_t* out,
                      float* scale, float grid) {
  for (size_t r = 0; r < M; ++r) {
    const float* a = A + r * lda;
    int16_t* o = out + r * kp;
    size_t k = 0;
    float amax = 0.0f;
#if defined(__wasm_simd128__)
    // max|a| as the int32 maximum of the sign-cleared bits (one instruction each; f32x4.max is a NaN-fixing
    // sequence on x64): non-negative floats order as their bits, and inf and NaN above every finite value.
    const v128_t abs_mask = wasm_i32x4_const_splat(0x7FFFFFFF);
    v128_t m0 = wasm_i32x4_const_splat(0), m1 = m0;
    for (; k + 8 <= K; k += 8) {
      m0 = wasm_i32x4_max(m0, wasm_v128_and(wasm_v128_load(a + k), abs_mask));
      m1 = wasm_i32x4_max(m1, wasm_v128_and(wasm_v128_load(a + k + 4), abs_mask));
    }
    const v128_t m = wasm_i32x4_max(m0, m1);
    const int32_t bits = std::max(std::max(wasm_i32x4_extract_lane(m, 0), wasm_i32x4_extract_lane(m, 1)),
                                  std::max(wasm_i32x4_extract_lane(m, 2), wasm_i32x4_extract_lane(m, 3)));
    if (bits >= 0x7F800000) return false;
    std::memcpy(&amax, &bits, sizeof amax);
#endif
    for (; k < K; ++k) amax = std::max(amax, std::fabs(a[k]));
    if (!std::isfinite(amax)) return false;
    // A row so small that its scale would be subnormal (losing bits) or its inverse overflow: the float path.
    if (amax > 0.0f && amax < std::numeric_limits<float>::min() * levels) return false;
    const bool on_grid = grid > 0.0f && amax / grid <= levels;  // GemmParams::act_grid: exact
    scale[r] = on_grid ? grid : amax / levels;
    const float inv = on_grid ? 1.0f / grid : amax > 0.0f ? levels / amax : 0.0f;
    k = 0;
#if defined(__wasm_simd128__)
    // Round to nearest even by adding 1.5·2^23: the sum's low mantissa bits are then the integer
    // (|a·inv| ≤ levels < 2^22), read by subtracting the constant's bits. Two instructions where
    // f32x4.nearest + i32x4.trunc_sat_f32x4 take about eight on x64; the same ties as nearbyint below.
    const v128_t vinv = wasm_f32x4_splat(inv);
    const v128_t magic = wasm_f32x4_const_splat(12582912.0f);
    const v128_t magic_bits = wasm_i32x4_const_splat(0x4B400000);
    for (; k + 8 <= K; k += 8) {
      const v128_t lo = wasm_i32x4_sub(wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(a + k), vinv), magic), magic_bits);
      const v128_t hi =
          wasm_i32x4_sub(wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(a + k + 4), vinv), magic), magic_bits);
      wasm_v128_store(o + k, wasm_i16x8_narrow_i32x4(lo, hi));
    }
#endif
    for (; k < K; ++k) o[k] = static_cast<int16_t>(std::nearbyint(std::min(levels, std::max(-levels, a[k] * inv))));
    for (; k < kp; ++k) o[k] = 0;
  }
  return true;
}

size_t q8_activation_levels(size_t K) {
  const uint64_t kp = std::max<uint64_t>(uint64_t{K} + K % 2, 1);  // 64-bit: size_t is 32 bits in wasm32
  const uint64_t levels = std::min<uint64_t>(32767, uint64_t{2147483647} / (128 * kp));
  return levels >= 127 ? static_cast<size_t>(levels) : 0;
}

void q8_pack_panel(size_t K, size_t nc, const int8_t* q, size_t ldq, int16_t* dst) {
  size_t k = 0;
#if defined(__wasm_simd128__)
  // A full panel 8 k at a time: 8 bytes of each of the 8 rows (4 pairs, as 16-bit units) transposed to
  // 4 groups of 8 pairs by three rounds of shuffles, each group then widened to int16.
  static_assert(NR == 8 && kQ8KR == 2, "the transpose below packs 8 rows of pairs");
  if (nc == NR) {
    for (; k + 8 <= K; k += 8, dst += 4 * 16) {
      const auto store = [](int16_t* d, v128_t group) {
        wasm_v128_store(d, wasm_i16x8_extend_low_i8x16(group));
        wasm_v128_store(d + 8, wasm_i16x8_extend_high_i8x16(group));
      };
      v128_t r[8];
      for (size_t j = 0; j < 8; ++j) r[j] = wasm_v128_load64_zero(q + j * ldq + k);
      v128_t t[4], u[4];
      for (size_t j = 0; j < 4; ++j)  // rows 2j, 2j+1: pairs 0..3 interleaved
        t[j] = wasm_i16x8_shuffle(r[2 * j], r[2 * j + 1], 0, 8, 1, 9, 2, 10, 3, 11);
      u[0] = wasm_i32x4_shuffle(t[0], t[1], 0, 4, 1, 5);  // rows 0-3: pairs 0, 1
      u[1] = wasm_i32x4_shuffle(t[0], t[1], 2, 6, 3, 7);  // rows 0-3: pairs 2, 3
      u[2] = wasm_i32x4_shuffle(t[2], t[3], 0, 4, 1, 5);  // rows 4-7: pairs 0, 1
      u[3] = wasm_i32x4_shuffle(t[2], t[3], 2, 6, 3, 7);  // rows 4-7: pairs 2, 3
      store(dst, wasm_i64x2_shuffle(u[0], u[2], 0, 2));
      store(dst + 16, wasm_i64x2_shuffle(u[0], u[2], 1, 3));
      store(dst + 32, wasm_i64x2_shuffle(u[1], u[3], 0, 2));
      store(dst + 48, wasm_i64x2_shuffle(u[1], u[3], 1, 3));
    }
  }
#endif
  for (; k < K; k += 2, dst += 16)
    for (size_t j = 0; j < NR; ++j) {
      dst[2 * j] = j < nc ? q[j * ldq + k] : 0;
      dst[2 * j + 1] = j < nc && k + 1 < K ? q[j * ldq + k + 1] : 0;
    }
}

Q8UkernelFn q8_gemm_default_ukernel() {
#if defined(__wasm_simd128__)
  return q8_gemm_ukernel__wasmsimd_4x8c2;
#else
  return q8_gemm_ukernel__generic_4x8c2;
#endif
}

const char* q8_gemm_ukernel_name() {
#if defined(__wasm_simd128__)
  return "wasmsimd_4x8c2";
#else
  return "generic_4x8c2";
#endif
}

bool q8_gemm_bt_integer_with(Q8UkernelFn ukernel, size_t M, size_t N, size_t K, const float* A, size_t lda,
                             const int8_t* Q, size_t ldq, const float* scales, float* C, size_t ldc,
                             const GemmParams& p) {
  const size_t levels = q8_activation_levels(K);
  if (levels == 0) return false;
  if (M == 0 || N == 0) return true;
  const size_t kp = q8_k_padded(K), pairs = kp / kQ8KR;
  thread_local std::vector<int16_t> xq_store;
  thread_local std::vector<float> xs_store;
  int16_t* xq = scratch(xq_store, M * kp);
  float* xs = scratch(xs_store, M);
  if (!q8_quantize_rows(M, K, A, lda, kp, static_cast<float>(levels), xq, xs, p.act_grid)) return false;

  const bool clamp = clamps(p);
  const size_t panels = (N + NR - 1) / NR;
  // Rows [r0, r1) times panels [j0, j1), each panel packed by the thread that runs it.
  auto run = [&](size_t r0, size_t r1, size_t j0, size_t j1) {
    thread_local std::vector<int16_t> panel_store;
    int16_t* panel = scratch(panel_store, q8_packed_panel_size(K));
    for (size_t m0 = r0; m0 < r1; m0 += kQ8MC)
      for (size_t j = j0; j < j1; ++j) {
        const size_t n0 = j * NR;
        q8_pack_panel(K, std::min(NR, N - n0), Q + n0 * ldq, ldq, panel);
        row_block_panel(ukernel, m0, std::min(r1, m0 + kQ8MC), N, pairs, n0, xq, kp, xs, panel, scales, C, ldc,
                        p, clamp);
      }
  };
  const size_t threads = static_cast<size_t>(kernels::num_threads());
  if (threads <= 1 || !kernels::worth_parallel(double(M) * double(N) * double(K))) {
    run(0, M, 0, panels);
  } else if (panels >= 2 * threads) {  // threads take panels (columns of C)
    kernels::parallel_for(panels, [&](size_t j0, size_t j1) { run(0, M, j0, j1); });
  } else {  // few panels: threads take row tiles
    kernels::parallel_for((M + MR - 1) / MR,
                          [&](size_t t0, size_t t1) { run(t0 * MR, std::min(M, t1 * MR), 0, panels); });
  }
  return true;
}

}  // namespace fx
