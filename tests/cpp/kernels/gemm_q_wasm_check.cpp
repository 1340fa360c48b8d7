// WebAssembly runner of the int8 / int4 weight GEMM sweep (scripts/test-kernels-wasm.sh builds it with
// em++ -msimd128 and runs it in Node): the SIMD128 dot products cannot run in the native GoogleTest.
// With an argument "bench" it also times a decoder-sized GEMV (one row) in float32, int8 and int4 against
// a plain copy of the int8 weight bytes, the memory roofline, and an encoder layer's products at 128 rows.
// extra-sources: cpp/kernels/gemv_q8_packed.cpp cpp/kernels/gemm_f32.cpp cpp/kernels/gemm_f32_generic.cpp cpp/kernels/gemm_f32_scalar.cpp cpp/kernels/gemm_f32_wasmsimd.cpp
#if defined(__EMSCRIPTEN__)
#include <chrono>
#include <functional>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gemm_q_testing.h"
#include "kernels/gemm_q_common.h"

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
  std::vector<int8_t> packed(elems);  // the shapes' N and K are multiples of 4 and 16: no padding
  {
    size_t off = 0;
    for (int l = 0; l < layers; ++l)
      for (auto& s : shapes) {
        fx::q8_pack_gemv(s[0], s[1], w8.data() + off, s[1], packed.data() + off);
        off += s[0] * s[1];
      }
  }
  auto run = [&](int kind) {
    size_t off = 0;
    for (int l = 0; l < layers; ++l)
      for (auto& s : shapes) {
        const size_t N = s[0], K = s[1];
        if (kind == 3) fx::q8_gemv_packed(N, K, x.data(), packed.data() + off, sc.data(), y.data());
        if (kind == 0) fx::f32_gemm_bt_inplace(1, N, K, x.data(), K, wf.data() + off, K, y.data(), N);
        if (kind == 1) fx::q8_gemm_bt(1, N, K, x.data(), K, w8.data() + off, K, sc.data(), y.data(), N);
        if (kind == 2) fx::q4_gemm_bt(1, N, K, x.data(), K, w4.data() + off / 2, K / 2, sc.data(), y.data(), N);
        off += N * K;
      }
  };
  const double tf = seconds_per_call([&] { run(0); });
  const double t8 = seconds_per_call([&] { run(1); });
  const double t4 = seconds_per_call([&] { run(2); });
  const double t8p = seconds_per_call([&] { run(3); });
  const double tc = seconds_per_call([&] { std::memcpy(copy.data(), w8.data(), elems); });
  const double gb = 1e-9;
  std::printf("bench (%zu weights, 1 row): f32 %.3f ms (%.1f GB/s), int8 rows %.3f ms (%.1f GB/s), int8 packed "
              "%.3f ms (%.1f GB/s), int4 %.3f ms (%.1f GB/s of nibbles+scales); memcpy of the int8 bytes %.3f ms "
              "(%.1f GB/s)\n",
              elems, tf * 1e3, elems * 4 * gb / tf, t8 * 1e3, elems * gb / t8, t8p * 1e3, elems * gb / t8p, t4 * 1e3,
              (elems / 2 + elems / 8) * gb / t4, tc * 1e3, 2 * elems * gb / tc);
}

// An encoder layer's Linear products at 128 rows (MiniLM: d = 384, FFN 1536): float32 (weight read in
// place), int8 dequantised panel by panel into the float32 GEMM (the path before the integer one), and the
// integer path.
void bench_rows(size_t M) {
  const size_t shapes[4][2] = {{384, 384}, {384, 384}, {1536, 384}, {384, 1536}};  // N, K; Q/K/V/out alike
  size_t elems = 0, macs = 0;
  for (auto& s : shapes) elems += s[0] * s[1], macs += M * s[0] * s[1];
  std::vector<float> wf(elems, 0.01f), x(M * 1536), y(M * 1536), sc(1536, 0.01f);
  std::vector<int8_t> w8(elems);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 17) * 0.1f - 0.8f;
  for (size_t i = 0; i < elems; ++i) w8[i] = static_cast<int8_t>(i * 37 % 255 - 127);
  std::vector<uint8_t> w4(elems / 2);
  std::vector<float> s4(elems / 32, 0.01f);
  for (size_t i = 0; i < w4.size(); ++i) w4[i] = static_cast<uint8_t>(i * 37 % 256);
  auto run = [&](int kind) {
    size_t off = 0;
    for (auto& s : shapes) {
      const size_t N = s[0], K = s[1];
      if (kind == 0) fx::f32_gemm_bt_inplace(M, N, K, x.data(), K, wf.data() + off, K, y.data(), N);
      if (kind == 1)
        fx::qgemm::panels(M, N, K, x.data(), K, y.data(), N, {}, [&](size_t n0, size_t nb, float* out) {
          fx::q8_dequantize_rows(nb, K, w8.data() + off + n0 * K, K, sc.data() + n0, out);
        });
      if (kind == 2) fx::q8_gemm_bt(M, N, K, x.data(), K, w8.data() + off, K, sc.data(), y.data(), N);
      if (kind == 3)
        fx::qgemm::panels(M, N, K, x.data(), K, y.data(), N, {}, [&](size_t n0, size_t nb, float* out) {
          fx::q4_dequantize_rows(nb, K, w4.data() + off / 2 + n0 * K / 2, K / 2, s4.data() + off / 32 + n0 * K / 32, out);
        });
      if (kind == 4) fx::q4_gemm_bt(M, N, K, x.data(), K, w4.data() + off / 2, K / 2, s4.data() + off / 32, y.data(), N);
      off += N * K;
    }
  };
  const double tf = seconds_per_call([&] { run(0); });
  const double td = seconds_per_call([&] { run(1); });
  const double ti = seconds_per_call([&] { run(2); });
  const double t4d = seconds_per_call([&] { run(3); });
  const double t4i = seconds_per_call([&] { run(4); });
  std::printf("bench (%zu rows, an encoder layer's Linear shapes): f32 %.3f ms (%.1f GMAC/s), int8 dequantised "
              "panels %.3f ms (%.1f), int8 integer %s %.3f ms (%.1f)\n",
              M, tf * 1e3, macs * 1e-9 / tf, td * 1e3, macs * 1e-9 / td, fx::q8_gemm_ukernel_name(), ti * 1e3,
              macs * 1e-9 / ti);
  std::printf("bench (%zu rows): int4 dequantised panels %.3f ms (%.1f GMAC/s), int4 integer %.3f ms (%.1f)\n", M,
              t4d * 1e3, macs * 1e-9 / t4d, t4i * 1e3, macs * 1e-9 / t4i);
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
  // The int8 integer path with each micro-kernel, the SIMD128 one and the generic one compiled for wasm.
  for (fx::Q8UkernelFn ukernel : {fx::q8_gemm_ukernel__wasmsimd_4x8c2, fx::q8_gemm_ukernel__generic_4x8c2})
    for (const auto& t : fx::qgemm_testing::integer_cases()) {
      ++checked;
      const std::string err = fx::qgemm_testing::check_case(t, ukernel);
      if (!err.empty()) {
        if (++failed <= 10) std::printf("FAIL %s\n", err.c_str());
      }
    }
  for (const auto& t : fx::qgemm_testing::packed_gemv_cases()) {
    ++checked;
    const std::string err = fx::qgemm_testing::check_case(t, nullptr, true);
    if (!err.empty()) {
      if (++failed <= 10) std::printf("FAIL %s\n", err.c_str());
    }
  }
  // size_t is 32 bits here: the levels' bound must not wrap for a long K.
  ++checked;
  if (fx::q8_activation_levels(size_t{1} << 25) != 0 || fx::q8_activation_levels(1536) != 10922) {
    ++failed;
    std::printf("FAIL q8_activation_levels on wasm32\n");
  }
  std::printf("gemm_q (wasm SIMD128): %d cases, %d failed\n", checked, failed);
  if (argc > 1 && std::string(argv[1]) == "bench") {
    bench();
    bench_rows(128);
  }
  return failed ? 1 : 0;
}
#endif
