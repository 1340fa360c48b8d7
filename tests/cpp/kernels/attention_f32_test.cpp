// The fused attention kernel against its double-precision reference (attention_f32_testing.h); the same
// sweep runs as SIMD128 in tests/cpp/kernels/attention_f32_wasm_check.cpp.
#include <gtest/gtest.h>

#include "attention_f32_testing.h"

namespace fx {
namespace {

TEST(AttentionF32, SweepMatchesTheScalarReference) {
  int checked = 0;
  const auto fails = attention_testing::check_sweep(checked);
  EXPECT_GT(checked, 300);
  for (size_t i = 0; i < fails.size() && i < 10; ++i) ADD_FAILURE() << fails[i];
}

}  // namespace
}  // namespace fx
