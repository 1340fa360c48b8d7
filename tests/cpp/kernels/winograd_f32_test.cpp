// kernels/winograd_f32.h against the direct reference, natively (generic micro-kernel, scalar transforms).
// The same sweep runs on the SIMD128 kernels through scripts/test-kernels-wasm.sh (winograd_f32_wasm_check.cpp).
#include <gtest/gtest.h>

#include "kernels/parallel.h"
#include "winograd_f32_testing.h"

namespace fx {
namespace {

TEST(WinogradF32, MatchesDirectConvolutionAcrossTailsPaddingsAndEpilogues) {
  int failures = 0;
  const auto cases = winograd_testing::sweep();
  for (const auto& c : cases) {
    const std::string e = winograd_testing::check(c);
    if (!e.empty() && ++failures <= 5) ADD_FAILURE() << e;
  }
  EXPECT_EQ(failures, 0) << "of " << cases.size() << " cases";
}

TEST(WinogradF32, AppliesToDense3x3Stride1Only) {
  kernels::ConvGeom g;
  g.C = 16, g.H = g.W = 8, g.KH = g.KW = 3, g.PH = g.PW = 1, g.OH = g.OW = 8;
  EXPECT_TRUE(kernels::f32_winograd_applies(g, 16));
  EXPECT_FALSE(kernels::f32_winograd_applies(g, kernels::kWinogradMinChannels - 1));
  kernels::ConvGeom s = g;
  s.SH = s.SW = 2;
  EXPECT_FALSE(kernels::f32_winograd_applies(s, 16));
  kernels::ConvGeom d = g;
  d.DH = d.DW = 2;
  EXPECT_FALSE(kernels::f32_winograd_applies(d, 16));
  kernels::ConvGeom k = g;
  k.KH = k.KW = 5;
  EXPECT_FALSE(kernels::f32_winograd_applies(k, 16));
}

TEST(WinogradF32, BitIdenticalForAnyThreadCount) {
  ASSERT_GE(kernels::max_threads(), 3) << "the native build runs threads";
  // Many tiles (threads take blocks of tiles), few tiles (threads take output channels), too small to split.
  for (const winograd_testing::Case& c :
       {winograd_testing::Case{64, 64, 30, 30, 1, true, true, false, 0.0f, 1e30f},
        winograd_testing::Case{64, 60, 14, 14, 1, true, false, false, -1e30f, 1e30f},  // few tiles: split by OC
        winograd_testing::Case{16, 12, 7, 7, 1, true, false, false, -1e30f, 1e30f}}) {
    std::vector<float> one, two, three;
    ASSERT_EQ(winograd_testing::check(c, &one), "");
    kernels::set_num_threads(2);
    ASSERT_EQ(winograd_testing::check(c, &two), "");
    kernels::set_num_threads(3);
    ASSERT_EQ(winograd_testing::check(c, &three), "");
    kernels::set_num_threads(1);
    EXPECT_EQ(one, two) << winograd_testing::describe(c);
    EXPECT_EQ(one, three) << winograd_testing::describe(c);
  }
}

}  // namespace
}  // namespace fx
