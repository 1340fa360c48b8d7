// WebAssembly runner of the norm_f32 checks (norm_f32_testing.h): the SIMD128 lanes of exp, softmax and
// layer norm. Built by scripts/test-kernels-wasm.sh; empty in the native build.
#if defined(__EMSCRIPTEN__)
#include <cstdio>

#include "norm_f32_testing.h"

int main() {
  double max_ulps = 0;
  int sm = 0, ln = 0;
  const auto e = fx::norm_testing::check_exp(max_ulps);
  const auto s = fx::norm_testing::check_softmax(sm);
  const auto l = fx::norm_testing::check_layer_norm(ln);
  for (const auto* fails : {&e, &s, &l})
    for (size_t i = 0; i < fails->size() && i < 5; ++i) std::printf("  FAIL %s\n", (*fails)[i].c_str());
  std::printf("%-40s max %.2f ulps, %zu failed\n", "exp (SIMD128 polynomial)", max_ulps, e.size());
  std::printf("%-40s %5d checks, %zu failed\n", "softmax / log_softmax rows", sm, s.size());
  std::printf("%-40s %5d checks, %zu failed\n", "layer norm rows", ln, l.size());
  const bool ok = e.empty() && s.empty() && l.empty();
  std::printf("%s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
#endif  // __EMSCRIPTEN__
