#include "tensor/buffer_pool.h"

#include <gtest/gtest.h>

#include "tensor/tensor.h"

namespace fx {
namespace {

TEST(BufferPool, TensorsInAScopeTakeAndGiveBackBlocksOfTheirSize) {
  auto pool = std::make_shared<BufferPool>();
  const uint8_t* first = nullptr;
  {
    BufferPool::Scope scope(pool.get());
    Tensor a = Tensor::empty({10}, DType::Float32);  // 40 bytes: a 64-byte block
    first = static_cast<const uint8_t*>(a.raw_data());
    EXPECT_EQ(pool->stats().live_bytes, 64u);
    EXPECT_EQ(pool->stats().fresh_blocks, 1u);
  }
  EXPECT_EQ(pool->stats().live_bytes, 0u);
  EXPECT_EQ(pool->stats().reserved_bytes, 64u);
  pool->reset_peak();
  {
    BufferPool::Scope scope(pool.get());
    Tensor b = Tensor::empty({16}, DType::Float32);  // the same block size: the same block
    EXPECT_EQ(static_cast<const uint8_t*>(b.raw_data()), first);
    Tensor c = Tensor::empty({100}, DType::Float32);  // another size: a new block
    EXPECT_NE(static_cast<const uint8_t*>(c.raw_data()), first);
    EXPECT_EQ(pool->stats().fresh_blocks, 1u);
    EXPECT_EQ(pool->stats().peak_live_bytes, 64u + 448u);
  }
  EXPECT_EQ(pool->stats().reserved_bytes, 64u + 448u);
}

TEST(BufferPool, OutsideAScopeTensorsUseTheHeap) {
  auto pool = std::make_shared<BufferPool>();
  { BufferPool::Scope scope(pool.get()); }
  Tensor a = Tensor::empty({10}, DType::Float32);
  EXPECT_EQ(pool->stats().live_bytes, 0u);
  EXPECT_EQ(BufferPool::current(), nullptr);
}

TEST(BufferPool, ARetiredPoolFreesItsBlocksAndLaterOnesOnReturn) {
  auto pool = std::make_shared<BufferPool>();
  Tensor kept;
  {
    BufferPool::Scope scope(pool.get());
    kept = Tensor::empty({1000}, DType::Float32);
    Tensor dropped = Tensor::empty({10}, DType::Float32);
  }
  EXPECT_EQ(pool->stats().reserved_bytes, 4032u + 64u);
  pool->retire();
  EXPECT_EQ(pool->stats().reserved_bytes, 4032u);  // the free block went back to the heap
  std::weak_ptr<BufferPool> weak = pool;
  pool.reset();
  EXPECT_FALSE(weak.expired());  // the live tensor keeps its pool
  kept.data<float>()[999] = 1.0f;
  kept = Tensor();
  EXPECT_TRUE(weak.expired());
}

}  // namespace
}  // namespace fx
