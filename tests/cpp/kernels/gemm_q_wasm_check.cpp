// WebAssembly runner of the int8 / int4 weight GEMM sweep (scripts/test-kernels-wasm.sh builds it with
// em++ -msimd128 and runs it in Node): the SIMD128 dot products cannot run in the native GoogleTest.
// With an argument "bench" it also times a decoder-sized GEMV (one row) in float32, int8 and int4 against
// a plain copy of the int8 weight bytes, the memory roofline.
// extra-sources: cpp/kernels/gemm_f32.cpp cpp/kernels/gemm_f32_generic.cpp cpp/kernels/gemm_f32_scalar.cpp cpp/kernels/gemm_f32_wasmsimd.cpp
#if defined(__EMSCRIPTEN__)
#include <chrono>
#include <functional>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gemm_q_testing.h"

namespace {

double seconds_per_call(const std::function<void()>& fn) {
  fn();
  int reps = 1;
  for (;;) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) fn();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s > 0.3) return s / reps;
    reps *= 2;
  }
}

void bench() {
  // A 6-layer d=384 decoder's Linear weights, one layer's worth: 384→1152, 384→384, 384→1536, 1536→384.
  // Repeated so the set (x 8 layers) exceeds the caches, as in a real decode step.
  const size_t shapes[4][2] = {{1152, 384}, {384, 384}, {1536, 384}, {384, 1536}};
  const int layers = 8;
  size_t elems = 0;
  for (auto& s : shapes) elems += s[0] * s[1];
  elems *= layers;
  std::vector<float> wf(elems, 0.01f), x(1536, 0.5f), y(1536), sc(elems / 32 + 1536, 0.01f);
  std::vector<int8_t> w8(elems, 3);
  std::vector<uint8_t> w4(elems / 2, 0x9a), copy(elems);
  auto run = [&](int kind) {
    size_t off = 0;
    for (int l = 0; l < layers; ++l)
      for (auto& s : shapes) {
        const size_t N = s[0], K = s[1];
        if (kind == 0) fx::f32_gemm_bt_inplace(1, N, K, x.data(), K, wf.data() + off, K, y.data(), N);
        if (kind == 1) fx::q8_gemm_bt(1, N, K, x.data(), K, w8.data() + off, K, sc.data(), y.data(), N);
        if (kind == 2) fx::q4_gemm_bt(1, N, K, x.data(), K, w4.data() + off / 2, K / 2, sc.data(), y.data(), N);
        off += N * K;
      }
  };
  const double tf = seconds_per_call([&] { run(0); });
  const double t8 = seconds_per_call([&] { run(1); });
  const double t4 = seconds_per_call([&] { run(2); });
  const double tc = seconds_per_call([&] { std::memcpy(copy.data(), w8.data(), elems); });
  const double gb = 1e-9;
  std::printf("bench (%zu weights, 1 row): f32 %.3f ms (%.1f GB/s), int8 %.3f ms (%.1f GB/s), "
              "int4 %.3f ms (%.1f GB/s of nibbles+scales); memcpy of the int8 bytes %.3f ms (%.1f GB/s)\n",
              elems, tf * 1e3, elems * 4 * gb / tf, t8 * 1e3, elems * gb / t8, t4 * 1e3,
              (elems / 2 + elems / 8) * gb / t4, tc * 1e3, 2 * elems * gb / tc);
}

}  // namespace

int main(int argc, char** argv) {
  int failed = 0, checked = 0;
  for (const auto& t : fx::qgemm_testing::cases()) {
    ++checked;
    const std::string err = fx::qgemm_testing::check_case(t);
    if (!err.empty()) {
      if (++failed <= 10) std::printf("FAIL %s\n", err.c_str());
    }
  }
  std::printf("gemm_q (wasm SIMD128): %d cases, %d failed\n", checked, failed);
  if (argc > 1 && std::string(argv[1]) == "bench") bench();
  return failed ? 1 : 0;
}
#endif
