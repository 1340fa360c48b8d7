// kernels/conv2d_f32.h against the direct references, natively (generic micro-kernel, scalar depthwise).
// The same sweeps run on the SIMD128 kernels through scripts/test-kernels-wasm.sh (conv2d_f32_wasm_check.cpp).
#include <gtest/gtest.h>

#include "conv2d_f32_testing.h"

namespace fx {
namespace {

TEST(Conv2dF32, ImplicitGemmMatchesReferenceAcrossTailsAndEpilogues) {
  int failures = 0;
  const auto cases = conv_testing::conv_sweep();
  for (const auto& c : cases) {
    const std::string e = conv_testing::check_conv(c);
    if (!e.empty() && ++failures <= 5) ADD_FAILURE() << e;
  }
  EXPECT_EQ(failures, 0) << "of " << cases.size() << " cases";
}

TEST(Conv2dF32, Depthwise3x3MatchesReference) {
  int checked = 0;
  for (const std::string& e : conv_testing::dw_sweep(checked)) ADD_FAILURE() << e;
  EXPECT_GT(checked, 100);
}

}  // namespace
}  // namespace fx
