// WebAssembly runner of the max-pool sweep (see pool_f32_testing.h): the SIMD128 kernel against
// max_pool_plane. Built by scripts/test-kernels-wasm.sh; empty in the native build.
#if defined(__EMSCRIPTEN__)
#include <cstdio>

#include "pool_f32_testing.h"

int main() {
  int checked = 0;
  const auto fails = fx::pool_testing::max_pool_sweep(checked, 1000);
  for (size_t i = 0; i < fails.size() && i < 5; ++i) std::printf("  FAIL %s\n", fails[i].c_str());
  std::printf("%-40s %5d checks, %zu failed\n", "max pool (SIMD128)", checked, fails.size());
  std::printf("%s\n", fails.empty() ? "OK" : "FAILED");
  return fails.empty() ? 0 : 1;
}
#endif  // __EMSCRIPTEN__
