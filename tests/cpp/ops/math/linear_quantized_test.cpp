// ops/math/linear_quantized: a one-row int8 product (a decoding step) reads the weight repacked once; the
// copy is weight memory, kept with the weight, not a block of the run's arena (tensor/buffer_pool.h).
#include "ops/math/linear_quantized.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tensor/buffer_pool.h"

namespace fx {
namespace {

TEST(LinearQuantized, OneRowPacksTheWeightOnceOutsideTheRunsArena) {
  const int64_t N = 70, K = 40;
  Tensor w = Tensor::empty({N, K}, DType::Float32);
  for (int64_t i = 0; i < N * K; ++i) w.data<float>()[i] = std::sin(0.37f * static_cast<float>(i));
  auto q = quantize_weight(w, QScheme::Int8);
  ASSERT_TRUE(q);
  std::vector<float> x(K), one(N), four(4 * N);
  for (int64_t k = 0; k < K; ++k) x[k] = std::cos(0.11f * static_cast<float>(k));
  std::vector<float> x4;
  for (int r = 0; r < 4; ++r) x4.insert(x4.end(), x.begin(), x.end());

  auto pool = std::make_shared<BufferPool>();
  {
    BufferPool::Scope run(pool.get());
    quantized_linear_gemm(*q, 1, x.data(), one.data(), {});
    const Tensor packed = q->gemv_packed;
    ASSERT_TRUE(packed.defined());
    EXPECT_EQ(pool->stats().reserved_bytes, 0u);  // nothing taken from the arena
    quantized_linear_gemm(*q, 1, x.data(), one.data(), {});
    EXPECT_EQ(q->gemv_packed.storage(), packed.storage());  // packed once
  }
  // Four rows take the rows' path: the same products, within the activations' int16 rounding.
  quantized_linear_gemm(*q, 4, x4.data(), four.data(), {});
  for (int64_t n = 0; n < N; ++n) EXPECT_NEAR(one[n], four[3 * N + n], 1e-4f) << n;
}

}  // namespace
}  // namespace fx
