// Shared by the native GoogleTest (gemm_q_test.cpp) and the WebAssembly runner (gemm_q_wasm_check.cpp):
// the sweep of int8 / int4 weight GEMM cases (rows 1–4 take the dot-product path; more rows the integer
// path for int8, the panel path for int4; K crosses every SIMD tail and int4 block boundary), the sweep of
// the int8 integer path with each micro-kernel over every tile tail, and the check of one case against the
// scalar reference. Header-only so both builds compile exactly the same cases.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/gemm_q4_f32.h"
#include "kernels/gemm_q8_f32.h"
#include "kernels/gemm_q8_ukernel.h"
#include "kernels/gemv_q8_packed.h"

namespace fx::qgemm_testing {

struct QCase {
  bool int4;
  size_t M, N, K;
  size_t a_pad = 0, q_pad = 0, c_pad = 0;
  bool bias = false;
  float beta = 0.0f;
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();
  bool extreme = false;  // weights all ±127/-128 and activations all ±1 (see integer_cases)
  std::string describe() const {
    std::ostringstream s;
    s << (int4 ? "q4" : "q8") << " M=" << M << " N=" << N << " K=" << K << " pads=" << a_pad << "/" << q_pad
      << "/" << c_pad << " bias=" << bias << " beta=" << beta << " clamp=[" << min << "," << max << "]"
      << (extreme ? " extreme" : "");
    return s.str();
  }
};

class Lcg {
 public:
  explicit Lcg(uint64_t seed) : state_(seed * 6364136223846793005ULL + 1442695040888963407ULL) {}
  uint32_t bits() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state_ >> 33);
  }
  float next() { return static_cast<float>(bits() & 0xFFFFFF) / 8388608.0f - 1.0f; }

 private:
  uint64_t state_;
};

inline std::vector<QCase> cases() {
  std::vector<QCase> out;
  const size_t Ms[] = {1, 2, 3, 4, 5, 9, 17};
  const size_t Ns[] = {1, 3, 8, 17, 70};
  const size_t Ks[] = {1, 7, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 100, 257};
  for (bool int4 : {false, true})
    for (size_t M : Ms)
      for (size_t N : Ns)
        for (size_t K : Ks) out.push_back(QCase{int4, M, N, K});
  // Strides, epilogue and a panel path spanning several panels (K large: panels of 8 rows).
  for (bool int4 : {false, true}) {
    out.push_back(QCase{int4, 2, 19, 37, 3, 5, 2, true});
    out.push_back(QCase{int4, 7, 19, 37, 3, 5, 2, true, 1.0f});
    out.push_back(QCase{int4, 1, 33, 64, 0, 0, 0, true, 0.5f, 0.0f, 6.0f});
    out.push_back(QCase{int4, 1, 19, 37, 3, 5, 2, true, 1.0f});
    out.push_back(QCase{int4, 1, 70, 9000});  // one row, several int32 chunks (qgemm::kActChunk)
    out.push_back(QCase{int4, 6, 33, 64, 0, 0, 0, false, 0.0f, -0.25f, 0.25f});
    out.push_back(QCase{int4, 3, 130, 9000});
    out.push_back(QCase{int4, 12, 30, 9000, 1, 16, 1, true});
  }
  return out;
}

// The int8 integer path run directly (q8_gemm_bt_integer_with), any M: every row tail of the 4-row tile,
// every column tail of the 8-column panel, odd K (a zero-padded last pair), the SIMD packing's 8-k steps,
// strides and the epilogue; and K = 1536 with weights at ±127/-128, where the activations' levels are sized
// so the int32 sums just fit.
// One row of int8 (a decoding step's GEMV, packed four channels at a time): every channel tail of the
// group of four, every K tail of the 16-wide step, more than one int32 chunk, the epilogue.
inline std::vector<QCase> packed_gemv_cases() {
  std::vector<QCase> out;
  for (size_t N : {1, 3, 4, 5, 8, 17, 70, 130})
    for (size_t K : {1, 7, 15, 16, 17, 33, 64, 100, 257, 4111, 9000}) out.push_back(QCase{false, 1, N, K});
  out.push_back(QCase{false, 1, 19, 37, 0, 5, 0, true, 1.0f});
  out.push_back(QCase{false, 1, 33, 64, 0, 0, 0, true, 0.5f, 0.0f, 6.0f});
  out.push_back(QCase{false, 1, 33, 64, 0, 0, 0, false, 0.0f, -0.25f, 0.25f});
  return out;
}

inline std::vector<QCase> integer_cases() {
  std::vector<QCase> out;
  const size_t Ms[] = {1, 2, 3, 4, 5, 6, 7, 8, 13};
  const size_t Ns[] = {1, 3, 8, 9, 17, 70};
  const size_t Ks[] = {1, 2, 3, 7, 8, 9, 16, 17, 33, 64, 65, 257};
  for (size_t M : Ms)
    for (size_t N : Ns)
      for (size_t K : Ks) out.push_back(QCase{false, M, N, K});
  out.push_back(QCase{false, 7, 19, 37, 3, 5, 2, true});
  out.push_back(QCase{false, 9, 19, 37, 3, 5, 2, true, 1.0f});
  out.push_back(QCase{false, 6, 33, 64, 0, 0, 0, true, 0.5f, 0.0f, 6.0f});
  out.push_back(QCase{false, 5, 33, 64, 0, 0, 0, false, 0.0f, -0.25f, 0.25f});
  out.push_back(QCase{false, 130, 24, 70});      // more rows than one block (kQ8MC)
  const float inf = std::numeric_limits<float>::infinity();
  out.push_back(QCase{false, 6, 16, 1536, 0, 0, 0, false, 0.0f, -inf, inf, true});
  out.push_back(QCase{false, 9, 11, 1535, 0, 0, 0, false, 0.0f, -inf, inf, true});
  // int4 (q4_gemm_bt_integer_with): one micro-kernel call per block of 32 k — partial last blocks, one block,
  // many, every row and column tail, the epilogue on the first block and the clamp on the last.
  for (size_t M : Ms)
    for (size_t N : Ns)
      for (size_t K : {size_t(1), size_t(17), size_t(32), size_t(33), size_t(64), size_t(100), size_t(257)})
        out.push_back(QCase{true, M, N, K});
  out.push_back(QCase{true, 7, 19, 37, 3, 5, 2, true});
  out.push_back(QCase{true, 9, 19, 37, 3, 5, 2, true, 1.0f});
  out.push_back(QCase{true, 6, 33, 64, 0, 0, 0, true, 0.5f, 0.0f, 6.0f});
  out.push_back(QCase{true, 5, 33, 64, 0, 0, 0, false, 0.0f, -0.25f, 0.25f});
  out.push_back(QCase{true, 130, 24, 70});
  out.push_back(QCase{true, 12, 30, 9000, 1, 16, 1, true});
  return out;
}

// Runs the case through the fast entry (or, given a micro-kernel, the int8 integer path with it; or, with
// `packed_gemv`, one int8 row through q8_pack_gemv + q8_gemv_packed) and the reference; "" when every output agrees within a bound scaled by Σ|a·w| (float32 accumulation in
// another order, and the activations' rounding where they are quantised).
inline std::string check_case(const QCase& t, Q8UkernelFn ukernel = nullptr, bool packed_gemv = false) {
  Lcg rng(t.M * 1000003 + t.N * 1009 + t.K + (t.int4 ? 7 : 0));
  const size_t lda = t.K + t.a_pad, ldc = t.N + t.c_pad;
  const size_t KB = q4_blocks(t.K);
  const size_t ldq = (t.int4 ? KB * 16 : t.K) + t.q_pad;
  std::vector<float> A(t.M * lda), scales(t.int4 ? t.N * KB : t.N), bias(t.N), C0(t.M * ldc);
  std::vector<uint8_t> Q(t.N * ldq);
  for (float& v : A) v = rng.next();
  for (uint8_t& v : Q) v = static_cast<uint8_t>(rng.bits());
  if (t.extreme) {  // the int32 sums' worst case: |w| at its largest, one sign per row, |a| = max|a|
    for (size_t n = 0; n < t.N; ++n)
      for (size_t k = 0; k < ldq; ++k) Q[n * ldq + k] = n % 2 ? 0x80 : 0x7F;
    for (size_t m = 0; m < t.M; ++m)
      for (size_t k = 0; k < t.K; ++k) A[m * lda + k] = m % 2 ? -1.0f : 1.0f;
  }
  for (float& v : scales) v = 0.01f + 0.02f * std::fabs(rng.next());
  for (float& v : bias) v = rng.next();
  for (float& v : C0) v = rng.next();
  GemmParams p;
  p.bias = t.bias ? bias.data() : nullptr;
  p.beta = t.beta, p.min = t.min, p.max = t.max;
  std::vector<float> fast = C0, ref = C0;
  if (t.int4 && ukernel) {
    if (!q4_gemm_bt_integer_with(ukernel, t.M, t.N, t.K, A.data(), lda, Q.data(), ldq, scales.data(), fast.data(),
                                 ldc, p))
      return t.describe() + ": the integer path declined";
    q4_gemm_bt_scalar(t.M, t.N, t.K, A.data(), lda, Q.data(), ldq, scales.data(), ref.data(), ldc, p);
  } else if (t.int4) {
    q4_gemm_bt(t.M, t.N, t.K, A.data(), lda, Q.data(), ldq, scales.data(), fast.data(), ldc, p);
    q4_gemm_bt_scalar(t.M, t.N, t.K, A.data(), lda, Q.data(), ldq, scales.data(), ref.data(), ldc, p);
  } else {
    const int8_t* q = reinterpret_cast<const int8_t*>(Q.data());
    if (packed_gemv) {
      if (t.M != 1 || t.c_pad || t.a_pad) return t.describe() + ": the packed GEMV takes one row, no strides";
      std::vector<int8_t> packed(q8_gemv_packed_size(t.N, t.K), 1);
      q8_pack_gemv(t.N, t.K, q, ldq, packed.data());
      if (!q8_gemv_packed(t.N, t.K, A.data(), packed.data(), scales.data(), fast.data(), p))
        return t.describe() + ": the packed GEMV declined finite activations";
    } else if (!ukernel)
      q8_gemm_bt(t.M, t.N, t.K, A.data(), lda, q, ldq, scales.data(), fast.data(), ldc, p);
    else if (!q8_gemm_bt_integer_with(ukernel, t.M, t.N, t.K, A.data(), lda, q, ldq, scales.data(), fast.data(),
                                      ldc, p))
      return t.describe() + ": the integer path declined";
    q8_gemm_bt_scalar(t.M, t.N, t.K, A.data(), lda, q, ldq, scales.data(), ref.data(), ldc, p);
  }
  for (size_t m = 0; m < t.M; ++m)
    for (size_t n = 0; n < ldc; ++n) {
      const float f = fast[m * ldc + n], r = ref[m * ldc + n];
      if (n >= t.N) {  // the padding between rows is never written
        if (f != C0[m * ldc + n]) return t.describe() + ": wrote the padding at m=" + std::to_string(m);
        continue;
      }
      // Few rows quantise the activations to int16 (±8191 levels, ≤ max|a|/16382 off per element, here
      // max|a| ≤ 1), int8's many rows to ±q8_activation_levels(K): Σ_k |w| of that, plus float32 rounding.
      double wsum = 0.0;
      for (size_t k = 0; k < t.K; ++k) {
        if (t.int4) {
          const uint8_t byte = Q[n * ldq + (k / 32) * 16 + k % 16];
          wsum += std::fabs(((k % 32) < 16 ? (byte & 15) : (byte >> 4)) - 8.0) * scales[n * KB + k / 32];
        } else {
          wsum += std::fabs(static_cast<double>(static_cast<int8_t>(Q[n * ldq + k]))) * scales[n];
        }
      }
      const double levels = (t.M <= 4 && !ukernel) || packed_gemv ? 8191.0
                            : !t.int4          ? static_cast<double>(q8_activation_levels(t.K))
                                               : 32767.0;  // int4's many rows: per-block int32 sums
      const double bound = (levels > 0 ? wsum / (2 * levels) * 1.01 : 0.0) + 2e-6 * (wsum + 2.0) + 1e-6;
      if (!(std::fabs(f - r) <= bound)) {
        std::ostringstream s;
        s << t.describe() << ": C[" << m << "][" << n << "] = " << f << ", reference " << r;
        return s.str();
      }
    }
  return "";
}

}  // namespace fx::qgemm_testing
