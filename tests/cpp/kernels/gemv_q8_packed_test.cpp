// The int8 one-row product over the repacked weight (kernels/gemv_q8_packed.h). Its SIMD128 lanes run in
// tests/cpp/kernels/gemm_q_wasm_check.cpp over the same cases (gemm_q_testing.h's packed_gemv_cases).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "gemm_q_testing.h"
#include "kernels/gemv_q8_packed.h"
#include "kernels/parallel.h"

namespace fx {
namespace {

TEST(GemvQ8Packed, MatchesTheScalarReference) {
  for (const qgemm_testing::QCase& t : qgemm_testing::packed_gemv_cases())
    EXPECT_EQ(qgemm_testing::check_case(t, nullptr, true), "");
}

TEST(GemvQ8Packed, DeclinesNonFiniteActivations) {
  std::vector<int8_t> Q(8 * 16, 1), packed(q8_gemv_packed_size(8, 16));
  q8_pack_gemv(8, 16, Q.data(), 16, packed.data());
  std::vector<float> a(16, 1.0f), scales(8, 1.0f), c(8, -7.0f);
  a[3] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(q8_gemv_packed(8, 16, a.data(), packed.data(), scales.data(), c.data()));
  EXPECT_EQ(c, std::vector<float>(8, -7.0f));
}

TEST(GemvQ8Packed, IsBitIdenticalForAnyThreadCount) {
  const size_t N = 1030, K = 2048;
  qgemm_testing::Lcg rng(N + K);
  std::vector<float> a(K), scales(N), bias(N);
  std::vector<int8_t> Q(N * K), packed(q8_gemv_packed_size(N, K));
  for (float& v : a) v = rng.next();
  for (int8_t& v : Q) v = static_cast<int8_t>(rng.bits());
  for (float& v : scales) v = 0.01f + 0.02f * std::fabs(rng.next());
  for (float& v : bias) v = rng.next();
  q8_pack_gemv(N, K, Q.data(), K, packed.data());
  GemmParams p;
  p.bias = bias.data();
  std::vector<float> runs[3];
  for (int t = 1; t <= 3; ++t) {
    kernels::set_num_threads(t);
    runs[t - 1].assign(N, 0.0f);
    ASSERT_TRUE(q8_gemv_packed(N, K, a.data(), packed.data(), scales.data(), runs[t - 1].data(), p));
  }
  kernels::set_num_threads(1);
  EXPECT_EQ(runs[0], runs[1]);
  EXPECT_EQ(runs[0], runs[2]);
}

}  // namespace
}  // namespace fx
