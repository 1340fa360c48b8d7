// WebAssembly runner of the attention_f32 checks (attention_f32_testing.h): the fused kernel's SIMD128 mask,
// exp and weighted-row passes and the GEMM micro-kernel it tiles with. Built by scripts/test-kernels-wasm.sh;
// empty in the native build.
// extra-sources: cpp/kernels/gemm_f32.cpp cpp/kernels/gemm_f32_wasmsimd.cpp cpp/kernels/gemm_f32_generic.cpp cpp/kernels/norm_f32.cpp
#if defined(__EMSCRIPTEN__)
#include <cstdio>

#include "attention_f32_testing.h"

int main() {
  int checked = 0;
  const auto fails = fx::attention_testing::check_sweep(checked);
  for (size_t i = 0; i < fails.size() && i < 10; ++i) std::printf("  FAIL %s\n", fails[i].c_str());
  std::printf("%-40s %5d cases, %zu failed\n", "attention (fused, SIMD128)", checked, fails.size());
  std::printf("%s\n", fails.empty() ? "OK" : "FAILED");
  return fails.empty() ? 0 : 1;
}
#endif  // __EMSCRIPTEN__
