// GFLOP/s of the f32 GEMM family on layer-sized problems. Built for wasm by scripts/bench-gemm.sh (run in
// Node) and buildable natively (g++ -O3 -Icpp bench/gemm_f32_bench.cpp cpp/kernels/gemm_f32*.cpp).
//
// V8 first runs a wasm function in its baseline tier and swaps in optimized code for later calls, so each
// measurement warms up first; the numbers are what a page sees from its second inference on.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "kernels/gemm_f32.h"
#include "kernels/gemm_f32_ukernel.h"

namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Stats {
  double best, median, first;  // GFLOP/s; first: the first call, mostly in V8's baseline tier
};

// Warm up, then 31 samples of enough calls to last ≥ 5 ms each. The best sample is the kernel's speed
// when it has the core to itself; the median shows what a busy machine gives.
Stats measure(double flops, const std::function<void()>& call) {
  const double cold = now_seconds();
  call();
  const double first = flops / std::max(now_seconds() - cold, 1e-9) / 1e9;
  for (int i = 0; i < 4; ++i) call();
  const double t0 = now_seconds();
  call();
  const double one = std::max(now_seconds() - t0, 1e-7);
  const int reps = std::max(1, static_cast<int>(0.005 / one));
  std::vector<double> rates;
  for (int s = 0; s < 31; ++s) {
    const double start = now_seconds();
    for (int r = 0; r < reps; ++r) call();
    rates.push_back(flops * reps / (now_seconds() - start) / 1e9);
  }
  std::sort(rates.begin(), rates.end());
  return {rates.back(), rates[rates.size() / 2], first};
}

void bench(const char* what, size_t M, size_t N, size_t K) {
  std::vector<float> A(M * K), B(K * N), Bt(N * K), C(M * N), bias(N);
  for (size_t i = 0; i < A.size(); ++i) A[i] = static_cast<float>((i * 7919) % 1000) / 1000.0f - 0.5f;
  for (size_t i = 0; i < B.size(); ++i) B[i] = static_cast<float>((i * 104729) % 1000) / 1000.0f - 0.5f;
  for (size_t i = 0; i < Bt.size(); ++i) Bt[i] = B[(i % K) * N + i / K];
  std::vector<float> packed(fx::f32_gemm_packed_b_size(K, N));
  fx::f32_gemm_pack_bt(K, N, Bt.data(), K, packed.data());
  fx::GemmParams p;
  p.bias = bias.data();
  p.min = 0.0f;  // Linear + relu, as the MLP runs it
  const double flops = 2.0 * M * N * K;

  const Stats pre = measure(flops, [&] {
    fx::f32_gemm_prepacked(M, N, K, A.data(), K, packed.data(), C.data(), N, p);
  });
  const Stats bt = measure(flops, [&] { fx::f32_gemm_bt(M, N, K, A.data(), K, Bt.data(), K, C.data(), N, p); });
  const Stats gen = measure(flops, [&] {
    fx::f32_gemm_prepacked_with(fx::f32_gemm_ukernel__generic_4x8, M, N, K, A.data(), K, packed.data(),
                                C.data(), N, p);
  });
  std::printf("%-27s %5zu %5zu %5zu | %6.1f %6.1f %6.1f | %6.1f %6.1f | %6.1f %6.1f\n", what, M, N, K,
              pre.first, pre.median, pre.best, bt.median, bt.best, gen.median, gen.best);
}

// The attention products of a decoder: `batch` independent [M, K] @ [K, N] with B unpacked, as matmul runs
// them (scores = q @ kᵀ reaches f32_gemm_bt, probabilities @ v reaches f32_gemm).
void bench_batched(const char* what, size_t batch, size_t M, size_t N, size_t K, bool b_transposed) {
  std::vector<float> A(batch * M * K), B(batch * K * N), C(batch * M * N);
  for (size_t i = 0; i < A.size(); ++i) A[i] = static_cast<float>((i * 7919) % 1000) / 1000.0f - 0.5f;
  for (size_t i = 0; i < B.size(); ++i) B[i] = static_cast<float>((i * 104729) % 1000) / 1000.0f - 0.5f;
  const Stats s = measure(2.0 * batch * M * N * K, [&] {
    for (size_t b = 0; b < batch; ++b) {
      const float* a = A.data() + b * M * K;
      const float* bm = B.data() + b * K * N;
      float* c = C.data() + b * M * N;
      if (b_transposed) fx::f32_gemm_bt(M, N, K, a, K, bm, K, c, N);
      else fx::f32_gemm(M, N, K, a, K, bm, N, c, N);
    }
  });
  std::printf("%-27s %5zu %5zu %5zu | %6.1f %6.1f %6.1f | (%zu products, %s)\n", what, M, N, K, s.first, s.median,
              s.best, batch, b_transposed ? "f32_gemm_bt" : "f32_gemm");
}

}  // namespace

int main(int argc, char** argv) {
  std::printf("f32 GEMM, ukernel %s, GFLOP/s median / best of 31 samples after warm-up\n",
              fx::f32_gemm_ukernel_name());
  std::printf("%-27s %5s %5s %5s | %-20s | %-13s | %-13s\n", "problem", "M", "N", "K",
              "prepacked 1st/med/best", "f32_gemm_bt", "generic ukernel");
  bench("MLP 784->1024, batch 64", 64, 1024, 784);
  bench("MLP 1024->1024, batch 64", 64, 1024, 1024);
  bench("MLP 1024->10, batch 64", 64, 10, 1024);
  bench("Linear 784->1024, batch 1", 1, 1024, 784);
  bench("conv3x3 64ch 56x56 (NHWC)", 3136, 64, 576);
  bench("conv3x3 64ch 56x56 (NCHW)", 64, 3136, 576);
  bench("conv1x1 512ch 7x7", 49, 512, 512);
  bench("square 256", 256, 256, 256);
  bench("odd 67x93x101", 67, 93, 101);
  // The Linear layers of the bench model decoder_block (batch 2 × 16 tokens, width 64) and its attention.
  bench("decoder qkv 64->192", 32, 192, 64);
  bench("decoder proj 64->64", 32, 64, 64);
  bench("decoder fc / head 64->256", 32, 256, 64);
  bench("decoder fc_out 256->64", 32, 64, 256);
  bench_batched("decoder q @ k^T, 2x2 heads", 4, 16, 16, 32, true);
  bench_batched("decoder p @ v, 2x2 heads", 4, 16, 32, 16, false);
  return 0;
}
