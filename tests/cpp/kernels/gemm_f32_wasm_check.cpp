// WebAssembly runner of the GEMM sweep: the native GoogleTest cannot run the SIMD128 micro-kernel, so
// scripts/test-kernels-wasm.sh builds this file with em++ -msimd128 and runs it in Node. It checks the
// entries f32_gemm* use in this build (the SIMD kernel) and the generic kernel compiled for wasm, and
// exits non-zero on any mismatch.
//
// This folder's *.cpp are also globbed into the native test binary; there this file is empty (its cases
// run under GoogleTest in gemm_f32_test.cpp).
#if defined(__EMSCRIPTEN__)
#include <cstdio>
#include <string>
#include <vector>

#include "gemm_f32_testing.h"

namespace {

using fx::gemm_testing::Entry;
using fx::gemm_testing::GemmCase;

struct Tally {
  int checked = 0, failed = 0;
};

void run(const char* name, const std::vector<GemmCase>& cases, fx::GemmUkernelFn ukernel, Tally& tally) {
  int failed = 0, checked = 0;
  for (const GemmCase& t : cases)
    for (Entry e : fx::gemm_testing::kAllEntries) {
      if (ukernel && e != Entry::kPrepacked && e != Entry::kPrepackedBt) continue;
      ++checked;
      const std::string err = fx::gemm_testing::check_case(t, e, ukernel);
      if (!err.empty() && ++failed <= 5) std::printf("  FAIL %s\n", err.c_str());
    }
  std::printf("%-40s %5d checks, %d failed\n", name, checked, failed);
  tally.checked += checked;
  tally.failed += failed;
}

}  // namespace

int main() {
  std::printf("f32 GEMM wasm check, ukernel %s\n", fx::f32_gemm_ukernel_name());
  Tally tally;
  run("tails (default ukernel)", fx::gemm_testing::tail_sweep(), nullptr, tally);
  run("K blocks (default ukernel)", fx::gemm_testing::k_block_sweep(), nullptr, tally);
  run("layer shapes (default ukernel)", fx::gemm_testing::layer_sweep(), nullptr, tally);
  run("tails (generic ukernel)", fx::gemm_testing::tail_sweep(), fx::f32_gemm_ukernel__generic_4x8, tally);
  run("K blocks (generic ukernel)", fx::gemm_testing::k_block_sweep(), fx::f32_gemm_ukernel__generic_4x8, tally);
  std::printf("%s: %d checks, %d failed\n", tally.failed ? "FAILED" : "OK", tally.checked, tally.failed);
  return tally.failed ? 1 : 0;
}
#endif  // __EMSCRIPTEN__
