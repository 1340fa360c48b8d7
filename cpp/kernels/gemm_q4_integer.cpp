// q4_gemm_bt's many-row path (gemm_q8_ukernel.h: q4_gemm_bt_integer_with): A quantised to int16 per row, the
// 4-bit weight unpacked panel by panel into the int8 path's int16 panel layout, the int8 path's micro-kernel
// once per block of 32 k. It replaces dequantising the weight into the float32 GEMM: the integer products
// run at about twice the float32 GEMM's multiply-adds per second (gemm_q8_ukernel.h).
#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/gemm_q4_f32.h"
#include "kernels/gemm_q8_ukernel.h"
#include "kernels/parallel.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace fx {
namespace {

constexpr size_t MR = kQ8MR;
constexpr size_t NR = kQ8NR;
constexpr size_t kBlockPairs = kQ4Block / kQ8KR;  // 16 pairs of k per block

bool clamps(const GemmParams& p) { return !(std::isinf(p.min) && p.min < 0 && std::isinf(p.max) && p.max > 0); }

template <class T>
T* scratch(std::vector<T>& v, size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

#if defined(__wasm_simd128__)
// The SIMD128 micro-kernel's products over all `blocks` blocks of a 4×8 tile in one call: per block the
// int32 sums in 8 registers (as q8_gemm_ukernel__wasmsimd_4x8c2's loop), then converted and scaled by the
// block's 8 channel scales into float32 sums; the row's activation scale, the bias, beta·C and the clamp
// once at the end. One call per tile instead of one per block: the per-call epilogue and entry cost a fifth
// of a 32-k block's products.
template <size_t TM>
void q4_tile_wasmsimd(size_t blocks, const int16_t* a, size_t lda, const int16_t* w, const float* ws, float* c,
                      size_t ldc, const Q8UkernelParams& p) {
  v128_t f0[TM], f1[TM];
  for (size_t i = 0; i < TM; ++i) f0[i] = f1[i] = wasm_f32x4_const_splat(0.0f);
  for (size_t b = 0; b < blocks; ++b) {
    const int16_t* ar[TM];
    v128_t acc0[TM], acc1[TM];
    for (size_t i = 0; i < TM; ++i) {
      ar[i] = a + i * lda + b * kQ4Block;
      acc0[i] = acc1[i] = wasm_i32x4_const_splat(0);
    }
#pragma clang loop unroll_count(2)
    for (size_t g = 0; g < kBlockPairs; ++g) {
      const v128_t b0 = wasm_v128_load(w), b1 = wasm_v128_load(w + 8);
      w += 16;
      for (size_t i = 0; i < TM; ++i) {
        const v128_t ai = wasm_v128_load32_splat(ar[i]);
        ar[i] += 2;
        acc0[i] = wasm_i32x4_add(acc0[i], wasm_i32x4_dot_i16x8(ai, b0));
        acc1[i] = wasm_i32x4_add(acc1[i], wasm_i32x4_dot_i16x8(ai, b1));
      }
    }
    const v128_t s0 = wasm_v128_load(ws + b * NR), s1 = wasm_v128_load(ws + b * NR + 4);
    for (size_t i = 0; i < TM; ++i) {
      f0[i] = wasm_f32x4_add(f0[i], wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc0[i]), s0));
      f1[i] = wasm_f32x4_add(f1[i], wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc1[i]), s1));
    }
  }
  const v128_t bias0 = p.bias ? wasm_v128_load(p.bias) : wasm_f32x4_const_splat(0.0f);
  const v128_t bias1 = p.bias ? wasm_v128_load(p.bias + 4) : wasm_f32x4_const_splat(0.0f);
  const v128_t vbeta = wasm_f32x4_splat(p.beta), vmin = wasm_f32x4_splat(p.min), vmax = wasm_f32x4_splat(p.max);
  for (size_t i = 0; i < TM; ++i) {
    const v128_t as = wasm_f32x4_splat(p.a_scale[i]);
    float* ci = c + i * ldc;
    v128_t o0 = wasm_f32x4_mul(f0[i], as), o1 = wasm_f32x4_mul(f1[i], as);
    if (p.bias) o0 = wasm_f32x4_add(o0, bias0), o1 = wasm_f32x4_add(o1, bias1);
    if (p.beta == 1.0f) {
      o0 = wasm_f32x4_add(o0, wasm_v128_load(ci)), o1 = wasm_f32x4_add(o1, wasm_v128_load(ci + 4));
    } else if (p.beta != 0.0f) {
      o0 = wasm_f32x4_add(o0, wasm_f32x4_mul(vbeta, wasm_v128_load(ci)));
      o1 = wasm_f32x4_add(o1, wasm_f32x4_mul(vbeta, wasm_v128_load(ci + 4)));
    }
    if (p.clamp) {  // pmax / pmin: NaN passes, as in the reference
      o0 = wasm_f32x4_pmin(wasm_f32x4_pmax(o0, vmin), vmax);
      o1 = wasm_f32x4_pmin(wasm_f32x4_pmax(o1, vmin), vmax);
    }
    wasm_v128_store(ci, o0), wasm_v128_store(ci + 4, o1);
  }
}

void q4_tile_wasmsimd_any(size_t mr, size_t blocks, const int16_t* a, size_t lda, const int16_t* w, const float* ws,
                          float* c, size_t ldc, const Q8UkernelParams& p) {
  switch (mr) {
    case 1: q4_tile_wasmsimd<1>(blocks, a, lda, w, ws, c, ldc, p); break;
    case 2: q4_tile_wasmsimd<2>(blocks, a, lda, w, ws, c, ldc, p); break;
    case 3: q4_tile_wasmsimd<3>(blocks, a, lda, w, ws, c, ldc, p); break;
    default: q4_tile_wasmsimd<4>(blocks, a, lda, w, ws, c, ldc, p); break;
  }
}
#endif

}  // namespace

void q4_pack_panel(size_t K, size_t nc, const uint8_t* q, size_t ldq, const float* scales, int16_t* dst, float* ds) {
  const size_t KB = q4_blocks(K);
  for (size_t b = 0; b < KB; ++b)
    for (size_t j = 0; j < NR; ++j) ds[b * NR + j] = j < nc ? scales[j * KB + b] : 0.0f;
  // Block by block: the nibbles to int8 rows of 32 (byte t of a block holds k = t in its low nibble and
  // k = 16 + t in its high one), then the int8 path's packing (SIMD128 transposes for a full panel).
  alignas(16) int8_t rows[NR * kQ4Block];
  for (size_t b = 0; b < KB; ++b) {
    for (size_t j = 0; j < nc; ++j) {
      const uint8_t* blk = q + j * ldq + b * 16;
      int8_t* r = rows + j * kQ4Block;
#if defined(__wasm_simd128__)
      const v128_t v = wasm_v128_load(blk), eight = wasm_i8x16_splat(8);
      wasm_v128_store(r, wasm_i8x16_sub(wasm_v128_and(v, wasm_i8x16_splat(15)), eight));
      wasm_v128_store(r + 16, wasm_i8x16_sub(wasm_u8x16_shr(v, 4), eight));
#else
      for (size_t t = 0; t < 16; ++t) {
        r[t] = static_cast<int8_t>((blk[t] & 15) - 8);
        r[16 + t] = static_cast<int8_t>((blk[t] >> 4) - 8);
      }
#endif
    }
    q8_pack_panel(kQ4Block, nc, rows, kQ4Block, dst + b * kBlockPairs * 16);
  }
}

bool q4_gemm_bt_integer_with(Q8UkernelFn ukernel, size_t M, size_t N, size_t K, const float* A, size_t lda,
                             const uint8_t* Q, size_t ldq, const float* scales, float* C, size_t ldc,
                             const GemmParams& p) {
  if (M == 0 || N == 0) return true;
  const size_t KB = q4_blocks(K), kp = KB * kQ4Block;
  thread_local std::vector<int16_t> xq_store;
  thread_local std::vector<float> xs_store;
  int16_t* xq = scratch(xq_store, M * kp);
  float* xs = scratch(xs_store, M);
  if (!q8_quantize_rows(M, K, A, lda, kp, 32767.0f, xq, xs)) return false;
  if (KB == 0) {  // K = 0: the epilogue alone
    for (size_t m = 0; m < M; ++m)
      for (size_t n = 0; n < N; ++n) {
        float v = p.bias ? p.bias[n] : 0.0f;
        if (p.beta != 0.0f) v += p.beta * C[m * ldc + n];
        v = v < p.min ? p.min : v;
        C[m * ldc + n] = p.max < v ? p.max : v;
      }
    return true;
  }
  const bool clamp = clamps(p);
  const size_t panels = (N + NR - 1) / NR;
  // Rows [r0, r1) times panels [j0, j1), each panel unpacked by the thread that runs it.
  auto run = [&](size_t r0, size_t r1, size_t j0, size_t j1) {
    thread_local std::vector<int16_t> panel_store;
    thread_local std::vector<float> scale_store;
    int16_t* panel = scratch(panel_store, kp * NR);
    float* ps = scratch(scale_store, KB * NR);
    for (size_t m0 = r0; m0 < r1; m0 += kQ8MC)
      for (size_t j = j0; j < j1; ++j) {
        const size_t n0 = j * NR, nc = std::min(NR, N - n0), m1 = std::min(r1, m0 + kQ8MC);
        q4_pack_panel(K, nc, Q + n0 * ldq, ldq, scales + n0 * KB, panel, ps);
        float bias_tail[NR] = {};
        const float* bias = p.bias ? p.bias + n0 : nullptr;
        if (p.bias && nc < NR) {
          std::copy(p.bias + n0, p.bias + N, bias_tail);
          bias = bias_tail;
        }
        for (size_t i0 = m0; i0 < m1; i0 += MR) {
          const size_t mr = std::min(MR, m1 - i0);
          float tile[MR * NR] = {};
          float* c = C + i0 * ldc + n0;
          float* cc = c;
          size_t ldcc = ldc;
          if (nc < NR) {  // right edge: a full-width tile in a local buffer, the nc real columns copied out
            if (p.beta != 0.0f)
              for (size_t i = 0; i < mr; ++i) std::copy(c + i * ldc, c + i * ldc + nc, tile + i * NR);
            cc = tile, ldcc = NR;
          }
#if defined(__wasm_simd128__)
          if (ukernel == q8_gemm_ukernel__wasmsimd_4x8c2) {  // every block in one call
            const Q8UkernelParams up{xs + i0, nullptr, bias, p.beta, clamp, p.min, p.max};
            q4_tile_wasmsimd_any(mr, KB, xq + i0 * kp, kp, panel, ps, cc, ldcc, up);
          } else
#endif
          for (size_t b = 0; b < KB; ++b) {
            const bool first = b == 0, last = b + 1 == KB;
            const Q8UkernelParams up{xs + i0, ps + b * NR, first ? bias : nullptr, first ? p.beta : 1.0f,
                                     clamp && last, p.min, p.max};
            ukernel(mr, kBlockPairs, xq + i0 * kp + b * kQ4Block, kp, panel + b * kBlockPairs * 16, cc, ldcc, up);
          }
          if (nc < NR)
            for (size_t i = 0; i < mr; ++i) std::copy(tile + i * NR, tile + i * NR + nc, c + i * ldc);
        }
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
