// WebAssembly runner of the Winograd sweep (see winograd_f32_testing.h): the SIMD128 GEMM micro-kernel and
// four-tile transforms. Built by scripts/test-kernels-wasm.sh with the sources named on the next line;
// empty in the native build.
// extra-sources: cpp/kernels/gemm_f32.cpp cpp/kernels/gemm_f32_wasmsimd.cpp cpp/kernels/gemm_f32_generic.cpp
#if defined(__EMSCRIPTEN__)
#include <cstdio>

#include "winograd_f32_testing.h"

int main() {
  int checked = 0, failed = 0;
  for (const auto& c : fx::winograd_testing::sweep()) {
    ++checked;
    const std::string e = fx::winograd_testing::check(c);
    if (!e.empty() && ++failed <= 5) std::printf("  FAIL %s\n", e.c_str());
  }
  std::printf("%-40s %5d checks, %d failed\n", "Winograd F(2x2,3x3) conv (SIMD128)", checked, failed);
  std::printf("%s\n", failed == 0 ? "OK" : "FAILED");
  return failed == 0 ? 0 : 1;
}
#endif  // __EMSCRIPTEN__
