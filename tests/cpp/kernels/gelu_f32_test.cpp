// kernels/gelu_f32.h natively (the same vector code as the SIMD128 build; gelu_f32_wasm_check.cpp runs
// these checks in WebAssembly). Accuracy against double precision, measured once over every float in
// [-16, 16] (2.2e9 values, FXWASM_GELU_SWEEP_STRIDE=1): gelu(tanh) 3.40 ulp (x = -2.977891), silu 3.39 ulp
// (x = -3.2112513) at most; mean ~0.5 ulp. gelu (erf) evaluates its erfcx polynomial in float32 lanes
// (a third faster than in double lanes): 7.99 ulp at most over every float (x = -0.32060796), 6.83 at the
// default stride. (torch's own float32 gelu is off by up to ~1.6e-4 relative, thousands of ulp,
// near x = -3.5.) The default run steps the bit pattern by 97 (22.7M values per function).
#include <gtest/gtest.h>

#include <cstdlib>

#include "gelu_f32_testing.h"
#include "kernels/parallel.h"

namespace fx::gelu_testing {
namespace {

uint32_t sweep_stride() {
  const char* s = std::getenv("FXWASM_GELU_SWEEP_STRIDE");
  return s && std::atoi(s) > 0 ? static_cast<uint32_t>(std::atoi(s)) : 97u;
}

TEST(GeluF32Kernel, AccurateAgainstDoubleOverTheWholeRange) {
  for (Fn f : {Fn::GeluErf, Fn::GeluTanh, Fn::Silu}) {
    const Worst w = sweep(f, 16.0f, sweep_stride());
    EXPECT_LE(w.ulp, max_ulp(f)) << name(f) << " worst at x=" << w.x;
    std::printf("%-11s max error %.2f ulp at x=%.9g over %zu values\n", name(f), w.ulp, w.x, w.count);
  }
}

TEST(GeluF32Kernel, SpecialValuesAsTorch) {
  for (Fn f : {Fn::GeluErf, Fn::GeluTanh, Fn::Silu}) EXPECT_EQ(check_specials(f), "") << name(f);
}

TEST(GeluF32Kernel, EverySizeAndTailAndInPlaceMatchElementwise) {
  for (Fn f : {Fn::GeluErf, Fn::GeluTanh, Fn::Silu}) EXPECT_EQ(check_sizes(f), "") << name(f);
}

// An array large enough to be split over two threads: the same bits as one thread.
TEST(GeluF32Kernel, ThreadSplitIsBitIdentical) {
  const int saved = kernels::num_threads();
  std::vector<float> x(300001);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.001f * static_cast<float>(i)) * 9.0f;
  for (Fn f : {Fn::GeluErf, Fn::GeluTanh, Fn::Silu}) {
    std::vector<float> one(x.size()), two(x.size());
    kernels::set_num_threads(1);
    run(f, static_cast<int64_t>(x.size()), x.data(), one.data());
    kernels::set_num_threads(2);
    run(f, static_cast<int64_t>(x.size()), x.data(), two.data());
    EXPECT_EQ(std::memcmp(one.data(), two.data(), x.size() * sizeof(float)), 0) << name(f);
  }
  kernels::set_num_threads(saved);
}

}  // namespace
}  // namespace fx::gelu_testing
