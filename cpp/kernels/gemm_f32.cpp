// The f32 GEMM driver: B packing, the loop nest around the micro-kernel, edge tiles, and the choice of
// micro-kernel for this build (SIMD128 when compiled with it, else the portable one).
//
// Loop nest: for each block of kGemmMC rows of A, for each NR-wide panel of B, for each K block, for each
// MR-row tile of the row block. The panel block (≤ kGemmKC × NR floats) stays in L1 while the row tiles
// stream over it from L2. Unpacked B is packed one panel at a time right before use, so f32_gemm needs only
// a K × NR scratch buffer (a tall A repacks B once per row block: K·N copies per 2·128·K·N flops).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include "kernels/gemm_f32_ukernel.h"
#include "kernels/parallel.h"
#include "support/error.h"

namespace fx {
namespace {

constexpr size_t NR = kGemmNR;
constexpr size_t MR = kGemmMR;

size_t panel_count(size_t N) { return (N + NR - 1) / NR; }

// One panel from B [K, N]; b points at column j·NR, nc ≤ NR columns are real, the rest zero.
void pack_panel_kn(size_t K, size_t nc, const float* b, size_t ldb, float* dst) {
#if defined(__wasm_simd128__)
  // A full panel row is two f32x4 copies (memcpy of a run-time size is a call per row: the attention
  // products of a small decoder, 16 × 16 @ 16 × 32, spent a third of their time packing).
  static_assert(NR == 8, "the copy below moves 8 floats");
  if (nc == NR) {
    for (size_t k = 0; k < K; ++k, dst += NR) {
      wasm_v128_store(dst, wasm_v128_load(b + k * ldb));
      wasm_v128_store(dst + 4, wasm_v128_load(b + k * ldb + 4));
    }
    return;
  }
#endif
  for (size_t k = 0; k < K; ++k, dst += NR) {
    std::memcpy(dst, b + k * ldb, nc * sizeof(float));
    std::fill(dst + nc, dst + NR, 0.0f);
  }
}

#if defined(__wasm_simd128__)
// cols[i] = column i of the 4×4 block whose rows are r[0..3], r[ld..], r[2·ld..], r[3·ld..].
inline void transpose4(const float* r, size_t ld, v128_t cols[4]) {
  const v128_t r0 = wasm_v128_load(r), r1 = wasm_v128_load(r + ld);
  const v128_t r2 = wasm_v128_load(r + 2 * ld), r3 = wasm_v128_load(r + 3 * ld);
  const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);
  const v128_t t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
  cols[0] = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5), cols[1] = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);
  cols[2] = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5), cols[3] = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);
}
#endif

// One panel from Bt [N, K]; bt points at row j·NR.
void pack_panel_nk(size_t K, size_t nc, const float* bt, size_t ldbt, float* dst) {
#if defined(__wasm_simd128__)
  // A full panel by 4×4 transposes: 4 floats of each of the 8 rows become 4 packed rows of 8 (Linear
  // weights are packed at load time; this is ~4× the scalar gather below).
  static_assert(NR == 8, "the transpose below packs 8 rows");
  if (nc == NR) {
    for (; K >= 4; K -= 4, bt += 4, dst += 4 * NR) {
      for (size_t half = 0; half < 2; ++half) {
        v128_t cols[4];
        transpose4(bt + half * 4 * ldbt, ldbt, cols);
        float* d = dst + half * 4;
        for (size_t i = 0; i < 4; ++i) wasm_v128_store(d + i * NR, cols[i]);
      }
    }
  }
#endif
  for (size_t k = 0; k < K; ++k, dst += NR) {
    for (size_t c = 0; c < nc; ++c) dst[c] = bt[c * ldbt + k];
    std::fill(dst + nc, dst + NR, 0.0f);
  }
}

// Whether p asks for a clamp (bounds other than ±inf).
bool clamps(const GemmParams& p) { return !(std::isinf(p.min) && p.min < 0 && std::isinf(p.max) && p.max > 0); }

void check_gemm_strides(size_t M, size_t N, size_t K, size_t lda, size_t ldc) {
  FX_CHECK(M <= 1 || lda >= K, "f32_gemm: lda (" + std::to_string(lda) + ") < K (" + std::to_string(K) + ")");
  FX_CHECK(M <= 1 || ldc >= N, "f32_gemm: ldc (" + std::to_string(ldc) + ") < N (" + std::to_string(N) + ")");
}

// Rows [m0, m_end) of C times panel j of packed B (w), every K block. clamp: whether p asks for one.
void gemm_row_block_panel(GemmUkernelFn ukernel, size_t m0, size_t m_end, size_t N, size_t K, size_t j,
                          const float* A, size_t lda, const float* w, float* C, size_t ldc,
                          const GemmParams& p, bool clamp) {
  const size_t n0 = j * NR;
  const size_t nc = std::min(NR, N - n0);
  // The micro-kernel reads NR bias values: the last, partial panel gets a zero-padded copy.
  float bias_tail[NR] = {};
  const float* bias = nullptr;
  if (p.bias) {
    if (nc == NR) {
      bias = p.bias + n0;
    } else {
      std::copy(p.bias + n0, p.bias + N, bias_tail);
      bias = bias_tail;
    }
  }
  const size_t k_blocks = std::max<size_t>(1, (K + kGemmKC - 1) / kGemmKC);  // K = 0 still runs the epilogue
  for (size_t kb = 0; kb < k_blocks; ++kb) {
    const size_t k0 = kb * kGemmKC;
    const size_t kc = std::min(kGemmKC, K - k0);
    const bool first = kb == 0;
    const GemmUkernelParams up{first ? bias : nullptr, first ? p.beta : 1.0f, clamp && kb + 1 == k_blocks,
                               p.min, p.max};
    for (size_t i0 = m0; i0 < m_end; i0 += MR) {
      const size_t mr = std::min(MR, m_end - i0);
      const float* a = A + i0 * lda + k0;
      float* c = C + i0 * ldc + n0;
      if (nc == NR) {
        ukernel(mr, kc, a, lda, w + k0 * NR, c, ldc, up);
        continue;
      }
      // Right edge: compute a full-width tile into a local buffer and copy out the nc real columns,
      // so the micro-kernel never touches C past column N.
      float tile[MR * NR] = {};
      if (up.beta != 0.0f)
        for (size_t i = 0; i < mr; ++i) std::copy(c + i * ldc, c + i * ldc + nc, tile + i * NR);
      ukernel(mr, kc, a, lda, w + k0 * NR, tile, NR, up);
      for (size_t i = 0; i < mr; ++i) std::copy(tile + i * NR, tile + i * NR + nc, c + i * ldc);
    }
  }
}

// The loop nest; panel(j) returns panel j of packed B (packing it first when B is not prepacked).
template <class PanelFn>
void gemm_loops(GemmUkernelFn ukernel, size_t M, size_t N, size_t K, const float* A, size_t lda,
                PanelFn panel, float* C, size_t ldc, const GemmParams& p) {
  if (M == 0 || N == 0) return;
  const bool clamp = clamps(p);
  const size_t panels = panel_count(N);
  // Rows [r0, r1) times panels [j0, j1). Every C element is computed the same way whatever the split.
  auto run = [&](size_t r0, size_t r1, size_t j0, size_t j1) {
    for (size_t m0 = r0; m0 < r1; m0 += kGemmMC)
      for (size_t j = j0; j < j1; ++j)
        gemm_row_block_panel(ukernel, m0, std::min(r1, m0 + kGemmMC), N, K, j, A, lda, panel(j), C, ldc, p,
                             clamp);
  };
  const size_t threads = static_cast<size_t>(kernels::num_threads());
  // A few rows are bound by streaming B (a decoding step's Linear): split by B's size, not by the work.
  const bool split = kernels::worth_parallel(double(M) * double(N) * double(K)) ||
                     (M <= MR && kernels::worth_parallel_stream(4.0 * double(N) * double(K)));
  if (threads <= 1 || !split) {
    run(0, M, 0, panels);
  } else if (panels >= 2 * threads || M <= MR) {  // threads take panels of B (columns of C)
    kernels::parallel_for(panels, [&](size_t j0, size_t j1) { run(0, M, j0, j1); });
  } else {  // few wide panels: threads take MR-row tiles of A (each packs the panels it needs)
    kernels::parallel_for((M + MR - 1) / MR,
                          [&](size_t t0, size_t t1) { run(t0 * MR, std::min(M, t1 * MR), 0, panels); });
  }
}

// Per-thread scratch for on-the-fly packing; kept between calls so steady-state GEMMs do not allocate.
float* panel_scratch(size_t K) {
  thread_local std::vector<float> scratch;
  if (scratch.size() < K * NR) scratch.resize(K * NR);
  return scratch.data();
}

// ---- Bt read in place (f32_gemm_bt_inplace) ----

// Rows of A up to which C is dot products: a micro-kernel tile would compute NR columns on A's side for
// fewer real ones.
constexpr size_t kDotMaxM = 4;

// The micro-kernel's epilogue for one value: + bias[n], + beta·C, clamp (NaN passes, as pmin/pmax).
inline void finish_one(float v, size_t n, float* c, const GemmParams& p, bool clamp) {
  if (p.bias) v += p.bias[n];
  if (p.beta != 0.0f) v += p.beta * *c;
  if (clamp) {
    v = v < p.min ? p.min : v;
    v = p.max < v ? p.max : v;
  }
  *c = v;
}

float dot(size_t K, const float* a, const float* b) {
  size_t k = 0;
  float sum = 0.0f;
#if defined(__wasm_simd128__)
  // Four sums of four lanes: the loads of the weight row stream (the loop is memory-bound for a large Bt).
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

// C = epilogue(A·Btᵀ) for 1 <= M <= kDotMaxM rows of A: each row of Bt is read once, against every row of A
// (threads take ranges of Bt's rows).
void dot_rows(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* Bt, size_t ldbt, float* C,
              size_t ldc, const GemmParams& p) {
  const bool clamp = clamps(p);
  auto rows = [&](size_t n0, size_t n1) {
    for (size_t n = n0; n < n1; ++n)
      for (size_t m = 0; m < M; ++m) finish_one(dot(K, A + m * lda, Bt + n * ldbt), n, C + m * ldc + n, p, clamp);
  };
  const bool split = kernels::worth_parallel(double(M) * double(N) * double(K)) ||
                     kernels::worth_parallel_stream(4.0 * double(N) * double(K));
  if (kernels::num_threads() <= 1 || !split) rows(0, N);
  else kernels::parallel_for(N, rows);
}

// Whether M > kDotMaxM rows of A run transposed (A's rows padded to panels of NR columns) rather than
// through f32_gemm_bt (A's rows in tiles of MR rows; Bt packed per call). The packing costs little (vit_b_16
// at 17 tokens: 1.5% over a prepacked weight) and the padding a lot (the transposed form: 19% there), so
// the transposed form only where it pads no more than the tiles do: 16, 24 or 64 rows, not 17 or 12.
bool transposed_pays(size_t M) { return (M + NR - 1) / NR * NR == (M + MR - 1) / MR * MR; }

// C [M, N] (row stride ldc) = epilogue(Ct [N, M] transposed), 4×4 blocks at a time in SIMD builds.
void transpose_out(size_t M, size_t N, const float* ct, float* C, size_t ldc, const GemmParams& p, bool clamp) {
  size_t n0 = 0;
#if defined(__wasm_simd128__)
  const v128_t vmin = wasm_f32x4_splat(p.min), vmax = wasm_f32x4_splat(p.max);
  const v128_t beta = wasm_f32x4_splat(p.beta);
  for (; n0 + 4 <= N; n0 += 4) {
    const v128_t bias = p.bias ? wasm_v128_load(p.bias + n0) : wasm_f32x4_splat(0.0f);
    size_t m = 0;
    for (; m + 4 <= M; m += 4) {
      v128_t cols[4];
      transpose4(ct + n0 * M + m, M, cols);
      for (size_t i = 0; i < 4; ++i) {
        float* c = C + (m + i) * ldc + n0;
        v128_t v = p.bias ? wasm_f32x4_add(cols[i], bias) : cols[i];
        if (p.beta != 0.0f) v = wasm_f32x4_add(v, wasm_f32x4_mul(beta, wasm_v128_load(c)));
        if (clamp) v = wasm_f32x4_pmin(wasm_f32x4_pmax(v, vmin), vmax);
        wasm_v128_store(c, v);
      }
    }
    for (; m < M; ++m)
      for (size_t n = n0; n < n0 + 4; ++n) finish_one(ct[n * M + m], n, C + m * ldc + n, p, clamp);
  }
#endif
  // Blocks of 8 columns of C keep the reads of Ct within a few cache lines per row of C.
  for (size_t b0 = n0; b0 < N; b0 += 8)
    for (size_t m = 0; m < M; ++m)
      for (size_t n = b0; n < std::min(N, b0 + 8); ++n) finish_one(ct[n * M + m], n, C + m * ldc + n, p, clamp);
}

}  // namespace

GemmUkernelFn f32_gemm_default_ukernel() {
#if defined(__wasm_simd128__)
  return f32_gemm_ukernel__wasmsimd_4x8;
#else
  return f32_gemm_ukernel__generic_4x8;
#endif
}

const char* f32_gemm_ukernel_name() {
#if defined(__wasm_simd128__)
  return "wasmsimd_4x8";
#else
  return "generic_4x8";
#endif
}

size_t f32_gemm_packed_b_size(size_t K, size_t N) { return panel_count(N) * NR * K; }

void f32_gemm_pack_b(size_t K, size_t N, const float* B, size_t ldb, float* packed) {
  FX_CHECK(K <= 1 || ldb >= N, "f32_gemm_pack_b: ldb (" + std::to_string(ldb) + ") < N (" + std::to_string(N) + ")");
  for (size_t j = 0; j < panel_count(N); ++j)
    pack_panel_kn(K, std::min(NR, N - j * NR), B + j * NR, ldb, packed + j * K * NR);
}

void f32_gemm_pack_bt(size_t K, size_t N, const float* Bt, size_t ldbt, float* packed) {
  FX_CHECK(N <= 1 || ldbt >= K, "f32_gemm_pack_bt: ldbt (" + std::to_string(ldbt) + ") < K (" + std::to_string(K) + ")");
  for (size_t j = 0; j < panel_count(N); ++j)
    pack_panel_nk(K, std::min(NR, N - j * NR), Bt + j * NR * ldbt, ldbt, packed + j * K * NR);
}

void f32_gemm_prepacked_with(GemmUkernelFn ukernel, size_t M, size_t N, size_t K, const float* A,
                             size_t lda, const float* packed_b, float* C, size_t ldc, const GemmParams& p) {
  check_gemm_strides(M, N, K, lda, ldc);
  gemm_loops(ukernel, M, N, K, A, lda, [&](size_t j) { return packed_b + j * K * NR; }, C, ldc, p);
}

void f32_gemm_prepacked(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* packed_b,
                        float* C, size_t ldc, const GemmParams& p) {
  f32_gemm_prepacked_with(f32_gemm_default_ukernel(), M, N, K, A, lda, packed_b, C, ldc, p);
}

void f32_gemm(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* B, size_t ldb,
              float* C, size_t ldc, const GemmParams& p) {
  check_gemm_strides(M, N, K, lda, ldc);
  FX_CHECK(K <= 1 || ldb >= N, "f32_gemm: ldb (" + std::to_string(ldb) + ") < N (" + std::to_string(N) + ")");
  gemm_loops(f32_gemm_default_ukernel(), M, N, K, A, lda,
             [&](size_t j) {
               float* scratch = panel_scratch(K);  // this thread's
               pack_panel_kn(K, std::min(NR, N - j * NR), B + j * NR, ldb, scratch);
               return static_cast<const float*>(scratch);
             },
             C, ldc, p);
}

void f32_gemm_bt(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* Bt, size_t ldbt,
                 float* C, size_t ldc, const GemmParams& p) {
  check_gemm_strides(M, N, K, lda, ldc);
  FX_CHECK(N <= 1 || ldbt >= K, "f32_gemm_bt: ldbt (" + std::to_string(ldbt) + ") < K (" + std::to_string(K) + ")");
  // A few rows: dot products read Bt once where it is, instead of packing all of it for a tile's few rows.
  if (M >= 1 && M <= kDotMaxM && N > 0) return dot_rows(M, N, K, A, lda, Bt, ldbt, C, ldc, p);
  gemm_loops(f32_gemm_default_ukernel(), M, N, K, A, lda,
             [&](size_t j) {
               float* scratch = panel_scratch(K);  // this thread's
               pack_panel_nk(K, std::min(NR, N - j * NR), Bt + j * NR * ldbt, ldbt, scratch);
               return static_cast<const float*>(scratch);
             },
             C, ldc, p);
}

void f32_gemm_bt_inplace(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* Bt, size_t ldbt,
                         float* C, size_t ldc, const GemmParams& p) {
  check_gemm_strides(M, N, K, lda, ldc);
  FX_CHECK(N <= 1 || ldbt >= K,
           "f32_gemm_bt_inplace: ldbt (" + std::to_string(ldbt) + ") < K (" + std::to_string(K) + ")");
  if (M == 0 || N == 0) return;
  if (M <= kDotMaxM) return dot_rows(M, N, K, A, lda, Bt, ldbt, C, ldc, p);
  if (!transposed_pays(M)) return f32_gemm_bt(M, N, K, A, lda, Bt, ldbt, C, ldc, p);
  const bool clamp = clamps(p);
  // Ct [N, M] = Bt · Aᵀ: Bt's rows are the micro-kernel's left operand, read in place; A [M, K] is Aᵀ given
  // transposed, packed into panels like a weight. Per-thread buffers, kept between calls.
  thread_local std::vector<float> packed_a, ct;
  packed_a.resize(f32_gemm_packed_b_size(K, M));
  ct.resize(N * M);
  f32_gemm_pack_bt(K, M, A, lda, packed_a.data());
  f32_gemm_prepacked_with(f32_gemm_default_ukernel(), N, M, K, Bt, ldbt, packed_a.data(), ct.data(), M, GemmParams{});
  transpose_out(M, N, ct.data(), C, ldc, p, clamp);
}

}  // namespace fx
