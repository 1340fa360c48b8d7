// WebAssembly runner of the conv2d_f32 sweeps (see conv2d_f32_testing.h): the SIMD128 GEMM micro-kernel
// under the implicit-GEMM convolution and the SIMD128 depthwise 3×3. Built by scripts/test-kernels-wasm.sh
// with the sources named on the next line; empty in the native build.
// extra-sources: cpp/kernels/gemm_f32.cpp cpp/kernels/gemm_f32_wasmsimd.cpp cpp/kernels/gemm_f32_generic.cpp
#if defined(__EMSCRIPTEN__)
#include <cstdio>

#include "conv2d_f32_testing.h"

int main() {
  int checked = 0, failed = 0;
  for (const auto& c : fx::conv_testing::conv_sweep()) {
    ++checked;
    const std::string e = fx::conv_testing::check_conv(c);
    if (!e.empty() && ++failed <= 5) std::printf("  FAIL %s\n", e.c_str());
  }
  std::printf("%-40s %5d checks, %d failed\n", "implicit-GEMM conv (default ukernel)", checked, failed);
  int dw_checked = 0;
  const auto dw_fails = fx::conv_testing::dw_sweep(dw_checked, 1000);
  for (size_t i = 0; i < dw_fails.size() && i < 5; ++i) std::printf("  FAIL %s\n", dw_fails[i].c_str());
  std::printf("%-40s %5d checks, %zu failed\n", "depthwise 3x3 (SIMD128)", dw_checked, dw_fails.size());
  const bool ok = failed == 0 && dw_fails.empty();
  std::printf("%s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
#endif  // __EMSCRIPTEN__
