#include "kernels/norm_f32.h"

#include <gtest/gtest.h>

#include "norm_f32_testing.h"

namespace fx::kernels {
namespace {

std::string first(const std::vector<std::string>& fails) { return fails.empty() ? "" : fails.front(); }

TEST(NormF32, ExpWithinTwoUlpsOverFloat32Range) {
  double max_ulps = 0;
  const auto fails = norm_testing::check_exp(max_ulps);
  EXPECT_TRUE(fails.empty()) << first(fails);
  EXPECT_LE(max_ulps, 2.0);
}

TEST(NormF32, SoftmaxRowsMatchDoubleKernelOnEveryTail) {
  int checked = 0;
  const auto fails = norm_testing::check_softmax(checked);
  EXPECT_TRUE(fails.empty()) << first(fails);
  EXPECT_GT(checked, 4000);
}

TEST(NormF32, LayerNormRowsMatchDoubleKernelWithAndWithoutAffine) {
  int checked = 0;
  const auto fails = norm_testing::check_layer_norm(checked);
  EXPECT_TRUE(fails.empty()) << first(fails);
  EXPECT_GT(checked, 15000);
}

}  // namespace
}  // namespace fx::kernels
