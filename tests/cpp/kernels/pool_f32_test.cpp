// kernels/pool_f32.h against max_pool_plane, natively (the portable loop). The same sweep runs on the
// SIMD128 kernel through scripts/test-kernels-wasm.sh (pool_f32_wasm_check.cpp).
#include <gtest/gtest.h>

#include "pool_f32_testing.h"

namespace fx {
namespace {

TEST(PoolF32, MaxPoolMatchesReferenceBitForBit) {
  int checked = 0;
  for (const std::string& e : pool_testing::max_pool_sweep(checked)) ADD_FAILURE() << e;
  EXPECT_GT(checked, 1000);
}

}  // namespace
}  // namespace fx
