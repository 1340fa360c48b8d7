// Shared by the native GoogleTest (gemm_f32_test.cpp) and the WebAssembly runner
// (gemm_f32_wasm_check.cpp): the sweep of GEMM cases and the check of one case against the scalar
// reference. Header-only so both builds compile exactly the same cases.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/gemm_f32.h"
#include "kernels/gemm_f32_ukernel.h"

namespace fx::gemm_testing {

// How the case reaches the kernel.
enum class Entry { kGemm, kGemmBt, kPrepacked, kPrepackedBt, kBtInPlace };
constexpr Entry kAllEntries[] = {Entry::kGemm, Entry::kGemmBt, Entry::kPrepacked, Entry::kPrepackedBt,
                                 Entry::kBtInPlace};

inline const char* entry_name(Entry e) {
  switch (e) {
    case Entry::kGemm: return "f32_gemm";
    case Entry::kGemmBt: return "f32_gemm_bt";
    case Entry::kPrepacked: return "pack_b+prepacked";
    case Entry::kPrepackedBt: return "pack_bt+prepacked";
    case Entry::kBtInPlace: return "f32_gemm_bt_inplace";
  }
  return "?";
}

struct GemmCase {
  size_t M, N, K;
  size_t a_pad = 0, b_pad = 0, c_pad = 0;  // row strides exceed the minimum by this much
  bool bias = false;
  float beta = 0.0f;
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();

  std::string describe() const {
    std::ostringstream s;
    s << "M=" << M << " N=" << N << " K=" << K << " pads=" << a_pad << "/" << b_pad << "/" << c_pad
      << " bias=" << bias << " beta=" << beta << " clamp=[" << min << "," << max << "]";
    return s.str();
  }
};

// Deterministic values in [-1, 1): the same data natively and in wasm.
class Lcg {
 public:
  explicit Lcg(uint64_t seed) : state_(seed * 6364136223846793005ULL + 1442695040888963407ULL) {}
  float next() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<float>((state_ >> 40) & 0xFFFFFF) / 8388608.0f - 1.0f;
  }

 private:
  uint64_t state_;
};

// Runs one case through `entry` (with `ukernel` for the prepacked entries when given) and compares with
// f32_gemm_scalar. Returns "" on success, else the first mismatch. Padding of A and B holds NaN and C's
// padding a sentinel, so reading past a row or writing past N shows up; with beta = 0, C starts as NaN
// to prove it is not read.
inline std::string check_case(const GemmCase& t, Entry entry, GemmUkernelFn ukernel = nullptr) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float sentinel = 12345.0f;
  const bool bt = entry == Entry::kGemmBt || entry == Entry::kPrepackedBt || entry == Entry::kBtInPlace;
  const size_t lda = t.K + t.a_pad;
  const size_t ldb = (bt ? t.K : t.N) + t.b_pad;
  const size_t ldc = t.N + t.c_pad;
  const size_t b_rows = bt ? t.N : t.K, b_cols = bt ? t.K : t.N;
  Lcg rng(t.M * 1000003 + t.N * 1009 + t.K * 17 + t.a_pad + (bt ? 7 : 0));

  std::vector<float> A(t.M * lda + 1, nan), B(b_rows * ldb + 1, nan), bias(t.N);
  for (size_t i = 0; i < t.M; ++i)
    for (size_t k = 0; k < t.K; ++k) A[i * lda + k] = rng.next();
  for (size_t r = 0; r < b_rows; ++r)
    for (size_t c = 0; c < b_cols; ++c) B[r * ldb + c] = rng.next();
  for (float& b : bias) b = rng.next();
  // One extra row of C so a write past the last row is caught as well.
  std::vector<float> C((t.M + 1) * ldc, sentinel);
  for (size_t i = 0; i < t.M; ++i)
    for (size_t n = 0; n < t.N; ++n) C[i * ldc + n] = t.beta != 0.0f ? rng.next() : nan;
  std::vector<float> C_ref = C;

  GemmParams p;
  p.bias = t.bias ? bias.data() : nullptr;
  p.beta = t.beta;
  p.min = t.min;
  p.max = t.max;
  f32_gemm_scalar(t.M, t.N, t.K, A.data(), lda, B.data(), ldb, bt, C_ref.data(), ldc, p);

  switch (entry) {
    case Entry::kGemm: f32_gemm(t.M, t.N, t.K, A.data(), lda, B.data(), ldb, C.data(), ldc, p); break;
    case Entry::kGemmBt: f32_gemm_bt(t.M, t.N, t.K, A.data(), lda, B.data(), ldb, C.data(), ldc, p); break;
    case Entry::kBtInPlace:
      f32_gemm_bt_inplace(t.M, t.N, t.K, A.data(), lda, B.data(), ldb, C.data(), ldc, p);
      break;
    case Entry::kPrepacked:
    case Entry::kPrepackedBt: {
      // Garbage first: packing must write every element it later reads.
      std::vector<float> packed(f32_gemm_packed_b_size(t.K, t.N), nan);
      if (bt) f32_gemm_pack_bt(t.K, t.N, B.data(), ldb, packed.data());
      else f32_gemm_pack_b(t.K, t.N, B.data(), ldb, packed.data());
      if (ukernel) f32_gemm_prepacked_with(ukernel, t.M, t.N, t.K, A.data(), lda, packed.data(), C.data(), ldc, p);
      else f32_gemm_prepacked(t.M, t.N, t.K, A.data(), lda, packed.data(), C.data(), ldc, p);
      break;
    }
  }

  for (size_t i = 0; i <= t.M; ++i) {
    for (size_t n = 0; n < ldc; ++n) {
      const size_t at = i * ldc + n;
      const float got = C[at], want = C_ref[at];
      bool ok;
      if (i == t.M || n >= t.N) {
        ok = got == sentinel;
      } else {
        // Bound the float rounding by the magnitude of everything summed, not by the result (which
        // may cancel to ~0): 1e-5 of it is ~100× the error seen at K = 2100 and far below any real bug.
        double mag = 1.0;
        for (size_t k = 0; k < t.K; ++k) {
          const float b = bt ? B[n * ldb + k] : B[k * ldb + n];
          mag += std::fabs(static_cast<double>(A[i * lda + k]) * b);
        }
        if (t.bias) mag += std::fabs(bias[n]);
        ok = std::isnan(want) ? std::isnan(got) : std::fabs(static_cast<double>(got) - want) <= 1e-5 * mag;
      }
      if (!ok) {
        std::ostringstream s;
        s << entry_name(entry) << " " << t.describe() << ": C[" << i << "," << n << "] = " << got
          << ", expected " << want << (i == t.M || n >= t.N ? " (padding written)" : "");
        return s.str();
      }
    }
  }
  return "";
}

// Every M, N tail of the 4×8 tile (and a few multiples), small K, with strides, bias, beta and clamp
// varied from case to case so every combination meets many shapes.
inline std::vector<GemmCase> tail_sweep() {
  std::vector<GemmCase> cases;
  const size_t ks[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31};
  size_t variant = 0;
  for (size_t M = 1; M <= 17; ++M)
    for (size_t N = 1; N <= 19; ++N)
      for (size_t K : ks) {
        GemmCase t{M, N, K};
        const size_t v = variant++;
        t.a_pad = (v % 3 == 1) ? 3 : 0;
        t.b_pad = (v % 5 == 2) ? 5 : 0;
        t.c_pad = (v % 4 == 3) ? 2 : 0;
        t.bias = v % 2 == 1;
        t.beta = (v % 7 == 0) ? 1.0f : (v % 7 == 3) ? -0.5f : 0.0f;
        if (v % 6 == 1) t.min = 0.0f;                       // relu
        if (v % 6 == 4) t.min = -0.25f, t.max = 0.25f;      // hardtanh-like, clamps both sides
        cases.push_back(t);
      }
  return cases;
}

// K across the kGemmKC block boundary: bias and beta·C must enter once, the clamp only at the end.
inline std::vector<GemmCase> k_block_sweep() {
  std::vector<GemmCase> cases;
  for (size_t K : {kGemmKC - 1, kGemmKC, kGemmKC + 1, 2 * kGemmKC + 3})
    for (size_t M : {1, 5})
      for (size_t N : {8, 11}) {
        GemmCase t{M, N, K, 1, 2, 3};
        t.bias = true;
        t.beta = 0.75f;
        t.min = -2.0f;
        t.max = 2.0f;
        cases.push_back(t);
        cases.push_back(GemmCase{M, N, K});
      }
  return cases;
}

// Shapes of real layers, and M across the row blocking.
inline std::vector<GemmCase> layer_sweep() {
  std::vector<GemmCase> cases;
  GemmCase mlp{64, 1024, 784};
  mlp.bias = true;
  mlp.min = 0.0f;  // Linear + relu
  cases.push_back(mlp);
  cases.push_back(GemmCase{1, 10, 1024});      // batch-1 classifier head
  cases.push_back(GemmCase{49, 64, 27, 0, 0, 0, true, 0.0f, 0.0f, 6.0f});  // conv stem via im2col, relu6
  cases.push_back(GemmCase{33, 100, 130, 4, 4, 4, true, 1.0f});
  cases.push_back(GemmCase{3, 3, 0, 0, 0, 0, true, 2.0f, -1.0f, 1.0f});    // K = 0: epilogue only
  // Past the kGemmMC row block, ending in a partial row tile and a partial panel.
  cases.push_back(GemmCase{kGemmMC + 3, 13, 20, 1, 1, 1, true, 0.5f, 0.0f});
  cases.push_back(GemmCase{2 * kGemmMC + 4, 16, 7});
  return cases;
}

}  // namespace fx::gemm_testing
