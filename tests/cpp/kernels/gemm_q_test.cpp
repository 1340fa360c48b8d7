#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "gemm_q_testing.h"
#include "kernels/parallel.h"

namespace fx {
namespace {

TEST(GemmQ, EveryCaseMatchesTheScalarReference) {
  int checked = 0;
  for (const qgemm_testing::QCase& t : qgemm_testing::cases()) {
    EXPECT_EQ(qgemm_testing::check_case(t), "");
    ++checked;
  }
  EXPECT_GT(checked, 900);
}

TEST(GemmQ, IntegerPathMatchesTheScalarReferenceWithEveryMicroKernel) {
  int checked = 0;
  for (Q8UkernelFn ukernel : {q8_gemm_ukernel__generic_4x8c2, q8_gemm_default_ukernel()})
    for (const qgemm_testing::QCase& t : qgemm_testing::integer_cases()) {
      EXPECT_EQ(qgemm_testing::check_case(t, ukernel), "");
      ++checked;
    }
  EXPECT_GT(checked, 1300);
}

TEST(GemmQ, IntegerPathIsBitIdenticalForAnyThreadCount) {
  ASSERT_GE(kernels::max_threads(), 3) << "the native build runs threads";
  // Many panels (threads take panels), one panel (threads take row tiles); both worth splitting.
  const size_t shapes[2][3] = {{64, 130, 256}, {130, 8, 2048}};
  for (const auto& s : shapes) {
    const size_t M = s[0], N = s[1], K = s[2];
    qgemm_testing::Lcg rng(M + N + K);
    std::vector<float> A(M * K), scales(N), bias(N);
    std::vector<int8_t> Q(N * K);
    for (float& v : A) v = rng.next();
    for (int8_t& v : Q) v = static_cast<int8_t>(rng.bits());
    for (float& v : scales) v = 0.01f + 0.02f * std::fabs(rng.next());
    for (float& v : bias) v = rng.next();
    GemmParams p;
    p.bias = bias.data();
    std::vector<float> runs[3];
    for (int t = 1; t <= 3; ++t) {
      kernels::set_num_threads(t);
      runs[t - 1].assign(M * N, 0.0f);
      q8_gemm_bt(M, N, K, A.data(), K, Q.data(), K, scales.data(), runs[t - 1].data(), N, p);
    }
    kernels::set_num_threads(1);
    EXPECT_EQ(runs[0], runs[1]) << M << "x" << N << "x" << K;
    EXPECT_EQ(runs[0], runs[2]) << M << "x" << N << "x" << K;
  }
}

TEST(GemmQ, Int4IntegerPathIsBitIdenticalForAnyThreadCount) {
  ASSERT_GE(kernels::max_threads(), 3) << "the native build runs threads";
  const size_t shapes[2][3] = {{64, 130, 256}, {130, 8, 2048}};
  for (const auto& s : shapes) {
    const size_t M = s[0], N = s[1], K = s[2], KB = q4_blocks(K);
    qgemm_testing::Lcg rng(M + N + K + 4);
    std::vector<float> A(M * K), scales(N * KB), bias(N);
    std::vector<uint8_t> Q(N * KB * 16);
    for (float& v : A) v = rng.next();
    for (uint8_t& v : Q) v = static_cast<uint8_t>(rng.bits());
    for (float& v : scales) v = 0.01f + 0.02f * std::fabs(rng.next());
    for (float& v : bias) v = rng.next();
    GemmParams p;
    p.bias = bias.data();
    std::vector<float> runs[3];
    for (int t = 1; t <= 3; ++t) {
      kernels::set_num_threads(t);
      runs[t - 1].assign(M * N, 0.0f);
      q4_gemm_bt(M, N, K, A.data(), K, Q.data(), KB * 16, scales.data(), runs[t - 1].data(), N, p);
    }
    kernels::set_num_threads(1);
    EXPECT_EQ(runs[0], runs[1]) << M << "x" << N << "x" << K;
    EXPECT_EQ(runs[0], runs[2]) << M << "x" << N << "x" << K;
  }
}

TEST(GemmQ, ActivationLevelsKeepTheInt32SumsInRange) {
  EXPECT_EQ(q8_activation_levels(1), 32767u);
  EXPECT_EQ(q8_activation_levels(512), 32767u);
  EXPECT_EQ(q8_activation_levels(1536), 10922u);
  for (size_t K : {1u, 7u, 512u, 513u, 1536u, 4096u, 100000u, 132104u}) {
    const size_t levels = q8_activation_levels(K);
    EXPECT_GE(levels, 127u) << K;
    EXPECT_LE(double(q8_k_padded(K)) * double(levels) * 128.0, 2147483647.0) << K;
  }
  EXPECT_EQ(q8_activation_levels(132104), 127u);
  EXPECT_EQ(q8_activation_levels(132105), 0u);  // the float path takes such a K
  EXPECT_EQ(q8_activation_levels(size_t{1} << 25), 0u);  // 128·K wraps a 32-bit size_t
}

TEST(GemmQ, PackedPanelInterleavesPairsOfEightChannels) {
  // 3 channels (a partial panel), K = 11 (an odd last pair): group g, channel j at bytes 2j, 2j + 1.
  const size_t K = 11, ldq = 13;
  std::vector<int8_t> q(3 * ldq);
  for (size_t i = 0; i < q.size(); ++i) q[i] = static_cast<int8_t>(i % 120 + 1);
  std::vector<int16_t> panel(q8_packed_panel_size(K), 99);
  q8_pack_panel(K, 3, q.data(), ldq, panel.data());
  for (size_t g = 0; g < 6; ++g)
    for (size_t j = 0; j < 8; ++j)
      for (size_t h = 0; h < 2; ++h) {
        const size_t k = 2 * g + h;
        const int16_t want = j < 3 && k < K ? q[j * ldq + k] : 0;
        EXPECT_EQ(panel[g * 16 + 2 * j + h], want) << "g=" << g << " j=" << j << " h=" << h;
      }
  // A full panel takes the same layout (the SIMD build packs 8 k at a time).
  std::vector<int8_t> q8(8 * 21);
  for (size_t i = 0; i < q8.size(); ++i) q8[i] = static_cast<int8_t>(i * 7 % 251 - 125);
  std::vector<int16_t> full(q8_packed_panel_size(19));
  q8_pack_panel(19, 8, q8.data(), 21, full.data());
  for (size_t k = 0; k < 20; ++k)
    for (size_t j = 0; j < 8; ++j)
      EXPECT_EQ(full[k / 2 * 16 + 2 * j + k % 2], k < 19 ? q8[j * 21 + k] : int8_t{0}) << "k=" << k << " j=" << j;
}

TEST(GemmQ, ManyRowsPropagateNonFiniteActivations) {
  // Rows holding inf or NaN cannot be quantised: the float path runs and they propagate as in torch.
  const size_t M = 6, N = 3, K = 5;
  std::vector<float> A(M * K, 0.5f), C(M * N, 0.0f);
  A[2 * K + 1] = std::numeric_limits<float>::quiet_NaN();
  A[4 * K + 3] = std::numeric_limits<float>::infinity();
  std::vector<int8_t> Q(N * K, 1);
  const float scales[3] = {1.0f, 1.0f, 1.0f};
  EXPECT_FALSE(q8_gemm_bt_integer_with(q8_gemm_default_ukernel(), M, N, K, A.data(), K, Q.data(), K, scales,
                                       C.data(), N, {}));
  q8_gemm_bt(M, N, K, A.data(), K, Q.data(), K, scales, C.data(), N);
  EXPECT_FLOAT_EQ(C[0], 2.5f);
  EXPECT_TRUE(std::isnan(C[2 * N]));
  EXPECT_TRUE(std::isinf(C[4 * N + 1]));
}

TEST(GemmQ, FewRowsPropagateNonFiniteActivations) {
  // A NaN used to vanish: std::max skipped it while the row's scale was found, and it was quantised as -8191.
  for (size_t M : {1, 3}) {
    const size_t N = 5, K = 40;
    std::vector<float> A(M * K, 0.5f), C8(M * N, 0.0f), C4(M * N, 0.0f);
    A[(M - 1) * K + 7] = std::numeric_limits<float>::quiet_NaN();
    std::vector<int8_t> Q8(N * K, 1);
    std::vector<uint8_t> Q4(N * q4_blocks(K) * 16, 0x99);
    std::vector<float> scales(N * q4_blocks(K), 1.0f);
    q8_gemm_bt(M, N, K, A.data(), K, Q8.data(), K, scales.data(), C8.data(), N);
    q4_gemm_bt(M, N, K, A.data(), K, Q4.data(), q4_blocks(K) * 16, scales.data(), C4.data(), N);
    for (size_t n = 0; n < N; ++n) {
      EXPECT_TRUE(std::isnan(C8[(M - 1) * N + n])) << "M=" << M << " n=" << n;
      EXPECT_TRUE(std::isnan(C4[(M - 1) * N + n])) << "M=" << M << " n=" << n;
    }
    if (M > 1) EXPECT_FLOAT_EQ(C8[0], 20.0f);
  }
}

TEST(GemmQ, DequantizeRowsGivesTheStoredValues) {
  // int8: value = q · scale.
  const int8_t q8[6] = {-127, 0, 5, 127, -1, 3};
  const float s8[2] = {0.5f, 2.0f};
  float out[6];
  q8_dequantize_rows(2, 3, q8, 3, s8, out);
  EXPECT_EQ(out[0], -63.5f);
  EXPECT_EQ(out[2], 2.5f);
  EXPECT_EQ(out[3], 254.0f);
  EXPECT_EQ(out[5], 6.0f);
  // int4: element j in the low nibble of byte j, element 16 + j in its high nibble; value (nibble − 8)·scale.
  std::vector<uint8_t> q4(32, 0x88);  // K = 40: two blocks, the second partial
  q4[0] = 0xF0;                       // element 0: 0 − 8, element 16: 15 − 8
  q4[16 + 7] = 0x19;                  // element 39: 9 − 8, element 55 (beyond K): ignored
  const float s4[2] = {0.25f, 3.0f};
  std::vector<float> w(40, -1.0f);
  q4_dequantize_rows(1, 40, q4.data(), 32, s4, w.data());
  EXPECT_EQ(w[0], -2.0f);
  EXPECT_EQ(w[16], 1.75f);
  EXPECT_EQ(w[1], 0.0f);
  EXPECT_EQ(w[39], 3.0f);
  EXPECT_EQ(w[38], 0.0f);
}

}  // namespace
}  // namespace fx
