// kernels/parallel.h: the fixed split covers every item once, and the threaded GEMM and convolution give
// bit-identical results for any thread count (natively; the wasm threads variant is checked in
// tests/js/threads.test.js).
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "kernels/conv2d_f32.h"
#include "kernels/gemm_f32.h"
#include "kernels/parallel.h"

namespace fx {
namespace {

// Restores one thread after each test (the setting is global).
struct Threads {
  explicit Threads(int n) { kernels::set_num_threads(n); }
  ~Threads() { kernels::set_num_threads(1); }
};

std::vector<float> random_floats(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

TEST(Parallel, SplitCoversEveryItemOnce) {
  for (int threads : {1, 2, 3, 4, 7}) {
    Threads t(threads);
    EXPECT_EQ(kernels::num_threads(), threads);
    for (size_t n : {0, 1, 2, 3, 5, 64, 1000}) {
      std::vector<std::atomic<int>> hits(n);
      kernels::parallel_for(n, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) hits[i].fetch_add(1);
      });
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "n=" << n << " threads=" << threads;
    }
  }
}

TEST(Parallel, JobsInAHotSectionCoverEveryItemOnce) {
  // Within a HotSection the workers spin between jobs and the caller spins until each job is done
  // (no sleep on the condition variable): many small back-to-back jobs, as a decoding step's GEMVs, then
  // jobs after the section has ended (the workers sleep again).
  for (int threads : {2, 3}) {
    Threads t(threads);
    std::vector<std::atomic<int>> hits(37);
    const auto hit = [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) hits[i].fetch_add(1);
    };
    {
      const kernels::HotSection hot;
      for (int job = 0; job < 2000; ++job) kernels::parallel_for(hits.size(), hit);
    }
    for (int job = 0; job < 20; ++job) kernels::parallel_for(hits.size(), hit);
    for (size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i].load(), 2020) << "threads=" << threads;
  }
}

TEST(Parallel, NestedCallsRunInline) {
  Threads t(3);
  std::atomic<int> total{0};
  kernels::parallel_for(6, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i)
      kernels::parallel_for(4, [&](size_t b2, size_t e2) { total += static_cast<int>(e2 - b2); });
  });
  EXPECT_EQ(total.load(), 24);
}

TEST(Parallel, ThreadCountIsClamped) {
  EXPECT_EQ(kernels::set_num_threads(0), 1);
  EXPECT_EQ(kernels::set_num_threads(-5), 1);
  EXPECT_EQ(kernels::set_num_threads(1 << 20), kernels::max_threads());
  kernels::set_num_threads(1);
}

TEST(Parallel, GemmIsBitIdenticalForAnyThreadCount) {
  // Wide (panels split), narrow-and-tall (row tiles split), prepacked, transposed, with tails; a
  // batch-1 and a 3-row product (the in-place entry's dot products).
  struct Case { size_t M, N, K; };
  for (const Case c : {Case{64, 1024, 784}, Case{257, 12, 100}, Case{5, 333, 64}, Case{130, 70, 129},
                       Case{1, 1000, 1280}, Case{3, 4096, 600}}) {
    const auto A = random_floats(c.M * c.K, 1), B = random_floats(c.K * c.N, 2), bias = random_floats(c.N, 3);
    const auto Bt = random_floats(c.N * c.K, 8);
    GemmParams p;
    p.bias = bias.data();
    p.min = 0.0f;
    std::vector<float> packed(f32_gemm_packed_b_size(c.K, c.N));
    f32_gemm_pack_b(c.K, c.N, B.data(), c.N, packed.data());
    auto run = [&](int threads) {
      Threads t(threads);
      std::vector<float> c1(c.M * c.N), c2(c.M * c.N), c3(c.M * c.N), c4(c.M * c.N);
      f32_gemm(c.M, c.N, c.K, A.data(), c.K, B.data(), c.N, c1.data(), c.N, p);
      f32_gemm_bt(c.M, c.N, c.K, A.data(), c.K, Bt.data(), c.K, c2.data(), c.N);
      f32_gemm_prepacked(c.M, c.N, c.K, A.data(), c.K, packed.data(), c3.data(), c.N, p);
      f32_gemm_bt_inplace(c.M, c.N, c.K, A.data(), c.K, Bt.data(), c.K, c4.data(), c.N, p);
      c1.insert(c1.end(), c2.begin(), c2.end());
      c1.insert(c1.end(), c3.begin(), c3.end());
      c1.insert(c1.end(), c4.begin(), c4.end());
      return c1;
    };
    const auto one = run(1);
    for (int threads : {2, 3, 4}) {
      const auto many = run(threads);
      ASSERT_EQ(0, std::memcmp(one.data(), many.data(), one.size() * sizeof(float)))
          << c.M << "x" << c.N << "x" << c.K << " with " << threads << " threads";
    }
  }
}

TEST(Parallel, ConvIsBitIdenticalForAnyThreadCount) {
  // A resnet18-sized 3×3 layer, a 7×7 stride-2 stem, one with many output channels (the large-A path), and
  // few pixel panels, where threads split the output channels instead (resnet18's 7×7 layer; an output
  // channel count that is no multiple of the micro-kernel's rows).
  struct Case { int64_t C, H, OC, K, S; };
  for (const Case c : {Case{64, 56, 64, 3, 1}, Case{3, 64, 16, 7, 2}, Case{256, 14, 2048, 1, 1},
                       Case{512, 7, 512, 3, 1}, Case{32, 5, 130, 3, 1}}) {
    kernels::ConvGeom g;
    g.C = c.C, g.H = g.W = c.H, g.KH = g.KW = c.K, g.SH = g.SW = c.S, g.PH = g.PW = c.K / 2;
    g.OH = g.OW = (c.H + 2 * (c.K / 2) - c.K) / c.S + 1;
    const size_t kc = static_cast<size_t>(c.C * c.K * c.K), pix = static_cast<size_t>(g.OH * g.OW);
    const auto x = random_floats(static_cast<size_t>(c.C * c.H * c.H), 4), w = random_floats(c.OC * kc, 5);
    const auto bias = random_floats(c.OC, 6), res = random_floats(c.OC * pix, 7), scale = random_floats(c.OC, 8);
    std::vector<float> packed(kernels::f32_conv_packed_w_size(c.OC, kc));
    kernels::f32_conv_pack_w(c.OC, kc, w.data(), bias.data(), packed.data(), scale.data());
    auto run = [&](int threads) {  // both weight layouts, one after the other in `out`
      Threads t(threads);
      std::vector<float> out(2 * c.OC * pix);
      kernels::ConvEpilogue e;
      e.residual = res.data();
      e.min = 0.0f;
      kernels::f32_conv2d_nchw(g, c.OC, x.data(), packed.data(), kernels::ConvWeightLayout::kPacked, out.data(), e);
      e.scale = scale.data();
      e.bias = bias.data();
      kernels::f32_conv2d_nchw(g, c.OC, x.data(), w.data(), kernels::ConvWeightLayout::kTorch,
                               out.data() + c.OC * pix, e);
      return out;
    };
    const auto one = run(1);
    for (int threads : {2, 3}) {
      const auto many = run(threads);
      ASSERT_EQ(0, std::memcmp(one.data(), many.data(), one.size() * sizeof(float)))
          << "C=" << c.C << " OC=" << c.OC << " K=" << c.K << " with " << threads << " threads";
    }
  }
}

// Small jobs are split only within a HotSection (a run: the workers are awake), large ones always.
TEST(Parallel, SmallJobsSplitOnlyWhereTheWorkersAreAwake) {
  const Threads two(2);
  EXPECT_TRUE(kernels::worth_parallel(2.0e6));
  EXPECT_FALSE(kernels::worth_parallel(5.0e5));
  EXPECT_FALSE(kernels::worth_parallel(1.0e5));
  {
    const kernels::HotSection hot;  // active with 2 threads on a machine with at least 2 cores
    const unsigned cores = std::thread::hardware_concurrency();
    const bool active = cores == 0 || cores >= 2;
    EXPECT_EQ(kernels::worth_parallel(5.0e5), active);
    EXPECT_FALSE(kernels::worth_parallel(1.0e5));
  }
  EXPECT_FALSE(kernels::worth_parallel(5.0e5));
  const Threads one(1);
  const kernels::HotSection inactive;  // one thread: no section, nothing small is split
  EXPECT_FALSE(kernels::worth_parallel(5.0e5));
}

}  // namespace
}  // namespace fx
