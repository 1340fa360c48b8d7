// WebAssembly runner of the gelu_f32 checks (see gelu_f32_testing.h): the kernel's vector code as
// SIMD128. Built by scripts/test-kernels-wasm.sh; empty in the native build.
#if defined(__EMSCRIPTEN__)
#include <cstdio>

#include "gelu_f32_testing.h"

int main() {
  using namespace fx::gelu_testing;
  bool ok = true;
  for (Fn f : {Fn::GeluErf, Fn::GeluTanh, Fn::Silu}) {
    const Worst w = sweep(f, 16.0f, 997);
    const std::string specials = check_specials(f), sizes = check_sizes(f);
    const bool good = w.ulp <= max_ulp(f) && specials.empty() && sizes.empty();
    std::printf("%-40s %zu values, max %.2f ulp at %.9g%s%s%s\n", name(f), w.count, w.ulp, w.x,
                good ? "" : " FAILED", specials.c_str(), sizes.c_str());
    ok = ok && good;
  }
  std::printf("%s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
#endif  // __EMSCRIPTEN__
