// The f32 GEMM family against its scalar reference, natively (the generic micro-kernel). The same sweep
// runs on the wasm SIMD128 kernel through scripts/test-kernels-wasm.sh (gemm_f32_wasm_check.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "gemm_f32_testing.h"
#include "kernels/gemm_f32.h"
#include "support/error.h"

namespace fx {
namespace {

using gemm_testing::check_case;
using gemm_testing::Entry;
using gemm_testing::GemmCase;

// Runs every case through every entry, reporting the first few failures in full.
void expect_cases(const std::vector<GemmCase>& cases, GemmUkernelFn ukernel = nullptr) {
  int failures = 0;
  for (const GemmCase& t : cases)
    for (Entry e : gemm_testing::kAllEntries) {
      if (ukernel && e != Entry::kPrepacked && e != Entry::kPrepackedBt) continue;
      const std::string err = check_case(t, e, ukernel);
      if (!err.empty() && ++failures <= 5) ADD_FAILURE() << err;
    }
  EXPECT_EQ(failures, 0) << "of " << cases.size() << " cases";
}

TEST(GemmF32, EveryTileTailWithStridesBiasBetaClamp) { expect_cases(gemm_testing::tail_sweep()); }

TEST(GemmF32, KBlocksApplyEpilogueOnce) { expect_cases(gemm_testing::k_block_sweep()); }

TEST(GemmF32, LayerShapes) { expect_cases(gemm_testing::layer_sweep()); }

TEST(GemmF32, GenericUkernelThroughDriver) {
  expect_cases(gemm_testing::tail_sweep(), f32_gemm_ukernel__generic_4x8);
}

TEST(GemmF32, EmptyProblemsWriteNothing) {
  std::vector<float> C(4, 7.0f);
  const float a = 1.0f, b = 1.0f;
  f32_gemm(0, 2, 3, &a, 3, &b, 2, C.data(), 2, {});
  f32_gemm(2, 0, 3, &a, 3, &b, 0, C.data(), 2, {});
  f32_gemm_bt(0, 2, 3, &a, 3, &b, 3, C.data(), 2, {});
  f32_gemm_bt_inplace(0, 2, 3, &a, 3, &b, 3, C.data(), 2, {});
  f32_gemm_bt_inplace(6, 0, 3, &a, 3, &b, 3, C.data(), 0, {});
  for (float c : C) EXPECT_EQ(c, 7.0f);
}

TEST(GemmF32, ZeroKGivesBiasAndBeta) {
  std::vector<float> C = {1, 2, 3, 4, 5, 6};
  const float bias[3] = {10, 20, 30};
  GemmParams p;
  p.bias = bias;
  p.beta = 2.0f;
  std::vector<float> C2 = C, C3(18, 1.0f);
  f32_gemm(2, 3, 0, nullptr, 0, nullptr, 3, C.data(), 3, p);
  EXPECT_EQ(C, (std::vector<float>{12, 24, 36, 18, 30, 42}));
  f32_gemm_bt_inplace(2, 3, 0, nullptr, 0, nullptr, 0, C2.data(), 3, p);  // dot products
  EXPECT_EQ(C2, C);
  f32_gemm_bt_inplace(6, 3, 0, nullptr, 0, nullptr, 0, C3.data(), 3, p);  // the transposed product
  for (size_t i = 0; i < C3.size(); ++i) EXPECT_EQ(C3[i], bias[i % 3] + 2.0f) << i;
}

TEST(GemmF32, NanPassesThroughFusedRelu) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> A = {nan, 1.0f, -1.0f, -2.0f};  // 2×2
  std::vector<float> B = {1.0f, 0.0f, 0.0f, 1.0f};   // identity
  std::vector<float> C(4);
  GemmParams relu;
  relu.min = 0.0f;
  f32_gemm(2, 2, 2, A.data(), 2, B.data(), 2, C.data(), 2, relu);
  EXPECT_TRUE(std::isnan(C[0]));
  EXPECT_TRUE(std::isnan(C[1]));  // NaN · 0 is NaN: the NaN row stays NaN, the relu does not hide it
  EXPECT_EQ(C[2], 0.0f);
  EXPECT_EQ(C[3], 0.0f);
  // B in place: 2 rows (dot products) and the same 2 rows among 6 (the transposed product).
  std::vector<float> A6 = A, C6(12);
  A6.resize(12, 0.5f);
  f32_gemm_bt_inplace(2, 2, 2, A.data(), 2, B.data(), 2, C.data(), 2, relu);
  f32_gemm_bt_inplace(6, 2, 2, A6.data(), 2, B.data(), 2, C6.data(), 2, relu);
  for (const float* c : {C.data(), C6.data()}) {
    EXPECT_TRUE(std::isnan(c[0]));
    EXPECT_TRUE(std::isnan(c[1]));
    EXPECT_EQ(c[2], 0.0f);
    EXPECT_EQ(c[3], 0.0f);
  }
  EXPECT_EQ(C6[4], 0.5f);
}

TEST(GemmF32, PackedSizeCoversPaddedPanels) {
  EXPECT_EQ(f32_gemm_packed_b_size(5, 8), 5u * kGemmNR);
  EXPECT_EQ(f32_gemm_packed_b_size(5, 9), 5u * 2 * kGemmNR);
  EXPECT_EQ(f32_gemm_packed_b_size(0, 9), 0u);
}

TEST(GemmF32, RejectsStridesShorterThanRows) {
  std::vector<float> buf(64);
  EXPECT_THROW(f32_gemm(2, 4, 4, buf.data(), 3, buf.data(), 4, buf.data(), 4, {}), FxError);
  EXPECT_THROW(f32_gemm(2, 4, 4, buf.data(), 4, buf.data(), 3, buf.data(), 4, {}), FxError);
  EXPECT_THROW(f32_gemm(2, 4, 4, buf.data(), 4, buf.data(), 4, buf.data(), 3, {}), FxError);
  EXPECT_THROW(f32_gemm_bt(2, 4, 4, buf.data(), 4, buf.data(), 3, buf.data(), 4, {}), FxError);
  EXPECT_THROW(f32_gemm_pack_b(4, 4, buf.data(), 3, buf.data()), FxError);
  EXPECT_THROW(f32_gemm_pack_bt(4, 4, buf.data(), 3, buf.data()), FxError);
}

TEST(GemmF32, NamesItsUkernel) {
#if defined(__wasm_simd128__)
  EXPECT_STREQ(f32_gemm_ukernel_name(), "wasmsimd_4x8");
#else
  EXPECT_STREQ(f32_gemm_ukernel_name(), "generic_4x8");
#endif
}

}  // namespace
}  // namespace fx
