// Batched matrix products share their batch indices out over the kernel threads (attention's heads): the
// result is bit-identical to one thread's, for a decoding step's one-row products over a strided cache and
// for an encoder's square ones.
#include <gtest/gtest.h>

#include "kernels/parallel.h"
#include "ops/math/matmul.h"
#include "ops/registry.h"

namespace fx {
namespace {

Tensor filled(const Shape& shape, float seed) {
  Tensor t = Tensor::empty(shape, DType::Float32);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = static_cast<float>((i * 37 + 11) % 101) / 50.0f - seed;
  return t;
}

std::vector<float> values(const Tensor& t) {
  Tensor c = t.contiguous();
  return std::vector<float>(c.data<float>(), c.data<float>() + c.numel());
}

Tensor transposed(const Tensor& t) {  // the last two dims swapped, as a view
  Shape shape = t.shape(), strides = t.strides();
  std::swap(shape[shape.size() - 1], shape[shape.size() - 2]);
  std::swap(strides[strides.size() - 1], strides[strides.size() - 2]);
  return Tensor(t.storage(), t.dtype(), shape, strides, t.offset());
}

TEST(BatchedMatmul, TheSameOnAnyThreadCount) {
  if (kernels::max_threads() < 2) GTEST_SKIP() << "a build without threads";
  // q [1, 6, 1, 64] · kᵀ over a cache [1, 6, 512, 64] viewed out of a block with room for 700 positions;
  // p [1, 12, 128, 128] · v [1, 12, 128, 32].
  Tensor block = filled({1, 6, 700, 64}, 0.3f);
  Tensor k(block.storage(), DType::Float32, {1, 6, 512, 64}, block.strides(), 0);
  Tensor q = filled({1, 6, 1, 64}, 0.1f), p = filled({1, 12, 128, 128}, 0.2f), v = filled({1, 12, 128, 32}, 0.4f);
  std::vector<std::vector<float>> results[2];
  for (int threads : {1, 2}) {
    kernels::set_num_threads(threads);
    auto& r = results[threads - 1];
    r.push_back(values(matmul_tensor(q, transposed(k))));
    r.push_back(values(matmul_tensor(p, v)));
  }
  kernels::set_num_threads(1);
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(results[0][0].size(), 6u * 512u);
}

}  // namespace
}  // namespace fx
